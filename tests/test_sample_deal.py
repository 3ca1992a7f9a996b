"""A sample's deal (bots/sample.py, docs/performance.md "Fifth pass"): the cards shuffled by the
same random numbers as before, in the same order, and the buried cards dealt the same way."""
from __future__ import annotations

import random

from jux.interpreter.bots.sample import shuffled


def _by_index(cards: list, rnd) -> list:
    """The shuffle as it was: an index sorted by a list of random keys, then the cards looked up."""
    keys = [rnd() for _ in cards]
    return [cards[i] for i in sorted(range(len(cards)), key=keys.__getitem__)]


def test_shuffled_draws_the_same_numbers_and_gives_the_same_order():
    for n in (0, 1, 2, 3, 33, 154):
        cards = list(range(100, 100 + n))
        for seed in range(5):
            a, b = random.Random(seed), random.Random(seed)
            got = shuffled(cards, a.random)
            want = cards[:] if n < 2 else _by_index(cards, b.random)
            assert got == want
            assert a.random() == b.random()  # (as many numbers drawn: none for fewer than 2 cards)
            assert cards == list(range(100, 100 + n))  # (the list given is left as it was)
