"""Games set up at a given position (Game.scenario: a rulebook example), and reading a game's zones,
marks and counters by name."""
from __future__ import annotations

from pathlib import Path

from ..errors import JuxError, StepBudgetExceeded, did_you_mean
from ..runtime import families, moves
from ..runtime.played import PLAYED
from ..runtime.state import RUN, SEATS, Card, Seat
from .ruleset import RuleRuntimeError, _describe, load_ruleset


class SetupError(JuxError):
    """A position that cannot be set up; `where` is the path of the entry at fault in the
    arguments of Game.scenario (("zones", "hand[0]", 2), ("counters", "coins"), ("run",))."""

    def __init__(self, message: str, where: tuple = ()):
        super().__init__(message)
        self.where = where
        self.errors = [self]  # every problem of the position (Game.scenario finds them all), this one first


def _seat(v, n: int, where: tuple):
    if v is None:
        return None
    if type(v) is not int or not 0 <= v < n:
        raise SetupError(f"a seat is a number from 0 to {n - 1}, not {v!r}", where)
    return SEATS[v]


def _counter_value(lay, cname: str, value, n: int):
    """The value of counter cname checked for its shape: a list by seat for one per player (of
    mappings by key for one per player and per key), a mapping by key for one per item of a list,
    seats as numbers for a seat counter. Raises SetupError."""
    where = ("counters", cname)
    d = lay.counter_def.get(cname)
    seat = isinstance(d, dict) and d.get("seat")

    def leaf(v):
        if isinstance(v, (list, dict)):
            raise SetupError(f"counter '{cname}': one value expected here, not a {type(v).__name__}", where)
        return _seat(v, n, where) if seat else v

    def keyed(v, keys):
        if not isinstance(v, dict):
            raise SetupError(f"counter '{cname}' has one value per item ({', '.join(map(str, keys))}): "
                             "give a mapping item: value", where)
        for k in v:
            if k not in keys:
                raise SetupError(f"counter '{cname}' has no item '{k}'{did_you_mean(str(k), map(str, keys))}; "
                                 f"its items: {', '.join(map(str, keys))}", where)
        return {k: leaf(x) for k, x in v.items()}

    if cname in lay.player_counters:
        if not isinstance(value, list) or len(value) != n:
            raise SetupError(f"counter '{cname}' has one value per player: give a list of {n}", where)
        if cname in lay.player_keys:
            return [keyed(v, list(lay.player_keys[cname])) for v in value]
        return [leaf(v) for v in value]
    if cname in lay.counter_index:
        ci = lay.counter_index[cname]
        return keyed(value, list(ci)) if isinstance(ci, dict) else leaf(value)
    known = list(lay.counter_index) + list(lay.player_counters)
    raise SetupError(f"no counter '{cname}'{did_you_mean(cname, known)}", where)


def _cards_by_label(v, by_label: dict):
    """A counter's value from a scenario with each text that is a card's label as that card (the
    first of that label): a counter that starts at none may hold a card."""
    if isinstance(v, str) and v in by_label:
        return by_label[v]
    if isinstance(v, list):
        return [_cards_by_label(x, by_label) for x in v]
    if isinstance(v, dict):
        return {k: _cards_by_label(x, by_label) for k, x in v.items()}
    return v


def _plain(v):
    """_kept's value with each card as its id (a number), as game.counter gives it."""
    if type(v) is Card:
        return int(v)
    if isinstance(v, list):
        return [_plain(x) for x in v]
    if isinstance(v, tuple):
        return tuple(_plain(x) for x in v)
    if isinstance(v, dict):
        return {k: _plain(x) for k, x in v.items()}
    return v


def _kept(v):
    """A counter's value as plain data, but a card kept a card (for _labelled)."""
    return int(v) if type(v) is Seat else v


def _labelled(v, labels):
    """v with each card in it as its label: game.counter's values."""
    if type(v) is Card:
        return labels[v]
    if isinstance(v, (list, tuple)) and any(type(x) is Card for x in v):
        return [_labelled(x, labels) for x in v]
    if isinstance(v, list):
        return [_labelled(x, labels) for x in v]
    if isinstance(v, dict):
        return {k: _labelled(x, labels) for k, x in v.items()}
    return v


