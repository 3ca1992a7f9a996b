"""Which value was none: when rule code fails on a none (`top(hand[p]).value` of an empty hand),
the message names the expressions of the failing statement that give none, and when they do."""
from __future__ import annotations

from ..language.tree import Attr, Call, GenCall, Index, Int, Name, Node, Str, walk

# built-ins that give none, and when
_NONE_WHEN = {
    "top": "when {0} is empty", "last": "when {0} is empty", "first": "when nothing is in {0}",
    "max": "of no values", "min": "of no values", "max_by": "when {0} is empty",
    "min_by": "when {0} is empty", "random": "when {0} is empty",
}


def text_of(e, most: int = 40) -> str:
    """A short rendering of an expression as the author wrote it (`top(hand[p])`), or '...'."""
    if isinstance(e, Name):
        s = e.id
    elif isinstance(e, Int):
        s = str(e.value)
    elif isinstance(e, Str) and all(isinstance(p, str) for p in e.parts):
        s = '"' + "".join(e.parts) + '"'
    elif isinstance(e, Attr):
        s = f"{text_of(e.obj, most)}.{e.name}"
    elif isinstance(e, Index):
        s = f"{text_of(e.obj, most)}[{text_of(e.index, most)}]"
    elif isinstance(e, Call):
        s = f"{e.func}({', '.join(text_of(a, most) for a in e.args)})"
    elif isinstance(e, GenCall):
        s = f"{e.func}(...)"
    else:
        s = "..."
    return s if len(s) <= most else s[: most - 3] + "..."


def statement_at(spec, pos) -> Node | None:
    """The statement (or a function's expression) of the rules written at pos."""
    routines = [spec.flow, *spec.procedures.values(), *spec.functions.values()]
    best = None
    for r in routines:
        if r is None:
            continue
        body = r.body if isinstance(r.body, tuple) else (r.body,)
        for top in body:
            for n in walk(top):
                if getattr(n, "pos", None) == pos and best is None:
                    best = n
    return best


def why_none(spec, pos, counters_none=()) -> str:
    """What in the statement at pos may have been none, and when: "top(hand[1]) is none when
    hand[1] is empty". Empty when nothing there is known to give none."""
    node = statement_at(spec, pos) if pos is not None else None
    if node is None:
        return ""
    found = []
    for n in walk(node):
        if isinstance(n, (Call, GenCall)) and n.func in _NONE_WHEN:
            first = text_of(n.args[0]) if isinstance(n, Call) and n.args else "..."
            found.append((n.pos.line, n.pos.col, f"{text_of(n)} is none {_NONE_WHEN[n.func].format(first)}"))
        elif isinstance(n, Name) and n.id in counters_none:
            found.append((n.pos.line, n.pos.col, f"counter '{n.id}' is none until the rules give it a value"))
    said = list(dict.fromkeys(text for _, _, text in sorted(found)))  # (in the order written)
    if not said:
        return ""
    return ("; " + said[0]) if len(said) == 1 else "; it may be one of: " + "; ".join(said[:3])
