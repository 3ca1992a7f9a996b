"""A game played blind (Game.autoplay's blind, what run_games asks for) is the same game: it only
skips keeping who knows which card, which nothing reads afterwards."""
from __future__ import annotations

from pathlib import Path

import pytest

from jux.interpreter.errors import JuxError
from jux.interpreter.engine.ruleset import load_ruleset
from jux.interpreter.study.simulate import play, play_game, run_games

TILES = ["infiltrator", "doomsayer", "aristocrat", "convertor"]
CASES = [("capital_jux", [], 4, 40), ("capital_jux", [], 2, 40), ("capital_jux", ["outsider", "missionary", "follower", "discoverer"], 2, 20), ("capital_jux", TILES, 3, 40),
         ("capital_jux", ["recruiter", "mentalist", "sentinel", "dualist"], 4, 20),
         ("guildhall", [], 3, 6), ("bruges", [], 4, 4), ("bruges", [], 2, 4)]


def _what_the_game_did(game) -> dict:
    S = game.state
    return {"answers": game.answers, "scores": game.scores, "zones": S.z, "counters": S.v, "marks": S.m,
            "rng": S.rng, "over": game.over}


@pytest.mark.parametrize("name,tiles,players,games", CASES)
def test_a_blind_game_is_the_same_game(name, tiles, players, games):
    rules = load_ruleset(name, tiles)
    assert not rules.reads_knowledge
    for seed in range(games):
        seen = play(rules, players, seed, ["random"] * players)
        blind = play(rules, players, seed, ["random"] * players, blind=True)
        assert blind.state.vis is blind.state.vis.blind  # (it was played blind)
        assert seen.state.vis is not seen.state.vis.blind
        assert _what_the_game_did(blind) == _what_the_game_did(seen), (name, tiles, seed)


def test_run_games_results_are_those_of_the_games_seen():
    rules = load_ruleset("capital_jux", TILES)
    seeds = range(30)
    results = list(run_games(rules, 4, seeds, ["random"]))
    for seed, r in zip(seeds, results):
        game = play(rules, 4, seed, ["random"] * 4)
        assert r.scores == [int(s) for s in game.scores]
        assert r.turns == len(game.answers)
    assert play_game(rules, 4, 3, ["random"] * 4, record=True).record["answers"] == \
        play(rules, 4, 3, ["random"] * 4).record()["answers"]


def test_a_blind_game_shows_nothing_of_who_knows_what():
    game = play(load_ruleset("capital_jux"), 3, 1, ["random"] * 3, blind=True)
    for refused in (lambda: game.view(0), lambda: game.knows(0, 0), lambda: game.save(), lambda: game.copy(),
                    lambda: game.read_card(0, 1)):
        with pytest.raises(JuxError, match="played blind"):
            refused()
    assert game.view(None)["zones"]  # (the referee's view reads no knowledge)
    assert game.record()["answers"] == game.answers


def test_no_game_is_blind_where_knowledge_is_read():
    # a bot that reads views, a log kept, or rules that call knows(): the game keeps track
    rules = load_ruleset("capital_jux")
    assert play(rules, 3, 0, ["greedy"] * 3, blind=True).view(0)["zones"]
    assert play(rules, 3, 0, ["random"] * 3, blind=True, log=True).view(0)["log"]
    swap = load_ruleset(Path(__file__).resolve().parent.parent / "docs" / "examples" / "market_swap")
    assert swap.reads_knowledge
    players = swap.min_players
    game = play(swap, players, 0, ["random"] * players, blind=True)
    assert game.view(0)["zones"]
    assert _what_the_game_did(game) == _what_the_game_did(play(swap, players, 0, ["random"] * players))
