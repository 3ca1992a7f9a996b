"""Simulation and bots, in process: determinism, results, summaries, the bot registry."""
from types import SimpleNamespace

import pytest

from jux.interpreter import bots
from jux.interpreter.bots import bot_factory, bot_names, make_bot, parse_spec, register, seat_seed
from jux.interpreter.bots.random_bot import RandomBot
from jux.interpreter.engine.game import Game
from jux.interpreter.engine.ruleset import load_ruleset
from jux.interpreter.errors import JuxError
from jux.interpreter.study.simulate import GameResult, csv_rows, play, play_game, run_games, seat_bots, summarize


@pytest.fixture(scope="module")
def rules():
    return load_ruleset("capital_jux")


def test_same_seeds_same_results(rules):
    a = [r.to_json() for r in run_games(rules, 4, range(5, 10), "random")]
    b = [r.to_json() for r in run_games("capital_jux", 4, range(5, 10), ["random"] * 4)]
    assert a == b
    assert [g["seed"] for g in a] == [5, 6, 7, 8, 9]
    c = [r.to_json() for r in run_games(rules, 4, range(10, 15), "random")]
    assert [g["scores"] for g in a] != [g["scores"] for g in c]


def test_result_shape(rules):
    r = play_game(rules, 3, 42, ["random"] * 3)
    d = r.to_json()
    assert set(d) == {"seed", "scores", "winner", "winners", "turns", "first"}
    assert 0 <= d["first"] < 3 and GameResult.from_json(d) == r
    assert d["seed"] == 42 and len(d["scores"]) == 3 and d["turns"] > 0
    assert all(type(s) is int for s in d["scores"])
    assert d["winners"] and d["winner"] == (d["winners"][0] if len(d["winners"]) == 1 else None)
    best = max(d["scores"])
    assert all(d["scores"][p] == best for p in d["winners"])


def test_record_replays_to_the_same_end(rules):
    r = play_game(rules, 4, 7, ["random"] * 4, record=True)
    g = Game.from_record(r.record)
    assert g.over and g.scores == r.scores and g.winners == r.winners
    assert len(r.record["answers"]) == r.turns


def test_summary_counts_a_complete_tie_as_shared():
    results = [GameResult(1, [5, 5, 1], [0, 1], 10), GameResult(2, [1, 2, 9], [2], 20),
               GameResult(3, [4, 4, 4], [0, 1, 2], 30)]
    s = summarize(results, 3, seconds=2.0, ruleset="x")
    assert s["ruleset"] == "x" and s["games"] == 3 and s["ties"] == 2
    wins = [seat["wins"] for seat in s["seats"]]
    assert wins == pytest.approx([0.5 + 1 / 3, 0.5 + 1 / 3, 1 + 1 / 3], abs=1e-3)
    assert sum(seat["win_rate"] for seat in s["seats"]) == pytest.approx(1.0, abs=1e-3)
    assert s["seats"][2]["mean_score"] == pytest.approx(14 / 3, abs=1e-3)
    assert s["mean_turns"] == 20 and s["games_per_second"] == 1.5
    assert results[0].to_json()["winner"] is None and results[0].to_json()["winners"] == [0, 1]


def test_summary_of_no_games():
    s = summarize([], 2)
    assert s["games"] == 0 and s["seats"][0]["mean_score"] is None


def test_csv_rows():
    rows = csv_rows([GameResult(1, [5, 5], [0, 1], 10), GameResult(2, [1, 3], [1], 7)], 2)
    assert rows[0] == ["seed", "winner", "winners", "turns", "score_0", "score_1"]
    assert rows[1] == [1, "", "0 1", 10, 5, 5]
    assert rows[2] == [2, 1, "1", 7, 1, 3]


def test_seat_bots():
    assert seat_bots("random", 3) == ["random"] * 3
    assert seat_bots("random, random", 2) == ["random", "random"]
    with pytest.raises(JuxError, match="one per seat"):
        seat_bots("random,random", 3)


def test_registry_errors():
    assert "random" in bot_names()
    with pytest.raises(JuxError) as e:
        make_bot("randm", 1)
    assert "unknown bot 'randm'" in str(e.value) and "did you mean 'random'" in str(e.value)
    assert "known bots: " in str(e.value)
    with pytest.raises(JuxError, match="bot .random. has no option .speed. .it takes no options."):
        make_bot("random:speed=3", 1)
    with pytest.raises(JuxError, match="key=value"):
        make_bot("random:fast", 1)
    assert parse_spec("Greedy:depth=2:c=1.5:name=x") == ("greedy", {"depth": 2, "c": 1.5, "name": "x"})


def test_seat_seeds_differ_and_are_stable():
    seeds = {seat_seed(g, p) for g in range(20) for p in range(4)}
    assert len(seeds) == 80
    assert seat_seed(3, 1) == seat_seed(3, 1)


def _decision(n, lo=1, hi=1, many=False):
    return SimpleNamespace(values=list(range(n)), min=lo, max=hi, many=many, player=0)


def test_random_bot_answers_legally_and_is_seeded():
    bot = make_bot("random", 5)
    assert isinstance(bot, RandomBot) and bot.needs_view is False
    for _ in range(200):
        assert 0 <= bot.choose(None, _decision(4)) < 4
        picks = bot.choose(None, _decision(6, 1, 3, True))
        assert 1 <= len(picks) <= 3 and len(set(picks)) == len(picks) and all(0 <= i < 6 for i in picks)
        assert len(bot.choose(None, _decision(5, 2, 2, True))) == 2
        a = bot.choose(None, _decision(3, 0, 1))
        assert a is None or 0 <= a < 3
    declines = [make_bot("random", s).choose(None, _decision(1, 0, 1)) for s in range(40)]
    assert None in declines and 0 in declines
    x = [make_bot("random", 9).choose(None, _decision(100)) for _ in range(3)]
    assert len(set(x)) == 1


def test_a_bot_without_view_never_builds_one(rules, monkeypatch):
    def no_view(self, player):
        raise AssertionError("view built for a bot that does not need it")

    monkeypatch.setattr(Game, "view", no_view)
    assert play(rules, 2, 3, ["random", "random"]).over


class _Peeker:
    """A registered bot that needs the view: checks it is its own seat's, then plays the first option."""

    needs_view = True
    name = "peeker"
    seen = 0

    def __init__(self, seed=None):
        pass

    def choose(self, view, decision):
        assert view["player"] == decision.player
        assert any(d["id"] == decision.id for d in view["decisions"])
        _Peeker.seen += 1
        return list(range(decision.min)) if decision.many else 0


class _Cheater(_Peeker):
    name = "cheater"

    def choose(self, view, decision):
        return 999


def test_registered_bots_plug_in(rules, monkeypatch):
    monkeypatch.setattr(bots, "_registered", dict(bots._registered))
    register("peeker", _Peeker)
    register("cheater", _Cheater)
    assert "peeker" in bot_names()
    g = play(rules, 2, 1, ["peeker", bot_factory("random")])
    assert g.over and _Peeker.seen > 0
    with pytest.raises(JuxError, match=r"game 4: the cheater bot in seat 1 answered 999"):
        play(rules, 2, 4, ["cheater", "random"])
