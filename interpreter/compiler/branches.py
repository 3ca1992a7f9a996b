"""Which way a secret test sent the rules (bots' samples, docs/bots.md step 6): where a routine may
stop under a test that reads what some seat may not know (an `if`, a loop's test or list, a test
under which a loop's `break` may run, a `simultaneously` over such a list: taint.py's `under`),
where it waits tells which way the test went. A bot's sample of a seat that may not know every
such test cannot keep that thread as it is: it is a dead end there (bots/stopped.py). The seats
that do know them are worked out where the thread waits (`KN` functions, knowers.py): a
parameter's from what the caller gave it where the caller waits at the call (`KA` functions,
`_argk`), and the cards of a face-down zone a `let` read from who knew them as it ran (noted in a
hidden slot after the `let`, `_record_at`). A test of
a secret number (a counter not `visible: all`, the size of a zone `size: hidden`) that no seat
can be named for is known to none; one of a card's attribute that no seat can be named for is
taken as known to the seat whose decision the thread waits at (the limit of docs/bots.md: such
tests often read cards every seat has seen, which the analysis cannot tell, and a dead end there
would stop the bots' search at their own turns).
(class BranchSteps, part of program.Compiler)"""
from __future__ import annotations

from ..language.tree import Assign, Let
from .knowers import Knowers, code
from .taint import Taint
from .taint_rules import param_taint


