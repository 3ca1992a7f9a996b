"""Marks put on cards (tokens, a colour that replaces the printed one), and whether a seat knows a card."""
from __future__ import annotations


def drop_marks(S, cards, zi: int):
    """Take off the marks that a card keeps only in other zones (a token falls off a discarded card)."""
    names = S.vis.drop[zi]
    if not names:
        return
    M = S.m
    for c in cards:
        d = M.get(c)
        if d:
            for n in names:
                d.pop(n, None)
            if not d:
                del M[c]


def knows(S, p, c) -> bool:
    """knows(p, c) of the rules: whether seat p knows card c now (false for none)."""
    if c is None:
        return False
    return bool((S.k[c] >> int(p)) & 1)


def set_mark(S, c, name, value, default=None):
    """Set a mark on a card; setting it to its default takes it off (a token returned)."""
    if c is None:
        return
    d = S.m.get(c)
    if value == default and type(value) is type(default):
        if d is not None:
            d.pop(name, None)
            if not d:
                del S.m[c]
        return
    if d is None:
        d = S.m[c] = {}
    d[name] = value
