"""Cards that read alike but differ in what the deciding seat may know of them (a mark such as a
token, the zone they lie in) are separate options, each saying what tells it apart; cards alike in
everything still read the same (the panel offers them as one line). Answers given as the labels
read before (scenarios, scripts) still name their option. (Issue 36, item 4.)"""
from __future__ import annotations

import textwrap

import pytest

from jux.interpreter.engine.game import Game
from jux.interpreter.engine.option_groups import option_groups
from jux.interpreter.engine.ruleset import load_ruleset
from jux.interpreter.errors import IllegalAnswer
from jux.tui.widgets.option_rows import merged, rows_of

GAME = """\
game:
  name: alike
  players: {min: 2, max: 2}
cards:
  num:
    label: "{colour} {value}"
    copies: 8
    attributes:
      colour: [green]
      value: [3]
zones:
  deck: {visible: none, start: [num]}
  hand: {per: player, visible: owner}
  home: {per: player, visible: all, title: home base}
marks:
  gold_token: {default: 0}
functions:
  score(p): "0"
procedures:
  t: |
%s
flow: |
  t()
"""


def game(tmp_path, code: str) -> Game:
    d = tmp_path / "alike"
    d.mkdir(exist_ok=True)
    (d / "game.yaml").write_text(GAME % textwrap.indent(textwrap.dedent(code).strip("\n"), "    "))
    return Game.new(load_ruleset(d), 2)


THREE_HOME = """
for i in range(3) { move top(deck) to home[0] }
set home[0][0].gold_token = 1
"""


def test_a_token_on_one_of_two_alike_cards_tells_them_apart(tmp_path):
    g = game(tmp_path, THREE_HOME + 'choose c from home[0] by players[0]')
    d = g.pending[0]
    labels = [o.label for o in d.options]
    assert labels == ["green 3 (gold token 1)", "green 3 (no gold token)", "green 3 (no gold token)"]
    # the two without a token are alike in everything: one line of the panel (x2); the other apart
    assert [r.members for r in merged(d, range(3))] == [[0], [1, 2]]
    g.apply(0)
    assert g.over


def test_the_card_in_a_label_template_reads_told_apart(tmp_path):
    g = game(tmp_path, THREE_HOME + '''
choose (c, w) from [(c, w) for c in home[0] for w in ["left", "right", "up", "down"]] by players[0]
  label "{c} to the {w}"''')
    d = g.pending[0]
    assert d.options[0].label == "green 3 (gold token 1) to the left"
    assert d.options[4].label == "green 3 (no gold token) to the left"
    # more than nine options grouped by their card: the token's card is a group of its own
    groups = option_groups(d)
    assert [(name, len(m)) for name, m in groups] == [("green 3 (gold token 1)", 4), ("green 3 (no gold token)", 8)]
    rows, _ = rows_of(d, groups, "green 3 (no gold token)")
    assert len(rows) == 4 and all(len(r.members) == 2 for r in rows)


def test_alike_cards_in_different_zones_say_where_they_lie(tmp_path):
    g = game(tmp_path, '''
        move top(deck) to home[0]
        move top(deck) to home[1]
        move top(deck) to hand[0]
        move top(deck) to hand[1]
        choose c from home[0] + home[1] + hand[0] + hand[1] + deck by players[0]''')
    labels = [o.label for o in g.pending[0].options]
    assert labels[:3] == ["green 3 (in your home base)", "green 3 (in Player 2's home base)", "green 3 (in your hand)"]
    # cards unknown to the seat: where they lie
    assert labels[3:] == ["a face-down card (in Player 2's hand)"] + ["a face-down card (in deck)"] * 4


def test_a_label_that_names_no_card_still_tells_options_apart(tmp_path):
    g = game(tmp_path, THREE_HOME + 'choose c from home[0] by players[0] label "that one"')
    labels = [o.label for o in g.pending[0].options]
    assert labels == ["that one (green 3 (gold token 1))", "that one (green 3 (no gold token))",
                      "that one (green 3 (no gold token))"]


def test_alike_cards_read_as_before(tmp_path):
    g = game(tmp_path, '''
        for i in range(2) { move top(deck) to home[0] }
        choose c from home[0] by players[0]''')
    assert [o.label for o in g.pending[0].options] == ["green 3", "green 3"]


def test_an_answer_by_the_label_read_before_still_names_its_option(tmp_path):
    g = game(tmp_path, THREE_HOME + '''
choose c from home[0] by players[0]
choose c from home[0] by players[0] pick 2''')
    g.apply("green 3")  # the label before: the first option that read so
    assert g.answers[-1] == [0, 0]
    g.apply(["green 3", "green 3"])
    assert g.answers[-1] == [0, [0, 1]]


def test_an_unknown_label_is_refused_with_the_labels_offered(tmp_path):
    g = game(tmp_path, THREE_HOME + 'choose c from home[0] by players[0]')
    with pytest.raises(IllegalAnswer, match=r"'blue 9' is not one of the options: green 3 \(gold token 1\)"):
        g.apply("blue 9")
