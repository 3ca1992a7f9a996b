"""Names that no rewording changes (issue 38): a scenario may name a card by what it is, `{card:
KIND, ATTR: VALUE}`, and an option by its value in the rules, `{value: V}`; such a scenario passes
the same before and after the rules reword their labels, with no warning (docs/testing.md)."""
import json
from pathlib import Path

import jsonschema
import pytest

from jux.interpreter.authoring.scenario_run import run_file
from jux.interpreter.cli.main import main

ROOT = Path(__file__).resolve().parent.parent

SHOP = """\
game: {{name: shop, players: {{min: 2, max: 2}}}}
cards:
  vp: {{label: "{card}", attributes: {{v: [2, 5, 9]}}}}
zones:
  market: {{visible: all, start: [vp]}}
  bought: {{visible: all, per: player}}
functions:
  score(p): sum(c.v for c in bought[p])
procedures:
  turn(p): |
    choose what from ["buy", "pass"] by p prompt "Your turn" label "{what}"
    if what == "buy" {{
      choose c from market by p prompt "Buy a card" label "{buy}"
      move c to bought[p]
    }}
flow: |
  for p in players {{ turn(p) }}
"""
BEFORE = dict(card="{v} VP", what="{what}", buy="buy {c}")
AFTER = dict(card="{v} points", what="{what} now", buy="take {c} from the market")

STABLE = """\
title: shop, named by what things are
ruleset: ..
players: 2
run: turn
args: [0]
answers:
  - {player: 0, choose: {value: buy}}
  - {player: 0, choose: {card: vp, v: 9}}
expect:
  zones: {"bought[0]": [{card: vp, v: 9}], market: [{card: vp, v: 2}, {card: vp, v: 5}]}
  scores: [9, 0]
"""
BY_LABEL = """\
title: shop, named by labels
ruleset: ..
players: 2
run: turn
args: [0]
answers:
  - {player: 0, choose: buy}
  - {player: 0, choose: buy 9 VP}
expect:
  zones: {"bought[0]": [9 VP]}
"""


def shop(tmp_path, words: dict, scenario: str):
    (tmp_path / "game.yaml").write_text(SHOP.format(**words))
    (tmp_path / "scenarios").mkdir(exist_ok=True)
    sc = tmp_path / "scenarios" / "sc.yaml"
    sc.write_text(scenario)
    return run_file(sc)


@pytest.mark.parametrize("words", [BEFORE, AFTER], ids=["before", "after"])
def test_cards_and_options_named_by_what_they_are_survive_a_rewording(tmp_path, words):
    out = shop(tmp_path, words, STABLE)
    assert out.status == "passed", out.report()
    assert not out.warnings


def test_the_same_scenario_by_labels_breaks_on_that_rewording(tmp_path):
    assert shop(tmp_path, BEFORE, BY_LABEL).status == "passed"
    out = shop(tmp_path, AFTER, BY_LABEL)
    assert out.status == "failed" and "no card '9 VP' in this ruleset" in out.report()


def test_a_built_in_game_by_what_its_cards_are(tmp_path):
    """Guildhall's VP cards by value and ability: the labels they had in 0.1.0 and have now both
    differ from what the scenario writes."""
    sc = tmp_path / "buy.yaml"
    sc.write_text("""\
title: Buying a 2-chapter VP card, cards by what they are
ruleset: guildhall
players: 2
zones:
  "completed[0]": [red weaver, blue weaver, yellow weaver, green weaver, purple weaver,
                   red dancer, blue dancer, yellow dancer, green dancer, purple dancer]
  center: [{card: vp_card, vp: 9}, {card: vp_card, vp: 5}, {card: vp_card, vp: 4, ability: take_one}]
counters: {actions: 0}
run: take_action
args: [0]
answers:
  - {player: 0, choose: {card: vp_card, vp: 9}}   # (its two chapters are the two completed)
expect:
  zones:
    "action[0]": [{card: vp_card, vp: 9}]
    "completed[0]": []
  counters: {vp: [9, 0]}
""")
    out = run_file(sc)
    assert out.status == "passed", out.report()


