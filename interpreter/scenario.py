"""Games set up at a given position (Game.scenario: a rulebook example), and reading a game's zones,
marks and counters by name."""
from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from . import runtime
from .errors import JuxError, StepBudgetExceeded
from .ruleset import RuleRuntimeError, _describe, load_ruleset
from .state import RUN, SEATS
from .views import _plain

if TYPE_CHECKING:
    from .engine import Game


class Positions:
    """Game's part that sets up a position and reads zones, marks and counters by name."""

    @classmethod
    def scenario(cls, rules, players: int, zones: dict | None = None, counters: dict | None = None,
                 run: str | None = None, args=(), seed: int = 0, names=None, marks: dict | None = None) -> "Game":
        """A game set up at a given position, running one procedure (a rulebook example).

        zones: {"table": ["red 4", ...], "hand[0]": [...], "piles[red]": [...]}: cards by
        label, taken from where the ruleset starts them (the last listed is the top).
        counters: {"pile": 5, "points": [0, 3, 0]}. run: a procedure name; args: its arguments
        (ints for seats). Without run the whole game flow starts from the position.
        marks: {"hand[0]": {"red 4": {"token": 1}}}: marks set on the first card of that
        label in that zone.
        """
        if isinstance(rules, (str, Path)):
            rules = load_ruleset(rules)
        g = cls.new(rules, players, seed, names, start=False)
        S = g.state
        lay = rules.layout
        names_of = lay.zone_names(players)
        free = {}
        for c in rules.cards:
            free.setdefault(rules.card_labels[c], []).append(c)
        for zname, labels in (zones or {}).items():
            key = zname.replace(" ", "")
            if key not in names_of:
                raise JuxError(f"no zone '{zname}' (zones: {', '.join(names_of)})")
            zi = names_of.index(key)
            for label in labels:
                pool = free.get(label)
                if not pool:
                    raise JuxError(f"no card '{label}' left to place in {zname}")
                runtime.move(S, pool.pop(0), zi)
        for zname, by_label in (marks or {}).items():
            cards = g._zone_cards(zname)
            for label, values in by_label.items():
                card = next((c for c in cards if rules.card_labels[c] == label), None)
                if card is None:
                    raise JuxError(f"marks: no card '{label}' in {zname}")
                for mark, value in values.items():
                    if mark not in rules.spec.marks:
                        raise JuxError(f"marks: no mark '{mark}' (marks: {', '.join(rules.spec.marks)})")
                    runtime.set_mark(S, card, mark, value)
        for cname, value in (counters or {}).items():
            d = lay.counter_def.get(cname)
            if isinstance(d, dict) and d.get("seat"):
                value = ([SEATS[v] for v in value] if isinstance(value, list) else
                         {k: SEATS[v] for k, v in value.items()} if isinstance(value, dict) else SEATS[value])
            if cname in lay.player_keys:  # one per player and per key: a list of {key: value}
                for p, by_key in enumerate(value):
                    for k, v in by_key.items():
                        S.v[lay.counter(cname, p, k)] = v
            elif cname in lay.player_counters:
                for p, v in enumerate(value):
                    S.v[lay.counter(cname, p)] = v
            elif cname in lay.counter_index:
                ci = lay.counter_index[cname]
                if isinstance(ci, dict):
                    for k, v in value.items():
                        S.v[ci[k]] = v
                else:
                    S.v[ci] = value
            else:
                raise JuxError(f"no counter '{cname}'")
        args = [SEATS[a] if isinstance(a, int) and not isinstance(a, bool) else a for a in args]
        if run is not None:
            proc = rules._c["procedures"].get(run)
            if proc is None:
                raise JuxError(f"no procedure '{run}'")
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
                    raise RuleRuntimeError(f"{pos}: {_describe(e)}" if pos else _describe(e)) from None
        g._run()
        return g

    def zone(self, name: str) -> list:
        """Labels of the cards in a zone by its display name ('table', 'hand[0]', 'piles[red]')."""
        return [self.rules.card_labels[c] for c in self._zone_cards(name)]

    def marks(self, name: str) -> list:
        """(label, marks) of each card in a zone, for cards that carry marks."""
        return [(self.rules.card_labels[c], dict(self.state.m[c])) for c in self._zone_cards(name)
                if c in self.state.m]

    def _zone_cards(self, name: str) -> list:
        names_of = self.rules.layout.zone_names(self.state.n)
        key = name.replace(" ", "")
        if key not in names_of:
            raise JuxError(f"no zone '{name}' (zones: {', '.join(names_of)})")
        return self.state.z[names_of.index(key)]

    def counter(self, name: str, key=None):
        lay = self.rules.layout
        if name in lay.player_counters:
            vals = [self._player_counter(name, p) for p in range(self.state.n)]
            return vals if key is None else vals[key]
        ci = lay.counter_index[name]
        if isinstance(ci, dict):
            return {k: _plain(self.state.v[i]) for k, i in ci.items()} if key is None else _plain(self.state.v[ci[key]])
        return _plain(self.state.v[ci])

    def _player_counter(self, name: str, p: int):
        """Seat p's value of a per-player counter: {key: value} for one per player and per key."""
        lay, V = self.rules.layout, self.state.v
        if name in lay.player_keys:
            return {k: _plain(V[lay.counter(name, p, k)]) for k in lay.player_keys[name]}
        return _plain(V[lay.counter(name, p)])
