"""Values of a rule file have a type `jux validate` checks, and a run-time error speaks the rules'
words: a card attribute that mixes numbers and texts is told before the game (a warning in language
1, an error in language 2, at the odd value), and a game that still adds a text to a number stops
at the rule's line with "'+' cannot take a number and a text", never Python's wording."""
from __future__ import annotations

import pytest

from jux import Game, load_ruleset
from jux.interpreter.engine.ruleset import RuleRuntimeError, _in_rule_words
from jux.interpreter.errors import RuleErrors

GAME = """\
game: {{name: mixed, players: {{min: 2, max: 2}}{language}}}
cards:
  card:
    label: "card {{value}}"
    attributes:
      value: [2, 2, "x", 3]
zones:
  deck: {{visible: none, start: [card]}}
counters:
  points: {{per: player, start: 0}}
functions:
  score(p): points[p]
flow: |
  for c in deck {{ points[players[0]] += c.value }}
"""


def _folder(tmp_path, language=""):
    d = tmp_path / "mixed"
    d.mkdir()
    (d / "game.yaml").write_text(GAME.format(language=language))
    return d


def test_an_attribute_mixing_numbers_and_texts_is_a_warning_at_the_odd_value_in_language_1(tmp_path):
    rules = load_ruleset(_folder(tmp_path))
    [w] = [w for w in rules.spec.warnings if "mixes" in w.message]
    assert (w.pos.line, w.pos.col) == (6, 21)  # the "x"
    assert w.message.startswith("attribute 'value' of card kind 'card' mixes texts and numbers ('x' among 2, 2, 3)")
    assert "give every value of 'value' one type" in w.message and "a warning in language 1" in w.message


def test_it_is_an_error_in_language_2(tmp_path):
    with pytest.raises(RuleErrors) as e:
        load_ruleset(_folder(tmp_path, ", language: 2"))
    [err] = [x for x in e.value.errors if "mixes" in x.message]
    assert (err.pos.line, err.pos.col) == (6, 21) and "a warning in language" not in err.message


def test_the_game_that_still_adds_them_stops_in_the_rules_words(tmp_path):
    rules = load_ruleset(_folder(tmp_path))
    with pytest.raises(RuleRuntimeError) as e:
        Game.new(rules, players=2, seed=0)
    message = str(e.value)
    assert message.endswith("game.yaml:14:19: '+' cannot take a number and a text")  # (the `+=`)
    assert "TypeError" not in message and "unsupported operand" not in message and "'int'" not in message


@pytest.mark.parametrize("python, rules", [
    ("unsupported operand type(s) for +: 'int' and 'str'", "'+' cannot take a number and a text"),
    ("unsupported operand type(s) for -: 'str' and 'Card'", "'-' cannot take a text and a card"),
    ("'<' not supported between instances of 'str' and 'int'", "'<' cannot compare a text with a number"),
    ("bad operand type for unary -: 'str'", "'-' cannot take a text"),
    ('can only concatenate str (not "int") to str', "'+' cannot join a text and a number"),
    ("object of type 'int' has no len()", "a value of the wrong type for this operation"),
])
def test_pythons_words_become_the_rules_words(python, rules):
    assert _in_rule_words(python) == rules


def test_the_project_rule_files_mix_no_types():
    for name in ("capital_jux", "guildhall", "bruges"):
        assert not [w for w in load_ruleset(name).spec.warnings if "mixes" in w.message]
