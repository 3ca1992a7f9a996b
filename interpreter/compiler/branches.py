"""Which branch a secret number chose (bots' samples, docs/bots.md step 6): where a routine may stop
under a test that reads a counter a seat may not see or the size of a zone it may not see (an
`if`, a loop's test or list, a `break` under one), the stop itself tells which way the test
went. A bot's sample of a seat that may not know every such test cannot keep that thread as
it is: it is a dead end there (bots/stopped.py). The seats that do know them are worked out
where the thread waits (`KN` functions): a counter `visible: owner` (or a zone `size: hidden`
seen by its owner) read for the seat a local names, that local unchanged since the test, is
known to that seat alone; anything else is known to none (class BranchSteps, part of
program.Compiler)."""
from __future__ import annotations

from ..language.tree import (Assign, Call, CallStmt, Choose, For, GenCall, Index, Lambda, Let, ListComp, Name,
                             Simultaneously, walk)
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
        """Where the routine waits at s (resuming at pc) under tests that read a secret number:
        the generated expression of the seats that know them all, or None for none."""
        tests = self._numbers.under.get(id(s)) if self._numbers is not None else None
        if tests:
            self._branches[pc] = self._knowers(tests)

    def _knowers(self, tests) -> str | None:
        slots, taint = self._slots, self._numbers
        single = self._set_once()
        names: set = set()
        for construct, test in tests:
            if test is None:  # (a `break` under such a test: how many rounds ran tells it)
                return None
            changed = {n for x in walk(construct) if type(x) in (Let, For, Choose, Simultaneously)
                       for n in x.pattern.names} | {x.name for x in walk(construct) if type(x) is Assign}
            got = self._owners(test, lambda n: n in slots and slots[n] not in taint.tainted and (
                n not in changed or slots[n] in single), set())
            if got is None:
                return None
            names |= got
        return " & ".join(f"(1 << L[{slots[n]}])" for n in sorted(names)) or "-1"

    def _owners(self, e, seat, seen: set, params: tuple | None = None) -> set | None:
        """The names of the seats whose secret numbers expression e reads (a counter or zone kept
        from the others, read for the seat a name holds: seat(name) says the name may be used,
        the same where the rules wait as where e was worked out), or None when it reads one that
        no seat so named knows. params: e is a function's body and those are its parameters."""
        secrets = self._num_secrets
        bound = {n for x in walk(e) if type(x) in (ListComp, GenCall) for f in x.fors for n in f.pattern.names}
        bound |= {x.param for x in walk(e) if type(x) is Lambda}  # (names of its own, not the frame's)
        out: set = set()
        todo = [e]
        while todo:
            x = todo.pop()
            t = type(x)
            if t is tuple:
                todo.extend(x)
                continue
            if t is Name:
                if params is None and x.id in self._slots and x.id not in bound:
                    if self._slots[x.id] in self._numbers.tainted:
                        got = self._let_owners(x.id, seen)
                        if got is None:
                            return None
                        out |= got
                elif x.id in secrets.names and (params is None or x.id not in params) and x.id not in bound:
                    return None
                continue
            if t in (Call, GenCall, CallStmt) and x.func in secrets.returns:
                return None
            if t is Call and x.func in secrets.routines:
                owned = self._function_owners(x.func)
                if owned is None:
                    return None
                for i in owned:
                    a = x.args[i] if i < len(x.args) else None
                    if not (type(a) is Name and a.id not in bound and seat(a.id)):
                        return None
                    out.add(a.id)
            elif t is GenCall and x.func in secrets.routines:
                return None
            if t is Index and type(x.obj) is Name and x.obj.id in secrets.names and x.obj.id not in self._slots:
                i = x.index
                if not (self._owned(x.obj.id) and type(i) is Name and i.id not in bound and seat(i.id)):
                    return None
                out.add(i.id)
                continue
            for f in getattr(t, "__dataclass_fields__", None) or ():
                if f != "pos":
                    todo.append(getattr(x, f))
        return out

    def _let_owners(self, name: str, seen: set) -> set | None:
        """The seats that know a tainted local, set once by a plain `let` whose secret numbers are
        read for seats that locals set once name (then the same wherever the local is read)."""
        taint, slots = self._numbers, self._slots
        i = slots[name]
        defs = taint.defs.get(i, ())
        if i in seen or len(defs) != 1 or type(defs[0][0]) is not Let or defs[0][0].pattern.is_tuple:
            return None
        single = self._set_once()
        return self._owners(defs[0][0].value, lambda n: n in slots and slots[n] in single
                            and slots[n] not in taint.tainted, seen | {i})

    def _set_once(self) -> set:
        """The routine's locals that one statement sets (or parameters that none does): wherever
        one is read it holds what it held when a local worked out from it was."""
        defs = self._numbers.defs
        return {i for i, d in defs.items() if len(d) == 1} | (set(range(self._params)) - set(defs))

    def _function_owners(self, name: str) -> tuple | None:
        """The numbers of the parameters of function name whose seats' secret numbers it reads,
        when it reads no other (a function of one expression), else None."""
        memo = self.__dict__.setdefault("_function_owned", {})
        if name not in memo:
            memo[name] = None  # (a function calling itself: none)
            f = self.spec.functions[name]
            if not isinstance(f.body, tuple):
                got = self._owners(f.body, lambda n: n in f.params, set(), tuple(f.params))
                memo[name] = None if got is None else tuple(sorted(f.params.index(n) for n in got))
        return memo[name]

    def _owned(self, name: str) -> bool:
        """Whether counter or zone name, per seat, is seen by its own seat (`visible: owner`)."""
        d = (self.spec.counters or {}).get(name)
        if d is None:
            d = (self.spec.zones or {}).get(name)
        return isinstance(d, dict) and d.get("visible") == "owner" and d.get("per") == "player"

    def _emit_branches(self, o) -> None:
        """The `KN` functions: where a routine waits under tests of secret numbers, the seats that
        know them (a bit each), worked out from the frame's locals (bots/stopped.py)."""
        for rid, found in sorted(self.branches.items()):
            for pc, code in sorted(found.items()):
                if code is not None:
                    o.emit(0, f"def KN{rid}_{pc}(S, T, F):", None)
                    o.emit(1, "L = F[2]", None)
                    o.emit(1, f"try: return {code}", None)
                    o.emit(1, "except Exception: return 0", None)
