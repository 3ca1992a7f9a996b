"""Which functions and procedures of a ruleset ever run: a routine defined and never reached is
told as a warning (a misspelt hook that overrides nothing, a helper nothing calls any more).

A ruleset is entered by its `flow`, by the functions the engine calls itself (ENTRY_FUNCTIONS),
by the functions its `table` section shows, by the procedures its slots name, and by the hook
points its variants offer to the variants that require them (variant.hooks). From those,
every call reaches its routine (a slot call reaches every procedure of the slot, `previous(...)`
the definition an override replaces).
"""
from __future__ import annotations

from ..errors import RuleError, did_you_mean
from ..language.tree import Call, CallStmt, walked

ENTRY_FUNCTIONS = ("score", "tiebreak", "value", "worth", "standing")


def reached(spec) -> dict:
    """The names of the routines the game may run, in the order they are found from the flow
    (callers before what they call), as the keys of a dict."""
    routines = {**spec.functions, **spec.procedures}
    roots = [n for n in ENTRY_FUNCTIONS if n in spec.functions]
    roots += [f for f in (spec.table or {}).values() if isinstance(f, str)] + sort_functions(spec)
    roots += [proc for table in spec.slots.values() for proc in table.values()] + list(spec.hooks)
    seen: dict = {}
    queue = [spec.flow.body] if spec.flow is not None else []
    while queue or roots:
        if not queue:
            n = roots.pop(0)
            if n in routines and n not in seen:
                seen[n] = None
                queue.append(routines[n].body)
            continue
        for node in walked(queue.pop(0)):
            if isinstance(node, CallStmt) and node.slot_key is not None:
                called = list((spec.slots.get(node.func) or {}).values())
            elif isinstance(node, (Call, CallStmt)):
                called = [node.func]
            else:
                continue
            for n in called:
                if n in routines and n not in seen:
                    seen[n] = None
                    queue.append(routines[n].body)
    return seen


def unreached(spec, seen=None) -> list:
    """A warning (a RuleError) for each function or procedure the game never runs, at its definition
    (seen: reached(spec), when it is known)."""
    seen = reached(spec) if seen is None else seen
    errors = []
    for section, table in (("function", spec.functions), ("procedure", spec.procedures)):
        for name, r in table.items():
            if name in seen or "__prev" in name:  # (a replaced definition: its override is told)
                continue
            hook = did_you_mean(name, spec.hooks)
            if hook:  # (a tile's routine meant to replace a hook point)
                hint = hook[:-2] + ", a hook point? list it under variant.overrides)"
            else:
                hint = did_you_mean(name, {n for n in seen if "__prev" not in n})
            errors.append(RuleError(r.pos, f"{section} '{name}' is never used: nothing that runs calls it{hint}"))
    return errors


def sort_functions(spec) -> list:
    """The functions that zones sort by (a zone's `sort`), each once."""
    out = []
    for z in spec.zones.values():
        f = z.get("sort") if isinstance(z, dict) else None
        if isinstance(f, str) and f in spec.functions and f not in out:
            out.append(f)
    return out
