"""The random bot: a uniformly random legal answer, from its own seeded generator."""
from __future__ import annotations

from _random import Random as _CRandom
from math import floor
import random

from . import Bot
from ..errors import DecisionLimit
from ..runtime.threads import distinct_picks

# The most decisions of a playout "to the end" (depth -1): rules that may never end (a game of
# random answers that goes on and on) still give the bot an answer. Then the playout is valued
# where it stopped, as a playout cut off at its depth is (value(p)). jux's games take at most
# some hundreds (simulate.MAX_DECISIONS).
PLAYOUT_MOST = 10_000


class RandomBot(Bot):
    """Picks uniformly among the options (and how many, for a multi-pick); may decline when allowed.

    It reads only the decision's size and bounds, never the view (needs_view is False), so it
    has pick(n, lo, hi, many) too: the same answers, asked without a Decision (Game.autoplay);
    and uniform, the random() those picks draw from (random_picker over it), so that autoplay
    may draw the same answers in the rules' own code (its `uniform`, which `simulate` gives).
    """

    name = "random"
    needs_view = False

    def __init__(self, seed=None):
        self.rng = seeded(seed)
        self._pick = random_picker(self.rng.random)
        if type(self).choose is RandomBot.choose:  # (a subclass that answers otherwise has neither)
            self.pick = self._pick
            self.uniform = self.rng.random

    def choose(self, view, decision):
        # (a decision-like object may have no keys)
        return self._pick(len(decision.values), decision.min, decision.max, decision.many, getattr(decision, "keys", None))


def seeded(seed) -> random.Random:
    """random.Random(seed), for an int seed (a seat's: bots.seat_seed) without its Python-level
    calls: the C generator seeded as Random.seed seeds it from an int (random.Random's __new__
    leaves the seeding of a subclass to __init__), and Random.__init__'s gauss_next."""
    if type(seed) is not int:
        return random.Random(seed)
    rng = random.Random.__new__(random.Random)
    _CRandom.seed(rng, seed)
    rng.gauss_next = None
    return rng


NUMBERS = list(range(64))  # (a slice of it: the option numbers of a decision of up to 64 options)


def random_picker(rnd):
    """pick(n, lo, hi, many): a uniformly random answer to a decision of n options, drawn with
    rnd (a random() function; floor(random() * n) is uniform enough, and cheaper than randrange
    or int(), which is a type to call):
    when many, lo to hi option numbers (how many, then which), else one, or none when lo is 0
    (one more choice). keys (a `distinct` choose): the key of each option; the options are taken
    in a random order, each unless one of its key is taken already, until there are enough."""

    def pick(n, lo, hi, many, keys=None):
        if not many:  # (the commonest first)
            if lo == 0:
                i = floor(rnd() * (n + 1))
                return None if i == n else i
            return floor(rnd() * n)
        if hi > n:
            hi = n
        k = lo if lo >= hi else lo + floor(rnd() * (hi - lo + 1))
        # the first k of a partial Fisher-Yates shuffle (a distinct choose: all) of 0..n-1
        # (a while loop: for over a range costs more, made for a few rounds)
        picks = NUMBERS[:n] if n <= len(NUMBERS) else list(range(n))
        last = k if keys is None else n - 1
        i = 0
        while i < last:
            j = i + floor(rnd() * (n - i))
            picks[i], picks[j] = picks[j], picks[i]
            i += 1
        if keys is not None:
            return distinct_picks(picks, keys, k)
        del picks[k:]
        return picks

    pick.legal = True  # (its answers are always legal: Game.autoplay takes them unchecked)
    return pick


def random_answer(d, rnd):
    """A uniformly random answer to decision d, drawn with rnd (see random_picker)."""
    return random_picker(rnd)(len(d.values), d.min, d.max, d.many, getattr(d, "keys", None))


def random_playout(game, rng, depth: int = -1, blind: bool = False, first: tuple | None = None) -> None:
    """Answer at most ``depth`` decisions of a game at random from rng (to the end when negative,
    or PLAYOUT_MOST decisions). The rules run direct (Game.autoplay): when the answers run out the
    game is left in the middle of its rules, to be valued, and cannot be played on. blind, first:
    as autoplay's (the game is only valued afterwards; (decision, answer) given before the rest)."""
    pick = random_picker(rng.random)
    try:
        game.autoplay(pick=pick, direct=True, limit=PLAYOUT_MOST if depth < 0 else depth, blind=blind,
                      first=first, uniform=[rng.random] * game.state.n)
    except DecisionLimit:
        pass
