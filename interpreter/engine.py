"""The public API: load_ruleset, Game (new, pending, apply, view, scores, record, save, load)."""
from __future__ import annotations

import sys
from dataclasses import dataclass
from itertools import product
from pathlib import Path

from . import runtime
from .check import check
from .compile import compile_ruleset, counter_start
from .errors import IllegalAnswer, JuxError, Pos, RecordError, StepBudgetExceeded
from .files import save_json  # noqa: F401  (part of the engine's API)
from .loader import load_spec, rule_files, ruleset_path
from .paths import default_ruleset
from .records import RECORD_FORMAT  # (records and saves are read in records.py)
from .variants import VARIANTS_DIR
from .runtime import RET, WAIT, Known
from .state import DECIDE, RUN, SEATS, Card, Seat, State, ZoneTable


class RuleRuntimeError(JuxError):
    """Rule code failed while running (e.g. the top of an empty zone used as a card)."""


# ------------------------------------------------------------------ rulesets


class Ruleset:
    """A loaded, checked and compiled ruleset: everything a Game needs, shared by all its games."""

    def __init__(self, spec, coverage: bool = False):
        self.spec = spec
        self.name = spec.name
        self.title = spec.game.get("title", spec.name)
        self.digest = spec.digest
        self.variants = spec.variants
        suspends = check(spec)
        c = compile_ruleset(spec, suspends, coverage)
        self._c = c
        self.coverage = c["coverage"]  # with coverage: the run counts (coverage.Counts), else None
        self.layout = c["layout"]
        self.cards = c["cards"]
        self.card_attrs = c["card_attrs"]
        self.card_labels = c["card_labels"]
        self.routines = c["routines"]
        # the rules' functions the engine, views and bots call: an error in one names its rule
        self.label_fns = [self._located(f) for f in c["labels"]]
        self.prompt_fns = [self._located(f) for f in c["prompts"]]
        self.unavailable_fns = [self._located(f) for f in c["unavailables"]]
        self.score_fn = self._located(c["score"])
        self.tiebreak_fn = self._located(c["tiebreak"])
        self.value_fn = self._located(c["functions"].get("value") or c["score"])
        self.worth_fn = self._located(c["functions"].get("worth"))  # what a card counts for, if not its value
        players = spec.game.get("players", {})
        self.min_players = int(players.get("min", 1))
        self.max_players = int(players.get("max", 1))
        self._vis = {}
        self._initial = {}

    @property
    def source(self) -> str:
        """The generated Python (for the curious and for debugging)."""
        return self._c["source"]

    def visibility(self, n: int) -> list:
        """Bit mask of the seats that see each zone's cards, for n players."""
        if n not in self._vis:
            lay = self.layout
            everyone = (1 << n) - 1
            masks = []
            for name, key in lay.fixed_zones:
                masks.append(everyone if lay.zone_def[name]["visible"] == "all" else 0)
            for p in range(n):
                for name in lay.player_zones:
                    v = lay.zone_def[name]["visible"]
                    masks.append(everyone if v == "all" else (1 << p) if v == "owner" else 0)
            table = ZoneTable(masks)
            kept = {m: set(d["kept_in"]) for m, d in self.spec.marks.items() if (d or {}).get("kept_in")}
            table.drop = [tuple(m for m, zones in kept.items() if name not in zones)
                          for name in lay.zone_names_plain(n)]
            self._vis[n] = table
        return self._vis[n]

    def initial_state(self, n: int) -> State:
        """The state before the flow runs: every card where its kind starts, counters at start."""
        if n not in self._initial:
            lay = self.layout
            vis = self.visibility(n)
            S = State.__new__(State)
            S.n = n
            S.vis = vis
            S.z = [[] for _ in range(lay.zone_count(n))]
            S.loc = [0] * len(self.cards)
            S.k = [0] * len(self.cards)
            for kind, zi in _start_zones(self):
                for c in self.cards:
                    if self.card_attrs[c]["kind"] == kind:
                        S.z[zi].append(c)
                        S.loc[c] = zi
                        S.k[c] = vis[zi]
            S.v = [counter_start(lay.counter_def[name]) for name, key in lay.fixed_counters]
            for p in range(n):
                S.v.extend(counter_start(lay.counter_def[name]) for name, key in lay.counter_slots())
            S.m = {}
            S.rng = 0
            S.threads = []
            S.next_tid = 1
            S.steps = 0
            S.log = S.lv = None
            S.auto = S.direct = S.direct_one = S.direct_pairs = S.direct_many = S.alone = None
            self._initial[n] = S
        return self._initial[n]

    def procedure_texts(self) -> dict:
        return {n: r.text for n, r in self.spec.procedures.items() if r.text}

    def _located(self, fn):
        """fn (compiled rule code called from outside the rules' run) with its errors turned into
        RuleRuntimeError at their rule's file:line:col."""
        if fn is None or not callable(fn):
            return fn

        def call(*args):
            try:
                return fn(*args)
            except JuxError:
                raise
            except RecursionError as e:
                pos = self.where(e)
                raise RuleRuntimeError(f"{pos}: the rules call themselves without end" if pos else str(e)) from None
            except Exception as e:
                pos = self.where(e)
                raise RuleRuntimeError(f"{pos}: {_describe(e)}" if pos else _describe(e)) from None
        return call

    def where(self, exc: BaseException) -> Pos | None:
        """The rule position of the innermost generated-code frame of a traceback."""
        tb = exc.__traceback__
        pos = None
        fn = self._c["filename"]
        while tb is not None:
            if tb.tb_frame.f_code.co_filename == fn:
                line = tb.tb_lineno - 1
                lp = self._c["line_pos"]
                if 0 <= line < len(lp) and lp[line] is not None:
                    pos = lp[line]
            tb = tb.tb_next
        return pos


