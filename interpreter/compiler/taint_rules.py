"""The taint over a whole ruleset (compiler/taint.py works on one routine): what a seat may not know
in its rules (`rule_secrets`), how a routine numbers its locals (`routine_slots`), and which
procedures' parameters may be given a tainted value (`param_taint`)."""
from __future__ import annotations

from ..language.tree import Assign, Call, CallStmt, Choose, For, Let, Name, Simultaneously, walked
from .taint import Secrets, Taint


def rule_secrets(spec, cards: list, marks) -> Secrets:
    """The Secrets of a checked ruleset: its counters not `visible: all`, its zones `size: hidden`,
    and the attributes of its cards that some card does not show on its back (cards: each card's
    attributes, as the compiler makes them; marks are no secret)."""
    from ..checks.secrets import secret_counters

    hidden = [n for n, z in (spec.zones or {}).items() if isinstance(z, dict) and z.get("size") == "hidden"]
    shown: dict = {}  # attribute -> whether every card having it shows it on its back
    for a in cards:
        back = set((spec.cards.get(a.get("kind")) or {}).get("back") or ()) | {"kind"}
        for k in a:
            shown[k] = shown.get(k, True) and k in back
    attrs = [k for k, every in shown.items() if not every and k not in (marks or {})]
    public = [n for n, z in (spec.zones or {}).items() if isinstance(z, dict) and z.get("visible") == "all"]
    return Secrets(spec, secret_counters(spec), hidden, attrs, public)


def routine_slots(params, body) -> dict:
    """A routine's locals by name -> slot, as compiler/resumable.py numbers them."""
    slots: dict = {}
    for p in params:
        slots.setdefault(p, len(slots))
    for n in walked(tuple(body)):
        if type(n) in (Let, For, Choose, Simultaneously):
            for x in n.pattern.names:
                slots.setdefault(x, len(slots))
    return slots


def param_taint(spec, secrets: Secrets, answers: bool = False) -> dict:
    """procedure name -> the numbers of its parameters that some call may give a value worked out
    from a secret (an argument that reads one or a tainted local of the caller), over every
    procedure and the flow, to a fixed point; and, in secrets.returns, the procedures whose
    `return EXPR` may give one. (Which of several calls of a procedure ran is not followed: a
    parameter is what its call gives, as a `let` is.)"""
    routines = {n: (p.params, p.body) for n, p in spec.procedures.items()}
    routines["__flow__"] = ((), spec.flow.body)
    slots = {n: routine_slots(params, body) for n, (params, body) in routines.items()}
    out: dict = {n: set() for n in spec.procedures}
    threaded = threaded_procedures(spec) if answers else frozenset()

    def sealing(n) -> int:
        return 2 if n in threaded else 1

    while True:
        changed = False
        for n, (params, body) in routines.items():
            sl = slots[n]
            t = Taint(body, sl, secrets, {sl[params[i]] for i in out.get(n, ())}, sealing(n) if answers else 0)
            if n in out and n not in secrets.returns and (any(t._reads(r.value) for r, _ in t.returns) or (
                    len(t.returns) > 1 and any(c for _, c in t.returns))):
                secrets.returns.add(n)
                changed = True
            for call, _ in t.calls:
                if type(call) is CallStmt and call.slot_key is not None:
                    targets = list((spec.slots.get(call.func) or {}).values())
                else:
                    targets = [call.func]
                for i, a in enumerate(call.args):
                    if t._reads(a):
                        for f in targets:
                            if f in out and i not in out[f]:
                                out[f].add(i)
                                changed = True
        if not changed:
            return out


def answerers(spec, returns) -> dict:
    """procedure name -> the numbers of its parameters that name every seat answering a `choose`
    whose answer its `return` may give back (returns: those procedures, param_taint with
    answers): each such choose is `by` a parameter the procedure never sets again, or calls such
    a procedure with such parameters; None when a seat is not known that way. A caller notes
    those seats as the ones that answered what it is given back (compiler/sampling.py)."""
    procs = {n: p for n, p in spec.procedures.items() if n in returns}
    out: dict = {n: frozenset() for n in procs}
    while True:
        changed = False
        for n, p in procs.items():
            if out[n] is None:
                continue
            fixed = _fixed_params(p.params, p.body)
            got: set = set()
            for x in walked(tuple(p.body)):
                if type(x) is Choose:
                    i = fixed.get(x.by.id) if type(x.by) is Name else None
                    got.add(i)
                elif type(x) in (Call, CallStmt) and x.func in procs:
                    inner = out[x.func]
                    if inner is None:
                        got.add(None)
                        continue
                    for j in inner:
                        a = x.args[j] if j < len(x.args) else None
                        got.add(fixed.get(a.id) if type(a) is Name else None)
            new = None if None in got else frozenset(got)
            if new != out[n]:
                out[n] = new
                changed = True
        if not changed:
            return out


def _fixed_params(params, body) -> dict:
    """name -> number of the parameters that no statement of body sets again."""
    set_again = {y for x in walked(tuple(body)) if type(x) in (Let, For, Choose, Simultaneously)
                 for y in x.pattern.names} | {x.name for x in walked(tuple(body)) if type(x) is Assign}
    return {q: i for i, q in enumerate(params) if q not in set_again}


def threaded_procedures(spec) -> frozenset:
    """The procedures that may run in a thread of a `simultaneously` body (called from one, at any
    depth): their answers are sealed wherever they run (Taint with answers=2)."""
    calls = {n: {x.func for x in walked(tuple(p.body)) if type(x) in (Call, CallStmt)} for n, p in spec.procedures.items()}
    bodies = [p.body for p in spec.procedures.values()] + [spec.flow.body]
    out = {x.func for b in bodies for s in walked(tuple(b)) if type(s) is Simultaneously
           for x in walked(tuple(s.body)) if type(x) in (Call, CallStmt) and x.func in calls}
    todo = list(out)
    while todo:
        for f in calls[todo.pop()]:
            if f in calls and f not in out:
                out.add(f)
                todo.append(f)
    return frozenset(out)
