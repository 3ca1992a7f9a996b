"""MAST playouts for the ISMCTS bot (``policy=mast``): move-average sampling."""
from __future__ import annotations

from ..runtime.threads import distinct_picks
from .random_bot import PLAYOUT_MOST
from .sample import option_key


def mast_playout(game, rng, depth: int, stats: dict, epsilon: float, trail: list) -> None:
    """Like random_playout, but each answer is, with probability 1 - epsilon, the one whose key has the
    best mean reward for its mover so far in this search (MAST: move-average sampling); keys never
    tried come first. A multi-pick takes its options one by one the same way. Each (mover, key)
    answered is added to trail for the update."""
    rnd = rng.random
    if depth < 0:  # (to the end, or the most a playout may take)
        depth = PLAYOUT_MOST
    while depth:
        depth -= 1
        d = game.next_decision()
        if d is None:
            return
        n = len(d.values)
        p = d.player
        vals = d.values
        if d.many:
            lo, hi = d.min, min(d.max, n)
            k = lo if lo >= hi else lo + int(rnd() * (hi - lo + 1))
            alike = d.keys  # a `distinct` choose: take no two options of one key
            if rnd() < epsilon:
                pick = rng.sample(range(n), k) if alike is None else distinct_picks(rng.sample(range(n), n), alike, k)
                keys = [("in", option_key(game, p, vals[i])) for i in pick]
            else:
                scored = []
                for i in range(n):
                    key = ("in", option_key(game, p, vals[i]))
                    st = stats.get((p, key))
                    scored.append((2.0 if st is None else st[0] / st[1], rnd(), i, key))
                scored.sort(reverse=True)
                if alike is not None:
                    kept = set(distinct_picks([t[2] for t in scored], alike, k))
                    scored = [t for t in scored if t[2] in kept]
                pick = [t[2] for t in scored[:k]]
                keys = [t[3] for t in scored[:k]]
            for key in keys:
                trail.append((p, key))
            d.answer(pick)
            continue
        m = n + 1 if d.min == 0 else n
        if rnd() < epsilon:
            i = int(rnd() * m)
            key = ("decline",) if i == n else option_key(game, p, vals[i])
        else:
            best = -1.0
            i = key = None
            for j in range(m):
                kj = ("decline",) if j == n else option_key(game, p, vals[j])
                st = stats.get((p, kj))
                v = (2.0 if st is None else st[0] / st[1]) + rnd() * 1e-6
                if v > best:
                    best, i, key = v, j, kj
        trail.append((p, key))
        d.answer(None if i == n else i)
