"""What a zone adds up at the table, only where the ruleset asks (`total`, `adds`, `limit`), as far
as the player knows; a zone's own `title`; identical cards as one piece with a count."""
from __future__ import annotations

import pytest

from jux.interpreter.engine.game import Game
from jux.interpreter.engine.ruleset import load_ruleset
from test_rule_errors import at, edit, error, write
from jux.tui.widgets.table import render_table
from jux.tui.widgets.card_text import cards_text

TOTALS = edit(
    "  table: {visible: all}\n  hand: {per: player, visible: owner}\n  piles: {per: colours, visible: all}\n",
    "  table: {visible: all, group: colour, total: value, adds: secret}\n"
    "  hand: {per: player, visible: owner, group: colour, total: value, limit: table, title: my hand}\n"
    "  piles: {per: colours, visible: all}\n  secret: {per: colours, visible: none}\n")


def table_of(tmp_path, zones, viewer=0, reveal=()):
    rules = load_ruleset(write(tmp_path, {"game.yaml": TOTALS}))
    g = Game.scenario(rules, 2, zones=zones)
    for label in reveal:  # the viewer knows this face-down card (as an agent knows the one placed)
        c = next(c for c in rules.cards if rules.card_labels[c] == label and g.state.loc[c] != 0)
        g.state.k[c] |= 1 << viewer
    return render_table(in_play(g.view(viewer)), rules.spec, viewer).plain.splitlines()


def in_play(view: dict) -> dict:
    """A scenario's view as a position in play (a scenario that runs nothing is over, and a game
    over holds nothing to a limit: tests/test_tui_trips.py)."""
    return dict(view, over=False)


def test_group_totals_with_the_added_zone_and_limits_as_far_as_the_player_knows(tmp_path):
    lines = table_of(tmp_path, {"table": ["red 1", "blue 3"], "secret[red]": ["red 3"],
                                "secret[blue]": ["blue 1"], "hand[0]": ["red 2", "blue 2"]},
                     reveal=["blue 1"])
    assert "  red: red 1 + ▮ 1 face down  = 1 + 1 face down" in lines
    assert "  blue: blue 3 + blue 1  = 4" in lines
    assert "    red: red 2  = 2  (limit 1 + 1 face down)" in lines
    assert "    blue: blue 2  = 2  (limit 4)" in lines
    assert any(s.startswith("  my hand (2)") for s in lines)
    assert not any(s.startswith("secret") for s in lines)  # drawn within the table's groups


def test_over_the_limit_only_when_nothing_of_it_is_face_down(tmp_path):
    lines = table_of(tmp_path, {"table": ["blue 1"], "hand[0]": ["blue 2", "blue 3"]})
    assert "    blue: blue 2, blue 3  = 5  (limit 1) over" in lines


def test_no_totals_where_the_ruleset_asks_none(tmp_path):
    rules = load_ruleset(write(tmp_path, {"game.yaml": TOTALS.replace(", total: value, adds: secret", "")
                                          .replace(", total: value, limit: table", "")}))
    g = Game.scenario(rules, 2, zones={"table": ["red 1", "red 2"], "hand[0]": ["red 3"]})
    text = render_table(g.view(0), rules.spec, 0).plain
    assert "=" not in text and "total" not in text


@pytest.mark.parametrize("old, new, needle, message", [
    ("total: value, adds", "total: valeu, adds", "table: {", "total 'valeu' is not an attribute of any card (did you mean 'value'?)"),
    ("adds: secret", "adds: secrte", "table: {", "adds 'secrte', which is not a zone (did you mean 'secret'?)"),
    ("adds: secret", "adds: hand", "table: {", "which is not one zone per item of a list"),
    ("limit: table", "limit: piles", "hand: {", "a limit needs this zone and 'piles' grouped"),
])
def test_a_bad_total_adds_or_limit_is_a_located_error(tmp_path, old, new, needle, message):
    text = edit(old, new, TOTALS)
    e = error(tmp_path, text)
    assert (e.pos.line, e.pos.col) == at(text, needle) and message in e.message, str(e)


def test_identical_cards_side_by_side_are_one_piece_with_a_count():
    cards = [{"label": "green 4"}, {"label": "green 4"}, {"label": "green 5"}, {"label": "green 4"}]
    assert cards_text(cards).plain == "green 4 ×2, green 5, green 4"


def test_capital_jux_shows_each_colours_limit_and_the_hometown_against_it():
    rules = load_ruleset("capital_jux")
    g = Game.scenario(rules, 2, zones={"capital": ["blue 3", "blue 4"], "modifiers[blue]": ["modifier +2"],
                                       "hometown[0]": ["blue 5", "blue 6"]})
    lines = render_table(g.view(1), rules.spec, 1).plain.splitlines()
    assert "  blue: blue 3, blue 4 + ▮ 1 face down  = 7 + 1 face down" in lines
    assert "    blue: blue 5, blue 6  = 11  (limit 7 + 1 face down)" in lines


def test_the_limit_reads_as_the_ruleset_names_it(tmp_path):
    text = TOTALS.replace("limit: table,", "limit: table, limit_title: MAX,")
    rules = load_ruleset(write(tmp_path, {"game.yaml": text}))
    g = Game.scenario(rules, 2, zones={"table": ["blue 1"], "hand[0]": ["blue 2"]})
    assert "    blue: blue 2  = 2  (MAX 1) over" in render_table(in_play(g.view(0)), rules.spec, 0).plain.splitlines()


def test_the_table_section_shows_a_function_to_everyone(tmp_path):
    text = TOTALS.replace("flow: |", "table:\n  cards left in the deck: left\nflow: |").replace(
        "  score(p): gold[p] + len(hand[p])\n", "  score(p): gold[p] + len(hand[p])\n  left(): len(deck)\n")
    rules = load_ruleset(write(tmp_path, {"game.yaml": text}))
    g = Game.new(rules, 2, seed=1)
    for seat in (0, 1):
        assert g.view(seat)["shown"] == [["cards left in the deck", str(len(g.zone("deck")))]]
        assert "cards left in the deck: 4" in render_table(g.view(seat), rules.spec, seat).plain
    e = error(tmp_path, text.replace("cards left in the deck: left", "cards left in the deck: score"))
    assert "table 'cards left in the deck': 'score' is not a function of no parameters" in e.message


def test_a_mark_that_holds_a_card_shows_it_as_the_viewer_knows_it(tmp_path):
    text = TOTALS.replace("  tapped: {default: false}\n", "  tapped: {default: false}\n  holds: {default: none}\n")
    rules = load_ruleset(write(tmp_path, {"game.yaml": text}))
    g = Game.scenario(rules, 2, zones={"table": ["red 1"], "hand[0]": ["blue 2"]})
    red = next(c for c in rules.cards if rules.card_labels[c] == "red 1")
    blue = next(c for c in rules.cards if rules.card_labels[c] == "blue 2")
    g.state.m[red] = {"holds": blue}  # a card on the table holding a card of seat 0's hand
    marks = lambda seat: next(c for z in g.view(seat)["zones"] if z["name"] == "table" for c in z["cards"])["marks"]
    assert marks(0) == {"holds": "blue 2"} and marks(1) == {"holds": "a face-down card"}
    assert "red 1 [holds blue 2]" in render_table(g.view(0), rules.spec, 0).plain
