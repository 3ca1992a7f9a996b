"""Tracks and counters kept off the table: `track:` on a counter (its spaces from list constants,
checked before a game starts), `show: false`, and how the terminal UI's table draws them."""
from __future__ import annotations

import pytest

from jux.interpreter.engine.game import Game
from jux.interpreter.engine.ruleset import load_ruleset
from jux.interpreter.checks import tracks
from test_rule_errors import at, edit, error, write
from jux.tui.widgets.table import render_table

TRACKED = edit(
    "  round: 0\n  gold: {per: player, start: 0}\n",
    "  round: 0\n  gold: {per: player, start: 0}\n"
    "  fame: {per: player, start: 0, track: {points: fame_points, colour: fame_colours}}\n"
    "  road: {per: [player, colours], start: 0, track: {red: {price: red_prices}, blue: {price: blue_prices}}}\n"
    "  secret_step: {start: 0, show: false}\n")
TRACKED = edit("  limit: 3\n", "  limit: 3\n  fame_points: [0, 1, 3]\n  fame_colours: [red, blue, red]\n"
               "  red_prices: [1, 2]\n  blue_prices: [5, 6, 7]\n", TRACKED)


def test_a_track_gives_its_spaces_from_the_list_constants(tmp_path):
    rules = load_ruleset(write(tmp_path, {"game.yaml": TRACKED}))
    assert tracks.spaces(rules.spec, "fame") == {None: [{"points": 0, "colour": "red"}, {"points": 1, "colour": "blue"},
                                                        {"points": 3, "colour": "red"}]}
    assert tracks.spaces(rules.spec, "road") == {"red": [{"price": 1}, {"price": 2}],
                                                 "blue": [{"price": 5}, {"price": 6}, {"price": 7}]}
    assert tracks.spaces(rules.spec, "gold") is None


@pytest.mark.parametrize("old, new, needle, message", [
    ("fame_points, colour", "fame_pointz, colour", "track: {points: fame_pointz",
     "'points' names 'fame_pointz', which is not a list constant"),
    ("fame_colours: [red, blue, red]", "fame_colours: [red, blue]", "track: {points: fame_points",
     "its lists differ in length (points 3, colour 2)"),
    ("blue: {price: blue_prices}}", "green: {price: blue_prices}}", "track: {red:",
     "the track's items must be those of 'colours' (red, blue); missing blue; not an item: green"),
    ("per: [player, colours], start: 0, track: {red:", "per: player, start: 0, track: {red:", "track: {red:",
     "it is not one per item of a list"),
    ("track: {points: fame_points, colour: fame_colours}", "track: {points: fame_points, more: {x: fame_colours}}",
     "track: {points: fame_points, more", "not both"),
])
def test_a_bad_track_is_a_located_error(tmp_path, old, new, needle, message):
    text = edit(old, new, TRACKED)
    e = error(tmp_path, text)
    line, col = at(text, needle, shift=7)
    assert (e.pos.line, e.pos.col) == (line, col) and message in e.message, str(e)


def test_show_false_is_checked_by_the_schema(tmp_path):
    text = edit("show: false", "show: nope", TRACKED)
    e = error(tmp_path, text)
    assert "show" in str(e) and (e.pos.line, e.pos.col) == at(text, "nope")


def test_the_table_draws_tracks_and_leaves_out_hidden_counters(tmp_path):
    rules = load_ruleset(write(tmp_path, {"game.yaml": TRACKED}))
    g = Game.new(rules, 2, seed=1)
    g.state.v[rules.layout.counter("fame", 1)] = 2
    g.state.v[rules.layout.counter("road", 1, "blue")] = 3
    text = render_table(g.view(1), rules.spec, you=1).plain
    assert "secret" not in text
    assert "round: 0" in text
    lines = text.splitlines()
    you_at = next(i for i, s in enumerate(lines) if "(you)" in s)
    them_at = next(i for i, s in enumerate(lines) if s.startswith("  Player 1"))
    assert you_at < them_at  # the seat's own area comes first
    mine = lines[you_at:them_at]
    assert "  fame ■■□ 2/3: points 1, colour blue  next: points 3, colour red" in mine  # (reached, then next)
    assert "  road red □□ 0/2  next: price 1" in mine
    assert "  road blue ■■■ 3/3: price 7  complete" in mine
    theirs = lines[them_at:]
    assert "  fame □□□ 0/3  next: points 0, colour red" in theirs


def test_a_track_chosen_by_a_counter_follows_it(tmp_path):
    text = edit("  secret_step: {start: 0, show: false}\n",
                "  secret_step: {start: 0, show: false}\n  side: {start: front}\n"
                "  rocket: {per: player, start: 1, track: {by: side, front: {space: fame_points}, back: {space: red_prices}}}\n",
                TRACKED)
    rules = load_ruleset(write(tmp_path, {"game.yaml": text}))
    g = Game.new(rules, 2, seed=1)
    assert "  rocket ■□□ 1/3: space 0  next: space 1" in render_table(g.view(0), rules.spec, 0).plain.splitlines()
    g.state.v[rules.layout.counter("side")] = "back"
    assert "  rocket ■□ 1/2: space 1  next: space 2" in render_table(g.view(0), rules.spec, 0).plain.splitlines()
    bad = text.replace("track: {by: side,", "track: {by: sidee,")
    e = error(tmp_path, bad)
    assert "the track's 'by' names 'sidee', which is not a counter" in e.message


def test_a_counter_shown_as_a_die_draws_its_face(tmp_path):
    text = edit("  secret_step: {start: 0, show: false}\n",
                "  secret_step: {start: 0, show: false}\n  die: {per: colours, start: 3, show: die}\n", TRACKED)
    rules = load_ruleset(write(tmp_path, {"game.yaml": text}))
    g = Game.new(rules, 2, seed=1)
    assert "die: red ⚂ 3, blue ⚂ 3" in render_table(g.view(0), rules.spec, 0).plain
    e = error(tmp_path, text.replace("show: die", "show: dice"))
    assert "show" in e.message
