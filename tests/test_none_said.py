"""A game that validates and then fails on a none says which value of the statement was none and
when it is (issue 38): top() of an empty zone, max() of no values, a counter not yet given a value."""
import pytest

from jux.interpreter.cli.main import main

RULES = """\
game: {{name: nones, players: {{min: 2, max: 2}}}}
cards: {{n: {{label: "{{v}}", attributes: {{v: [1, 2, 3]}}}}}}
zones: {{deck: {{visible: none, start: [n]}}, hand: {{visible: owner, per: player}}}}
counters: {{pts: {{start: 0, per: player}}, led: {{start: none}}}}
functions:
  score(p): pts[p]
flow: |
  draw 3 from deck to hand[0]
  choose x from [1, 2] by 0
  {line}
"""


@pytest.mark.parametrize("line,said", [
    ("pts[0] += top(hand[1]).v", "top(hand[1]) is none when hand[1] is empty"),
    ("pts[1] = max(c.v for c in hand[1]) + 1", "max(...) is none of no values"),
    ("led = top(hand[1])\n  pts[1] = led.v + 1", "counter 'led' is none until the rules give it a value"),
    ("pts[1] = min_by(hand[1], c -> c.v).v + top(deck).v", "it may be one of: min_by(hand[1], ...) is none when "
                                                           "hand[1] is empty; top(deck) is none when deck is empty"),
])
def test_a_failure_on_a_none_names_the_value_and_when_it_is_none(tmp_path, capsys, line, said):
    f = tmp_path / "nones.yaml"
    f.write_text(RULES.format(line=line))
    assert main(["validate", str(f)]) == 0
    capsys.readouterr()
    assert main(["play", "--print", str(f), "--seed", "1"]) == 1
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err
    assert "nones.yaml:1" in err and ":3: a value is none where a card or number is needed" in err
    assert err.rstrip().endswith(said), err
