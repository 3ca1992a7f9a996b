"""Zones whose size a seat may not know (`size: hidden`) in a bot's sample of the game.

The seat knows how many cards there are and how many lie in every zone whose size it sees, so it
knows how many of the cards it does not know lie in the zones whose size it does not see, all
together, but not how they are split between them. A sample (bots/sample.py, after dealing the
unknown cards again) pools those cards, in an order drawn from the bot's generator, and puts each
in one of those zones drawn at random (each alike), under the cards the seat knows there (which
keep their order: its view lists them so). Such a card is known in the sample to the seats that
see its zone (the owner of a `visible: owner` zone; nobody for `visible: none`) and carries no
mark. So two games that differ only in how those cards are split give the same samples."""
from __future__ import annotations


def sizes_hidden(rules) -> bool:
    """Whether some zone of the ruleset may hide its size (`size: hidden`) from a seat."""
    return any(isinstance(d, dict) and d.get("size") == "hidden" for d in rules.layout.zone_def.values())


def unsized_zones(game, seat: int) -> list:
    """(zone index, knowledge mask of an unknown card there) of each zone whose size seat may not
    see now, in zone order; [] when there is none (the usual case, found at once)."""
    lay = game.rules.layout
    defs = lay.zone_def
    if not sizes_hidden(game.rules) or game.over:
        return []
    out = []
    for zi in range(len(game.state.z)):
        name, _, owner = lay.zone_of(zi)
        if game.size_hidden(name, owner, seat):
            d = defs[name]
            out.append((zi, (1 << owner) if d.get("visible") == "owner" and owner is not None else 0))
    return out


def split_again(T, seat: int, zones: list, rng) -> None:
    """Spread again, at random from rng, the cards seat does not know over the zones of state T
    whose size it may not see (zones: unsized_zones)."""
    bit = 1 << seat
    K, Z, loc = T.k, T.z, T.loc
    pool, known = [], {}
    for zi, _ in zones:
        zone = Z[zi]
        known[zi] = [c for c in zone if K[c] & bit]
        pool.extend(c for c in zone if not K[c] & bit)
    if not pool:
        return
    pool.sort()
    rnd = rng.random
    for j in range(len(pool) - 1, 0, -1):  # Fisher-Yates, from rng
        r = int(rnd() * (j + 1))
        pool[j], pool[r] = pool[r], pool[j]
    under = {zi: [] for zi, _ in zones}
    n = len(zones)
    marks = T.m
    for c in pool:
        zi, mask = zones[int(rnd() * n)]
        under[zi].append(c)
        loc[c] = zi
        K[c] = mask
        if marks and c in marks:
            del marks[c]
    for zi, _ in zones:
        Z[zi][:] = under[zi] + known[zi]
