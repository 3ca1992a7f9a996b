"""What a sample relabels (bots/sample.py), worked out once a decision: the cards it may relabel,
and the values besides the zones that hold one."""
from __future__ import annotations

from ..runtime.state import Card


def hidden(plan: list) -> frozenset:
    """The cards a sample may relabel: every unknown card of plan (unknown_places)."""
    return frozenset(c for groups, _ in plan for _, cards in groups for c in cards)


def carriers(S, cards: frozenset | None = None) -> tuple:
    """Where state S holds a card of ``cards`` (any card when None) besides its zones: (the
    indices of the counters whose value holds one, and per thread, the indices of each frame's
    locals that hold one and whether its pending decision's options do). A sample, a copy of S,
    relabels only those (sample._remap_rest): a value holding only cards the seat knows (its own hand as
    a decision's options) is the same in every sample, and kept as the copy has it."""
    return ([i for i, x in enumerate(S.v) if _holds(x, cards)],
            [([[i for i, x in enumerate(f[2]) if _holds(x, cards)] for f in t[0]],
              t[2] is not None and _holds(t[2][1], cards)) for t in S.threads])


def _holds(x, cards, plain=frozenset((int, str, bool, float, type(None)))) -> bool:
    t = type(x)
    if t in plain:
        return False
    if t is Card:
        return cards is None or x in cards
    if t is list or t is tuple:
        return any(_holds(v, cards) for v in x)
    if t is dict:
        return any(_holds(v, cards) for v in x) or any(_holds(v, cards) for v in x.values())
    return False


def dealt_by_runs(S, plan: list, where: tuple) -> list | None:
    """How a sample deals the places of plan (unknown_places) into a copy of state S without
    relabelling: per kind, the runs (``runs``) of each group's places and of its buried places; None
    when a value besides the zones holds one of its cards (where: carriers(S, hidden(plan))) or
    one of them carries a mark: then each card dealt is relabelled too (sample._remap_rest)."""
    unknown = hidden(plan)
    if where[0] or any(options or any(frames) for frames, options in where[1]) or any(c in unknown for c in S.m):
        return None
    K, loc = S.k, S.loc
    return [([runs(K, ps, loc, cards) for ps, cards in groups],
              runs(K, under, loc, [c for _, cards in groups for c in cards])) for groups, under in plan]


def runs(K: list, ps: list, loc: list | None = None, cards: list = ()) -> list:
    """The places ps ((zone index, position, card), in canonical order) as runs of places next to
    each other in one zone: (zone index, first position, end position, the run's first place in
    ps, the knowledge mask K of the cards there: one int when they share it, else a list, and the
    cards that would change zone or mask if dealt there, of those that may be: cards, each in its
    zone loc; when they are fewer than half of them, else None)."""
    out = []
    j = 0
    n = len(ps)
    while j < n:
        zi, a, _ = ps[j]
        e = j + 1
        while e < n and ps[e][0] == zi and ps[e][1] == a + e - j:
            e += 1
        masks = [K[c] for _, _, c in ps[j:e]]
        m = masks[0] if masks.count(masks[0]) == len(masks) else masks
        moved = None
        if type(m) is int and loc is not None:
            moved = frozenset(c for c in cards if loc[c] != zi or K[c] != m)
            if 2 * len(moved) >= len(cards):
                moved = None
        out.append((zi, a, a + e - j, j, m, moved))
        j = e
    return out
