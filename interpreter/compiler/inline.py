"""Which calls of the rules' functions are compiled in place (no Python call: about 540
instructions each on CPython 3.11).

A function is inlined when its body is one expression that calls no procedure and only functions
that are inlined in their turn (so no recursion), and each argument of the call compiles to
a plain name, a local's slot (`L[2]`) or a literal: reading it twice or not at all is the same as
reading it once, and no name the body binds (a comprehension's or lambda's) can capture it."""
from __future__ import annotations

import re

from ..language.tree import Call, CompFor, Lambda, walk

_PLAIN = re.compile(r"[A-Za-z_]\w*(\[\d+\])?|-?\d+|'[^'\\\n]*'")


def inline_body(spec, f: str, memo: dict, seen: frozenset = frozenset()):
    """(body expression, the names it binds) of function f if a call of it may be compiled in
    place, else None; memo keeps the answers for one ruleset."""
    if f not in memo:
        memo[f] = _inlinable(spec, f, memo, seen | {f})
    return memo[f]


def _inlinable(spec, f: str, memo: dict, seen: frozenset):
    body = spec.functions[f].body
    if isinstance(body, tuple):
        return None
    bound = set()
    for n in walk(body):
        if isinstance(n, Call) and (n.func in spec.procedures or n.func in spec.functions and (
                n.func in seen or inline_body(spec, n.func, memo, seen) is None)):
            return None  # (a function it calls is inlined in its turn where its arguments are plain)
        if isinstance(n, CompFor):
            bound.update(n.pattern.names)
        elif isinstance(n, Lambda):
            bound.add(n.param)
    return body, bound


def plain_args(texts: list, bound: set) -> bool:
    """Each compiled argument is plain and names nothing the body binds."""
    return all(_PLAIN.fullmatch(t) and not any(re.search(rf"\bv_{b}\b", t) for b in bound) for t in texts)
