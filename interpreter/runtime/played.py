"""Who played which card: a zone with `played_by: true` keeps, for each card moved into it, the
seat whose zone it came from (none for a shared zone), as a value on the card that no rule sets
(the rules read it with played_by(c); views give it for the cards in such a zone)."""
from __future__ import annotations

from . import moves
from .state import SEATS, Card

# where the seat is kept among the card's marks: a name no mark of a rule file can have
PLAYED = "played by"


def _record(S, cards, fixed: int, per: int) -> None:
    """Keep, for each card, the owner of the zone it lies in now (fixed: the zones that are not
    a seat's; per: the zones of each seat)."""
    loc, M = S.loc, S.m
    for c in cards:
        zi = loc[c]
        seat = SEATS[(zi - fixed) // per] if zi >= fixed and per else None
        d = M.get(c)
        if seat is None:
            if d is not None:
                d.pop(PLAYED, None)
                if not d:
                    del M[c]
        else:
            if d is None:
                d = M[c] = {}
            d[PLAYED] = seat


def _cards(c) -> tuple:
    return () if c is None else (c,) if type(c) is Card else tuple(c)


def move(S, c, zi: int, fixed: int, per: int, bottom: bool = False) -> None:
    """moves.move (or move_under) into a zone that keeps who played each card."""
    _record(S, _cards(c), fixed, per)
    (moves.move_under if bottom else moves.move)(S, c, zi)


def move_all(S, src: int, zi: int, bottom: bool, fixed: int, per: int) -> None:
    _record(S, tuple(S.z[src]), fixed, per)
    moves.move_all(S, src, zi, bottom)


def draw(S, n: int, src: int, zi: int, fixed: int, per: int) -> None:
    cards = S.z[src]
    _record(S, tuple(cards[max(0, len(cards) - int(n)):]), fixed, per)
    moves.draw(S, n, src, zi)


def played_by(S, c):
    """The seat that played card c into a `played_by` zone (the owner of the zone it came from), or none."""
    if c is None:
        return None
    d = S.m.get(c)
    return None if d is None else d.get(PLAYED)
