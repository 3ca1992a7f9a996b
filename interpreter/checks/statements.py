"""Static checks of statements in effect code: what a function may do, assignments, loops and
break, moves between zones, choices, procedure and slot calls, marks."""
from __future__ import annotations

from ..errors import RuleError, did_you_mean
from ..language.builtins import BUILTINS
from ..language.tree import (Assign, Break, CallStmt, Choose, Draw, For, If, Let, ListLit, Log, Move, Remove, Return,
                             Reveal, SetMark, Show, Shuffle, Simultaneously, While)
from .calls import _args, _shown, _takes
from .names import VALUE_BUILTINS

_FUNCTION_STATEMENTS = (Let, Assign, If, For, While, Break, Return)
_STATEMENT_WORDS = {Move: "move", Draw: "draw", Shuffle: "shuffle", Reveal: "reveal", Remove: "remove", Choose: "choose",
                    Simultaneously: "simultaneously", CallStmt: "a procedure call", SetMark: "set", Log: "log",
                    Show: "show"}


class StatementChecks:
    """The checks of statements and blocks (a part of check.Checker)."""

    def block(self, stmts, scope: set, loop: bool):
        for s in stmts:
            self.stmt(s, scope, loop)

    def stmt(self, s, scope, loop):
        t = type(s)
        if self.in_function and t not in _FUNCTION_STATEMENTS:
            self.err(s.pos, f"a function only computes a value: '{_STATEMENT_WORDS.get(t, 'this')}' belongs in a "
                            "procedure (functions may use let, assignments to locals, if, for, while, break and return)")
            return
        if t is Let:
            self.value(s.value, scope)
            self.bind(s.pattern, scope)
        elif t is Return:
            if s.value is not None:
                self.expr(s.value, scope)
        elif t is Assign:
            self.value(s.value, scope)
            if self.in_function and s.name not in scope:
                what = "a counter" if s.name in self.spec.counters else "not a local of the function"
                self.err(s.pos, f"a function only computes a value: it cannot change '{s.name}' ({what})")
                return
            if s.name in scope:
                if s.index is not None:
                    self.err(s.pos, f"'{s.name}' is a local; it cannot be indexed in an assignment")
            elif s.name in self.spec.counters:
                self.counter_index(s.name, s.index, s.pos, scope, s.key)
            elif s.name in self.spec.constants:
                self.err(s.pos, f"'{s.name}' is a constant and cannot be changed")
            elif s.name in self.spec.zones:
                self.err(s.pos, f"'{s.name}' is a zone: change it with move, draw or shuffle")
            elif s.name in VALUE_BUILTINS:
                self.err(s.pos, f"'{s.name}' is built in and cannot be changed")
            elif s.name in self.made:
                self.err(s.pos, self._out_of_block(s.name))
            else:
                self.err(s.pos, f"unknown name '{s.name}': declare a local with 'let' or a counter"
                                f"{did_you_mean(s.name, scope | set(self.spec.counters))}")
        elif t is If:
            # a local made inside a block is known only there: after an if whose branch did not
            # run it would have no value
            for cond, body in s.branches:
                self.expr(cond, scope)
                self.block(body, set(scope), loop)
            if s.orelse is not None:
                self.block(s.orelse, set(scope), loop)
        elif t is For:
            self.expr(s.iter, scope)
            inner = set(scope)
            self.bind(s.pattern, inner)
            self.block(s.body, inner, True)
        elif t is While:
            self.expr(s.cond, scope)
            self.block(s.body, set(scope), True)
        elif t is Break:
            if not loop:
                self.err(s.pos, "'break' outside a loop")
        elif t is Move:
            self.expr(s.what, scope)
            self.zone(s.dest, scope, "move ... to")
        elif t is Draw:
            self.expr(s.count, scope)
            self.zone(s.src, scope, "draw ... from")
            self.zone(s.dest, scope, "draw ... to")
        elif t is Shuffle:
            self.zone(s.zone, scope, "shuffle")
        elif t is Remove:
            self.remove_stmt(s, scope)
        elif t is Reveal:
            self.expr(s.what, scope)
            if s.to is not None:
                self.expr(s.to, scope)
        elif t is Choose:
            self.expr(s.options, scope)
            if type(s.options) is ListLit and not s.options.items:
                self.warnings.append(RuleError(s.options.pos, "'choose' from an empty list: it never has an "
                                                              "option, so the choice is never asked"))
            for e in (s.by, s.prompt, s.count, s.upto, s.unavailable):
                if e is not None:
                    self.expr(e, scope)
            if s.by is None:
                self.err(s.pos, "'choose' needs 'by PLAYER': who decides")
            if s.distinct is not None:
                if s.count is None and s.upto is None:
                    self.err(s.distinct.pos, "'distinct' is for a choice of several: add 'pick N' or 'pick up to N'")
                if s.distinct.param in self.global_values():
                    self.err(s.distinct.pos, f"'{s.distinct.param}' is already a {self.kind_of(s.distinct.param)}; "
                                             "choose another name for the key's parameter")
                self.expr(s.distinct.body, scope | {s.distinct.param})
            self.bind(s.pattern, scope)
            if s.label is not None:
                self.expr(s.label, scope)
            if s.hint is not None:
                self.expr(s.hint, scope)
        elif t is Simultaneously:
            self.expr(s.iter, scope)
            inner = set(scope)
            self.bind(s.pattern, inner)
            self.block(s.body, inner, False)
        elif t is CallStmt:
            for a in s.args:
                self.expr(a, scope)
            if s.slot_key is not None:
                self.expr(s.slot_key, scope)
                table = self.spec.slots.get(s.func)
                if table is None:
                    self.err(s.pos, f"unknown slot '{s.func}'{did_you_mean(s.func, self.spec.slots)}")
                else:
                    for proc in table.values():
                        r = self.spec.procedures.get(proc)
                        if r and len(r.params) != len(s.args):
                            self.err(s.pos, f"slot '{s.func}' runs '{proc}', which takes "
                                            f"{_args(len(r.params))}, not {len(s.args)}")
                            break
            else:
                r = self.spec.procedures.get(s.func)
                if r is None:
                    if s.func in self.spec.functions or s.func in BUILTINS:
                        self.err(s.pos, f"{_shown(s.func)} is a function: use its value in an expression")
                    else:
                        self.err(s.pos, f"unknown procedure '{s.func}'{did_you_mean(s.func, self.spec.procedures)}")
                elif len(r.params) != len(s.args):
                    self.err(s.pos, _takes(s.func, len(r.params), len(s.args)))
        else:  # SetMark, Log, Show
            for f in ("target", "value", "message", "to", "orelse", "title", "columns", "rows"):
                v = getattr(s, f, None)
                if v is not None:
                    if f == "target":
                        self.expr(v.obj, scope)
                        if v.name not in self.spec.marks:
                            what = "a card attribute, which cannot change" if v.name in self.attrs else "not a declared mark (marks: section)"
                            self.err(v.name_pos or v.pos, f"'{v.name}' is {what}"
                                            f"{did_you_mean(v.name, self.spec.marks)}")
                    else:
                        self.expr(v, scope)