def test_names_that_fit_no_card_are_located_with_what_to_write(tmp_path, capsys):
    sc = tmp_path / "bad.yaml"
    sc.write_text("""\
title: bad names
ruleset: guildhall
players: 2
zones:
  center: [{card: vp_crd, vp: 9}, {card: vp_card, vp: 4}, {card: vp_card, colour: red}, {card: vp_card, vp: 11}]
run: take_action
args: [0]
""")
    assert main(["test", str(sc)]) == 1
    out = capsys.readouterr().out
    assert "bad.yaml:5:12: no kind of card 'vp_crd' in this ruleset (did you mean 'vp_card'?)" in out
    assert ("bad.yaml:5:35: {card: vp_card, vp: 4} names cards that read differently (4 VP (1 chapter): draw 5; "
            "4 VP (1 chapter): an action; 4 VP (1 chapter): take a card): give the attributes that tell which") in out
    assert "bad.yaml:5:75: cards of kind vp_card have no attribute 'colour' (their attributes: vp, cost, " in out
    assert "bad.yaml:5:89: no card of kind vp_card has vp 11" in out
    assert "Traceback" not in out


def test_an_answer_naming_no_option_is_refused_by_the_game(tmp_path):
    sc = tmp_path / "refused.yaml"
    sc.write_text("""\
title: not an option
ruleset: guildhall
players: 2
zones:
  center: [{card: vp_card, vp: 9}]
counters: {actions: 0}
run: take_action
args: [0]
answers:
  - {player: 0, choose: {card: vp_card, vp: 5}, refused: "not one of the options"}
  - {player: 0, choose: {value: nothing like it}}
""")
    out = run_file(sc)
    assert out.status == "failed"
    assert "answer 2 (player 0, {value: nothing like it}) refused: '{value: nothing like it}' is not one of " \
           "the options" in out.report()


def test_several_picks_by_what_they_are_take_one_option_each(tmp_path):
    (tmp_path / "game.yaml").write_text("""\
game: {name: pick, players: {min: 1, max: 1}}
cards:
  n: {label: "n{v}", copies: 2, attributes: {v: [1, 2, 3]}}
zones:
  deck: {visible: all, start: [n]}
  kept: {visible: all}
functions:
  score(p): len(kept)
procedures:
  keep(p): |
    choose cs from deck by p pick 3
    move cs to kept
flow: keep(0)
""")
    (tmp_path / "scenarios").mkdir()
    sc = tmp_path / "scenarios" / "many.yaml"
    sc.write_text("""\
title: three picks, two of one kind
ruleset: ..
players: 1
run: keep
args: [0]
answers:
  - {player: 0, choose: [{card: n, v: 3}, {card: n, v: 3}, {card: n, v: 1}]}
expect:
  zones: {kept: [n3, n3, n1]}
""")
    out = run_file(sc)
    assert out.status == "passed", out.report()


def test_the_schema_takes_cards_and_values_where_labels_and_answers_go():
    schema = json.loads((ROOT / "interpreter" / "schema" / "scenario.schema.json").read_text())
    ok = {"title": "t", "players": 2, "run": None,
          "zones": {"hand[0]": [{"card": "vp", "v": 9}, "blue 3"]},
          "answers": [{"player": 0, "choose": {"card": "vp", "v": 9}}, {"player": 0, "choose": {"value": "pass"}},
                      {"player": 0, "choose": [{"card": "vp", "v": 2}, "n3", 1]}],
          "expect": {"zones": {"kept": [{"card": "vp", "v": 9}]}}}
    jsonschema.validate(ok, schema)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(dict(ok, zones={"deck": [{"kind": "vp"}]}), schema)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(dict(ok, answers=[{"player": 0, "choose": {"value": "a", "extra": 1}}]), schema)
