"""Where a ruleset's zones and counters sit in the state's flat lists (Layout), and the start
value of a counter."""
from __future__ import annotations

from dataclasses import dataclass, field

from ..checks.families import most_of
from ..runtime.state import MAX_SEATS, SEATS


@dataclass
class Layout:
    """Where zones and counters sit in the state's flat lists.

    Counters: the fixed ones first (single, or one per item of a list constant), then a block per
    seat holding each per-player counter, one slot each, or one slot per key for a counter
    `per: [player, LIST]` (player_keys: name -> {key: offset within the counter})."""

    fixed_zones: list  # [(name, key or None)]
    zone_index: dict  # name -> index (single zone) or {key: index} (per constant list)
    player_zones: list  # names of per-player zones, in order
    zone_def: dict  # name -> zone definition (dict)
    fixed_counters: list
    counter_index: dict
    player_counters: list  # names of per-player counters, in order
    counter_def: dict
    player_keys: dict = field(default_factory=dict)  # per-player counter -> {key: offset} when keyed too
    player_offset: dict = field(default_factory=dict)  # per-player counter -> its first slot in a seat's block
    player_block: int = 0  # slots of per-player counters in each seat's block
    # a family of zones made during play (`per: made`) -> (its first zone index, most, slot): its
    # zones are fixed zones keyed 1..most, and the keys of those made now, in the order they were
    # made, are a tuple in the state's counters at V[slot] (slot < 0: after every counter)
    families: dict = field(default_factory=dict)

    def __post_init__(self):
        if not self.player_offset:
            at = 0
            for name in self.player_counters:
                self.player_offset[name] = at
                at += len(self.player_keys.get(name) or (None,))
            self.player_block = at

    def zone_count(self, n: int) -> int:
        return len(self.fixed_zones) + n * len(self.player_zones)

    def player_zone(self, name: str, p: int) -> int:
        return len(self.fixed_zones) + p * len(self.player_zones) + self.player_zones.index(name)

    def counter(self, name: str, p: int | None = None, key=None) -> int:
        """The slot of a counter: counter(name), counter(name, key=k) for one per item of a
        list, counter(name, p), or counter(name, p, k) for one per player and per key."""
        if name in self.player_offset:
            i = len(self.fixed_counters) + p * self.player_block + self.player_offset[name]
            return i + self.player_keys[name][key] if name in self.player_keys else i
        ci = self.counter_index[name]
        return ci[key] if isinstance(ci, dict) else ci

    def counter_slots(self) -> list:
        """(name, key or None) of each slot of a seat's block of per-player counters, in order."""
        return [(name, key) for name in self.player_counters for key in (self.player_keys.get(name) or (None,))]

    def zone_names_plain(self, n: int) -> list:
        """The declared zone name of every zone index (without its key), e.g. 'hand'."""
        return [name for name, _ in self.fixed_zones] + list(self.player_zones) * n

    def zone_names(self, n: int) -> list:
        """Display name of every zone index, e.g. 'hand[1]' or 'piles[red]'."""
        out = [f"{name}[{key}]" if key is not None else name for name, key in self.fixed_zones]
        for p in range(n):
            out.extend(f"{z}[{p}]" for z in self.player_zones)
        return out

    def unmade(self, V) -> frozenset | tuple:
        """The zone indices of the families' zones not made now (an empty tuple when there is no family)."""
        if not self.families:
            return ()
        out = set()
        for base, most, slot in self.families.values():
            made = V[slot]
            out.update(base + k - 1 for k in range(1, most + 1) if k not in made)
        return frozenset(out)

    def made_slots(self) -> list:
        """The start value of each family's slot at the end of the state's counters, in order."""
        return [() for _ in self.families]

    def zone_of(self, zi: int):
        """(name, key, owner seat or None) of a zone index."""
        f = len(self.fixed_zones)
        if zi < f:
            name, key = self.fixed_zones[zi]
            return name, key, None
        p, k = divmod(zi - f, len(self.player_zones))
        return self.player_zones[k], p, p


def per_keys(per):
    """(per player?, the list constant named or None) of a zone's or counter's `per`: 'player',
    'LIST', or [player, LIST] (one per player and per item of LIST)."""
    if isinstance(per, list):
        return True, per[1]
    if per == "player":
        return True, None
    return False, per or None


def make_layout(spec) -> Layout:
    def place(defs):
        """Lay out zones or counters: single ones and one per list item get fixed places in
        order; per-player ones are listed apart (their places depend on the number of players)."""
        fixed, index, per_player, keys = [], {}, [], {}
        for name, d in defs.items():
            if defs is spec.zones and d.get("per") == "made":  # a family: keys 1..most, made as the game goes
                most = most_of(d)
                families[name] = (len(fixed), most, -1 - len(families))
                index[name] = {k: len(fixed) + k - 1 for k in range(1, most + 1)}
                fixed.extend((name, k) for k in range(1, most + 1))
                continue
            player, listed = per_keys(d.get("per") if isinstance(d, dict) else None)
            if player:
                per_player.append(name)
                if listed:
                    keys[name] = {k: i for i, k in enumerate(spec.constants[listed])}
            elif listed:
                index[name] = {}
                for key in spec.constants[listed]:
                    index[name][key] = len(fixed)
                    fixed.append((name, key))
            else:
                index[name] = len(fixed)
                fixed.append((name, None))
        return fixed, index, per_player, keys

    families: dict = {}
    zones, counters = place(spec.zones), place(spec.counters)
    # the slots count from the end of the counters: the families' made keys, in declaration order
    n = len(families)
    families = {name: (base, most, i - n) for i, (name, (base, most, _)) in enumerate(families.items())}
    return Layout(zones[0], zones[1], zones[2], spec.zones, counters[0], counters[1], counters[2], spec.counters,
                  player_keys=counters[3], families=families)


def counter_start(c):
    if isinstance(c, dict):
        v = c.get("start")
        # (a seat counter that starts at a number that is no seat, -1 for nobody, holds that
        # number, as written: the checks warn, or refuse it in language 2)
        return SEATS[v] if c.get("seat") and isinstance(v, int) and not isinstance(v, bool) and v >= 0 else v
    return c


def seat_indices(base: int, step: int) -> tuple:
    """base + step * seat for every seat: the compiled code reads a seat's zone or counter index
    from this constant tuple (a `Seat` is an int subclass: `base+step*(p)` is two generic
    operations, the multiplication without CPython's int fast path; a subscript is one)."""
    return tuple(base + step * i for i in range(MAX_SEATS))
