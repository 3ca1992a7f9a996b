"""The greedy bot: looks one decision ahead and plays the answer that leaves the best position.

Works for any ruleset: a position's value for seat p is the ruleset's ``value(p)`` (its
``score(p)`` when it declares none) minus the best value of the other seats. It never looks at the real hidden cards: it gets an
InfoSet (see sample.py), draws a determinized copy of the game from its own generator, and tries
every answer on copies of that sample. Ties are broken by its seeded generator.

An answer to a decision of a `simultaneously` block (a draft where every seat picks at once) is
valued once the block is over: the other seats' decisions still pending in it are answered at
random on each copy, the same way for every answer tried (``settle``), so the rules that follow the
block run (the picks turned up) and value(p) sees the seat's pick where the rules put it then. The
seat that answers last saw that before; the others saw only where their own thread had left it.
"""
from __future__ import annotations

import random

from . import Bot, option
from ..engine.decisions import Decision
from ..runtime.state import DECIDE
from .random_bot import PLAYOUT_MOST, random_picker, random_playout
from .answers import answers_of
from .sample import SAMPLE_ERRORS, info_set


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
            return Decision(game, t)
    raise LookupError(f"decision {decision_id} is not pending in the copy")


def block_of(game, decision_id: int) -> int:
    """The thread that started the `simultaneously` block of a pending decision (-1: none)."""
    for t in game.state.threads:
        if t[6] == decision_id:
            return t[4]
    return -1


def settle(game, block: int, mine: int, seed) -> None:
    """The decisions still pending in the other threads of a `simultaneously` block (block: the
    thread that started it; mine: the thread of the answer just given, left alone) answered at
    random from `seed`, until none is (or PLAYOUT_MOST answers: a block that never ends): the block
    is over and the rules have run on to the next decision, as far as the other threads let them."""
    pick = random_picker(random.Random(seed).random)
    for _ in range(PLAYOUT_MOST):
        for t in game.state.threads:
            if t[1] == DECIDE and t[4] == block and t[6] != mine:
                break
        else:
            return
        d = decision_in(game, t[6])
        d.answer(pick(len(d.values), d.min, d.max, d.many, d.keys))


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
        for k in range(self.samples):
            sample = info.sample(self.rng)
            block = block_of(sample, decision.id)
            for i, a in enumerate(answers):
                g = sample.copy()
                try:  # (a rule that fails on a sample's blanked values: valued where it stopped)
                    decision_in(g, decision.id).answer(a)
                    if block >= 0:  # (the others' picks the same for every answer: a seed of this sample's)
                        settle(g, block, decision.id, f"{decision.id}:{k}")
                except SAMPLE_ERRORS:
                    pass
                if not self.rollouts:
                    totals[i] += stopped_value(g, seat)
                    continue
                for r in range(self.rollouts):
                    h = g.copy() if r < self.rollouts - 1 else g
                    h.state.rng = self.rng.getrandbits(64)
                    try:
                        random_playout(h, self.rng)
                    except SAMPLE_ERRORS:
                        pass
                    totals[i] += stopped_value(h, seat)
        best = max(totals)
        ties = [i for i, t in enumerate(totals) if t == best]
        return answers[ties[0] if len(ties) == 1 else self.rng.choice(ties)]


def stopped_value(g, seat: int) -> float:
    """position_value, or 0 when the rules cannot value the position (a sample whose rules failed
    on a blanked value: bots/sample.py)."""
    try:
        return position_value(g, seat)
    except SAMPLE_ERRORS:
        return 0.0
