"""Every game of docs/examples and docs/games (a folder with a game.yaml: the languages' examples, and
games written from the docs as an outside author would) is a game like any other: it validates
without an error, plays to its end between random bots at its fewest and most players, and its
own scenarios (its scenarios/ folder) pass with `jux test`."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

from jux import Game, load_ruleset
from jux.interpreter.bots.random_bot import random_picker
from jux.interpreter.cli.main import main

DOCS = Path(__file__).resolve().parent.parent / "docs"
GAMES = sorted(p.parent for folder in ("examples", "games") for p in (DOCS / folder).glob("*/game.yaml"))


def test_the_examples_are_found():
    assert {"crazy_eights", "low_tricks", "secret_bids"} <= {g.name for g in GAMES}


# Games random bots rarely end: they play to the end between the bots named here. (In gin rummy a
# random discard rarely leaves 10 points of deadwood or less, so a game to 100 points between random
# bots often runs past 20,000 decisions; studies report such games unfinished: --max-decisions.)
PLAYED_BY = {"gin_rummy": "greedy"}


@pytest.mark.parametrize("folder", GAMES, ids=lambda p: p.name)
def test_an_example_game_validates_and_plays_to_its_end(folder, capsys):
    assert main(["validate", str(folder)]) == 0
    assert capsys.readouterr().out.startswith("ok: ")
    rules = load_ruleset(folder)
    if folder.name in PLAYED_BY:
        from jux.interpreter.study.simulate import play_game

        for seed in range(2):
            result = play_game(rules, rules.min_players, seed, [PLAYED_BY[folder.name]] * rules.min_players)
            assert len(result.scores) == rules.min_players and result.winners
        return
    for players in sorted({rules.min_players, rules.max_players}):
        for seed in range(3):
            game = Game.new(rules, players=players, seed=seed)
            game.autoplay(pick=random_picker(random.Random(seed).random), limit=20_000)
            assert game.over, f"{folder.name} with {players} players, seed {seed}"
            assert len(game.scores) == players and game.winners


@pytest.mark.parametrize("folder", [g for g in GAMES if (g / "scenarios").is_dir()], ids=lambda p: p.name)
def test_an_example_games_own_scenarios_pass(folder, capsys):
    assert main(["test", "-q", str(folder)]) == 0
    assert " 0 failed" in capsys.readouterr().out
