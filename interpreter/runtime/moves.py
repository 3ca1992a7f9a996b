"""Moving cards between zones (a card's knowers follow it: who sees the zone it lies in),
drawing, revealing, and the marks put on cards."""
from __future__ import annotations

from .state import Card, Seat

NO_CARDS = frozenset()
# the types of the values a card attribute in an index may have (compiler/program.py, Compiler.indexed)
SCALARS = frozenset({int, bool, float, str, type(None), Card, Seat})


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


def move(S, c, zi: int):
    """Move a card, a list of cards (each in turn) or nothing (none) to the top of zone zi."""
    Z, loc, K = S.z, S.loc, S.k
    if type(c) is Card:
        Z[loc[c]].remove(c)
        Z[zi].append(c)
        loc[c] = zi
        K[c] = S.vis[zi]
        if S.m:
            drop_marks(S, (c,), zi)
        return
    if c is None:
        return
    dest, mask = Z[zi], S.vis[zi]
    for x in tuple(c):
        Z[loc[x]].remove(x)
        dest.append(x)
        loc[x] = zi
        K[x] = mask
        if S.m:
            drop_marks(S, (x,), zi)


def move_under(S, c, zi: int):
    """Move a card, a list of cards (each in turn) or nothing (none) to the bottom of zone zi."""
    if c is None:
        return
    Z, loc, K = S.z, S.loc, S.k
    dest, mask = Z[zi], S.vis[zi]
    for x in ((c,) if type(c) is Card else tuple(c)):
        Z[loc[x]].remove(x)
        dest.insert(0, x)
        loc[x] = zi
        K[x] = mask
        if S.m:
            drop_marks(S, (x,), zi)


def move_all(S, src: int, zi: int, bottom: bool = False):
    cards = S.z[src]
    if not cards or src == zi:
        return
    S.z[src] = []
    dest = S.z[zi]
    if bottom:
        dest[0:0] = cards
    else:
        dest.extend(cards)
    loc, K, mask = S.loc, S.k, S.vis[zi]
    for c in cards:
        loc[c] = zi
        K[c] = mask
    if S.m:
        drop_marks(S, cards, zi)


def draw(S, n: int, src: int, zi: int):
    """Move the top n cards of src to zi, one at a time (fewer if src runs out)."""
    from_ = S.z[src]
    dest = S.z[zi]
    loc, K, mask = S.loc, S.k, S.vis[zi]
    for _ in range(n):
        if not from_:
            return
        c = from_.pop()
        dest.append(c)
        loc[c] = zi
        K[c] = mask
        if S.m:
            drop_marks(S, (c,), zi)


def reveal(S, what, to=None):
    if what is None:
        return
    cards = (what,) if type(what) is Card else tuple(what)
    mask = ((1 << S.n) - 1) if to is None else (1 << int(to))
    for c in cards:
        S.k[c] |= mask


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


def get_mark(S, c, name, default):
    d = S.m.get(c)
    if d is None:
        return default
    return d.get(name, default)
