"""The engine plays the same games as before its changes made for speed (bench/same_games.py):
answers, scores, end states and logs of the first games of each set, against the digests stored
in bench/same_games.json."""
from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parent.parent / "bench"
sys.path.insert(0, str(BENCH))

import same_games  # noqa: E402

STORED = json.loads((BENCH / "same_games.json").read_text())["20"]


@pytest.mark.parametrize("name", sorted(same_games.SETS))
def test_the_same_games(name):
    assert same_games.set_digest(name, 20) == STORED[name]


def test_a_different_game_is_told():
    # the digest reads the answers: one changed answer is another digest
    from jux.interpreter.engine.ruleset import load_ruleset
    from jux.interpreter.study.simulate import play

    game = play(load_ruleset("capital_jux"), 2, 0, ["random", "random"])
    before = same_games.game_digest(game)
    game.answers[-1] = [game.answers[-1][0], 99]
    assert same_games.game_digest(game) != before
