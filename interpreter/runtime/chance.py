"""Chance in the rules: the game's random generator (a 64-bit state in S.rng, seeded from the
game's seed), random items and shuffles. The same seed gives the same game."""
from __future__ import annotations

# the C Mersenne Twister under random.Random: the same numbers, without random.Random's Python-level
# __init__ and seed() (a fifth of the cost of seeding one, and a shuffle seeds one)
from _random import Random as _Random
import functools

from .moves import settle_top

M64 = (1 << 64) - 1


def seed_rng(seed: int) -> int:
    return (int(seed) * 0x9E3779B97F4A7C15 + 0x632BE59BD9B4E019) & M64


def rand_below(S, n: int) -> int:
    return (next_seed(S) * n) >> 64


def next_seed(S) -> int:
    """Advance the state's generator (splitmix64) and return 64 fresh bits."""
    x = (S.rng + 0x9E3779B97F4A7C15) & M64
    S.rng = x
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & M64
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & M64
    return x ^ (x >> 31)


def random_item(S, xs):
    """An item of xs chosen with the game's generator (none if xs is empty). Like a player's
    choice, it may pick any card there is: the cards moved before it are mixed like the others
    when one leaves a hand unseen (moves.py _mix, S.fresh)."""
    xs = list(xs)
    fresh = getattr(S, "fresh", None)
    if fresh:
        fresh.clear()
    return xs[rand_below(S, len(xs))] if xs else None


@functools.lru_cache(maxsize=64)
def _bit_lengths(n: int) -> tuple:
    """The bit length of n, n - 1, ..., 2: how many random bits shuffling n items draws at a time."""
    return tuple(m.bit_length() for m in range(n, 1, -1))


def shuffle(S, zi: int):
    """Shuffle a zone: Fisher-Yates drawing from a Mersenne Twister seeded from the game's
    generator. Written out here rather than random.shuffle, so that a seed shuffles the same on
    every Python version (the same order random.shuffle gave on CPython 3.11)."""
    lst = S.z[zi]
    n = len(lst)
    if n > 1:
        bits = _Random(next_seed(S)).getrandbits
        for i, k in zip(range(n - 1, 0, -1), _bit_lengths(n)):
            j = bits(k)
            while j > i:
                j = bits(k)
            lst[i], lst[j] = lst[j], lst[i]
    vis = S.vis
    top = getattr(vis, "top", None)
    if top and zi in top:
        settle_top(S, zi)
    elif getattr(vis, "blind", None) is not vis:  # (a blind game: nothing reads who knows which card)
        O = S.o
        if O[zi]:  # (else every card of the zone is known by the seats that see it, and only them)
            O[zi] = 0
            mask = vis[zi]
            K = S.k
            for c in lst:
                K[c] = mask
