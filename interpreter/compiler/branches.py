"""Which way a secret test sent the rules (bots' samples, docs/bots.md step 6): where a routine may
stop under a test that reads what some seat may not know (an `if`, a loop's test or list, a test
under which a loop's `break` may run, a `simultaneously` over such a list: taint.py's `under`),
where it waits tells which way the test went. A bot's sample of a seat that may not know every
such test cannot keep that thread as it is: it is a dead end there (bots/stopped.py). The seats
that do know them are worked out where the thread waits (`KN` functions, knowers.py). A test of
a secret number (a counter not `visible: all`, the size of a zone `size: hidden`) that no seat
can be named for is known to none; one of a card's attribute that no seat can be named for is
taken as known to the seat whose decision the thread waits at (the limit of docs/bots.md: such
tests often read cards every seat has seen, which the analysis cannot tell, and a dead end there
would stop the bots' search at their own turns).
(class BranchSteps, part of program.Compiler)"""
from __future__ import annotations

from .knowers import Knowers
from .taint import Taint
from .taint_rules import param_taint


class BranchSteps:
    """Methods of program.Compiler, called by resumable.py for a routine that may stop."""

    def _number_taint(self, body, slots: dict, params: tuple, name: str) -> None:
        """The taint of the routine's locals by secret numbers alone (taint.py), when the ruleset
        has any; and a fresh table of its stops under a test that reads one (`_branches`)."""
        if getattr(self, "_num_secrets", None) is None:  # (once per ruleset)
            self._num_secrets = self.secrets.numbers(self.spec)
            self._params_num = param_taint(self.spec, self._num_secrets) if self._num_secrets.names else {}
        self._branches = {}
        if not self._num_secrets.names:
            self._numbers = None
            return
        given = {slots[params[i]] for i in self._params_num.get(name, ())}
        self._numbers = Taint(body, slots, self._num_secrets, given)

    def _branch_at(self, s, pc: int) -> None:
        """Where the routine waits at s (resuming at pc) under tests that read a secret: the
        generated expression of the seats that know them all (knowers.py), or None for none. A
        test of a secret number no seat can be named for makes it None; one of a card's attribute
        no seat can be named for is taken as known to the seat deciding there (docs/bots.md, step
        6, "Limits")."""
        num = self._numbers.under.get(id(s)) if self._numbers is not None else None
        full = self._taint.under.get(id(s))
        if not full:
            return
        memo = self.__dict__.setdefault("_summaries", ({}, {}))
        numbers = None
        if num:
            numbers = Knowers(self.spec, self._num_secrets, self._numbers, self._slots, self._params, memo[0]).of(num)
            if numbers is None:
                self._branches[pc] = None
                return
        got = Knowers(self.spec, self.secrets, self._taint, self._slots, self._params, memo[1]).of(full)
        if got is None:  # (a card's test no seat can be named for: the deciding seat's own thread is kept)
            got = (numbers or set()) | {"_deciding(T)"}
        self._branches[pc] = " & ".join(sorted(got)) or "-1"

    def _emit_branches(self, o) -> None:
        """The `KN` functions: where a routine waits under secret tests, the seats that know them
        (a bit each), worked out from the frame's locals (bots/stopped.py)."""
        for rid, found in sorted(self.branches.items()):
            for pc, code in sorted(found.items()):
                if code is not None:
                    o.emit(0, f"def KN{rid}_{pc}(S, T, F):", None)
                    o.emit(1, "L = F[2]", None)
                    o.emit(1, f"try: return {code}", None)
                    o.emit(1, "except Exception: return 0", None)
