"""Game.autoplay: answering decisions where the rules stop gives the same game as answering them
one by one, and leaves the game at a decision when an answer is refused or the limit is met."""
import random

import pytest

from interpreter.bots.random_bot import random_answer
from interpreter.engine import Game, load_ruleset
from interpreter.errors import IllegalAnswer
from interpreter.runtime import RuleRuntimeError

TILES = ["infiltrator", "mentalist", "sentinel", "dualist"]


def one_by_one(rules, players, seed):
    g = Game.new(rules, players, seed)
    rnd = random.Random(seed).random
    while (d := g.next_decision()) is not None:
        d.answer(random_answer(d, rnd))
    return g


@pytest.mark.parametrize("tiles", [[], TILES])
def test_the_same_game_as_answering_one_by_one(tiles):
    rules = load_ruleset("capital_jux", tiles)
    for seed in range(12):
        players = 2 + seed % 3
        ref = one_by_one(rules, players, seed)
        g = Game.new(rules, players, seed)
        rnd = random.Random(seed).random
        assert g.autoplay(lambda d: random_answer(d, rnd)) == len(ref.answers)
        assert g.over and g.answers == ref.answers and g.scores == ref.scores
        assert g.state.same_as(ref.state) and g.log_lines(None) == ref.log_lines(None)
        assert g.first_player == ref.first_player


def test_the_answer_may_read_the_game_while_the_rules_wait():
    g = Game.new(load_ruleset("capital_jux"), 3, 5)
    seen = []

    def answer(d):
        view = g.view(d.player)  # a consistent game: the decision is the one pending
        assert [x.id for x in g.pending if x.player == d.player] == [d.id]
        seen.append(len(g.copy().answers))
        return 0 if not d.many else list(range(d.min))

    g.autoplay(answer)
    assert g.over and seen == list(range(len(g.answers)))


def test_the_limit_leaves_the_game_at_a_decision():
    rules = load_ruleset("capital_jux")
    ref = one_by_one(rules, 4, 9)
    g = Game.new(rules, 4, 9)
    rnd = random.Random(9).random
    assert g.autoplay(lambda d: random_answer(d, rnd), 50) == 50
    assert not g.over and g.answers == ref.answers[:50] and g.next_decision() is not None
    assert g.autoplay(lambda d: random_answer(d, rnd), 0) == 0
    g.autoplay(lambda d: random_answer(d, rnd))
    assert g.answers == ref.answers


def test_a_refused_answer_leaves_the_game_at_that_decision():
    g = Game.new(load_ruleset("capital_jux"), 2, 3)
    calls = []

    def answer(d):
        calls.append(d.id)
        return 99 if len(calls) == 30 else (0 if not d.many else list(range(d.min)))

    with pytest.raises(IllegalAnswer):
        g.autoplay(answer)
    assert len(g.answers) == 29
    before = g.state.to_json()
    d = g.next_decision()
    assert d is not None and d.id == calls[-1]
    d.answer(0 if not d.many else list(range(d.min)))  # and it goes on from there
    assert g.state.to_json() != before and len(g.answers) == 30


def test_an_error_of_the_answer_function_is_its_own_not_a_rule_error():
    g = Game.new(load_ruleset("capital_jux"), 2, 3)

    def answer(d):
        if len(g.answers) == 40:
            raise KeyError("a bug in a bot")
        return 0 if not d.many else list(range(d.min))

    with pytest.raises(KeyError) as e:
        g.autoplay(answer)
    assert not isinstance(e.value, RuleRuntimeError) and len(g.answers) == 40 and g.next_decision() is not None
