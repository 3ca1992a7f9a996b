"""The public API: load_ruleset, Game (new, pending, apply, view, scores, record, save, load).

Game is made of parts, each in its own module: positions and reading zones by name
(positions.py), autoplay (autoplay.py), views and rendering (views.py), records, saves and copies
(saves.py); rulesets are in ruleset.py and decisions in decisions.py. `from jux import Game,
load_ruleset` is the way in (jux/__init__.py)."""
from __future__ import annotations

from functools import total_ordering
from pathlib import Path

from ..errors import IllegalAnswer, JuxError, StepBudgetExceeded
from ..runtime import chance, threads
from ..runtime.state import DECIDE, RUN, SEATS, State
from ..runtime.threads import RET, WAIT
from .autoplay import Autoplay
from .decisions import Answering, Decision, Option, _blamed, _option_numbers
from .positions import Positions
from .ruleset import RuleRuntimeError, Ruleset, _describe, load_ruleset
from .saves import Saves
from .views import Views

DEFAULT_NAMES = tuple(f"Player {i + 1}" for i in range(len(SEATS)))  # (a seat's name when none is given)


class Game(Positions, Autoplay, Views, Saves):
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
        names = list(names) if names else list(DEFAULT_NAMES[:players])
        if len(names) != players:
            raise JuxError(f"{len(names)} names given for {players} players")
        S = rules.initial_state(players).copy()
        S.m = {}
        S.rng = chance.seed_rng(seed)
        S.threads = [[[[rules._c["flow"], 0, [None] * rules._c["flow_locals"]]], RUN, None, None, -1, 0, 0]]
        S.next_tid = 1
        S.steps = 0
        S.log = [] if log else None
        S.lv = {} if log else None
        g = cls(rules, S, int(seed), names)
        if start:
            g._run()
        return g

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
            msg = _describe(e, self.rules.spec, pos)
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
              and (len(d) < 9 or threads.alike(d[8], choice) is None)):
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
            idx = [Decision(self, T).by_label(choice, [])]
        elif isinstance(choice, (list, tuple)):
            idx = []
            for c in choice:
                if isinstance(c, str):
                    c = Decision(self, T).by_label(c, idx)
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
        pair = threads.alike(d[8], idx) if len(d) > 8 else None
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
        """Each seat's tie-break values, compared in order (a labelled value's label left out)."""
        f = self.rules.tiebreak_fn
        if f is None:
            return [[] for _ in range(self.state.n)]
        return [_tie_values(f(self.state, SEATS[p])) for p in range(self.state.n)]

    def tiebreak_lowest(self) -> list:
        """For each tie-break value, in order, whether its lowest wins: as the entry says with a
        third item (`("cards in hand", len(hand[p]), "lowest")`), else as the ruleset's `winner`
        says for every tie-break; [] without a tiebreak."""
        f = self.rules.tiebreak_fn
        if f is None:
            return []
        return _ways([_entries(f(self.state, SEATS[p])) for p in range(self.state.n)],
                     self.rules.lowest_tiebreak_wins)

    def _tie_keys(self, seats) -> list:
        """Each seat's tie-break as a key where the higher is better, each value in its way (the
        rules' tiebreak(p) worked out once per seat)."""
        f = self.rules.tiebreak_fn
        if f is None:
            return [[] for _ in seats]
        entries = [_entries(f(self.state, SEATS[p])) for p in seats]
        lowest = _ways(entries, self.rules.lowest_tiebreak_wins)
        return [[_Lower(v) if low else v for v, low in zip(_tie_values(e), lowest)] for e in entries]

    def tiebreak_labels(self) -> list:
        """What each tie-break value is, in order (["aces", "kings", ...], ["coins"]): the labels of
        the (label, value) pairs the ruleset's tiebreak(p) gives, "" for a bare value; [] without
        a tiebreak."""
        f = self.rules.tiebreak_fn
        if f is None:
            return []
        labels = []
        for p in range(self.state.n):
            for i, x in enumerate(_entries(f(self.state, SEATS[p]))):
                label = x[0] if _labelled(x) else ""
                if i == len(labels):
                    labels.append(label)
                elif not labels[i]:
                    labels[i] = label
        return labels

    @property
    def winners(self) -> list:
        """The seats with the best (score, tie-break); more than one only on a complete tie."""
        return self.winners_by(self.scores)

    def winners_by(self, scores: list) -> list:
        """winners, given the scores (game.scores) already worked out: the highest score wins, or
        the lowest where the ruleset says `winner: lowest` (its tie-breaks the same way unless it
        says otherwise)."""
        rules = self.rules
        top = min(scores) if rules.lowest_wins else max(scores)
        tied = [p for p, s in enumerate(scores) if s == top]
        f = rules.tiebreak_fn
        if len(tied) == 1 or f is None:
            return tied
        keys = self._tie_keys(tied)  # only the tied seats need a tie-break
        best = max(keys)
        return [p for p, k in zip(tied, keys) if k == best]

    def merits(self, scores: list | None = None) -> list:
        """Each seat's score as a number where more is better (for bots and rankings): the scores,
        negated where the lowest score wins."""
        scores = self.scores if scores is None else scores
        return [-s for s in scores] if self.rules.lowest_wins else list(scores)

    def ranking(self) -> list:
        """The seats from the best to the worst: by score in the winning direction, then by the
        tie-break values in theirs; seats equal on both keep their seat order."""
        scores = self.scores
        ties = self._tie_keys(range(self.state.n))
        low = self.rules.lowest_wins

        def key(p):
            return (scores[p] if low else -scores[p], _Toward(ties[p]))
        return sorted(range(self.state.n), key=key)


_WAYS = ("lowest", "highest")


def _labelled(x) -> bool:
    """A tie-break entry that is a (label, value) pair, or a (label, value, way) triple whose way is
    "lowest" or "highest": a tuple whose first item is a text."""
    return type(x) is tuple and isinstance(x[0] if x else None, str) and (
        len(x) == 2 or len(x) == 3 and x[2] in _WAYS)


def _way(x):
    """The way a tie-break entry says its value wins ("lowest", "highest"), or None."""
    return x[2] if _labelled(x) and len(x) == 3 else None


@total_ordering
class _Lower:
    """A tie-break value whose lowest wins, as a key where the higher is better."""

    __slots__ = ("v",)

    def __init__(self, v):
        self.v = v

    def __eq__(self, other):
        return self.v == other.v

    def __lt__(self, other):
        return other.v < self.v


def _ways(entries_by_seat: list, default: bool) -> list:
    """For each tie-break value, whether its lowest wins: the way the first seat's entry there says
    ("lowest", "highest"), else default."""
    ways: list = []
    for entries in entries_by_seat:
        for i, x in enumerate(entries):
            if i == len(ways):
                ways.append(None)
            if ways[i] is None:
                ways[i] = _way(x)
    return [default if w is None else w == "lowest" for w in ways]


def _entries(parts) -> list:
    """A seat's tie-break entries: the list tiebreak(p) gives (one value, or one pair, alone is a
    list of one)."""
    return parts if type(parts) is list else [parts]


def _tie_values(parts) -> list:
    """A seat's tie-break as the values compared in order: a labelled entry counts for its value."""
    return [x[1] if _labelled(x) else x for x in _entries(parts)]


class _Toward:
    """A tie-break key (the higher the better) as a sort key: the best first."""

    __slots__ = ("values",)

    def __init__(self, values):
        self.values = values

    def __eq__(self, other):
        return self.values == other.values

    def __lt__(self, other):
        try:
            return self.values > other.values
        except TypeError:  # (values of kinds that do not compare: no order between them)
            return False
