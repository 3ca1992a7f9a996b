"""ISMCTS's keys of a decision's answers (bots/ismcts.py keyed_answers, docs/performance.md "Fifth
pass"): worked out for all the answers at once, they are each answer's answer_key."""
from __future__ import annotations

import random

import pytest

from jux.interpreter.bots import make_bot
from jux.interpreter.bots.greedy import decision_in
from jux.interpreter.bots.ismcts import answer_key, keyed_answers
from jux.interpreter.bots.answers import answers_of
from jux.interpreter.bots.sample import InfoSet
from jux.interpreter.engine.game import Game
from jux.interpreter.engine.ruleset import load_ruleset


@pytest.mark.parametrize("name", ["capital_jux", "guildhall", "bruges"])
def test_keyed_answers_are_each_answers_answer_key(name):
    rules = load_ruleset(name)
    picks = 0
    for seed in (1, 2, 3):
        g = Game.new(rules, 4, seed, log=False)
        rng = random.Random(seed)
        for step in range(70):
            d = g.next_decision()
            if d is None:
                break
            for game in (g, InfoSet(g, (d.player + 1) % 4).sample(random.Random(step))):
                dd = decision_in(game, d.id)
                if not dd.values:  # (a sample's dead end: another seat's decision it cannot ask again)
                    continue
                acts = answers_of(dd, random.Random(step))
                picks += any(type(a) is list for a in acts)
                want = {}
                for a in acts:
                    want.setdefault(answer_key(game, dd, a), a)
                got = keyed_answers(game, dd, acts)
                assert list(got.items()) == list(want.items())
            d.answer(make_bot("random", rng.randrange(1 << 30)).choose(None, d))
    if name != "bruges":
        assert picks  # (some picks of several among them)
