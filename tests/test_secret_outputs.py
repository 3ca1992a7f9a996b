"""What a command shows to one seat keeps that seat's secrets (issue 39): `jux replay --viewer`
prints each seat's standing as the viewer may know it until the game ends (never the scores,
which may read secret counters), and the TUI's list of saves shows nothing of a game's state.
Saves themselves hold every secret (docs/bots.md, README: they are for one's own games)."""
from __future__ import annotations

import json

import pytest

from jux.interpreter.cli.main import main
from jux.interpreter.engine.game import Game
from jux.interpreter.engine.ruleset import load_ruleset
from jux.tui.saves import list_saves

RULES = """\
game:
  name: hoard
  players: {min: 2, max: 4}
counters:
  chips: {start: 10, per: player, visible: owner}
  points: {start: 0, per: player}
  round: 0
functions:
  standing(p): '[("points", points[p]), ("chips", chips[p])]'
  score(p): points[p] + chips[p]
flow: |
  while round < 2 {
    round += 1
    for p in players {
      choose n from [1, 2, 3] by p prompt "Spend how many?" label "{n}"
      chips[p] -= n
      points[p] += 1
    }
  }
"""


@pytest.fixture()
def record(tmp_path):
    d = tmp_path / "hoard"
    d.mkdir()
    (d / "game.yaml").write_text(RULES)
    g = Game.new(load_ruleset(d), 2, 1)
    g.apply(2, player=0)  # seat 1 spends 3: 7 chips left
    g.apply(0, player=1)  # seat 2 spends 1: 9 chips left
    path = tmp_path / "rec.json"
    path.write_text(json.dumps(g.record()))
    return d, path, g


def test_replay_for_a_viewer_shows_standings_as_the_viewer_knows_them(record, capsys):
    d, path, g = record
    assert main(["replay", str(path), "--rules", str(d), "--viewer", "0"]) == 0
    out = capsys.readouterr().out
    assert "Standings so far" in out and "Scores so far" not in out
    assert "score 8: points 1, chips 7" in out  # its own standing in full
    assert "score 1 + ?: points 1, chips ?" in out  # the other's chips: hidden
    assert "10" not in out.split("Standings so far")[1]  # (seat 2's score, 1 + 9)
    assert main(["replay", str(path), "--rules", str(d)]) == 0  # the referee sees every score
    full = capsys.readouterr().out
    assert "Scores so far" in full and "10" in full.split("Scores so far")[1]


def test_replay_for_a_viewer_at_the_end_shows_the_final_scores(record, capsys):
    d, path, g = record
    while g.pending:
        g.apply(0, player=g.pending[0].player)
    path.write_text(json.dumps(g.record()))
    assert main(["replay", str(path), "--rules", str(d), "--viewer", "1"]) == 0
    out = capsys.readouterr().out
    assert "Final scores" in out and "?" not in out.split("Final scores")[1]


def test_a_ruleset_without_a_standing_shows_a_viewer_no_score(tmp_path, capsys):
    from pathlib import Path

    example = Path(__file__).resolve().parent.parent / "docs" / "examples" / "secret_bids"
    g = Game.new(load_ruleset(example), 3, 1)
    for _ in range(3):
        d = g.pending[0]
        g.apply(0, player=d.player)
    path = tmp_path / "rec.json"
    path.write_text(json.dumps(g.record()))
    assert main(["replay", str(path), "--rules", str(example), "--viewer", "2"]) == 0
    table = capsys.readouterr().out.split("Standings so far")[1]
    rows = [line for line in table.splitlines() if "│ Player" in line]
    assert len(rows) == 3 and all(line.rstrip().endswith("│ ?        │") for line in rows), table


def test_the_list_of_saves_shows_nothing_of_the_state(record, tmp_path):
    d, path, g = record
    saves = tmp_path / "saves"
    saves.mkdir()
    (saves / "a.save.json").write_text(json.dumps(g.save()))
    (info,) = list_saves(saves)
    assert info.error is None
    shown = {k: v for k, v in vars(info).items() if k not in ("path", "mtime")}
    assert shown == {"error": None, "title": "hoard", "tiles": [], "players": 2, "round": None,
                     "answers": 2, "over": False}
