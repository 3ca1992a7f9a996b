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


def test_a_random_bot_is_seeded_as_random_random_seeds():
    """RandomBot's generator, seeded without random.Random's Python-level calls, is random.Random(seed)."""
    from jux.interpreter.bots.random_bot import RandomBot, seeded
    for seed in (0, 1, 12345, 2**64 - 1, 2**70 + 3, -7, "a text", 1.5):
        ref, got = random.Random(seed), seeded(seed)
        assert type(got) is random.Random and got.getstate() == ref.getstate() and vars(got) == vars(ref)
        assert [got.random() for _ in range(5)] == [ref.random() for _ in range(5)]
    assert RandomBot(99).rng.getstate() == random.Random(99).getstate()


@pytest.mark.parametrize("n", [1, 2, 5, 63, 64, 65, 200])
def test_the_random_bot_picks_several_as_a_partial_fisher_yates_shuffle(n):
    """The random bot's answer to a choose of several: how many (lo to hi), then the first of a
    Fisher-Yates shuffle of the option numbers, drawn in that order from its generator."""
    for seed in range(20):
        rnd = random.Random(seed).random
        lo, hi = min(seed % 3, n), 2 + seed % 4
        got = random_picker(random.Random(seed).random)(n, lo, hi, True)
        top = min(hi, n)
        k = lo if lo >= top else lo + int(rnd() * (top - lo + 1))
        picks = list(range(n))
        for i in range(k):
            j = i + int(rnd() * (n - i))
            picks[i], picks[j] = picks[j], picks[i]
        assert got == picks[:k]


@pytest.mark.parametrize("name,tiles,players", [("capital_jux", [], 4), ("capital_jux", ["infiltrator", "doomsayer", "aristocrat", "convertor"], 3),
                                                ("guildhall", [], 3), ("bruges", [], 2)])
def test_a_blind_game_keeps_where_each_card_is(name, tiles, players):
    """A game played blind skips who knows which card in its moves, draws and shuffles, not where
    each card is: its cards' zones are those its zones hold, as in the same game seen."""
    from jux.interpreter.study.simulate import play
    rules = load_ruleset(name, tiles)
    for seed in range(3):
        blind = play(rules, players, seed, ["random"] * players, blind=True)
        seen = play(rules, players, seed, ["random"] * players)
        S = blind.state
        assert S.vis.blind is S.vis
        assert all(S.loc[c] == zi for zi, z in enumerate(S.z) for c in z)
        assert S.z == seen.state.z and S.loc == seen.state.loc and blind.answers == seen.answers


@pytest.mark.parametrize("n", [0, 1, 3, 200, -2, True])
def test_drawing_n_cards_is_moving_the_top_card_n_times(n):
    """draw: the top card of a zone to another, n times or until none is left (a whole number;
    none at all for 0 or less), each as a move of that card alone would do it."""
    from jux.interpreter.runtime import moves
    rules = load_ruleset("capital_jux")
    g = Game.new(rules, 3, 5)
    S = g.state
    for src, dest in ((0, 9), (0, 1), (2, 1), (1, 0)):
        ref = g.copy().state
        ref.fresh = list(S.fresh)  # (a copy starts with none moved since the last choose)
        moves.draw(S, n, src, dest)
        for _ in range(n):
            if ref.z[src]:
                moves.move(ref, ref.z[src][-1], dest)
        assert (S.z, S.loc, S.k, set(S.fresh)) == (ref.z, ref.loc, ref.k, set(ref.fresh))
    with pytest.raises(TypeError):
        moves.draw(S, 2.0, 0, 9)
