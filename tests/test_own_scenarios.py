"""A game outside the project is a game like any other (issue 27): which files are a ruleset's
(reading/folders.py) for every command, a ruleset's own scenarios run by `jux test RULESET`, and
what a scenario can say: `rest: out`, `refused:`, `none` in expectations, labels with commas; and
docs/testing.md's examples, which run (with their tiles)."""
import re
import shutil
from pathlib import Path

import pytest
import yaml

from jux.interpreter.authoring.scenario_expect import show
from jux.interpreter.authoring.scenario_file import find_scenarios
from jux.interpreter.authoring.scenario_run import FAILED, PASSED, XFAILED, run_file
from jux.interpreter.reading.folders import rule_files, ruleset_root

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"

GAME = """\
game:
  name: pairs
  players: {min: 2, max: 3}
cards:
  num:
    label: "{colour} {value}"
    attributes: {colour: [red, blue], value: [1, 2, 3]}
  odd:
    label: "{name}"
    attributes: {}
    list: [{name: "ace, hearts"}, {name: ace}, {name: hearts}]
zones:
  deck: {visible: none, start: [num, odd]}
  hand: {per: player, visible: owner}
  table: {visible: all}
counters:
  points: {per: player, start: 0}
  leader: {start: none, seat: true}
functions:
  score(p): points[p]
"""
MORE = """\
procedures:
  play(p): |
    choose c from hand[p] by p prompt "Play a card" label "{c}"
    move c to table
    points[p] += 1
    log "{p} plays {c}."
flow: |
  for p in players { play(p) }
"""


def scenario(**kw) -> str:
    data = {"title": "t", "ruleset": "..", "players": 2, "run": "play", "args": [0]}
    data.update(kw)
    return yaml.safe_dump(data, sort_keys=False)


@pytest.fixture
def mygame(tmp_path):
    """A ruleset of two files (game.yaml, procedures.yaml) with its scenarios/ beside them."""
    d = tmp_path / "pairs"
    (d / "scenarios").mkdir(parents=True)
    (d / "game.yaml").write_text(GAME)
    (d / "procedures.yaml").write_text(MORE)
    return d


# ---------------------------------------------------------------- which files are a ruleset's


def test_the_scenarios_folder_is_not_read_as_rules_by_any_command(mygame, capsys, monkeypatch):
    from jux.interpreter.lsp import reports
    from jux.interpreter.cli.main import main
    from jux.interpreter.engine.ruleset import load_ruleset

    sc = mygame / "scenarios" / "play.yaml"
    sc.write_text(scenario(zones={"hand[0]": ["red 1"]}, answers=[{"player": 0, "choose": "red 1"}],
                           expect={"zones": {"table": ["red 1"]}}))
    (mygame / "scenarios" / "more").mkdir()
    (mygame / "scenarios" / "more" / "deep.yaml").write_text(scenario(ruleset="../..", rest="out", expect={"sizes": {"deck": 0}}))
    files = [mygame / "game.yaml", mygame / "procedures.yaml"]
    for path in (mygame, mygame / "game.yaml", mygame / "procedures.yaml"):
        assert rule_files(path) == files, path
    # play and simulate read a game.yaml as its folder, as validate does (before: the one file)
    rules = load_ruleset(mygame / "game.yaml")
    assert "play" in rules.spec.procedures and rules.spec.path == mygame / "game.yaml"
    monkeypatch.chdir(mygame.parent)
    for args in (["validate", "pairs"], ["validate", "pairs/game.yaml"], ["validate", "pairs/procedures.yaml"]):
        assert main(args) == 0, args
        assert capsys.readouterr().out.startswith("ok: pairs (9 cards, 1 procedure)"), args
    assert main(["simulate", "pairs/game.yaml", "-n", "3", "-q", "--workers", "1"]) == 0
    assert main(["play", "pairs/game.yaml", "--print", "--seed", "1"]) == 0
    assert "plays" in capsys.readouterr().out
    # a scenario named to validate is not a rule file
    assert main(["validate", "pairs/scenarios/play.yaml"]) == 1
    assert "a scenario of the ruleset pairs, not a rule file: run it with jux test" in capsys.readouterr().err
    # the language server: a rule file checks its folder; a scenario is no rule file
    report = reports.check(str(mygame / "procedures.yaml"), {}, {})
    assert report.problems == () and report.target == reports.real(mygame)
    report = reports.check(str(sc), {}, {})
    assert report.problems == () and report.target == reports.real(sc)
    # jux test RULESET (its folder or its game.yaml) runs its scenarios/ and nothing else
    for arg in ("pairs", "pairs/game.yaml"):
        assert main(["test", arg]) == 0
        assert capsys.readouterr().out.splitlines()[-1].startswith("2 passed, 0 failed")
    assert find_scenarios(str(mygame.parent)) == [sc, mygame / "scenarios" / "more" / "deep.yaml"]


