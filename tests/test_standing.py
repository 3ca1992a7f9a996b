"""Each seat's standing (the ruleset's `standing(p)`): in views and on the table, and never
dependent on cards the viewer cannot see: two games that differ only in those give the same
screen."""
from __future__ import annotations

import random

import pytest

from jux.interpreter.bots.random_bot import random_picker
from jux.interpreter.bots.sample import InfoSet
from jux.interpreter.engine import Game, load_ruleset
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