class BranchSteps:
    """Methods of program.Compiler, called by resumable.py for a routine that may stop."""

    def _number_taint(self, body, slots: dict, params: tuple, name: str) -> None:
        """The taint of the routine's locals by secret numbers alone (taint.py), when the ruleset
        has any; and a fresh table of its stops under a test that reads one (`_branches`)."""
        if getattr(self, "_num_secrets", None) is None:  # (once per ruleset)
            self._argk_used = False  # (a noted `let` reads what a caller gave: `_argk` is emitted)
            self._num_secrets = self.secrets.numbers(self.spec)
            self._params_num = param_taint(self.spec, self._num_secrets) if self._num_secrets.names else {}
        self._branches, self._recorded = {}, {}
        self.__dict__.setdefault("_summaries", ({}, {}))  # (each function's summary, numbers and all: knowers.py)
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
        memo = self._summaries
        self._args_at(s, pc, memo)
        num = self._numbers.under.get(id(s)) if self._numbers is not None else None
        full = self._taint.under.get(id(s))
        if not full:
            return
        numbers = None
        if num:
            numbers = Knowers(self.spec, self._num_secrets, self._numbers, self._slots, self._params, memo[0],
                              self._recorded).of(num)
            if numbers is None:
                self._branches[pc] = None
                return
        got = Knowers(self.spec, self.secrets, self._taint, self._slots, self._params, memo[1], self._recorded).of(full)
        if got is None:  # (a card's test no seat can be named for: the deciding seat's own thread is kept)
            got = (numbers or set()) | {"_deciding(T)"}
        self._branches[pc] = " & ".join(sorted(got)) or "-1"

    def _args_at(self, s, pc: int, memo: tuple) -> None:
        """Where the routine waits at s, a call of a procedure that may stop: the seats that know
        each argument it gave, as a test's (`_branch_at`: "-1" when it reads no secret), for the
        knowers of a test of the callee's parameter (`_argk`)."""
        call = s.value if type(s) in (Let, Assign) else s
        if not self.suspending_call(call):
            return
        slots, codes = self._slots, []
        for a in call.args:
            parts: set = set()
            for taint, secrets, m in ((self._numbers, self._num_secrets, memo[0]), (self._taint, self.secrets, memo[1])):
                if taint is None or not taint.reads_tainted(a):
                    continue
                k = Knowers(self.spec, secrets, taint, slots, self._params, m, self._recorded)
                got = k._reads(a, lambda n: n in slots and slots[n] not in taint.tainted, frozenset(), {})
                if got is not None and any(kind in ("cards", "zone") for kind, _ in got):
                    got = None
                if got is None:  # (a number no seat can be named for: none; a card's attribute: as _branch_at)
                    parts = {"0"} if taint is self._numbers else parts | {"_deciding(T)"}
                    break
                parts |= {code(kind, n, slots) for kind, n in got}
            codes.append(" & ".join(sorted(parts)) or "-1")
        self._branches[("args", pc)] = tuple(codes)

    def _record_at(self, s) -> str | None:
        """After plain `let x = ...` s, when what it reads of the secrets is known only as it runs
        (cards of a zone no seat sees as a whole, which may have been revealed: the seats that
        know every card there now), the lines that note the seats that know it in a hidden slot
        (`_known_all`; none when that fails), which the knowers of x then read (knowers.py,
        "mask"); else None."""
        slots, taint = self._slots, self._taint
        i = slots.get(s.pattern.names[0]) if len(s.pattern.names) == 1 else None
        if i is None or i not in taint.tainted or len(taint.defs.get(i, ())) != 1:
            return None
        k = Knowers(self.spec, self.secrets, taint, slots, self._params, self._summaries[1], self._recorded)
        got = k._reads(s.value, lambda n: n in slots and slots[n] not in taint.tainted, frozenset(), {})
        if not got or not any(kind == "zone" for kind, _ in got) or any(kind == "cards" for kind, _ in got):
            return None
        lay, parts = self.layout, set()
        for kind, n in got:
            if kind != "zone":
                parts.add(code(kind, n, slots))
            elif n in lay.player_zones:
                base, step = len(lay.fixed_zones) + lay.player_zones.index(n), len(lay.player_zones)
                parts.add(f"_known_all(S, range({base}, {base} + {step} * S.n, {step}))")
            else:
                parts.add(f"_known_all(S, {tuple(zi for zi, (name, _) in enumerate(lay.fixed_zones) if name == n)})")
        h = self._recorded[i] = self._new_slot()
        line = f"L[{h}] = " + " & ".join(sorted(parts))
        self._argk_used = self._argk_used or "_argk(" in line
        return f"try: {line}\nexcept Exception: L[{h}] = 0"

    def _emit_branches(self, o) -> None:
        """The `KN` functions: where a routine waits under secret tests, the seats that know them
        (a bit each), worked out from the frame's locals (bots/stopped.py); when one reads a
        parameter's, `_argk` and the `KA` functions of the calls (where the caller waits)."""
        argk = False
        for rid, found in sorted(self.branches.items()):
            for pc, kn in sorted((pc, c) for pc, c in found.items() if type(pc) is int):
                if kn is not None:
                    argk = argk or "_argk(" in kn
                    o.emit(0, f"def KN{rid}_{pc}(S, T, F):", None)
                    o.emit(1, "L = F[2]", None)
                    o.emit(1, f"try: return {kn}", None)
                    o.emit(1, "except Exception: return 0", None)
        if not (argk or getattr(self, "_argk_used", False)):
            return
        calls = []
        for rid, found in sorted(self.branches.items()):
            for pc, codes in sorted((key[1], c) for key, c in found.items() if type(key) is tuple and c):
                calls.append(f"({rid}, {pc}): KA{rid}_{pc}")
                o.emit(0, f"def KA{rid}_{pc}(S, T, F, i):", None)
                o.emit(1, "L = F[2]", None)
                o.emit(1, "try:", None)
                for i, kn in enumerate(codes):
                    o.emit(2, f"if i == {i}: return {kn}", None)
                o.emit(1, "except Exception: pass", None)
                o.emit(1, "return 0", None)
        o.emit(0, "KA = {" + ", ".join(calls) + "}", None)
        o.emit(0, "def _argk(S, T, F, i):", None)  # (the caller's frame is the one below F)
        o.emit(1, "fs = T[0]", None)
        o.emit(1, "for j in range(len(fs) - 1, 0, -1):", None)
        o.emit(2, "if fs[j] is F:", None)
        o.emit(3, "c = fs[j - 1]; fn = KA.get((c[0], c[1]))", None)
        o.emit(3, "return fn(S, T, c, i) if fn is not None else 0", None)
        o.emit(1, "return 0", None)