_CACHE: dict = {}


def load_ruleset(name_or_path=None, variants=(), coverage: bool = False) -> Ruleset:
    """Load, check and compile a ruleset by name (a folder under rules/) or path, with variants
    (names of files under variants/<game>/, or paths; e.g. power tiles). Raises RuleErrors, or
    VariantError for a wrong choice of variants.

    Without a name, the default ruleset (named in rules/default) is loaded.

    Compiled rulesets are kept for the process, keyed by path, variants and the files' contents.
    With coverage the ruleset is compiled apart, counting what runs (rules.coverage, coverage.py).
    """
    path = ruleset_path(default_ruleset() if name_or_path is None else name_or_path)
    if isinstance(variants, str):
        variants = variants.split(",")
    variants = tuple(v.strip() for v in variants if v and v.strip())
    key = (str(path.resolve()), variants, _files_key(path), _files_key(VARIANTS_DIR) if variants else (),
           bool(coverage))
    if key not in _CACHE:
        _CACHE[key] = Ruleset(load_spec(path, variants), coverage)
    return _CACHE[key]


def _files_key(path: Path) -> tuple:
    out = []
    for f in rule_files(path):
        st = f.stat()
        out.append((str(f), st.st_mtime_ns, st.st_size))
    return tuple(out)


# ------------------------------------------------------------------ decisions


@dataclass(frozen=True)
class Option:
    id: int
    label: str
    value: object


def _option_numbers(choice: list, n: int) -> bool:
    """Whether every item of choice is an option number from 0 to n - 1, and none twice."""
    for i in choice:
        if type(i) is not int or not 0 <= i < n:
            return False
    return len(set(choice)) == len(choice)


def _blamed(e: IllegalAnswer, T, choice) -> IllegalAnswer:
    """e, saying who gave which answer (e.player, e.answer)."""
    e.player, e.answer = T[2][0], choice
    return e


class Answering(Exception):
    """An error of autoplay's answer function, carried out through the rules' code unchanged."""


