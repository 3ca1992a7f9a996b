"""Families of zones made during play (`per: made`): making a zone, finding it by its key, listing
the keys made, removing an empty one.

A family's zones are fixed zones keyed 1..most laid out once (compiler/layout.py); which are made
now is a tuple of keys, in the order they were made, in the state's counters at V[slot] (plain data:
it copies, saves and replays with the rest). A zone not made holds no card: nothing can move to it,
and `remove` takes only an empty zone."""
from __future__ import annotations

from .ops import RuleRuntimeError


def zone_at(S, slot: int, base: int, key, name: str) -> int:
    """The zone index of name[key], a zone made now; else a RuleRuntimeError."""
    if type(key) is int and key in S.v[slot]:
        return base + key - 1
    made = S.v[slot]
    if isinstance(key, bool) or not isinstance(key, int):
        raise RuleRuntimeError(f"{name}[...] takes the key make({name}) gave, a number, not {key!r}")
    now = f"the keys made now: {', '.join(map(str, made))}" if made else "none is made now"
    raise RuleRuntimeError(f"{name}[{key}] is not a zone made now ({now}); make({name}) makes one, "
                           "and remove takes it away")


def make(S, slot: int, most: int, name: str) -> int:
    """Make a zone of the family: its key is the lowest number from 1 that no zone made now has."""
    made = S.v[slot]
    if len(made) >= most:
        raise RuleRuntimeError(f"make({name}): {most} zones of '{name}' are made already, the most it may "
                               f"have at once: raise most: in the declaration of zone '{name}' (at most 64), "
                               "or remove one first")
    k = 1
    while k in made:
        k += 1
    S.v[slot] = made + (k,)
    return k


def remove(S, slot: int, base: int, key, name: str) -> None:
    """Remove the zone name[key]: it must be made and empty."""
    zi = zone_at(S, slot, base, key, name)
    held = len(S.z[zi])
    if held:
        raise RuleRuntimeError(f"remove {name}[{key}]: the zone still holds {held} card{'' if held == 1 else 's'}; "
                               "move them elsewhere first (a zone is removed empty)")
    S.v[slot] = tuple(k for k in S.v[slot] if k != key)


def place(S, slot: int, key: int) -> None:
    """Count name[key] as made, if it is not (a scenario's position puts cards in it)."""
    if key not in S.v[slot]:
        S.v[slot] = S.v[slot] + (key,)
