"""bench/bots.py --games-log: a line per game as it ends; a run stopped part way goes on where it
stopped, counting the games it finds, and gives the figures a run in one go gives."""
from __future__ import annotations

import json
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parent.parent / "bench"
sys.path.insert(0, str(BENCH))

import bots  # noqa: E402


def test_a_match_goes_on_from_its_games_log(tmp_path, capsys):
    log = tmp_path / "games.jsonl"
    whole = bots.match("t", "capital_jux", 4, "greedy", "random", 5, 1, 1)
    bots.match("t", "capital_jux", 4, "greedy", "random", 3, 1, 1, str(log))
    assert len(log.read_text().splitlines()) == 3
    with open(log, "a") as f:  # (a run killed while it wrote a line)
        f.write('{"ruleset": "capital_ju')
    assert bots.match("t", "capital_jux", 4, "greedy", "random", 5, 1, 1, str(log)) == whole
    lines = log.read_text().splitlines()
    games = [json.loads(line) for line in lines if line.endswith("}")]
    assert [g["seed"] for g in games] == [1, 2, 3, 4, 5]  # (only the two missing were played)
    assert [g["seat"] for g in games] == [0, 1, 2, 3, 0]
    # another match (another bot) in the same file is not counted as this one
    bots.match("t", "capital_jux", 4, "random", "random", 2, 1, 1, str(log))
    assert len(log.read_text().splitlines()) == len(lines) + 2
    capsys.readouterr()