class Decision:
    """A choice a player must make: who, a prompt, the legal options, how many to pick.

    values are the options' raw values; prompt and options (with readable labels, rendered for
    the deciding player) are worked out only when asked for.
    """

    __slots__ = ("_game", "_t", "_d", "id", "player", "values", "min", "max", "many", "keys", "_prompt", "_options")

    def __init__(self, game: "Game", thread: list):
        self._game = game
        self._t = thread
        self._d = d = thread[2]
        self.id = thread[6]
        self.player = d[0]
        self.values = d[1]
        self.min = d[2]
        self.max = d[3]
        self.many = d[4]
        # a `distinct` choose: each option's group (0, 1, ...: options alike share one); no two options
        # of one group may be picked
        self.keys = d[8] if len(d) > 8 else None
        self._prompt = self._options = None

    @property
    def optional(self) -> bool:
        return self.min == 0

    def answer(self, choice) -> None:
        """Answer this decision (as game.apply would); refused if it is no longer pending."""
        if self._t[2] is not self._d:
            raise IllegalAnswer("this decision has already been answered")
        self._game._answer(self._t, choice)

    @property
    def prompt(self) -> str:
        if self._prompt is None:
            d = self._t[2]
            g = self._game
            self._prompt = "Choose" if d[6] < 0 else g._render(
                g.rules.prompt_fns[d[6]](g.state, self._t[0][-1][2]), self.player)
        return self._prompt

    @property
    def options(self) -> list:
        if self._options is None:
            g = self._game
            d = self._t[2]
            L = self._t[0][-1][2]
            out = []
            for i, v in enumerate(self.values):
                if d[5] >= 0:
                    label = g._render(g.rules.label_fns[d[5]](g.state, L, v), self.player)
                else:
                    label = g._render_value(v, self.player)
                out.append(Option(i, label, v))
            self._options = out
        return self._options

    @property
    def unavailable(self) -> list:
        """What cannot be chosen now, and why, as the rules say (a choose's `unavailable` clause):
        [{"option": text, "reason": text}], rendered for the deciding player; [] when not given."""
        d = self._t[2]
        if len(d) < 8 or d[7] < 0:
            return []
        g = self._game
        items = g.rules.unavailable_fns[d[7]](g.state, self._t[0][-1][2])
        out = []
        for item in items or ():
            thing, reason = item if type(item) in (tuple, list) and len(item) == 2 else (item, "")
            out.append({"option": g._render_value(thing, self.player), "reason": g._render_value(reason, self.player)})
        return out

    def __repr__(self):
        return f"Decision(player={self.player}, prompt={self.prompt!r}, options={[o.label for o in self.options]})"


# ------------------------------------------------------------------ games