class Positions:
    """Game's part that sets up a position and reads zones, marks and counters by name."""

    @classmethod
    def scenario(cls, rules, players: int, zones: dict | None = None, counters: dict | None = None,
                 run: str | None = None, args=(), seed: int = 0, names=None, marks: dict | None = None,
                 rest: str = "stay"):
        """A game set up at a given position, running one procedure (a rulebook example).

        zones: {"table": ["red 4", ...], "hand[0]": [...], "piles[red]": [...]}: cards by
        label, taken from where the ruleset starts them (the last listed is the top).
        rest: what becomes of the cards not listed: "stay" where the ruleset starts them (under
        any listed for that zone), or "out" of the game (in no zone: no view shows them and no
        rule reaches them), so a position needs no spare zone to park them.
        counters: {"pile": 5, "points": [0, 3, 0]}. run: a procedure name; args: its arguments
        (ints for seats). Without run the whole game flow starts from the position.
        marks: {"hand[0]": {"red 4": {"token": 1}}}: marks set on the first card of that
        label in that zone. A position that cannot be set up (a zone, card, counter, mark or
        procedure the rules do not have, a value of the wrong shape) raises SetupError, whose
        `where` names the entry at fault, after every entry was read: its `errors` are all the
        problems found, it first (scenario files: interpreter/authoring/scenario_run.py).
        """
        if isinstance(rules, (str, Path)):
            rules = load_ruleset(rules)
        g = cls.new(rules, players, seed, names, start=False)
        S = g.state
        lay = rules.layout
        names_of = lay.zone_names(players)
        free, labels = {}, set()
        for c in rules.cards:
            free.setdefault(rules.card_labels[c], []).append(c)
            labels.add(rules.card_labels[c])
        problems: list = []  # every SetupError of the position: reported at once, after the last
        for zname, zlabels in (zones or {}).items():
            try:
                zi = _zone_index(names_of, zname, ("zones", zname))
            except SetupError as e:
                problems.append(e)
                continue
            fam, key, _ = lay.zone_of(zi)
            if fam in lay.families:  # a zone of a family made during play: made by the position
                families.place(S, lay.families[fam][2], key)
            for i, label in enumerate(zlabels):
                pool = free.get(label)
                if not pool:
                    if label not in labels:
                        problems.append(SetupError(f"no card '{label}' in this ruleset"
                                                   f"{did_you_mean(str(label), labels)}", ("zones", zname, i)))
                    else:
                        problems.append(SetupError(
                            f"no card '{label}' left to place in {zname}: the ruleset has "
                            f"{sum(1 for c in rules.cards if rules.card_labels[c] == label)}", ("zones", zname, i)))
                    continue
                moves.place(S, pool.pop(0), zi)
        if rest not in ("stay", "out"):
            problems.append(SetupError(f"rest: 'stay' or 'out', not {rest!r}", ("rest",)))
        if rest == "out":
            _out_of_game(S, [c for pool in free.values() for c in pool])
        for zname, by_label in (marks or {}).items():
            try:
                cards = S.z[_zone_index(names_of, zname, ("marks", zname))]
            except SetupError as e:
                problems.append(e)
                continue
            for label, values in by_label.items():
                card = next((c for c in cards if rules.card_labels[c] == label), None)
                if card is None:
                    problems.append(SetupError(f"marks: no card '{label}' in {zname}", ("marks", zname, label)))
                    continue
                for mark, value in values.items():
                    if mark not in rules.spec.marks:
                        problems.append(SetupError(f"marks: no mark '{mark}'{did_you_mean(str(mark), rules.spec.marks)} "
                                                   f"(marks: {', '.join(rules.spec.marks)})",
                                                   ("marks", zname, label, mark)))
                        continue
                    moves.set_mark(S, card, mark, value)
        by_label = {}
        for c, label in enumerate(rules.card_labels):
            by_label.setdefault(label, rules.cards[c])
        for cname, value in (counters or {}).items():
            try:
                value = _counter_value(lay, cname, value, players)
            except SetupError as e:
                problems.append(e)
                continue
            d = lay.counter_def.get(cname)
            if isinstance(d, dict) and d.get("start", 0) is None:  # (a counter that may hold a card: by label)
                value = _cards_by_label(value, by_label)
            if cname in lay.player_keys:  # one per player and per key: a list of {key: value}
                for p, by_key in enumerate(value):
                    for k, v in by_key.items():
                        S.v[lay.counter(cname, p, k)] = v
            elif cname in lay.player_counters:
                for p, v in enumerate(value):
                    S.v[lay.counter(cname, p)] = v
            else:
                ci = lay.counter_index[cname]
                if isinstance(ci, dict):
                    for k, v in value.items():
                        S.v[ci[k]] = v
                else:
                    S.v[ci] = value
        seats = []
        for i, a in enumerate(args):
            try:
                seats.append(_seat(a, players, ("args", i)) if type(a) is int else a)
            except SetupError as e:
                problems.append(e)
        args = seats
        if run is not None:
            if rules._c["procedures"].get(run) is None:
                problems.append(SetupError(f"no procedure '{run}'{did_you_mean(run, rules.spec.procedures)}",
                                           ("run",)))
            elif len(args) != len(rules.spec.procedures[run].params):
                want = len(rules.spec.procedures[run].params)
                problems.append(SetupError(f"the procedure '{run}' takes {want} argument{'s' if want != 1 else ''} "
                                           f"({', '.join(rules.spec.procedures[run].params)}), not {len(args)}",
                                           ("args",)))
        if problems:
            problems[0].errors = problems
            raise problems[0]
        if run is not None:
            proc = rules._c["procedures"][run]
            if isinstance(proc, tuple):
                rid, extra = proc
                S.threads = [[[[rid, 0, list(args) + [None] * extra]], RUN, None, None, -1, 0, 0]]
            else:
                S.threads = []
                try:
                    proc(S, *args)
                except StepBudgetExceeded:
                    raise
                except Exception as e:
                    pos = rules.where(e)
                    said = _describe(e, rules.spec, pos)
                    raise RuleRuntimeError(f"{pos}: {said}" if pos else said) from None
        g._run()
        return g

    def zone(self, name: str) -> list:
        """Labels of the cards in a zone by its display name ('table', 'hand[0]', 'piles[red]')."""
        return [self.rules.card_labels[c] for c in self._zone_cards(name)]

    def marks(self, name: str) -> list:
        """(label, marks) of each card in a zone, for cards that carry marks."""
        M = self.state.m
        return [(self.rules.card_labels[c], {k: v for k, v in M[c].items() if k != PLAYED})
                for c in self._zone_cards(name) if any(k != PLAYED for k in M.get(c, ()))]

    def _zone_cards(self, name: str) -> list:
        return self.state.z[_zone_index(self.rules.layout.zone_names(self.state.n), name, ())]

    def made(self, family: str) -> list:
        """The keys of the zones of a family made during play that are made now, in the order
        they were made."""
        return list(self.state.v[self.rules.layout.families[family][2]])

    def counter(self, name: str, key=None, labels: bool = False):
        """A counter's value by name (per player: a list by seat; per item: a mapping); a card it
        holds is its id, or with labels its label, as a scenario names it."""
        v = self._counter_raw(name, key)
        return _labelled(v, self.rules.card_labels) if labels else _plain(v)

    def _counter_raw(self, name: str, key=None):
        lay = self.rules.layout
        if name in lay.player_counters:
            vals = [self._player_counter(name, p) for p in range(self.state.n)]
            return vals if key is None else vals[key]
        ci = lay.counter_index[name]
        if isinstance(ci, dict):
            return {k: _kept(self.state.v[i]) for k, i in ci.items()} if key is None else _kept(self.state.v[ci[key]])
        return _kept(self.state.v[ci])

    def _player_counter(self, name: str, p: int):
        """Seat p's value of a per-player counter: {key: value} for one per player and per key."""
        lay, V = self.rules.layout, self.state.v
        if name in lay.player_keys:
            return {k: _kept(V[lay.counter(name, p, k)]) for k in lay.player_keys[name]}
        return _kept(V[lay.counter(name, p)])


def _out_of_game(S, cards: list) -> None:
    """Take cards out of the game: in no zone, known to nobody (as the cards of a kind that starts
    nowhere)."""
    gone = set(cards)
    for zi in {S.loc[c] for c in cards}:
        S.z[zi][:] = [c for c in S.z[zi] if c not in gone]
    for c in cards:
        S.loc[c] = 0
        S.k[c] = 0


def _zone_index(names_of: list, name, where: tuple) -> int:
    """The index of a zone by its display name ('hand[0]', 'piles[red]'; spaces ignored)."""
    key = str(name).replace(" ", "")
    if key not in names_of:
        raise SetupError(f"no zone '{name}'" + (did_you_mean(key, names_of) or f" (zones: {', '.join(names_of)})"), where)
    return names_of.index(key)
