"""ISMCTS goes on with its tree when its seat decides again at once (a turn of several decisions),
and only then: the tree is dropped as soon as another seat has answered, or the game is another."""
import random

import pytest

from jux.interpreter.bots import make_bot
from jux.interpreter.bots.answers import answers_of
from jux.interpreter.bots.sample import InfoSet
from jux.interpreter.engine.game import Game
from jux.interpreter.engine.ruleset import load_ruleset
from jux.interpreter.study.simulate import play

N = 40  # iterations a search


@pytest.fixture(scope="module")
def guildhall():
    return load_ruleset("guildhall")


def random_answer(d, rng):
    acts = answers_of(d, rng)
    return acts[rng.randrange(len(acts))]


def searched_turns(rules, spec, seed=3, decisions=300):
    """Play a 4-player game where seat 0 is the bot `spec` and the others answer at random; yield
    (bot, whether the bot's seat also gave the answer just before, after each of its searches."""
    g = Game.new(rules, 4, seed, log=False)
    rng = random.Random(seed)
    bot = make_bot(spec, 7)
    last = None
    for _ in range(decisions):
        d = g.next_decision()
        if d is None:
            return
        if d.player == 0:
            searched = len(answers_of(d, random.Random(0))) > 1
            d.answer(bot.choose(InfoSet(g, 0), d))
            if searched:
                yield bot, last == 0
        else:
            d.answer(random_answer(d, rng))
        last = d.player


def test_a_seat_sees_how_many_answers_were_its_own_since_a_mark(guildhall):
    g = Game.new(guildhall, 4, 5, log=False)
    rng = random.Random(5)
    while True:  # (to two decisions of one seat in a row: a turn of Guildhall)
        d = g.next_decision()
        seat = d.player
        mark = InfoSet(g, seat).mark()
        d.answer(random_answer(d, rng))
        if g.next_decision().player == seat:
            break
    info = InfoSet(g, seat)
    assert info.own_answers_since(mark) == 1
    assert info.own_answers_since(info.mark()) == 0
    assert InfoSet(g.copy(), seat).own_answers_since(mark) is None  # (another game)
    while g.next_decision().player == seat:
        g.next_decision().answer(random_answer(g.next_decision(), rng))
    g.next_decision().answer(random_answer(g.next_decision(), rng))  # (another seat answers)
    assert InfoSet(g, seat).own_answers_since(mark) is None


def test_the_search_goes_on_with_its_tree_within_a_turn_and_not_across_turns(guildhall):
    carried = fresh = 0
    for bot, again in searched_turns(guildhall, f"ismcts:iterations={N}"):
        if bot.last_carried:
            assert again, "a tree was kept across another seat's answer"
            carried += 1
        elif not again:
            fresh += 1
    assert carried >= 20 and fresh >= 5


def test_with_reuse_off_every_search_starts_afresh(guildhall):
    turns = [(bot.last_carried, again) for bot, again in
             searched_turns(guildhall, f"ismcts:iterations={N}:reuse=0")]
    assert sum(again for _, again in turns) >= 20
    assert all(carried == 0 for carried, _ in turns)


@pytest.mark.parametrize("name", ["guildhall", "bruges"])
def test_a_kept_tree_gives_legal_answers_and_the_same_game_from_the_same_seed(name):
    rules = load_ruleset(name)
    specs = ["ismcts:iterations=12", "greedy", "ismcts:iterations=12", "random"]
    a = play(rules, 4, 9, specs, max_answers=200, unfinished=True)  # (play refuses an illegal answer)
    b = play(rules, 4, 9, specs, max_answers=200, unfinished=True)
    assert a.record() == b.record()
