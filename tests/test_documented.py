"""What docs/language.md says of a card's kind, counters of true/false, `move LIST to ZONE bottom`
and how values read in a log line, each statement checked against the engine."""
from __future__ import annotations

import pytest

from jux.interpreter.engine.game import Game
from jux.interpreter.engine.ruleset import load_ruleset
from jux.interpreter.errors import RuleErrors
from jux.tui.widgets.counters import counter_value

GAME = """\
game: {name: noted, players: {min: 2, max: 2}}
cards:
  number: {label: "n{value}", attributes: {value: [1, 2, 3, 4, 5]}}
  joker: {label: "joker", attributes: {value: [0]}}
zones:
  deck: {visible: all, start: [number]}
  side: {visible: all, start: [joker]}
  pile: {visible: all}
  hand: {per: player, visible: owner}
counters:
  over: false
  ready: {per: player, start: false}
  gold: {per: player, start: 0}
functions:
  score(p): gold[p]
flow: |
  FLOW
"""


def game_of(tmp_path, flow: str, players: int = 2) -> Game:
    folder = tmp_path / "noted"
    folder.mkdir(exist_ok=True)
    (folder / "game.yaml").write_text(GAME.replace("FLOW", flow.replace("\n", "\n  ")))
    return Game.new(load_ruleset(folder), players, seed=1)



def test_a_cards_kind_is_the_name_of_its_kind(tmp_path):
    g = game_of(tmp_path, 'log "{top(deck).kind} {top(side).kind}"\n'
                          'gold[0] = count(c for c in deck + side if c.kind == "number")')
    assert g.log_lines(0) == ["number joker"]
    assert g.scores == [5, 0]


def test_a_counter_holds_true_or_false(tmp_path):
    g = game_of(tmp_path, 'ready[1] = true\nif ready[1] and not over { gold[1] = 1 }\nover = not over\n'
                          'log "{over} {ready[0]} {ready[1]}"')
    assert g.counter("over") is True and g.counter("ready") == [False, True] and g.scores == [0, 1]
    assert g.log_lines(0) == ["yes no yes"]  # true and false read yes and no in the log
    assert g.view(0)["counters"]["over"] is True  # a view holds true/false
    spec = g.rules.spec.counters
    assert counter_value(spec, "over", True, ["Ann", "Bob"]) == "yes"  # the table shows yes / no
    assert counter_value(spec, "ready", False, ["Ann", "Bob"]) == "no"


def test_a_counter_of_true_false_given_a_number_is_told(tmp_path):
    (tmp_path / "v2").mkdir()
    folder = tmp_path / "v2"
    (folder / "game.yaml").write_text(GAME.replace("noted, players", "noted, language: 2, players")
                                      .replace("FLOW", "over = 1"))
    with pytest.raises(RuleErrors) as e:
        load_ruleset(folder)
    assert [x.message for x in e.value.errors] == ["counter 'over' holds true or false, not a number"]


def test_no_in_the_yaml_is_a_text_not_false(tmp_path):
    folder = tmp_path / "noted"
    folder.mkdir()
    (folder / "game.yaml").write_text(GAME.replace("  over: false", "  over: no").replace("FLOW", 'log "{over}"'))
    g = Game.new(load_ruleset(folder), 2, seed=1)
    assert g.counter("over") == "no"


def test_move_list_to_zone_bottom_puts_each_under_in_turn(tmp_path):
    g = game_of(tmp_path, 'move side to pile\n'
                          'let xs = [c for c in deck if c.value <= 3]\n'
                          'log "{xs}"\n'
                          'move xs to pile bottom\n'
                          'log "{pile}"\n'
                          'move deck to pile bottom\n'
                          'log "{pile}"\n'
                          'move [top(pile)] to hand[0] bottom\n'
                          'log "{hand[0]}"')
    # a zone reads from bottom to top; the deck starts n1..n5, bottom to top
    assert g.log_lines(None) == [
        "n1, n2, n3",
        "n3, n2, n1, joker",  # the list's last card at the very bottom: its order reversed
        "n4, n5, n3, n2, n1, joker",  # a whole zone keeps its order
        "joker",
    ]


def test_empty_lists_true_false_and_none_in_a_log_line(tmp_path):
    g = game_of(tmp_path, 'log "[{[]}] [{hand[0]}] [{[1, 2]}] [{(1, \\"a\\")}] [{none}] [{true}] [{false}]"\n'
                          'let kept = "{[]}|{true}|{none}"\n'
                          'log "{kept}"\n'
                          'choose x from [1] by players[0] prompt "pick from {[]} ({false})"')
    assert g.log_lines(0)[0] == "[none] [none] [1, 2] [1 a] [none] [yes] [no]"
    # a text made and kept in a local is made once, not as a log line: there an empty list is
    # empty text and true and none read as the words True and None
    assert g.log_lines(0)[1] == "|True|None"
    assert g.pending[0].prompt == "pick from none (no)"  # a prompt reads as a log line does
