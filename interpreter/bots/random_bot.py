"""The random bot: a uniformly random legal answer, from its own seeded generator."""
from __future__ import annotations

import functools
import random

from . import Bot


class RandomBot(Bot):
    """Picks uniformly among the options (and how many, for a multi-pick); may decline when allowed.

    It reads only the decision's size and bounds, never the view (needs_view is False).
    """

    name = "random"
    needs_view = False

    def __init__(self, seed=None):
        self.rng = random.Random(seed)
        self._choose = random_chooser(self.rng.random)
        if type(self).choose is RandomBot.choose:  # not overridden: the same answers, one call fewer
            self.choose = self._choose

    def choose(self, view, decision):
        return self._choose(view, decision)


def random_chooser(rnd):
    """choose(view, decision): a uniformly random answer to the decision, drawn with rnd (a
    random() function; int(random() * n) is uniform enough, and cheaper than randrange): an
    option (or how many and which, for a multi-pick), or none when it may be declined (one more
    choice). The view is not read."""

    def choose(view, d):
        n = len(d.values)
        if d.many:
            lo, hi = d.min, min(d.max, n)
            k = lo if lo >= hi else lo + int(rnd() * (hi - lo + 1))
            picks = list(range(n))  # the first k of a partial Fisher-Yates shuffle
            for i in range(k):
                j = i + int(rnd() * (n - i))
                picks[i], picks[j] = picks[j], picks[i]
            return picks[:k]
        if d.min == 0:
            i = int(rnd() * (n + 1))
            return None if i == n else i
        return int(rnd() * n)

    return choose


def random_answer(d, rnd):
    """A uniformly random answer to decision d, drawn with rnd (see random_chooser)."""
    return random_chooser(rnd)(None, d)


def random_playout(game, rng, depth: int = -1) -> None:
    """Answer at most ``depth`` decisions of a game at random from rng (to the end when negative)."""
    choose = functools.partial(random_chooser(rng.random), None)
    if depth < 0:
        game.autoplay(choose, direct=True)
    else:
        game.autoplay(choose, depth)
