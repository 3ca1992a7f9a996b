"""ISMCTS `turns=N`: playouts cut off after about N turns (runs of one seat's decisions), the
decisions a turn measured in the bot's own playouts, so a game of long turns plays deeper."""
import time

import pytest

from jux.interpreter.bots import make_bot
from jux.interpreter.bots.ismcts import count_runs
from jux.interpreter.errors import JuxError
from jux.interpreter.study.simulate import play


def test_runs_count_the_decisions_and_the_changes_of_the_deciding_seat():
    runs = [0, 0]
    answers = [[0, 1], [1, 0], [1, 2], [1, 0], [2, None], [0, [1, 2]]]
    count_runs(runs, answers, 1)  # (from the second answer: seats 1, 1, 1, 2, 0)
    assert runs == [5, 2]
    count_runs(runs, answers, 6)  # (nothing since)
    assert runs == [5, 2]


def bot_after_a_game(name, spec):
    made = []

    def first(seed):
        made.append(make_bot(spec, seed))
        return made[-1]
    t = time.perf_counter()
    play(name, 4, 3, [first, "random", "random", "random"], max_answers=150, unfinished=True)
    return made[0], time.perf_counter() - t


@pytest.mark.parametrize("name, low, high", [("guildhall", 3.0, 8.0), ("capital_jux", 1.0, 2.0)])
def test_a_turn_is_as_long_as_the_playouts_show(name, low, high):
    # a Guildhall turn is about five decisions (two actions and what they ask); Capital Jux's
    # seats mostly decide one at a time
    bot, _ = bot_after_a_game(name, "ismcts:iterations=10:turns=4")
    decisions, changes = bot._runs
    assert changes > 50 and low <= decisions / changes <= high
    assert bot.playout_depth() == round(4 * decisions / changes)


def test_without_turns_nothing_is_measured_and_the_search_time_is_its_own():
    bot, wall = bot_after_a_game("guildhall", "ismcts:iterations=10:turns=0")
    assert bot._runs == [0, 0] and bot.depth == 20
    assert 0 < bot.total_seconds <= wall


def test_playouts_count_turns_unless_a_depth_in_decisions_is_given():
    assert make_bot("ismcts", 1).turns == 20
    assert make_bot("ismcts:turns=8", 1).turns == 8
    given = make_bot("ismcts:depth=30", 1)
    assert given.turns == 0 and given.depth == 30
    assert make_bot("ismcts:depth=-1", 1).turns == 0  # (to the end of the game)
    both = make_bot("ismcts:depth=30:turns=5", 1)
    assert both.turns == 5


def test_the_same_game_from_the_same_seed_with_turns():
    specs = ["ismcts:iterations=8:turns=3", "greedy", "random", "ismcts:iterations=8:turns=2"]
    a = play("bruges", 4, 5, specs, max_answers=120, unfinished=True).record()
    assert a == play("bruges", 4, 5, specs, max_answers=120, unfinished=True).record()


def test_turns_is_checked():
    with pytest.raises(JuxError, match="turns must be a whole number from 0 to 10,000"):
        make_bot("ismcts:turns=-1", 1)
