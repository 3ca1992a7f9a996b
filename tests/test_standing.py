"""Each seat's standing (the ruleset's `standing(p)`): in views and on the table, and never
dependent on cards the viewer cannot see: two games that differ only in those give the same
screen."""
from __future__ import annotations

import random

import pytest

from jux.interpreter.bots.random_bot import random_picker
from jux.interpreter.bots.sample import InfoSet
from jux.interpreter.engine.game import Game
from jux.interpreter.engine.ruleset import load_ruleset
from jux.tui.widgets.table import render_table

GAMES = [("capital_jux", ()), ("capital_jux", ("infiltrator", "doomsayer", "aristocrat", "convertor")),
         ("guildhall", ()), ("bruges", ())]


@pytest.mark.parametrize("name, tiles", GAMES)
def test_the_table_a_seat_sees_depends_only_on_what_it_may_know(name, tiles):
    rules = load_ruleset(name, tiles)
    for seed in range(4):
        g = Game.new(rules, 3, seed=seed, start=False)
        g.autoplay(pick=random_picker(random.Random(seed).random), limit=25 + 20 * seed)
        for seat in range(3):
            screen = render_table(g.view(seat), rules.spec, seat).plain
            for i in range(3):  # the same game with every card the seat does not know dealt again
                other = InfoSet(g, seat).sample(random.Random(100 * seed + i))
                assert render_table(other.view(seat), rules.spec, seat).plain == screen


@pytest.mark.parametrize("name, tiles, parts", [
    ("capital_jux", (), ["hometown", "bonus cards", "gold"]),
    ("capital_jux", ("agent",), ["home base", "bonus cards", "gold"]),
    ("guildhall", (), ["VP cards", "VP tokens"]),
])
def test_the_standing_adds_up_to_the_score(name, tiles, parts):
    rules = load_ruleset(name, tiles)
    g = Game.new(rules, 2, seed=3, start=False)
    g.autoplay(pick=random_picker(random.Random(3).random), limit=60)
    standing = g.view(0)["standing"]
    assert [[n for n, _ in s] for s in standing] == [parts, parts]
    assert [sum(v for _, v in s) for s in standing] == g.scores
    line = next(s for s in render_table(g.view(1), rules.spec, 1).plain.splitlines() if s.startswith("  Player 1"))
    assert f"score {g.scores[0]}: " + ", ".join(f"{n} {v}" for n, v in standing[0]) in line


def test_bruges_standing_is_the_track_and_what_the_final_scoring_would_add():
    rules = load_ruleset("bruges")
    g = Game.new(rules, 2, seed=5, start=False)
    g.autoplay(pick=random_picker(random.Random(5).random), limit=120)
    for p, parts in enumerate(g.view(1)["standing"]):
        assert parts[0] == ["track", g.counter("points", p)]
        assert all(v != 0 for _, v in parts[1:])
    g.autoplay(pick=random_picker(random.Random(5).random))
    assert g.over and [sum(v for _, v in s) for s in g.view(0)["standing"]] == g.scores


def test_a_ruleset_without_standing_has_none():
    g = Game.new(load_ruleset("capital_jux"), 2, seed=1)
    g.rules.standing_fn, saved = None, g.rules.standing_fn
    try:
        assert g.view(0)["standing"] is None
        assert "score" not in render_table(g.view(0), g.rules.spec, 0).plain
    finally:
        g.rules.standing_fn = saved


# ---------------------------------------------------------------- the standing is the score


def test_the_standing_shown_at_the_end_is_the_final_score_with_every_tile_combination():
    """All 256 power-tile combinations (and the base game), one game each at 2, 3 and 4 players:
    the standing every seat sees at the end adds up to the final score of every seat."""
    from test_tiles import COMBOS

    for i, combo in enumerate([()] + COMBOS):
        rules = load_ruleset("capital_jux", combo)
        for n in (2, 3, 4):
            g = Game.new(rules, n, seed=10 * i + n, start=False, log=False)
            g.autoplay(pick=random_picker(random.Random(10 * i + n).random), direct=True)
            for seat in range(n):
                assert [sum(v for _, v in s) for s in g.view(seat)["standing"]] == g.scores, (combo, n)


@pytest.mark.parametrize("tiles, part", [(("sentinel",), "gold on cards"), (("discoverer",), "rocket")])
def test_a_tile_that_scores_points_adds_a_part_to_the_standing(tiles, part):
    rules = load_ruleset("capital_jux", tiles)
    for seed in range(30):
        g = Game.new(rules, 3, seed=seed, start=False, log=False)
        g.autoplay(pick=random_picker(random.Random(seed).random), direct=True)
        standing = g.view(1)["standing"]
        assert [n for n, _ in standing[0]] == ["home base", "bonus cards", "gold", part]
        if any(dict(s)[part] for s in standing):  # a game where the tile's part scored
            assert [sum(v for _, v in s) for s in standing] == g.scores
            return
    raise AssertionError(f"no game in 30 where the {part} scored")


SCORE_ONLY = """
variant:
  name: banker
  game: capital_jux
  requires: [power_tiles]
  overrides: [{overrides}]
functions:
  score(p): previous(p) + 1
{standing}"""


def test_a_variant_overriding_score_but_not_standing_is_warned_and_still_loads(tmp_path):
    path = tmp_path / "banker.yaml"
    path.write_text(SCORE_ONLY.format(overrides="score", standing=""))
    rules = load_ruleset("capital_jux", (str(path),))  # it loads and plays
    g = Game.new(rules, 2, seed=1, start=False, log=False)
    g.autoplay(pick=random_picker(random.Random(1).random), direct=True)
    (w,) = [w for w in rules.spec.warnings if "standing" in w.message]
    assert (w.pos.file.endswith("banker.yaml"), w.pos.line) == (True, 6)
    assert "overrides 'score' but not 'standing'" in w.message
    assert 'standing(p): previous(p) + [("name of the part", points)]' in w.message  # the fix


def test_no_warning_when_the_standing_is_overridden_too(tmp_path):
    path = tmp_path / "banker.yaml"
    path.write_text(SCORE_ONLY.format(overrides="score, standing",
                                      standing='  standing(p): previous(p) + [("bank", 1)]\n'))
    rules = load_ruleset("capital_jux", (str(path),))
    assert not [w for w in rules.spec.warnings if "standing" in w.message]
