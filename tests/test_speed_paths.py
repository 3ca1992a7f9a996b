"""Shortcuts taken for speed do what the general path does (docs/performance.md, fifth pass)."""
import random

import pytest

from jux.interpreter.bots.random_bot import random_picker
from jux.interpreter.engine.game import Game
from jux.interpreter.engine.ruleset import load_ruleset
from jux.interpreter.errors import IllegalAnswer


def _played(rules, seed, pick, direct):
    """The game after autoplay with pick (direct: pick's answers taken where the rules ask them;
    else each made a decision and answered through Decision, as apply takes it), and the refused
    answer if one was."""
    g = Game.new(rules, 3, seed)
    shaped = pick if direct else (lambda d: pick(len(d.values), d.min, d.max, d.many))
    try:
        if direct:
            g.autoplay(pick=shaped, direct=True)
        else:
            g.autoplay(shaped)
    except IllegalAnswer as e:
        return g, (e.player, e.answer)
    return g, None


@pytest.mark.parametrize("bad", [[0, 0], [1, 1], [0, 99], [-1, 0], [True, 0], [0, 1.0], (0, 1), [0]])
def test_a_pick_of_several_is_checked_as_apply_checks_it(bad):
    """A choose of several (Capital Jux's draft keeps 2) answered by pick in direct play: an
    answer with an option number twice, out of range, not a whole number, of the wrong count or
    not a list is refused as apply refuses it (who, what, where the game stops), or taken as
    apply takes it; good answers give the same game."""
    rules = load_ruleset("capital_jux")
    for seed in range(3):
        rnd = random.Random(seed).random
        good = random_picker(rnd)
        asked = []

        def pick(n, lo, hi, many, keys=None):
            asked.append(many)
            if many and asked.count(True) == 3:  # the third choose of several: the bad answer
                return list(bad) if type(bad) is list else bad
            return good(n, lo, hi, many, keys)

        g, refused = _played(rules, seed, pick, True)
        rnd, asked = random.Random(seed).random, []
        good = random_picker(rnd)
        ref, ref_refused = _played(rules, seed, pick, False)
        assert refused == ref_refused and g.answers == ref.answers
        if refused is None:
            assert g.over and g.state.same_as(ref.state)
        else:
            assert refused[1] == bad and len(g.answers) == len(ref.answers)
