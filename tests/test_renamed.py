"""Scenarios survive the rules' rewording (issue 38): a ruleset's `renamed` section maps earlier
spellings of card labels, options, prompts and log words to their spelling now; `jux test` runs a
scenario written before, warning at each earlier spelling with the words to write, and leaves out
an answer to a question no longer asked (it has one answer) with a warning."""
from pathlib import Path

import pytest

from jux.interpreter.authoring.renames import Renames
from jux.interpreter.authoring.scenario_run import run_file
from jux.interpreter.cli.main import main

ROOT = Path(__file__).resolve().parent.parent
OLD = ROOT / "tests" / "corpus" / "scenarios_0.1.0"


def test_templates_find_the_one_spelling_now():
    r = Renames({"{n} VP": ["{n} VP ({cost})", "{n} VP ({cost}): {ability}"],
                 "{x}(s){y}": ["{x}{y}", "{x}s{y}"]})
    labels = ["5 VP (1 chapter)", "5 VP (1 chapter): draw 5", "9 VP (2 chapters)"]
    assert r.label("9 VP", labels) == "9 VP (2 chapters)"
    assert r.label("5 VP", labels) == "5 VP (1 chapter)"          # the first template that finds one
    assert r.label("7 VP", labels) is None
    assert r.label("left: 5 guilder(s)", ["left: 5 guilders", "left: 1 guilder"]) == "left: 5 guilders"
    assert r.label("left: 1 guilder(s)", ["left: 5 guilders", "left: 1 guilder"]) == "left: 1 guilder"
    lines = ["Ann draws 2 cards.", "Bob draws 1 card."]
    assert r.part("Ann draws 2 card(s)", lines) == "Ann draws 2 card"   # (a part of the line)
    assert r.part("Cid draws 2 card(s)", lines) is None
    assert not Renames({}) and Renames({"a": "b"})


@pytest.mark.parametrize("path", sorted(OLD.rglob("*.yaml")), ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_a_scenario_of_release_0_1_0_still_passes_with_warnings(path):
    out = run_file(path)
    assert out.status == "passed", out.report()
    assert out.warnings, "each of these files names something the rules reworded since"
    for w in out.warnings:
        assert w.what.startswith("warning: ") and w.pos.file.endswith(path.name)


def test_the_warning_says_what_to_write_at_its_place(capsys):
    code = main(["test", str(OLD / "guildhall" / "end_of_turn.yaml")])
    out = capsys.readouterr().out
    assert code == 0
    assert "WARNED " in out and "1 passed, 0 failed, " in out and " warnings in " in out
    assert "end_of_turn.yaml:11:19: warning: '9 VP' is '9 VP (2 chapters)' in these rules now (they reworded " \
           "it): write '9 VP (2 chapters)'" in out


def test_an_answer_to_a_question_no_longer_asked_is_left_out_with_a_warning():
    out = run_file(OLD / "guildhall" / "assassin_level_0.yaml")
    assert out.status == "passed", out.report()
    assert any("answer 3 answers a question these rules no longer ask" in w.what for w in out.warnings)


def test_without_the_renamed_section_the_old_scenarios_fail(tmp_path):
    """The same files against the rules without their renamed.yaml: what the section does."""
    import shutil

    rules = tmp_path / "guildhall"
    shutil.copytree(ROOT / "rules" / "guildhall", rules)
    (rules / "renamed.yaml").unlink()
    sc = tmp_path / "end_of_turn.yaml"
    text = (OLD / "guildhall" / "end_of_turn.yaml").read_text()
    sc.write_text(text.replace("ruleset: guildhall", "ruleset: guildhall/"))
    assert "ruleset: guildhall/" in sc.read_text()
    out = run_file(sc)
    assert out.status == "failed" and "no card '9 VP' in this ruleset" in out.report()


def test_a_renamed_section_is_checked_by_the_schema(tmp_path, capsys):
    f = tmp_path / "g.yaml"
    f.write_text('game: {name: g, players: {min: 2, max: 2}}\ncards: {n: {label: "{v}", attributes: {v: [1]}}}\n'
                 'zones: {deck: {visible: none, start: [n]}}\nfunctions: {score(p): "0"}\n'
                 'renamed: {"old {x}": 3}\nflow: |\n  choose x from [1, 2] by 0\n')
    assert main(["validate", str(f)]) == 1
    assert "g.yaml:5:22: renamed.old {x}: expected a string or a list, found 3" in capsys.readouterr().err


def test_an_answer_after_the_run_is_over_says_to_remove_it_if_no_longer_asked():
    """A last answer whose question the rules no longer ask cannot be told from a mistake: it still
    fails, and says what to change."""
    out = run_file(ROOT / "tests" / "data" / "reworded" / "buy_cost_in_completed_chapters.yaml")
    assert out.status == "failed"
    assert ("answer 2 (player 0, [a completed weaver chapter]): no decision is waiting for player 0; pending: "
            "none (the run is over: if the rules no longer ask this question, as it has one answer now, remove "
            "this answer)") in out.report()
