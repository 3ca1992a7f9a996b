"""YAML 1.2 reads yes/no/on/off as text: where true or false was meant, the message says so and
what to write (issue 38); a seat counter that starts at -1 is told to start at none."""
from pathlib import Path

import pytest

from jux.interpreter.cli.main import main

RULES = """\
game: {{name: traps, players: {{min: 2, max: 2}}{language}}}
cards: {{n: {{label: "{{v}}", attributes: {{v: [1, 2, 3]}}}}}}
zones: {{deck: {{visible: none, start: [n]}}}}
counters:
  c: {{start: 0, show: {show}}}
  leader: {{start: {leader}, seat: true}}
functions:
  score(p): if leader == {leader} then c else 1
flow: |
  choose x from [1, 2] by 0
"""


def run(capsys, *args):
    capsys.readouterr()
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out, err


@pytest.mark.parametrize("word,meant", [("no", "false"), ("yes", "true"), ("off", "false"), ("On", "true")])
def test_a_yes_no_word_where_true_or_false_goes_says_what_to_write(tmp_path, capsys, word, meant):
    f = tmp_path / "traps.yaml"
    f.write_text(RULES.format(language="", show=word, leader="none"))
    code, out, err = run(capsys, "validate", f)
    assert code == 1
    assert f"traps.yaml:5:23: counters.c.show: '{word}' is text in YAML 1.2, not true or false: write {meant}" in err


def test_a_seat_counter_that_starts_at_minus_one_is_told_to_start_at_none(tmp_path, capsys):
    f = tmp_path / "traps.yaml"
    f.write_text(RULES.format(language="", show="false", leader=-1))
    code, out, err = run(capsys, "validate", f)
    assert code == 0 and "1 warning" in out
    assert ("counter 'leader' holds a seat, and -1 is no seat; start it at none for no seat (start: none), "
            "and ask 'leader != none' where the rules ask 'leader != -1'") in err
    # it still plays as written: -1 is the number -1 (it was read as the seat 16, which no game has)
    code, out, err = run(capsys, "play", "--print", f, "--seed", "1")
    assert code == 0 and "with 0" in out, out
    f.write_text(RULES.format(language=", language: 2", show="false", leader=-1))
    code, out, err = run(capsys, "validate", f)
    assert code == 1 and "counter 'leader' holds a seat, and -1 is no seat\n" in err


def test_xfail_no_and_refused_yes_in_a_scenario_say_what_they_mean(tmp_path, capsys):
    f = tmp_path / "traps.yaml"
    f.write_text(RULES.format(language="", show="false", leader="none"))
    sc = tmp_path / "sc.yaml"
    sc.write_text("title: t\nruleset: traps.yaml\nplayers: 2\nrun: null\n"
                  "answers:\n  - {player: 0, choose: 0, refused: yes}\nxfail: no\n")
    code, out, err = run(capsys, "test", sc)
    assert code == 1
    assert "sc.yaml:6:37: answers.0.refused: 'yes' is text in YAML 1.2, read as words the refusal must hold: write true" in out
    assert "sc.yaml:7:8: xfail: 'no' is text in YAML 1.2, read as the reason a failure is expected" in out
