"""Code generation: a procedure called from one place compiled into its caller (class
InlinedProcedures, part of program.Compiler), where the caller is a plain function (a P_ or D_
version: never a resumable routine, whose frames a save keeps).

A Python call costs some 500 instructions on CPython 3.11 besides its arguments; a procedure
the rules call from one place only (a turn from the play loop, one check from the loop over
them) is compiled in place there: its parameters are locals of the caller set from the
arguments, in order, and its locals are the caller's, renamed apart (`v_p__3`). Its statements
keep their own positions (an error names the procedure's line, as before) and count steps as
before (a call counts none). Its own P_/D_ function is still made (a slot, a scenario or the
state machines may call it). Not in place: a procedure that calls itself, that a slot names,
that returns (`return` in its body), or that starts a `simultaneously`.
"""
from __future__ import annotations

import itertools
import re

from ..checks.facts import log_only_lets
from ..language.tree import (Assign, Call, CallStmt, Choose, CompFor, For, Index, Lambda, Let, Name,
                             Return, Simultaneously, walked)
from .expr import Ctx
from .known_items import KnownItems
from .numbers import KnownNumbers

_LOCAL = re.compile(r"v_\w+")


_SCALAR_TYPES = (str, int, float, bool)


class InlinedProcedures(KnownNumbers, KnownItems):
    """Methods of program.Compiler: calls of procedures compiled in place, and the locals known
    to hold a scalar (a test of a card's attribute against one needs no check of its type) or a
    number (numbers.py)."""

    def known_locals(self, body, env) -> None:
        """Which locals of body (its parameters in env) hold a scalar, which a number (numbers.py)."""
        self._scalar_codes = frozenset(self.scalar_locals(body, env) - set(env.values()))
        self._number_codes = self.number_codes(body, env)

    def routine_body(self, body, ctx, pos) -> None:
        """The body of a P_ or D_ version (its parameters in ctx.env), knowing which of its locals
        hold a scalar or a number."""
        self.known_locals(body, ctx.env)
        try:
            self._body(body, ctx, 1, pos)
        finally:
            self._scalar_codes = self._number_codes = frozenset()

    def scalar_list(self, e, env) -> bool:
        """Whether e names a constant list of scalars (no local hides it)."""
        items = self.spec.constants.get(e.id) if isinstance(e, Name) and e.id not in env else None
        return isinstance(items, list) and all(type(x) in _SCALAR_TYPES for x in items)

    def scalar_locals(self, body, env) -> set:
        """The names (as env spells them, a comprehension's as `v_x`) that every binding in body
        gives an item of a constant list of scalars: `for d in colours`, `choose d from colours`
        (of one option: `pick 2` gives a list),
        `[... for d in colours]` (fast.py then tests a card's attribute against one without
        checking its type). Never a name that the comprehension or lambda of a function body may
        call (directly or through others) binds otherwise (a function compiled in place, inline.py,
        binds it as `v_x` too)."""
        ok, bad = set(), self._bound_by_calls(body)
        hidden = set(env) | {x for n in walked(body) if isinstance(n, (For, Choose, CompFor, Let, Simultaneously))
                             for x in n.pattern.names}  # (a local of a constant's name hides it)
        hidden |= {n.name for n in walked(body) if isinstance(n, Assign)}
        for n in walked(body):
            if isinstance(n, (For, Choose, CompFor)):
                items = n.options if isinstance(n, Choose) else n.iter
                one = not isinstance(n, Choose) or n.count is None and n.upto is None  # (else a list of them)
                (ok if one and not n.pattern.is_tuple and self.scalar_list(items, hidden) else bad).update(
                    n.pattern.names)
            elif isinstance(n, (Let, Simultaneously)):
                bad.update(n.pattern.names)
            elif isinstance(n, Assign) and n.index is None:
                bad.add(n.name)
            elif isinstance(n, Lambda):
                bad.add(n.param)
        return {env.get(x, f"v_{x}") for x in ok - bad}

    def _bound_by_calls(self, body) -> set:
        """The names that a comprehension or lambda of a function body may call, directly or
        through other routines, binds otherwise than to an item of a constant list of scalars."""
        if getattr(self, "_function_bound", None) is None:
            self._function_bound = {}
            for name, r in self.spec.functions.items():
                nodes = walked(r.body)
                mine = set(r.params) | {x for n in nodes if isinstance(n, (CompFor, Let, For)) for x in n.pattern.names}
                bound = self._function_bound[name] = set()
                for n in nodes:
                    if isinstance(n, CompFor) and (n.pattern.is_tuple or not self.scalar_list(n.iter, mine)):
                        bound.update(n.pattern.names)
                    elif isinstance(n, Lambda):
                        bound.add(n.param)
        return set().union(*(self._function_bound.get(f, ()) for f in self._called_routines(body)))

    def _call_sites(self) -> dict:
        """How many calls of each procedure the rules make (statements and expressions)."""
        if getattr(self, "_sites", None) is None:
            spec = self.spec
            sites: dict = {}
            bodies = [r.body for r in spec.procedures.values()] + [spec.flow.body]
            bodies += [f.body for f in spec.functions.values()]
            for body in bodies:
                for n in walked(body if isinstance(body, tuple) else (body,)):
                    if isinstance(n, (Call, CallStmt)) and n.func in spec.procedures:
                        sites[n.func] = sites.get(n.func, 0) + 1
            for table in spec.slots.values():  # (a slot calls its procedures from anywhere)
                for proc in table.values():
                    sites[proc] = sites.get(proc, 0) + 2
            self._sites = sites
            self._inline_ids = itertools.count(1)
        return self._sites

    def inlinable_call(self, s, ctx) -> bool:
        """Whether call statement s is compiled in place (see the module's docstring)."""
        if self.coverage or ctx.resumable or ctx.spawned or s.slot_key is not None:
            return False
        f = s.func
        if self._call_sites().get(f) != 1 or f in self.calls_itself or f not in self.spec.procedures:
            return False
        r = self.spec.procedures[f]
        if any(isinstance(n, (Return, Simultaneously)) for n in walked(r.body)):
            return False
        return ctx.direct or f not in self.suspends

    def inline_call(self, s, ctx, ind) -> None:
        """Call statement s compiled in place: the arguments into the parameters, then the body."""
        r = self.spec.procedures[s.func]
        uid = next(self._inline_ids)
        names = list(r.params)  # the procedure's locals in the order of its R_ version's slots
        for n in walked(r.body):
            if isinstance(n, (Let, For, Choose)):
                names.extend(x for x in n.pattern.names if x not in names)
        env = {n: f"v_{n}__{uid}" for n in names}
        bound = {n.name for n in walked(r.body) if isinstance(n, Assign)}
        bound.update(x for n in walked(r.body) if isinstance(n, (Let, For, Choose)) for x in n.pattern.names)
        inner = {f"v_{x}" for n in walked(r.body) if isinstance(n, CompFor) for x in n.pattern.names}
        inner.update(f"v_{n.param}" for n in walked(r.body) if isinstance(n, Lambda))
        scalars = set(self._scalar_codes) - inner  # (a comprehension of the body may bind one)
        for p, a in zip(r.params, s.args):
            code = self.ex(a, ctx)
            if _LOCAL.fullmatch(code) and p not in bound and code not in inner:  # (a local of the caller, read as it is)
                env[p] = code
            else:
                self._emit(ind, f"{env[p]} = {code}", s)
                if p not in bound and isinstance(a, Index) and self.scalar_list(a.obj, ctx.env):
                    scalars.add(env[p])  # (an item of a constant list of scalars)
        scalars |= self.scalar_locals(r.body, env) - {env[p] for p in r.params}
        labelled = any(isinstance(n, Choose) and max(self._choose_fns[id(n)]) >= 0 for n in walked(r.body))
        quiet, self._quiet = self._quiet, log_only_lets(r.body, self.spec.procedures)
        known, self._scalar_codes = self._scalar_codes, frozenset(scalars)
        numbers, self._number_codes = self._number_codes, (self._number_codes - inner) | self.number_codes(r.body, env)
        listed = self._locals_list
        if labelled:  # (a decision's labels read the procedure's locals, as its D_ version gives them)
            self._locals_list = "[" + ", ".join(env[n] for n in names) + "]"
            unset = [env[n] for n in names if n not in r.params]
            if unset:
                self._emit(ind, " = ".join(unset) + " = None", s)
        else:
            self._locals_list = "None"
        try:
            self._body(r.body, Ctx(env, False, direct=ctx.direct and s.func in self.suspends, alone=ctx.alone),
                       ind, s.pos)
        finally:
            self._quiet, self._locals_list, self._scalar_codes = quiet, listed, known
            self._number_codes = numbers
