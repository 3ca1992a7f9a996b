"""Code generation: which expressions surely give a number (class KnownNumbers, part of
program.Compiler), so that their `+` and `*` are Python's own, without the length bound that a
list or a text made longer needs (ops.add, ops.mul: a call each).

Besides what expr.surely_number knows from the expression alone (a whole number written out,
`len`, `count`, `sum`, `-`, `//`, `%`): a local every binding of which is a number (`let n = 0`,
`n += len(xs)`), a call of a function that surely returns one (its one expression, or every
`return` of its block, the block ending in one), a card attribute that is a number on every card
(and no mark), a constant that is one. Worked out as the largest set that holds up: a local or a
function is dropped as soon as one of its values may be something else, until none is."""
from __future__ import annotations

import re

from ..language.tree import (Assign, Attr, Call, CallStmt, Choose, CompFor, For, Lambda, Let, Name, Return,
                             Simultaneously, walked)
from .expr import surely_number

_NUMBER_TYPES = (int, float)
_INT = re.compile(r"-?\d+")


class KnownNumbers:
    """Methods of program.Compiler: expressions known to give a number."""

    _number_codes: frozenset = frozenset()  # the routine's locals known to hold a number

    def number(self, e, ctx) -> bool:
        """Whether expression e, compiled in ctx, surely gives a number."""
        codes = self._number_codes  # (a name of a function compiled in place may stand for a number written out)
        return surely_number(e, lambda x: (ctx.env[x.id] in codes or _INT.fullmatch(ctx.env[x.id]) is not None)
                             if isinstance(x, Name) and x.id in ctx.env else self._global_number(x))

    def number_codes(self, body, env) -> frozenset:
        """The Python names (as env spells them) of the locals of body that only ever hold a number."""
        return frozenset(env.get(x, f"v_{x}") for x in self._number_locals(body, set(env), self.number_functions))

    @property
    def number_functions(self) -> frozenset:
        """The rules' functions that surely return a number."""
        if getattr(self, "_number_functions", None) is None:
            fns = set(self.spec.functions)
            while True:
                drop = {f for f in fns if not self._returns_number(f, fns)}
                if not drop:
                    break
                fns -= drop
            self._number_functions = frozenset(fns)
        return self._number_functions

    def _global_number(self, x, fns=None) -> bool:
        """A name no local hides, a call or an attribute that surely gives a number."""
        if isinstance(x, Name):
            return type(self.spec.constants.get(x.id)) in _NUMBER_TYPES
        if isinstance(x, Call):
            return x.func in (self.number_functions if fns is None else fns)
        if isinstance(x, Attr):
            if getattr(self, "_number_attrs", None) is None:
                self._number_attrs = frozenset(a for a in self.attrs if a not in self.marks and all(
                    type(c.get(a)) in _NUMBER_TYPES for c in self.cards))
            return x.name in self._number_attrs
        return False

    def _returns_number(self, f: str, fns: set) -> bool:
        r = self.spec.functions[f]
        body = r.body
        if not isinstance(body, tuple):
            return surely_number(body, lambda x: not (isinstance(x, Name) and x.id in r.params)
                                 and self._global_number(x, fns))
        if not body or not isinstance(body[-1], Return):
            return False  # (it may end without a value)
        local = self._number_locals(body, set(r.params), fns)
        known = self._known_in(local, set(r.params), fns)
        return all(n.value is not None and surely_number(n.value, known) for n in walked(body) if isinstance(n, Return))

    def _known_in(self, local: set, hidden: set, fns: set):
        """known(x) for surely_number: a local of `local`, else a name no local hides, a call or an
        attribute."""
        def known(x):
            if isinstance(x, Name) and (x.id in local or x.id in hidden):
                return x.id in local
            return self._global_number(x, fns)
        return known

    def _number_locals(self, body, params: set, fns: set) -> set:
        """The locals of body (made by `let`) that every binding gives a number, as the rules name
        them. Never a name that a comprehension or lambda binds, in body or in a routine it may
        call (a function compiled in place binds its names as the body's locals are spelled)."""
        binds: dict = {}
        bad = set(params) | self._names_bound_by_calls(body)
        lets = set()
        for n in walked(body):
            if isinstance(n, Let):
                if n.pattern.is_tuple:
                    bad.update(n.pattern.names)
                else:
                    lets.add(n.pattern.names[0])
                    binds.setdefault(n.pattern.names[0], []).append(n.value)
            elif isinstance(n, Assign) and n.index is None:
                binds.setdefault(n.name, []).append(n.value)  # (=, += or -=: a number to a number)
            elif isinstance(n, (For, Choose, CompFor, Simultaneously)):
                bad.update(n.pattern.names)
            elif isinstance(n, Lambda):
                bad.add(n.param)
        local = lets - bad
        while True:
            known = self._known_in(local, bad | lets, fns)
            drop = {x for x in local if not all(surely_number(v, known) for v in binds[x])}
            if not drop:
                return local
            local -= drop

    def _called_routines(self, body) -> set:
        """The rules' functions and procedures that body calls, directly or through others."""
        if getattr(self, "_calls_of", None) is None:
            spec = self.spec
            self._calls_of = {name: {n.func for n in walked(r.body) if isinstance(n, (Call, CallStmt))
                                     and (n.func in spec.functions or n.func in spec.procedures)}
                              for name, r in {**spec.functions, **spec.procedures}.items()}
        todo = [n.func for n in walked(body) if isinstance(n, (Call, CallStmt)) and n.func in self._calls_of]
        seen: set = set()
        while todo:
            f = todo.pop()
            if f not in seen:
                seen.add(f)
                todo.extend(self._calls_of[f])
        return seen

    def _names_bound_by_calls(self, body) -> set:
        """Every name that a comprehension or lambda of a function binds, for the functions body may
        call, directly or through other routines."""
        if getattr(self, "_comprehension_names", None) is None:
            self._comprehension_names = {
                name: {x for n in walked(r.body) if isinstance(n, CompFor) for x in n.pattern.names}
                | {n.param for n in walked(r.body) if isinstance(n, Lambda)}
                for name, r in self.spec.functions.items()}
        return set().union(*(self._comprehension_names.get(f, ()) for f in self._called_routines(body)))