def test_a_game_file_not_named_game_yaml_is_a_ruleset_of_its_own(tmp_path):
    """Single-file rulesets share a folder (a user's rules folder); a game.yaml makes its folder
    one, and a subfolder with a game.yaml of its own is another ruleset."""
    one, two = tmp_path / "one.yaml", tmp_path / "two.yaml"
    one.write_text(GAME + MORE)
    two.write_text(GAME.replace("name: pairs", "name: other") + MORE)
    (tmp_path / "notes.yaml").write_text("constants: {x: 1}\n")
    assert rule_files(one) == [one] and rule_files(two) == [two]
    (tmp_path / "game.yaml").write_text(GAME + MORE)  # a one-file ruleset named game.yaml among them
    assert rule_files(tmp_path / "game.yaml") == [tmp_path / "game.yaml"]
    sub = tmp_path / "sub"
    sub.mkdir()
    (sub / "game.yaml").write_text(GAME + MORE)
    (sub / "inner").mkdir()
    (sub / "inner" / "game.yaml").write_text(GAME + MORE)
    (sub / "inner" / "x.yaml").write_text("constants: {y: 1}\n")
    assert rule_files(sub) == [sub / "game.yaml"]
    assert ruleset_root(sub / "inner" / "x.yaml") == sub / "inner"
    assert rule_files(sub / "inner" / "x.yaml") == [sub / "inner" / "game.yaml", sub / "inner" / "x.yaml"]


# ---------------------------------------------------------------- what a scenario says


def run(mygame, name, **kw):
    f = mygame / "scenarios" / f"{name}.yaml"
    f.write_text(scenario(**kw))
    return run_file(f)


def test_rest_out_takes_the_cards_not_listed_out_of_the_game(mygame):
    o = run(mygame, "rest", zones={"hand[0]": ["red 1"], "deck": ["blue 3"]}, rest="out",
            answers=[{"player": 0, "choose": "red 1"}],
            expect={"zones": {"deck": ["blue 3"], "table": ["red 1"], "hand[1]": []}, "counters": {"points": [1, 0]}})
    assert o.status == PASSED, o.report()
    # without it the cards not listed stay in the deck, under those listed for it
    o = run(mygame, "stay", zones={"hand[0]": ["red 1"], "deck": ["blue 3"]},
            answers=[{"player": 0, "choose": "red 1"}], expect={"sizes": {"deck": 8}})
    assert o.status == PASSED, o.report()
    o = run(mygame, "bad", rest="gone")
    assert o.status == FAILED and o.report().endswith("bad.yaml:7:7: rest: 'gone' is not one of stay, out")


def test_an_answer_expected_to_be_refused(mygame):
    o = run(mygame, "refused", zones={"hand[0]": ["red 1", "red 2"]}, answers=[
        {"player": 1, "choose": 0, "refused": "no decision is waiting for player 1"},
        {"player": 0, "choose": "blue 3", "refused": True},
        {"player": 0, "choose": "red 2", "refused": "not one of the options"} | {"choose": "blue 2"},
        {"player": 0, "options": ["red 1", "red 2"], "choose": "red 2"}],
        expect={"zones": {"table": ["red 2"]}})
    assert o.status == PASSED, o.report()
    o = run(mygame, "accepted", zones={"hand[0]": ["red 1"]}, answers=[
        {"player": 0, "choose": "red 1", "refused": True}])
    assert o.status == FAILED
    assert "answer 1 (player 0, red 1): expected to be refused, but it was accepted" in o.report()
    o = run(mygame, "why", zones={"hand[0]": ["red 1"]}, answers=[
        {"player": 0, "choose": "red 9", "refused": "too late"}])
    assert o.status == FAILED
    refusal = [f for f in o.failures if f.what.startswith("answer 1")]
    assert refusal[0].lines() == [
        f"{refusal[0].pos}: answer 1: the refusal (a substring of its message)",
        "  expected: 'too late'", "  actual:   ''red 9' is not one of the options: red 1'"]
    line, col = refusal[0].pos.line, refusal[0].pos.col
    assert (mygame / "scenarios" / "why.yaml").read_text().splitlines()[line - 1][col - 1:].startswith("refused:")


def test_none_in_expectations_is_nothing_as_in_the_setup(mygame):
    f = mygame / "scenarios" / "none.yaml"
    f.write_text("title: t\nruleset: ..\nplayers: 2\nrun: play\nargs: [0]\nzones: {\"hand[0]\": [red 1]}\n"
                 "counters: {leader: none}\nanswers: [{player: 0, choose: red 1}]\n"
                 "expect: {counters: {leader: none, points: [1, 0]}}\n")
    assert run_file(f).status == PASSED, run_file(f).report()
    f.write_text(f.read_text().replace("expect: {counters: {leader: none", "expect: {counters: {leader: \"none\""))
    o = run_file(f)
    assert o.status == FAILED and o.failures[0].lines()[1:] == ['  expected: "none"', "  actual:   none"]


