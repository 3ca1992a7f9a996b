"""Static checks of calls in effect code: every call names a function, built-in or procedure that
can be called there, with the right number of arguments (and keys only where they belong)."""
from __future__ import annotations

from ..errors import did_you_mean
from ..language.builtins import BUILTINS, IMPURE_BUILTINS, LAMBDA_BUILTINS
from ..language.tree import Call, Lambda, Name, returns_value


class CallChecks:
    """The checks of calls and their arguments (a part of check.Checker)."""

    def value(self, e, scope):
        """The value of a let or an assignment: an expression, or what a procedure gives back
        (`let x = f(...)`, the procedure's `return EXPR`)."""
        if isinstance(e, Call) and e.func in self.spec.procedures and not self.in_function:
            r = self.spec.procedures[e.func]
            for a in e.args:
                self.expr(a, scope)
            if len(r.params) != len(e.args):
                self.err(e.pos, _takes(e.func, len(r.params), len(e.args)))
            if not returns_value(r.body):
                self.err(e.pos, f"{_shown(e.func)} gives no value (it has no 'return EXPR'): call it as a statement")
            return
        self.expr(e, scope)

    def call(self, e, scope):
        f = e.func
        if f == "slot_name" and f not in self.spec.functions:  # slot_name(SLOT, key): SLOT is no value
            if len(e.args) != 2 or not isinstance(e.args[0], Name) or e.args[0].id not in self.spec.slots:
                self.err(e.pos, "'slot_name' takes a slot's name and a key: slot_name(power, d)"
                                + (f" (slots: {', '.join(self.spec.slots)})" if self.spec.slots else ""))
            if len(e.args) == 2:
                self.expr(e.args[1], scope)
            return
        if f in ("make", "made") and f not in self.spec.functions:  # make(F), made(F): F is a family, no value
            self.family_arg(e)
            if f == "make" and self.in_function:
                self.err(e.pos, "'make' makes a zone: use it in a procedure, not in a function (functions only "
                                "compute values)")
            return
        lambdas = [a for a in e.args if isinstance(a, Lambda)]
        for a in e.args:
            if isinstance(a, Lambda):
                if a.param in self.global_values():
                    self.err(a.pos, f"'{a.param}' is already a {self.kind_of(a.param)}; choose another name "
                                    "for the key's parameter")
                self.expr(a.body, scope | {a.param})
            else:
                self.expr(a, scope)
        if f in self.spec.functions:
            r = self.spec.functions[f]
            if len(r.params) != len(e.args):
                self.err(e.pos, _takes(f, len(r.params), len(e.args)))
            if lambdas:
                self.err(lambdas[0].pos, "'x -> ...' is only allowed as the key of max_by, min_by or sort_by")
            return
        if f in BUILTINS:
            lo, hi, _ = BUILTINS[f]
            if f == "played_by" and not any(isinstance(z, dict) and z.get("played_by") for z in self.spec.zones.values()):
                self.err(e.pos, "'played_by' reads who played a card into a zone with 'played_by: true', "
                                "and no zone has it")
            if f in IMPURE_BUILTINS and self.in_function:
                self.err(e.pos, f"'{f}' draws from the game's random generator: use it in a procedure, "
                                "not in a function (functions only compute values)")
            if lambdas and f not in LAMBDA_BUILTINS:
                self.err(lambdas[0].pos, "'x -> ...' is only allowed as the key of max_by, min_by or sort_by")
                return
            if not lo <= len(e.args) <= hi:
                want = str(lo) if lo == hi else f"{lo} to {hi}"
                self.err(e.pos, f"'{f}' takes {want} argument{'' if want == '1' else 's'}, not {len(e.args)}")
            if f in LAMBDA_BUILTINS:
                if len(e.args) == 2 and not isinstance(e.args[1], Lambda):
                    self.err(e.args[1].pos, f"the second argument of '{f}' is a key, like 'c -> c.value'")
                if lambdas and lambdas[0] is not e.args[-1]:
                    self.err(lambdas[0].pos, "'x -> ...' is only allowed as the key of max_by, min_by or sort_by")
            return
        if f in self.spec.procedures:
            if self.in_function:
                self.err(e.pos, f"{_shown(f)} is a procedure: a function cannot call one (functions only compute values)")
            else:
                self.err(e.pos, f"{_shown(f)} is a procedure: call it as a statement, or take the value it returns "
                                f"on a line of its own (let x = {'previous' if '__prev' in f else f}(...))")
            return
        # (a rules' function by its own name, never the inner name of a definition an override replaced;
        # previous(...) calls that one)
        if f == "score":
            return  # (no score(p) at all: said once, where the functions are)
        known = set(BUILTINS) | {g for g in self.spec.functions if "__prev" not in g} | {"previous"}
        self.err(e.pos, f"unknown function '{f}'{did_you_mean(f, known)}")


def _args(n: int) -> str:
    return f"{n} argument" if n == 1 else f"{n} arguments"


def _shown(name: str) -> str:
    """A routine's name as its author wrote the call: the definition an override replaces is
    kept under an inner name (routines._chain), called as previous(...)."""
    if "__prev" in name:
        return f"'previous(...)' (the '{name.rsplit('__prev', 1)[0]}' this overrides)"
    return f"'{name}'"


def _takes(name: str, params: int, args: int) -> str:
    return f"{_shown(name)} takes {_args(params)}, not {args}"

