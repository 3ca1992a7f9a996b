"""Coverage "powers" (what `jux balance` counts): the same figures as full coverage, from rules
compiled with their fast paths, and only the game's own decisions and power uses, never those of
the copies a bot plays on to choose."""
import pytest

from jux.interpreter.bots import Bot
from jux.interpreter.engine.ruleset import load_ruleset
from jux.interpreter.study.balance import combo_stats, tile_grid
from jux.interpreter.study.coverage import add
from jux.interpreter.study.simulate import play, run_games

GAME = "capital_jux"


def _stats(combo, coverage, bots, seeds):
    rules = load_ruleset(GAME, list(combo), coverage=coverage)
    return combo_stats(combo, list(run_games(rules, 4, seeds, bots)), 4, 256)


@pytest.mark.parametrize("step", [0, 1, 2, 3])
def test_random_bots_give_the_figures_of_full_coverage(step):
    # every figure of a combination (scores, starting seat, turns, each power's uses and score
    # change, the decisions and those with a single possible answer) as full coverage gives it
    combos = tile_grid(GAME)[1][step * 61 + 7::97][:2]
    for combo in combos:
        full = _stats(combo, True, ["random"], range(1, 9))
        powers = _stats(combo, "powers", ["random"], range(1, 9))
        assert powers == full
        assert powers["decisions"] > 0 and powers["powers"]


def test_powers_code_keeps_its_fast_paths_and_counts_no_statement():
    full = load_ruleset(GAME, ["outsider"], coverage=True)
    powers = load_ruleset(GAME, ["outsider"], coverage="powers")
    plain = load_ruleset(GAME, ["outsider"])
    assert powers is not full and powers is not plain
    assert "_C[" in full._c["source"] and "_C[" not in powers._c["source"]
    assert "def D_" not in full._c["source"] and "def D_" in powers._c["source"]
    assert powers.coverage.sites == [] and powers.coverage.lines is False and full.coverage.lines is True


class _Replay(Bot):
    """Answers each decision of its seat with the next answer of a game played before."""
    needs_view = False

    def __init__(self, answers):
        super().__init__()
        self.answers = answers

    def choose(self, view, decision):
        return self.answers.pop(0)


def test_a_bot_s_trial_games_are_not_counted():
    # greedy plays each option out on a copy of the game: those copies' decisions and power uses
    # are not the game's. The game's own counts are what full coverage counts of the same game
    # replayed answer by answer (no copy played on)
    combo = ["outsider", "missionary", "sentinel", "scholar"]
    rules = load_ruleset(GAME, combo, coverage="powers")
    counts = rules.coverage
    full_rules = load_ruleset(GAME, combo, coverage=True)
    checked = 0
    for seed in (3, 4):
        before = counts.snapshot()
        game = play(rules, 4, seed, ["greedy", "random", "greedy", "random"], blind=True, counts=counts)
        got = counts.since(before)
        assert counts.only is game.state  # (run_games lets it go after each game)
        by_seat = [[] for _ in range(4)]
        for seat, choice in game.answers:
            by_seat[seat].append(choice)
        replays = [lambda s, a=a: _Replay(list(a)) for a in by_seat]
        was = full_rules.coverage.snapshot()
        again = play(full_rules, 4, seed, replays, log=True)
        full = full_rules.coverage.since(was)
        assert again.scores == game.scores and again.answers == game.answers
        assert got["powers"] == full["powers"]
        assert got["decisions"] == [sum(c[1] for c in full["choices"]), sum(c[2] for c in full["choices"])]
        assert got["decisions"][0] == len(game.answers)
        checked += sum(p[2] for p in got["powers"])
    assert checked > 0
    # while full coverage (`jux simulate --coverage`: what ran) counts greedy's trial games too
    was = full_rules.coverage.snapshot()
    game = play(full_rules, 4, 3, ["greedy", "random", "greedy", "random"], log=True)
    assert sum(c[1] for c in full_rules.coverage.since(was)["choices"]) > 2 * len(game.answers)


def test_run_games_lets_the_game_go_and_counts_add_up():
    rules = load_ruleset(GAME, ["recruiter"], coverage="powers")
    results = list(run_games(rules, 4, [1, 2], ["greedy", "random", "random", "random"]))
    assert rules.coverage.only is None
    total = add(None, results[0].coverage)
    total = add(total, results[1].coverage)
    assert total["decisions"] == [a + b for a, b in zip(results[0].coverage["decisions"], results[1].coverage["decisions"])]
    assert total["decisions"][0] == results[0].turns + results[1].turns
    with pytest.raises(ValueError):
        add(total, {"runs": [], "choices": [], "powers": []})
