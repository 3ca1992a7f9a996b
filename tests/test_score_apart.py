"""A tile that changes the score says so (issue 36, item 11): `jux validate` warns of a variant that
overrides score(p) but neither overrides nor adds standing(p) (also in rules that declare no
standing), located at the `score` under its overrides; and at the game's end the standing shows
the variant's part, so the table's score adds up to the final score."""
from __future__ import annotations

import random

from jux.interpreter.bots.random_bot import random_picker
from jux.interpreter.engine.game import Game
from jux.interpreter.engine.ruleset import load_ruleset

GAME = """\
game:
  name: plain
  players: {min: 2, max: 2}
cards:
  num:
    label: "num {value}"
    attributes:
      value: [1, 2, 3, 4]
zones:
  deck: {visible: all, start: [num]}
  won: {per: player, visible: all}
counters:
  points: {per: player, start: 0}
functions:
  score(p): points[p]
procedures:
  t: |
    for p in players {
      choose c from deck by p
      move c to won[p]
      points[p] += c.value
    }
flow: |
  t()
"""

TILE = """\
variant:
  name: bonus
  game: plain
  title: Bonus
  overrides: [score]
functions:
  score(p): previous(p) + 10
{more}"""


def files(tmp_path, more: str = ""):
    (tmp_path / "plain").mkdir()
    (tmp_path / "plain" / "game.yaml").write_text(GAME)
    tile = tmp_path / "bonus.yaml"
    tile.write_text(TILE.replace("{more}", more))
    return tmp_path / "plain", tile


def test_a_tile_overriding_the_score_of_rules_without_a_standing_is_warned(tmp_path, run):
    _, tile = files(tmp_path)
    r = run("validate", tile)
    assert r.returncode == 0
    (line,) = [x for x in r.stderr.splitlines() if "warning" in x]
    assert line.startswith("bonus.yaml:5:15: warning: variant 'bonus' overrides 'score', but the rules give no "
                           "'standing'")
    assert "standing(p):" in line  # the fix


def test_a_tile_adding_its_own_standing_is_not_warned(tmp_path, run):
    _, tile = files(tmp_path, '  standing(p): \'[("points", points[p]), ("bonus", 10)]\'\n')
    r = run("validate", tile)
    assert r.returncode == 0 and "warning" not in r.stderr, r.stderr


def test_at_the_end_the_standing_shows_the_tiles_part(tmp_path):
    game, tile = files(tmp_path)
    g = Game.new(load_ruleset(game, [str(tile)]), 2, seed=1)
    assert g.view(0)["standing"] is None  # (during the game: as the rules give it, none)
    g.autoplay(pick=random_picker(random.Random(1).random))
    assert g.over
    standing = g.view(0)["standing"]
    assert [[name for name, _ in s] for s in standing] == [["Bonus"], ["Bonus"]]
    assert [sum(v for _, v in s) for s in standing] == g.scores


def test_at_the_end_the_standing_of_capital_jux_adds_up_to_a_tiles_score(tmp_path):
    tile = tmp_path / "banker.yaml"
    tile.write_text("variant:\n  name: banker\n  title: Banker's bonus\n  game: capital_jux\n"
                    "  requires: [power_tiles]\n  overrides: [score]\nfunctions:\n  score(p): previous(p) + 3\n")
    g = Game.new(load_ruleset("capital_jux", (str(tile),)), 2, seed=2, log=False)
    during = g.view(0)["standing"]
    assert "Banker's bonus" not in [n for n, _ in during[0]]  # (the game not over: the parts as given)
    g.autoplay(pick=random_picker(random.Random(2).random))
    standing = g.view(1)["standing"]
    assert [n for n, _ in standing[0]][-1] == "Banker's bonus"
    assert [sum(v for _, v in s) for s in standing] == g.scores