def test_a_label_with_a_comma_shows_the_difference(mygame):
    o = run(mygame, "comma", zones={"hand[0]": ["ace, hearts"]}, answers=[{"player": 0, "choose": "ace, hearts"}],
            expect={"zones": {"table": ["ace", "hearts"]}})
    assert o.status == FAILED
    f = o.failures[0]
    assert (f.expected, f.actual) == ("[ace, hearts]", '["ace, hearts"]')
    assert show(["a", 1, "1", None, "none", "x: y", True, "true"]) == '[a, 1, "1", none, "none", "x: y", true, "true"]'
    assert show("ace, hearts") == "ace, hearts"  # a text alone is never quoted


def test_a_scenario_of_a_rulesets_own_folder_may_leave_out_its_ruleset(mygame, tmp_path):
    f = mygame / "scenarios" / "mine.yaml"
    f.write_text(scenario(zones={"hand[0]": ["red 1"]}, answers=[{"player": 0, "choose": "red 1"}]).replace(
        "ruleset: ..\n", ""))
    assert "ruleset" not in yaml.safe_load(f.read_text())
    assert run_file(f).status == PASSED, run_file(f).report()
    lone = tmp_path / "lone.yaml"
    lone.write_text(f.read_text())
    o = run_file(lone)
    assert o.status == FAILED and o.report() == (
        f"{o.file}:1:1: ruleset: missing: name the ruleset (a name, or a path relative to this file); only a "
        "scenario in a ruleset's scenarios/ folder may leave it out")


# ---------------------------------------------------------------- docs/testing.md's examples


def _yaml_blocks() -> list:
    return re.findall(r"```yaml\n(.*?)```", (DOCS / "testing.md").read_text(), re.S)


def test_the_format_example_runs_with_its_tiles(tmp_path):
    """The example of every key, with the banker tile where it says (../mytiles/), passes but for
    its xfail (with which it fails as expected)."""
    block = next(b for b in _yaml_blocks() if b.startswith("title:"))
    (tmp_path / "mytiles").mkdir()
    shutil.copy(DOCS / "examples" / "banker.yaml", tmp_path / "mytiles")
    (tmp_path / "docs").mkdir()
    f = tmp_path / "docs" / "format.yaml"
    f.write_text(block)
    data = yaml.safe_load(block)
    assert data["tiles"] and data["set_aside"] and data["rest"] and "xfail" in data
    assert run_file(f).status == FAILED  # strict: every expectation holds, so its xfail fails
    f.write_text("\n".join(line for line in block.splitlines() if not line.startswith("xfail")))
    assert run_file(f).status == PASSED, run_file(f).report()
    # the same position with rest: out: nothing left for set_aside to move, and the deck still pink 5
    f.write_text(f.read_text().replace("rest: stay", "rest: out").replace("discard: 94", "discard: 0")
                 .replace("deck: discard", "deck: \"hand[1]\"").replace('"hand[1]": 0', '"hand[1]": 94'))
    assert run_file(f).status == PASSED, run_file(f).report()


def test_every_yaml_example_of_testing_md_is_a_valid_part_of_a_scenario():
    from jux.interpreter.reading.schema import schema_validator

    validator = schema_validator("scenario")
    blocks = _yaml_blocks()
    assert len(blocks) >= 3
    for block in blocks:
        data = {"title": "t", "ruleset": "capital_jux", "players": 2, "run": None}
        data.update(yaml.safe_load(block))
        errors = [e.message for e in validator.iter_errors(data)]
        assert not errors, (block, errors)


def test_validate_of_a_lone_scenario_or_a_folder_of_them_says_to_run_jux_test(capsys):
    """A scenario outside a ruleset's scenarios/ folder (issue 38): one line, not the errors of
    reading it as rules; a folder holding only scenarios likewise."""
    from jux.interpreter.cli.main import main

    old = ROOT / "tests" / "corpus" / "scenarios_0.1.0"
    one = old / "guildhall" / "end_of_turn.yaml"
    assert main(["validate", str(one)]) == 1
    err = capsys.readouterr().err.strip()
    assert err == f"jux: {one}: a scenario (title, players, run), not a rule file: run it with jux test {one}"
    assert main(["validate", str(old)]) == 1
    err = capsys.readouterr().err.strip()
    assert err == (f"jux: {old}: a folder of scenarios (title, players, run), not of rule files: run them "
                   f"with jux test {old}")
