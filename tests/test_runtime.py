"""The run-time helpers compiled rules call: shuffling with the game's generator."""
import random
import sys

import pytest

from jux.interpreter.runtime import chance, moves, ops


class _State:
    def __init__(self, cards, seed):
        self.z = [list(cards)]
        self.vis = [0]
        self.k = [None] * max(len(cards), 1)
        self.o = [0]  # (runtime/state.py State.o: each card known by the seats that see its zone)
        self.rng = seed


def shuffled(n, seed):
    S = _State(range(n), seed)
    chance.shuffle(S, 0)
    return S.z[0]


def test_shuffle_is_pinned_to_its_seed():
    # a game's seed must deal the same cards on every Python version and in every release
    assert shuffled(10, 7) == shuffled(10, 7)
    assert shuffled(10, 7) == [2, 3, 0, 8, 5, 1, 7, 9, 4, 6]
    assert shuffled(72, 1) != shuffled(72, 2)


@pytest.mark.parametrize("n", [0, 1, 2, 3, 17, 72, 255, 256, 300])
def test_shuffle_is_a_permutation(n):
    for seed in range(5):
        assert sorted(shuffled(n, seed)) == list(range(n))


@pytest.mark.skipif(sys.version_info[:2] != (3, 11), reason="the reference order is CPython 3.11's")
def test_shuffle_gives_the_order_random_shuffle_gave():
    # saved games and records made before the shuffle was written out still replay
    for n in (2, 5, 72, 300):
        for seed in range(10):
            S = _State([], seed)
            ref = list(range(n))
            random.Random(chance.next_seed(S)).shuffle(ref)
            assert shuffled(n, seed) == ref


def _one_at_a_time(zones, cards, dest, bottom):
    """What moving a list of cards means: each card in turn leaves its zone for dest's top
    (or bottom)."""
    zones = [list(z) for z in zones]
    for c in cards:
        next(z for z in zones if c in z).remove(c)
        if bottom:
            zones[dest].insert(0, c)
        else:
            zones[dest].append(c)
    return zones


@pytest.mark.parametrize("bottom", [False, True])
def test_moving_a_list_of_cards_is_moving_each_in_turn(bottom):
    from jux.interpreter.runtime.state import Card, ZoneTable, beyond
    rnd = random.Random(5)
    for _ in range(300):
        cards = [Card(i) for i in range(12)]
        zones = [[], [], []]
        for c in cards:
            zones[rnd.randrange(3)].append(c)
        S = _State([], 0)
        S.z = [list(z) for z in zones]
        S.vis = ZoneTable([1, 2, 4])  # three seats' own zones
        S.vis.follow, S.vis.top, S.vis.drop, S.n, S.fresh = [1, 2, 4], frozenset(), [(), (), ()], 3, []
        moves.plan_moves(S.vis, 7)
        S.k = [0] * 12
        S.loc = [next(i for i, z in enumerate(zones) if c in z) for c in cards]
        S.o = beyond(S)
        S.m = {}
        moving = [rnd.choice(cards) for _ in range(rnd.randrange(6))]  # some may come twice
        dest = rnd.randrange(3)
        (moves.move_under if bottom else moves.move)(S, moving, dest)
        assert S.z == _one_at_a_time(zones, moving, dest, bottom)
        assert all(S.loc[c] == dest and S.k[c] == S.vis[dest] for c in moving)
        assert all(S.loc[c] == i for i, z in enumerate(S.z) for c in z)


@pytest.mark.parametrize("key", [None, lambda x: x[0]])
@pytest.mark.parametrize("n", [0, 1, 2, 5, 12, ops.SHORT, ops.SHORT + 1, 40])
def test_min_and_max_helpers_give_what_the_builtins_give(n, key):
    """min_of/max_of (and min2/max2) stand for min and max with key= and default=None: the same
    item, the first of equal ones, none when empty, from a list, a tuple or an iterator."""
    rng = random.Random(n)
    for _ in range(50):
        xs = [(rng.randrange(3), i) if key else rng.randrange(3) for i in range(n)]
        kw = {} if key is None else {"key": key}
        for f, ours in ((min, ops.min_of), (max, ops.max_of)):
            want = f(xs, default=None, **kw)
            for given in (xs, tuple(xs), iter(xs)):
                assert ours(given, key) is want
        if n == 2 and key is None:
            a, b = xs
            assert ops.min2(a, b) is min(a, b) and ops.max2(a, b) is max(a, b)
    a, b = (1, "a"), (1, "b")  # equal under a key: the first
    assert ops.max_of([a, b], lambda x: x[0]) is a and ops.min_of([a, b], lambda x: x[0]) is a
    assert ops.min2(1.0, 1) is min(1.0, 1) and ops.max2(1, 1.0) is max(1, 1.0)


def test_min_and_max_helpers_key_each_item_once_and_compare_no_lone_item():
    """As the builtins: the key is worked out once per item, in order, and a lone item is the
    answer without being compared (none, which compares with nothing)."""
    for ours in (ops.min_of, ops.max_of):
        seen = []
        assert ours([3, 1, 2], lambda x: seen.append(x) or -x) in (1, 3)
        assert seen == [3, 1, 2]
        assert ours([None]) is None and ours([None], lambda x: x) is None
        with pytest.raises(TypeError):
            ours([1, "a"])
