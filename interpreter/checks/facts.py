"""What code generation needs to know of a ruleset's routines before compiling them: which
procedures do something (may stop, start threads), and which lets only the log reads."""
from __future__ import annotations

from ..language.builtins import IMPURE_BUILTINS
from ..language.tree import Assign, Call, CallStmt, Choose, For, Let, Log, Name, Node, Show, Simultaneously, walk, walked


def procedures_that(spec, does) -> set:
    """The procedures with a node in their body for which does(node) is true, or that call one
    (by name or through a slot)."""
    out, calls = set(), {}
    for name, r in spec.procedures.items():
        cs = calls[name] = set()
        for n in walked(r.body):
            if does(n):
                out.add(name)
            elif isinstance(n, CallStmt):
                cs.update([n.func] if n.slot_key is None else spec.slots.get(n.func, {}).values())
            elif isinstance(n, Call) and n.func in spec.procedures:  # let x = f(...): f's value
                cs.add(n.func)
    changed = True
    while changed:
        changed = False
        for n, cs in calls.items():
            if n not in out and cs & out:
                out.add(n)
                changed = True
    return out


def log_only_lets(body, procedures=()) -> set:
    """Names a routine binds with `let` and reads only in `log` and `show` statements.

    Such a let is worked out only when the game keeps a log: a simulation without a log skips
    what only the log would say. A let whose value draws from the generator (random) is always
    run, so a game is the same with or without its log. In a routine that may stop, the value is
    kept beside the log (State.lv), not among the routine's locals, so the game's state does not
    depend on its log either.
    """
    lets, other, read = set(), set(), set()

    def visit(n, quiet):
        if isinstance(n, tuple):
            for x in n:
                visit(x, quiet)
            return
        if not isinstance(n, Node):
            return
        if isinstance(n, (Log, Show)):
            quiet = True
        if isinstance(n, Name) and not quiet:
            read.add(n.id)
        elif isinstance(n, Assign):
            other.add(n.name)
        elif isinstance(n, Let):
            if any(isinstance(x, Call) and (x.func in IMPURE_BUILTINS or x.func in procedures) for x in walk(n.value)):
                other.update(n.pattern.names)
            else:
                lets.update(n.pattern.names)
        elif isinstance(n, (For, Choose, Simultaneously)):
            other.update(n.pattern.names)
        for f in n.__dataclass_fields__:
            if f != "pos":
                visit(getattr(n, f), quiet)

    visit(body, False)
    return lets - other - read
