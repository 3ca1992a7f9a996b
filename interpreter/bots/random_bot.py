"""The random bot: a uniformly random legal answer, from its own seeded generator."""
from __future__ import annotations

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
        self._random = self.rng.random  # int(random() * n): uniform enough, and cheaper than randrange

    def choose(self, view, decision):
        n = len(decision.values)
        if decision.many:
            lo, hi = decision.min, min(decision.max, n)
            r = self._random
            k = lo if lo >= hi else lo + int(r() * (hi - lo + 1))
            picks = list(range(n))  # the first k of a partial Fisher-Yates shuffle
            for i in range(k):
                j = i + int(r() * (n - i))
                picks[i], picks[j] = picks[j], picks[i]
            return picks[:k]
        if decision.min == 0:  # optional: declining is one more choice
            i = int(self._random() * (n + 1))
            return None if i == n else i
        return int(self._random() * n)
