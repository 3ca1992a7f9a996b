"""Rule coverage, counted while games run: a ruleset loaded with ``load_ruleset(..., coverage=True)``
is compiled with a counter on every statement and function (``Counts.runs``), every ``choose``
counted as it is reached (``counted_decide``), and every slot call (a power) counted with the
change of the score of the seat it is for (``Counts.slot_hooks``). study/coverage.py adds the
counts of many games up and reports them.

With ``coverage="powers"`` (what `jux balance` reads) only the slot calls are compiled in: no
statement, function or choose is counted, and the code is otherwise the code without coverage
(its direct paths, what is compiled in place). The study counts the decisions then, as its bots
answer them (``Counts.decisions``: simulate.run_games)."""
from __future__ import annotations

from .threads import decide as _decide


class Counts:
    """The counters of a ruleset compiled with coverage."""

    def __init__(self, sites: list, chooses: list, lines: bool = True):
        self.lines = lines  # False: coverage "powers" (no statement nor choose is counted)
        self.sites = [(str(pos.file), pos.line, pos.col, what) for pos, what in sites]
        self.choose_sites = [(str(pos.file), pos.line, pos.col) for pos in chooses]
        self.runs = [0] * len(sites)
        # per choose: [reached, asked (it had options), real choices, most options offered]
        self.choices = [[0, 0, 0, 0] for _ in chooses]
        # per slot call (slot, key): [uses, uses for a seat, score change sum, sum of squares]
        self.powers: dict = {}
        # with coverage "powers": [decisions asked, real choices among them], counted by the study
        # (every choose alike, as counted_decide counts one)
        self.decisions = [0, 0]
        # the state of the game whose slot calls are counted, set by the study (None: every game's,
        # the copies bots play on to choose included)
        self.only = None

    def reset(self) -> None:
        self.runs[:] = [0] * len(self.runs)
        for c in self.choices:
            c[:] = [0, 0, 0, 0]
        self.powers.clear()
        self.decisions[:] = [0, 0]

    def snapshot(self):
        """The counts now (for ``since``)."""
        return (list(self.runs), [list(c) for c in self.choices], {k: list(v) for k, v in self.powers.items()},
                list(self.decisions))

    def since(self, snap) -> dict:
        """What was counted since the snapshot, as data without the sites (``add`` sums it with
        data that has them); a choose's most options is the most so far."""
        runs, choices, powers, decisions = snap
        out = {"runs": [x - y for x, y in zip(self.runs, runs)],
               "choices": [[c[0] - b[0], c[1] - b[1], c[2] - b[2], c[3]] for c, b in zip(self.choices, choices)],
               "powers": [[slot, key] + [x - y for x, y in zip(st, powers.get((slot, key), (0, 0, 0, 0)))]
                          for (slot, key), st in sorted(self.powers.items(), key=str)
                          if st[0] != powers.get((slot, key), (0,))[0]]}
        if not self.lines:
            out["decisions"] = [x - y for x, y in zip(self.decisions, decisions)]
        return out

    def slot_hooks(self, score):
        """The two functions the compiled code calls around a slot call (a power): before, with the
        arguments (the first seat among them is the seat the power is for), and after it ended,
        with what the first returned; score(S, seat) is the ruleset's score."""
        powers = self.powers

        def before(S, slot, key, args):
            if self.only is not None and S is not self.only:
                return None
            seat = next((a for a in args if type(a).__name__ == "Seat"), None)
            return (slot, key, seat, None if seat is None else score(S, seat))

        def after(S, b):
            # (not the game counted; or a copy of it made while the slot's procedure waited for a
            # decision: the copy's frames hold what before() saw in the game)
            if b is None or self.only is not None and S is not self.only:
                return
            slot, key, seat, was = b
            st = powers.get((slot, key))
            if st is None:
                st = powers[(slot, key)] = [0, 0, 0, 0]
            st[0] += 1
            if seat is not None:
                change = score(S, seat) - was
                st[1] += 1
                st[2] += change
                st[3] += change * change

        return before, after

    def data(self) -> dict:
        """The counts as plain data (picklable, JSON), for ``add`` and ``report``."""
        out = {"sites": [list(s) for s in self.sites], "runs": list(self.runs),
               "choose_sites": [list(s) for s in self.choose_sites],
               "choices": [list(c) for c in self.choices],
               "powers": [[slot, key] + list(st) for (slot, key), st in sorted(self.powers.items(), key=str)]}
        if not self.lines:
            out["decisions"] = list(self.decisions)
        return out


def real_choice(n: int, lo: int, hi: int, many: bool) -> bool:
    """Whether a decision of n options, lo to hi of them picked (many: a list is the answer),
    has more than one possible answer."""
    return (lo < hi or n > hi) if many else (n > 1 or lo == 0)


def counted_decide(stat: list):
    """threads.decide, counting into stat = [reached, asked, real choices, most options]."""
    decide = _decide

    def counted(S, T, F, player, options, count, upto, optional, label_id, prompt_id, unavailable_id=-1, key=None):
        stat[0] += 1
        asked = decide(S, T, F, player, options, count, upto, optional, label_id, prompt_id, unavailable_id, key)
        if asked:
            d = T[2]
            n, lo, hi, many = len(d[1]), d[2], d[3], d[4]
            stat[1] += 1
            if real_choice(n, lo, hi, many):
                stat[2] += 1
            if n > stat[3]:
                stat[3] = n
        return asked

    return counted
