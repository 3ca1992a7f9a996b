"""The greedy bot: looks one decision ahead and plays the answer that leaves the best position.

Works for any ruleset: a position's value for seat p is the ruleset's ``value(p)`` (its
``score(p)`` when it declares none) minus the best value of the other seats. It never looks at the real hidden cards: it gets an
InfoSet (see sample.py), draws a determinized copy of the game from its own generator, and tries
every answer on copies of that sample. Ties are broken by its seeded generator.
"""
from __future__ import annotations

import random

from . import Bot, option
from .random_bot import random_playout
from .sample import answers_of, info_set


def position_value(game, seat: int) -> float:
    """Own value minus the best other value: the ruleset's value(p) (its score(p) if it declares
    none) during the game, the final scores at the end (negated where the lowest score wins)."""
    s = game.merits() if game.over else game.values
    others = [x for p, x in enumerate(s) if p != seat]
    return s[seat] - (max(others) if others else 0)


def decision_in(game, decision_id: int):
    """The pending decision with this id in a (copied or sampled) game."""
    for t in game.state.threads:
        if t[6] == decision_id and t[2] is not None:
            from ..engine.decisions import Decision

            return Decision(game, t)
    raise LookupError(f"decision {decision_id} is not pending in the copy")


class GreedyBot(Bot):
    """One decision ahead on determinized copies; ``samples`` copies are averaged (default 1)."""

    name = "greedy"
    needs_view = False
    needs_game = True

    def __init__(self, seed=None, samples: int = 1, rollouts: int = 0):
        self.rng = random.Random(seed)
        self.samples = option("greedy", "samples", samples, 1, 10_000)
        self.rollouts = option("greedy", "rollouts", rollouts, 0, 10_000)

    def choose(self, info, decision):
        answers = answers_of(decision, self.rng)
        if len(answers) == 1:
            return answers[0]
        info = info_set(info, decision)
        seat = decision.player
        totals = [0.0] * len(answers)
        for _ in range(self.samples):
            sample = info.sample(self.rng)
            for i, a in enumerate(answers):
                g = sample.copy()
                decision_in(g, decision.id).answer(a)
                if not self.rollouts:
                    totals[i] += position_value(g, seat)
                    continue
                for r in range(self.rollouts):
                    h = g.copy() if r < self.rollouts - 1 else g
                    h.state.rng = self.rng.getrandbits(64)
                    random_playout(h, self.rng)
                    totals[i] += position_value(h, seat)
        best = max(totals)
        ties = [i for i, t in enumerate(totals) if t == best]
        return answers[ties[0] if len(ties) == 1 else self.rng.choice(ties)]
