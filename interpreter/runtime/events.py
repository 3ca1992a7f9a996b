"""The game's log: each event's parts, with every card fixed as a Known (the seats that knew it
when the line was written), and the tables the rules show."""
from __future__ import annotations

from .state import Card

TABLE = "\x00table"  # first item of a table event in the log
TO = "\x00to"  # first item of a line for some seats: [TO, seats' bit mask, their line, the others' line or None]


def table_event(S, title, columns, rows):
    """A table for the log: title parts, column headings, and each cell as event parts (a list
    of cards as its cards with commas), cards with their knowers at this moment."""
    def cell(v):
        if type(v) in (list, tuple):
            parts = []
            for i, x in enumerate(v):
                if i:
                    parts.append(", ")
                parts.extend(cell(x))
            return parts
        return event(S, (v,))

    return [TABLE, event(S, title), [str(c) for c in columns],
            [[cell(v) for v in (r if type(r) in (list, tuple) else (r,))] for r in rows]]


class Known(tuple):
    """A card in a log event: (card id, bit mask of the seats that knew it when the line was
    written). What each seat reads of a line is fixed then, whatever it learns later. The mask's
    BURIED bit: the card lay under the top card of a zone its kind is `stacked_in`, so its back
    was not seen either."""
    __slots__ = ()


BURIED = 1 << 30  # (above every seat's bit: state.MAX_SEATS)


def buried(S, c) -> bool:
    """Whether card c lies under the top card of a zone its kind is `stacked_in` (its back unseen)."""
    zi = S.loc[c]
    cs = S.vis.buried.get(zi)
    return cs is not None and c in cs and S.z[zi][-1] != c


def _fixed_piles(S, v):
    """_fixed, for rules with a kind `stacked_in` zones: a card under the top of one is BURIED."""
    t = type(v)
    if t is Card:
        return Known((int(v), S.k[v] | BURIED if buried(S, v) else S.k[v]))
    if t is list:
        return [_fixed_piles(S, x) for x in v]
    if t is tuple:
        return tuple([_fixed_piles(S, x) for x in v])
    return v


def _fixed(k, v):
    """v with every card in it (also in lists and tuples, at any depth) as a Known, and each list
    and tuple copied: a logged value never changes after it is written."""
    t = type(v)
    if t is Card:
        return Known((int(v), k[v]))
    if t is list:
        return [_fixed(k, x) for x in v]
    if t is tuple:
        return tuple([_fixed(k, x) for x in v])
    return v


def event(S, parts):
    """A log event: its parts, with each card's knowers at the moment it was logged."""
    if getattr(S.vis, "buried", None):
        return [_fixed_piles(S, p) if type(p) in _NESTED else p for p in parts]
    k = S.k
    return [_fixed(k, p) if type(p) in _NESTED else p for p in parts]


_NESTED = frozenset({Card, list, tuple})


def event_to(S, to, parts, others):
    """A line only the seats `to` (a seat, or a list of seats) read; the other seats read `others`
    (event parts), or nothing when it is None. Each is fixed as `event` fixes a line."""
    mask = 0
    for p in (to if type(to) in (list, tuple) else (to,)):
        if p is not None:
            mask |= 1 << int(p)
    return [TO, mask, event(S, parts), None if others is None else event(S, others)]
