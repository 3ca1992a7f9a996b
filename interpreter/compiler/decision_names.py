"""The stable name of each decision (docs/testing.md, "Names that no rewording changes"): every
`choose` of a ruleset is named by where it is written and what it binds, `ROUTINE.VARIABLE`
(`player_turn.action`; `flow.x` in the flow), the names of a tuple pattern joined with `+`
(`take_action.what+x`: YAML reads it as written, in a flow mapping too, where a comma would end
it). No text of the rules is in it, so no rewording of a prompt, a label or a log line changes
it; nor does how the compiler runs the choose (in a loop, in a `simultaneously` block, in a
procedure that callers reach through slots or hooks, with the functions it calls inlined). A
choose may name its decision itself, `named NAME`: it is then ROUTINE.NAME (a tile's override of a
routine that asks the same question in other words and other locals keeps its name).

Two chooses of one routine that bind the same names are told apart by their order in it, the
second `ROUTINE.VARIABLE.2`, and so on. The definitions of a routine an override replaces
(`previous(...)`) come first, so a tile that overrides a routine leaves the names of the routine's
own chooses as they were: a choose of the override that binds the same names is numbered after
them."""
from __future__ import annotations

from collections import Counter

from ..language.tree import Choose, author_name, walked

FLOW = "flow"  # the routine name of the chooses of the flow (a ruleset's `flow` section)


def _definition_order(name: str) -> int:
    """The order of a definition in its routine's chain of overrides (name__prev1, name__prev2,
    ..., then name itself)."""
    _, sep, n = name.partition("__prev")
    return int(n) if sep and n.isdigit() else 1 << 30


def decision_names(spec) -> dict:
    """{id(choose): its stable name} for every choose of the ruleset's procedures and flow."""
    routines = [(author_name(n), _definition_order(n), r.body) for n, r in spec.procedures.items()]
    routines.append((FLOW, 0, spec.flow.body))
    names: dict = {}
    seen: Counter = Counter()
    for routine, _, body in sorted(routines, key=lambda r: (r[0], r[1])):
        chooses = sorted((n for n in walked(body) if isinstance(n, Choose)),
                         key=lambda c: (c.pos.line, c.pos.col))
        for c in chooses:
            base = f"{routine}.{c.named or '+'.join(c.pattern.names)}"
            seen[base] += 1
            names[id(c)] = base if seen[base] == 1 else f"{base}.{seen[base]}"
    return names