class Game:
    """One game of a ruleset. Create with Game.new, answer game.pending with game.apply."""

    first_player = None  # who answered the game's first decision outside `simultaneously` (set then)

    def __init__(self, rules: Ruleset, state: State, seed: int, names: list):
        self.rules = rules
        self.state = state
        self.seed = seed
        self.names = names
        self.answers: list = []

    # ---------------------------------------------------------- creation

    @classmethod
    def new(cls, rules, players: int = 4, seed: int = 0, names=None, log: bool = True,
            start: bool = True) -> "Game":
        if isinstance(rules, (str, Path)):
            rules = load_ruleset(rules)
        if not rules.min_players <= players <= rules.max_players:
            raise JuxError(f"{rules.name} is for {rules.min_players} to {rules.max_players} players, not {players}")
        names = list(names) if names else [f"Player {i + 1}" for i in range(players)]
        if len(names) != players:
            raise JuxError(f"{len(names)} names given for {players} players")
        S = rules.initial_state(players).copy()
        S.m = {}
        S.rng = runtime.seed_rng(seed)
        S.threads = [[[[rules._c["flow"], 0, [None] * rules._c["flow_locals"]]], RUN, None, None, -1, 0, 0]]
        S.next_tid = 1
        S.steps = 0
        S.log = [] if log else None
        S.lv = {} if log else None
        g = cls(rules, S, int(seed), names)
        if start:
            g._run()
        return g

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

    # ---------------------------------------------------------- running

    def _run(self, T=None):
        """Run thread T (or the first runnable one) until every thread waits or the game ends."""
        S = self.state
        routines = self.rules.routines
        try:
            while True:
                if T is None:
                    for t in S.threads:
                        if t[1] == RUN:
                            T = t
                            break
                    else:
                        return
                stack = T[0]
                while stack:
                    fr = stack[-1]
                    r = routines[fr[0]](S, T, fr)
                    if r is WAIT:
                        break
                    if r is RET:
                        stack.pop()
                if not stack:
                    S.threads.remove(T)
                    parent = T[4]
                    for t in S.threads:
                        if t[6] == parent:
                            t[5] -= 1
                            if t[5] == 0:
                                t[1] = RUN
                            break
                elif T[1] == RUN:
                    continue
                T = None
        except (StepBudgetExceeded, IllegalAnswer, Answering):
            raise
        except RecursionError as e:
            pos = self.rules.where(e)
            raise RuleRuntimeError(f"{pos}: the rules call themselves without end" if pos else str(e)) from None
        except Exception as e:  # an error in rule code: report where in the rules
            pos = self.rules.where(e)
            msg = _describe(e)
            raise RuleRuntimeError(f"{pos}: {msg}" if pos else msg) from None

    @property
    def over(self) -> bool:
        return not self.state.threads

    @property
    def pending(self) -> list:
        """The decisions waiting for an answer, in seat order of creation."""
        return [Decision(self, t) for t in self.state.threads if t[1] == DECIDE]

    def next_decision(self):
        """The first pending decision (cheaper than pending when only one is needed), or None."""
        for t in self.state.threads:
            if t[1] == DECIDE:
                return Decision(self, t)
        return None

    def autoplay(self, answer=None, limit: int | None = None, direct: bool = False, pick=None) -> int:
        """Answer each decision with answer(decision) (an answer as apply takes) until the game
        is over, no decision is pending, or `limit` answers have been given; return how many
        were given. An illegal answer raises IllegalAnswer with the game at that decision (its
        player and answer in e.player and e.answer).

        A game made with Game.new(..., start=False) starts here. A decision outside
        `simultaneously` is answered where the rules stop, and they go on
        from there without unwinding to a driver: the same game as answering game.pending one
        by one, in less time. answer may read the game (view, copy) while it is called.

        pick, instead of answer: a function pick(n, lo, hi, many), or a list of one per seat,
        that answers from the decision's shape alone (n options; when many, a list of lo to hi
        option numbers, else one number, or none when lo is 0), asked without making a Decision.

        direct=True is faster still: the procedures that may stop, but start no `simultaneously`,
        run as plain functions on the main thread, so the game's state does not say where they
        are until they return; with pick too, the threads of a `simultaneously` that are
        independent (independence.py) run one after another, each answered where it asks.
        answer may then view the game but not copy or save it (JuxError); limit is a most:
        needing more answers raises JuxError. If answer raises, answers wrongly or the limit is
        met, the game is left unusable.
        """
        if (answer is None) == (pick is None):
            raise TypeError("autoplay takes answer or pick")
        self._usable()
        answers = self.answers
        start = len(answers)
        most = sys.maxsize if limit is None else start + limit  # len(answers) when the limit is met
        S = self.state
        take = self._take
        if callable(pick):
            pick = [pick] * S.n

        def at_once(T, L=None, waited=False) -> bool:
            """Answer thread T's decision now (False: not now); L: the locals of a routine run as
            a plain function (direct), for the decision's prompt and labels; waited: T is a thread
            of a `simultaneously` whose other threads have run (runtime.join)."""
            if T[4] >= 0 and not waited:
                return False  # in `simultaneously`: answered after the other threads have run
            if len(answers) >= most:
                if direct:  # (out through the rules' code as it is)
                    raise Answering(JuxError(f"still not over after {limit} answers"))
                return False
            try:
                if pick is not None:
                    d = T[2]
                    choice = (pick[d[0]](len(d[1]), d[2], d[3], d[4]) if len(d) < 9 else
                              pick[d[0]](len(d[1]), d[2], d[3], d[4], d[8]))
                elif L is None:
                    choice = answer(Decision(self, T))
                else:  # the locals as the top frame while the decision is asked
                    T[0].append([-1, 0, L])
                    choice = answer(Decision(self, T))
                    T[0].pop()
            except Exception as e:  # through the rules' code as it is, not as an error in a rule
                raise Answering(e) from None
            take(T, choice)
            return True

        def one(T, player, options, label_id, prompt_id, L=None):
            """direct: a choose of one option (runtime.decide_one) answered at once; its answer.
            With pick, an answer in range is taken without making the decision."""
            if type(options) is not list:
                options = list(options)
            if pick is not None and options and 0 <= player < S.n and len(answers) < most:
                choice = asked(T, player, len(options))
                if choice is not None:
                    T[3] = x = options[choice]
                    return x
                runtime.decide_one(S, T, player, options, label_id, prompt_id)
                take(T, picked)  # any other answer as _take takes it, or refuses it
            elif runtime.decide_one(S, T, player, options, label_id, prompt_id):
                at_once(T, L)
            return T[3]

        def pairs(T, player, xs, ys, label_id, prompt_id, L=None):
            """direct: a choose of one of the pairs [(x, y) for x in xs for y in ys], as one; with
            pick, an answer in range is taken without making the pairs."""
            if pick is not None and 0 <= player < S.n and len(answers) < most:
                if type(xs) is not list:
                    xs = list(xs)
                if type(ys) is not tuple and type(ys) is not list:
                    ys = tuple(ys)
                m = len(ys)
                n = len(xs) * m
                if n:
                    choice = asked(T, player, n)
                    if choice is not None:
                        T[3] = x = (xs[choice // m], ys[choice % m])
                        return x
                    runtime.decide_one(S, T, player, list(product(xs, ys)), label_id, prompt_id)
                    take(T, picked)
                    return T[3]
            return one(T, player, list(product(xs, ys)), label_id, prompt_id, L)

        def many(T, player, options, count, upto, optional, label_id, prompt_id, unavailable_id=-1, key=None):
            """direct with pick, in a thread run alone (independence.py): a choose of any kind
            answered at once; its answer. A list of option numbers in range is taken without
            making the decision."""
            if type(options) is not list:
                options = list(options)
            n = len(options)
            if n and key is None and 0 <= player < S.n and len(answers) < most:
                lo, hi, several = runtime.bounds(n, count, upto, optional)
                if hi and several:
                    try:
                        choice = pick[player](n, lo, hi, True)
                    except Exception as e:  # through the rules' code as it is, not as an error in a rule
                        raise Answering(e) from None
                    if type(choice) is list and lo <= len(choice) <= hi and _option_numbers(choice, n):
                        answers.append([+player if type(player) is Seat else int(player), choice[:]])
                        S.steps = 0
                        T[3] = x = list(map(options.__getitem__, choice))
                        return x
                    runtime.decide(S, T, None, player, options, count, upto, optional, label_id, prompt_id,
                                   unavailable_id)
                    take(T, choice)  # any other answer as _take takes it, or refuses it
                    return T[3]
            if runtime.decide(S, T, None, player, options, count, upto, optional, label_id, prompt_id,
                              unavailable_id, key):
                at_once(T, None, True)
            return T[3]

        picked = None  # the last answer asked of pick

        def asked(T, player, n):
            """pick's answer to a choose of one of n options by player in thread T, taken as _take
            takes it when it is an option number; else None (the answer is in `picked`)."""
            nonlocal picked
            try:
                choice = pick[player](n, 1, 1, False)
            except Exception as e:  # through the rules' code as it is, not as an error in a rule
                raise Answering(e) from None
            if type(choice) is int and 0 <= choice < n:  # as _take, its first case
                seat = +player if type(player) is Seat else int(player)  # (+: a Seat's int, without a call)
                if self.first_player is None and T[4] < 0:
                    self.first_player = seat
                answers.append([seat, choice])
                S.steps = 0
                return choice
            picked = choice
            return None

        S.auto = at_once
        S.direct = at_once if direct else None
        S.direct_one = one if direct else None
        S.direct_pairs = pairs if direct else None
        S.alone = direct and pick is not None  # nothing sees the game between answers
        S.direct_many = many if S.alone else None
        try:
            self._run()  # a game made with start=False starts here, its first decisions answered at once
            while True:
                for T in S.threads:
                    if T[1] == DECIDE:
                        break
                else:
                    break
                if not at_once(T, None, True):
                    break  # the limit is met
                self._run(T)
        except Answering as e:
            self._broken = direct
            raise e.args[0] from None
        except BaseException:
            self._broken = direct
            raise
        finally:
            S.auto = S.direct = S.direct_one = S.direct_pairs = S.direct_many = S.alone = None
        return len(answers) - start

    _broken = False  # a direct autoplay stopped by an error, inside a routine run as a plain function

    def _usable(self, doing: str = "play on") -> None:
        if self._broken:
            raise JuxError(f"cannot {doing}: an error stopped autoplay(direct=True) in the middle of the rules")
        if self.state.direct:
            raise JuxError(f"cannot {doing} while autoplay(direct=True) runs the rules as plain functions")

    def pending_for(self, player: int) -> list:
        return [d for d in self.pending if d.player == player]

    def apply(self, choice, player: int | None = None, decision: int | None = None) -> None:
        """Answer a pending decision with an option index, a list of indices, or an option label.

        With several decisions pending (a simultaneous draft) say whose with player= (or decision=
        its id). An illegal answer raises IllegalAnswer and changes nothing.
        """
        S = self.state
        waiting = []
        for t in S.threads:
            if t[1] == DECIDE and (decision is None or t[6] == decision) and (player is None or t[2][0] == player):
                waiting.append(t)
                if decision is not None:
                    break
        if not waiting:
            if self.over:
                raise IllegalAnswer("the game is over: there is no decision to answer")
            if decision is not None:
                raise IllegalAnswer(f"no decision {decision} is waiting" +
                                    (f" for player {player}" if player is not None else ""))
            if player is not None:
                raise IllegalAnswer(f"no decision is waiting for player {player}")
            raise IllegalAnswer("no decision is waiting")
        if len(waiting) > 1 and player is None:
            seats = ", ".join(str(t[2][0]) for t in waiting)
            raise IllegalAnswer(f"several players are deciding ({seats}): say which with player=")
        self._usable()
        self._answer(waiting[0], choice)

    def _answer(self, T, choice) -> None:
        self._take(T, choice)
        self._run(T)

    def _take(self, T, choice) -> None:
        """Check and record the answer to thread T's decision; T runs on when next run."""
        d = T[2]
        if self.first_player is None and T[4] < 0:
            self.first_player = d[0]  # the first turn: a decision not in a `simultaneously` block
        values = d[1]
        if type(choice) is int and not d[4] and 0 <= choice < len(values) and d[2] <= 1:
            T[3] = values[choice]  # the common case: one option by its number
            self.answers.append([d[0], choice])
        elif (type(choice) is list and d[4] and d[2] <= len(choice) <= d[3] and _option_numbers(choice, len(values))
              and (len(d) < 9 or runtime.alike(d[8], choice) is None)):
            T[3] = list(map(values.__getitem__, choice))  # several options by number
            self.answers.append([d[0], list(choice)])
        else:
            try:
                idx = self._normalize(T, choice)
            except IllegalAnswer as e:
                raise _blamed(e, T, choice)
            T[3] = [values[i] for i in idx] if d[4] else (values[idx[0]] if idx else None)
            self.answers.append([d[0], idx if d[4] else (idx[0] if idx else None)])
        T[1] = RUN
        T[2] = None
        self.state.steps = 0

    def _normalize(self, T, choice) -> list:
        d = T[2]
        values, lo, hi, many = d[1], d[2], d[3], d[4]
        n = len(values)
        if isinstance(choice, Option):
            choice = choice.id
        if choice is None:
            idx = []
        elif isinstance(choice, bool):
            raise IllegalAnswer(f"answer with an option number from 0 to {n - 1}")
        elif isinstance(choice, int):
            idx = [choice]
        elif isinstance(choice, str):
            labels = [o.label for o in Decision(self, T).options]
            if choice not in labels:
                raise IllegalAnswer(f"'{choice}' is not one of the options: {'; '.join(labels)}")
            idx = [labels.index(choice)]
        elif isinstance(choice, (list, tuple)):
            idx = []
            for c in choice:
                if isinstance(c, str):
                    labels = [o.label for o in Decision(self, T).options]
                    if c not in labels:
                        raise IllegalAnswer(f"'{c}' is not one of the options: {'; '.join(labels)}")
                    # a label may stand for several equal options: take the next unused one
                    c = next(i for i, l in enumerate(labels) if l == c and i not in idx) if \
                        any(l == c and i not in idx for i, l in enumerate(labels)) else labels.index(c)
                if isinstance(c, Option):
                    c = c.id
                if not isinstance(c, int) or isinstance(c, bool):
                    raise IllegalAnswer(f"answer with option numbers from 0 to {n - 1}")
                idx.append(c)
        else:
            raise IllegalAnswer(f"answer with an option number from 0 to {n - 1}")
        for i in idx:
            if not 0 <= i < n:
                raise IllegalAnswer(f"option {i} does not exist: choose from 0 to {n - 1}")
        if len(set(idx)) != len(idx):
            raise IllegalAnswer("an option is chosen twice")
        pair = runtime.alike(d[8], idx) if len(d) > 8 else None
        if pair:
            i, j = pair
            labels = [o.label for o in Decision(self, T).options]
            raise IllegalAnswer(f"'{labels[i]}' and '{labels[j]}' are alike: choose at most one of them")
        if not lo <= len(idx) <= hi:
            want = str(lo) if lo == hi else f"{lo} to {hi}"
            raise IllegalAnswer(f"choose {want} option{'s' if hi != 1 else ''}, not {len(idx)}")
        if not many and len(idx) > 1:
            raise IllegalAnswer("choose one option")
        return idx

    # ---------------------------------------------------------- results

    @property
    def scores(self) -> list:
        """Each seat's score (the ruleset's score function); available at any time."""
        f = self.rules.score_fn
        return [f(self.state, SEATS[p]) for p in range(self.state.n)]

    @property
    def values(self) -> list:
        """Each seat's position value for bots: the ruleset's value(p), or its score(p)."""
        f = self.rules.value_fn
        return [f(self.state, SEATS[p]) for p in range(self.state.n)]

    def tiebreaks(self) -> list:
        f = self.rules.tiebreak_fn
        if f is None:
            return [[] for _ in range(self.state.n)]
        return [list(f(self.state, SEATS[p])) for p in range(self.state.n)]

    @property
    def winners(self) -> list:
        """The seats with the best (score, tie-break); more than one only on a complete tie."""
        return self.winners_by(self.scores)

    def winners_by(self, scores: list) -> list:
        """winners, given the scores (game.scores) already worked out."""
        top = max(scores)
        tied = [p for p, s in enumerate(scores) if s == top]
        f = self.rules.tiebreak_fn
        if len(tied) == 1 or f is None:
            return tied
        keys = [list(f(self.state, SEATS[p])) for p in tied]  # only the tied seats need a tie-break
        best = max(keys)
        return [p for p, k in zip(tied, keys) if k == best]

    # ---------------------------------------------------------- views

    def knows(self, player: int, card: int) -> bool:
        return bool((self.state.k[card] >> player) & 1)

    def _render_value(self, v, viewer) -> str:
        """v as text for the viewer: a card as they know it now (prompts, labels), a logged card
        (runtime.Known) as they knew it when the line was written."""
        t = type(v)
        if t is Card:
            return self.rules.card_labels[v] if viewer is None or (self.state.k[v] >> viewer) & 1 else "a face-down card"
        if t is Known:
            c, mask = v
            return self.rules.card_labels[c] if viewer is None or (mask >> viewer) & 1 else "a face-down card"
        if t is Seat:
            return self.names[v]
        if t is list:  # a list of things: "red 4, blue 2" ("none" when empty)
            return ", ".join(self._render_value(x, viewer) for x in v) if v else "none"
        if t is tuple:  # a tuple reads as its parts, separated by spaces
            return " ".join(self._render_value(x, viewer) for x in v)
        if v is True:
            return "yes"
        if v is False:
            return "no"
        if v is None:
            return "none"
        return str(v)

    def _render(self, parts, viewer) -> str:
        return "".join(self._render_value(p, viewer) for p in parts)

    def render_event(self, event, viewer=None) -> str:
        if event and event[0] == runtime.TABLE:
            t = self.render_table(event, viewer)
            width = [max([len(c)] + [len(r[i]) for r in t["rows"] if i < len(r)]) for i, c in enumerate(t["columns"])]
            lines = [t["title"], "  " + "  ".join(c.ljust(w) for c, w in zip(t["columns"], width)).rstrip()]
            lines += ["  " + "  ".join(v.ljust(w) for v, w in zip(r, width)).rstrip() for r in t["rows"]]
            return "\n".join(lines)
        # every card in an event is a Known (runtime.event): the line reads as it did when written
        return "".join([self._render_value(p, viewer) for p in event])

    def render_table(self, event, viewer=None) -> dict:
        """A table event as text for the viewer: {"title", "columns", "rows"}."""
        _, title, columns, rows = event
        return {"title": self.render_event(title, viewer), "columns": list(columns),
                "rows": [[self.render_event(c, viewer) for c in r] for r in rows]}

    def tables(self, viewer: int | None = None) -> list:
        """The tables the rules showed (`show`), as the viewer may read them; "at" is the index
        of the log entry that holds each."""
        return [dict(self.render_table(e, viewer), at=i) for i, e in enumerate(self.state.log or [])
                if e and e[0] == runtime.TABLE]

    def log_lines(self, viewer: int | None = None) -> list:
        """The game log in words, as the viewer may know it (None: everything)."""
        return [self.render_event(e, viewer) for e in (self.state.log or [])]

    def card_info(self, c: int, viewer) -> dict:
        if viewer is None or (self.state.k[c] >> viewer) & 1:
            d = dict(self.rules.card_attrs[c])
            d["label"] = self.rules.card_labels[c]
            d["id"] = int(c)
            if self.rules.worth_fn is not None:
                d["worth"] = self.rules.worth_fn(self.state, c)
            marks = self.state.m.get(c)
            if marks:
                d["marks"] = dict(marks)
                for k, v in marks.items():  # a mark named as an attribute shows instead of it
                    if k in d and v is not None:
                        d[k] = v
            return d
        return {"hidden": True}

    def view(self, player: int | None) -> dict:
        """What one player may know (None: everything). Hidden cards show only as {'hidden': True}."""
        S = self.state
        lay = self.rules.layout
        zones = []
        for zi, zone in enumerate(S.z):
            name, key, owner = lay.zone_of(zi)
            zones.append({"name": name, "key": key, "owner": owner,
                          "cards": [self.card_info(c, player) for c in zone]})
        counters = {}
        for ci, (name, key) in enumerate(lay.fixed_counters):
            if key is None:
                counters[name] = _plain(S.v[ci])
            else:
                counters.setdefault(name, {})[key] = _plain(S.v[ci])
        for name in lay.player_counters:
            counters[name] = [self._player_counter(name, p) for p in range(S.n)]
        mine = [d for d in self.pending if player is None or d.player == player]
        return {
            "ruleset": self.rules.name, "player": player, "players": S.n, "names": list(self.names),
            "zones": zones, "counters": counters,
            "decisions": [{"id": d.id, "player": d.player, "prompt": d.prompt, "min": d.min, "max": d.max,
                           "options": [{"id": o.id, "label": o.label} for o in d.options]} for d in mine],
            "waiting_for": sorted({d.player for d in self.pending}),
            "log": self.log_lines(player), "tables": self.tables(player), "over": self.over,
            "scores": self.scores if self.over else None,
        }

    # ---------------------------------------------------------- records, saves, copies

    def record(self) -> dict:
        """The game record: ruleset, seed, players and answers; replays to this exact game."""
        return {"format": RECORD_FORMAT, "ruleset": self.rules.name, "variants": list(self.rules.variants),
                "digest": self.rules.digest,
                "players": self.state.n, "seed": self.seed, "names": list(self.names),
                "answers": [list(a) for a in self.answers]}

    def save(self) -> dict:
        """A save: the record plus the state it leads to (checked on load)."""
        self._usable("save the game")
        d = self.record()
        d["state"] = self.state.to_json()
        return d

    @classmethod
    def from_record(cls, record, rules: Ruleset | None = None, log: bool = True, ruleset=None,
                    paths=()) -> "Game":
        """Replay a record (or a save) to the game it describes. Raises RecordError (a JuxError)
        when it cannot, whatever the record holds (records.check_record checks every field).

        The rules: `rules` if given; else `ruleset` (a name or path) with the record's variants;
        else the record's ruleset and variants, which must be in jux's catalogue (rules/,
        variants/) or among `paths`, the files and folders the user named: a record never makes
        jux read another file (records.record_rules)."""
        from .records import check_record, record_rules

        check_record(record)
        if rules is None:
            rules = record_rules(record, ruleset, paths)
        digest = record.get("digest")
        if digest and digest != rules.digest:
            raise RecordError(f"the record was made with other rule files for '{rules.name}' "
                              f"(digest {digest}, these rules are {rules.digest})")
        try:
            g = cls.new(rules, record["players"], record["seed"], record.get("names"), log=log)
        except JuxError as e:
            raise RecordError(f"the record's setup is invalid: {e}") from None
        answers = record["answers"]
        for i, (player, choice) in enumerate(answers):
            try:
                g.apply(choice, player=player)
            except IllegalAnswer as e:
                raise RecordError(f"answers[{i}]: answer {i + 1} of {len(answers)} does not fit the game: {e}") from None
        if "state" in record:
            try:
                same = record["state"] == g.state.to_json()
            except RecursionError:  # (check_record bounds the nesting: not expected)
                same = False
            if not same:
                raise RecordError("state: the saved state does not match the game its answers give (edited file?)")
        return g

    load = from_record

    def copy(self, log: bool = False) -> "Game":
        """An independent copy (for search); without the log unless asked."""
        self._usable("copy the game")
        g = Game.__new__(Game)
        g.rules = self.rules
        g.state = self.state.copy(log=log)
        g.seed = self.seed
        g.names = self.names
        g.answers = list(self.answers)
        g.first_player = self.first_player
        return g


def _plain(v):
    if type(v) in (Seat, Card):
        return int(v)
    return v


def _start_zones(rules):
    lay = rules.layout
    out = []
    for name, z in lay.zone_def.items():
        for kind in z.get("start", []):
            zi = lay.zone_index.get(name)
            if isinstance(zi, int):
                out.append((kind, zi))
    return out


def _describe(e: Exception) -> str:
    if isinstance(e, runtime.RuleRuntimeError):
        return str(e)
    if isinstance(e, TypeError) and "NoneType" in str(e):
        return f"a value is none where a card or number is needed ({e})"
    if isinstance(e, (IndexError, KeyError)):
        return f"no such item: {e}"
    if isinstance(e, ZeroDivisionError):
        return "division by zero"
    return f"{type(e).__name__}: {e}"
