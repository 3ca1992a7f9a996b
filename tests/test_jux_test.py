"""`jux test PATH...`: scenario files run from any folder, each failure at the file:line:col of what
failed with expected and actual, the summary line, the exit status. The failing scenarios are
under tests/data/failing/ (the suite's own scenario run, tests/scenarios/, never picks them up)."""
import re
import subprocess
import sys
from pathlib import Path

import pytest

from jux.interpreter.authoring.scenario_file import find_scenarios

ROOT = Path(__file__).resolve().parent.parent
FAILING = "tests/data/failing"
SUMMARY = re.compile(r"(\d+) passed, (\d+) failed(?:, (\d+) xfailed)? in \d+\.\d\ds")


@pytest.fixture
def jux(capsys, monkeypatch):
    """jux in process, from the project's folder (paths print as tests/...)."""
    from jux.interpreter.cli.main import main

    monkeypatch.chdir(ROOT)

    def call(*args):
        capsys.readouterr()
        try:
            code = main([str(a) for a in args])
        except SystemExit as e:
            code = e.code
        out, err = capsys.readouterr()
        assert "Traceback" not in out + err, err
        return subprocess.CompletedProcess(args, code, out, err)

    return call


def summary(out: str) -> tuple:
    last = out.strip().splitlines()[-1]
    m = SUMMARY.fullmatch(last)
    assert m, last
    return int(m[1]), int(m[2]), int(m[3] or 0)


def text_at(pos: str) -> str:
    """The text of a file from a 'path:line:col' on."""
    path, line, col = pos.rsplit(":", 2)
    return (ROOT / path).read_text().splitlines()[int(line) - 1][int(col) - 1:]


def test_the_suites_scenarios_all_pass_through_the_command():
    p = subprocess.run([sys.executable, "-m", "jux", "test", "tests/scenarios"], cwd=ROOT,
                       capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stdout[-3000:] + p.stderr
    assert p.stderr == ""
    n = len(find_scenarios(str(ROOT / "tests" / "scenarios")))
    assert n > 300 and summary(p.stdout) == (n, 0, 0)
    lines = p.stdout.splitlines()
    assert lines[0].startswith("tests/scenarios/ ...")
    assert any(line.startswith("tests/scenarios/tiles/ ...") for line in lines)
    assert set("".join(lines[:-1]).replace("tests/scenarios/", "").replace("bruges/", "").replace(
        "guildhall/", "").replace("tiles/", "").replace(" ", "")) == {"."}


def test_wrong_expectations_fail_at_their_place_with_expected_and_actual(jux):
    p = jux("test", f"{FAILING}/wrong_expectations.yaml")
    assert p.returncode == 1 and summary(p.stdout) == (0, 1, 0)
    out = p.stdout
    f = f"{FAILING}/wrong_expectations.yaml"
    assert f"FAILED {f}: Merchant - expectations that do not hold\n" in out
    assert (f"{f}:16:14: counter gold\n"
            "  expected: [3, 2]\n"
            "  actual:   [2, 2]\n"
            f"{f}:18:5: zone capital\n"
            "  expected: [yellow 5]\n"
            "  actual:   [yellow 4]\n"
            f"{f}:19:34: log: 'Victoria sings' is not in the log\n"
            "log:\n"
            "  Adam plays yellow 4 into the yellow capital district.\n"
            "  Adam takes a gold token.\n") in out
    # each place is where that expectation is written
    assert text_at(f"{f}:16:14").startswith("gold: [3, 2]")
    assert text_at(f"{f}:18:5").startswith("capital: [yellow 5]")
    assert text_at(f"{f}:19:34").startswith("Victoria sings")
    assert out.index("FAILED") > out.index("F\n")  # the progress first, then the failures


INVALID = [  # (file, line:col, words of the one-line message, the text at that place)
    ("bad_yaml", "4:6", "YAML syntax error: this quoted text is never closed", '"player_turn'),
    ("unknown_key", "6:1", "unknown key 'expct' (did you mean 'expect'?)", "expct:"),
    ("not_offered", "11:25", "answer 1 (player 0, yellow 4 into the yelow capital district) refused: 'yellow 4 "
                             "into the yelow capital district' is not one of the options", "yellow 4 into the yelow"),
    ("no_zone", "6:3", "no zone 'hnd[1]' (did you mean 'hand[1]'?)", '"hnd[1]"'),
    ("no_card", "5:25", "no card 'yellow 9' in this ruleset (did you mean 'yellow 6'?)", "yellow 9"),
    ("unknown_tile", "3:19", "tiles: unknown variant 'schollar' for capital_jux (did you mean 'scholar'?)", "schollar"),
    ("wrong_args", "5:1", "the procedure 'play' takes 1 argument (p), not 2", "args:"),
    ("bad_counter", "6:3", "counter 'gold' has one value per player: give a list of 2", "gold: 3"),
    ("not_waiting", "10:5", "answer 2 (player 1, red 2): no decision is waiting for player 1; pending: none",
     "{player: 1"),
]


@pytest.mark.parametrize("name,pos,words,there", INVALID, ids=[c[0] for c in INVALID])
def test_an_invalid_scenario_is_a_located_one_line_failure(jux, name, pos, words, there):
    f = f"{FAILING}/{name}.yaml"
    p = jux("test", "-q", f)
    assert p.returncode == 1 and summary(p.stdout) == (0, 1, 0)
    failure = [line for line in p.stdout.splitlines() if line.startswith(f"{f}:")]
    assert failure and failure[0].startswith(f"{f}:{pos}: {words}"), p.stdout
    assert "  expected:" not in p.stdout  # a problem of the file, not a comparison
    assert text_at(f"{f}:{pos}").startswith(there)


def test_every_problem_of_a_file_is_reported_in_file_order(jux):
    f = f"{FAILING}/no_zone.yaml"
    p = jux("test", f)
    assert [line.split(": ", 1)[0] for line in p.stdout.splitlines() if line.startswith(f)] == \
        [f"{f}:6:3", f"{f}:10:11"]


def test_every_problem_of_a_position_is_told_at_once(jux):
    """Not one per run: a zone, a card, a counter's shape, a counter and a procedure the game does not
    have, each at its place."""
    f = f"{FAILING}/several_setup.yaml"
    p = jux("test", f)
    lines = [line for line in p.stdout.splitlines() if line.startswith(f"{f}:")]
    assert lines == [
        f"{f}:5:3: no zone 'hnd[0]' (did you mean 'hand[0]'?)",
        f"{f}:6:15: no card 'yellow 9' in this ruleset (did you mean 'yellow 6'?)",
        f"{f}:7:12: counter 'gold' has one value per player: give a list of 2",
        f"{f}:7:21: no counter 'glod' (did you mean 'gold'?)",
        f"{f}:8:1: no procedure 'player_trun' (did you mean 'player_turn'?)",
    ], p.stdout


def test_checks_of_a_decision(jux):
    f = f"{FAILING}/wrong_options.yaml"
    p = jux("test", f)
    assert p.returncode == 1
    assert (f"{f}:10:5: answer 1: the options offered to player 0\n"
            "  expected: [blue 3, red 1]\n"
            "  actual:   [blue 2, red 1]\n"
            f"{f}:11:5: answer 1: the prompt (a substring)\n"
            "  expected: 'Discard'\n"
            "  actual:   'Play a card'\n") in p.stdout
    assert f"{f}:14" not in p.stdout  # the answer was still given: gold is as expected


def test_xfail(jux):
    p = jux("test", "-v", "tests/data/passing")
    assert p.returncode == 0, p.stdout
    assert p.stdout.splitlines()[:2] == [
        "tests/data/passing/tiny_counters.yaml PASSED  Tiny - every kind of counter set and read back",
        "tests/data/passing/xfail_known_bug.yaml XFAIL  A known bug - the merchant should give two gold tokens"]
    assert summary(p.stdout) == (1, 0, 1)  # the ruleset tiny/game.yaml beside them is not a scenario
    f = f"{FAILING}/xfail_holds.yaml"
    p = jux("test", f)
    assert p.returncode == 1
    assert f"{f}:14:1: xfail: expected to fail (the merchant gives no gold (it does)), but every expectation held" \
        in p.stdout


def test_a_whole_folder_and_the_options(jux):
    n = len(find_scenarios(str(ROOT / FAILING)))
    p = jux("test", FAILING)
    assert p.returncode == 1 and summary(p.stdout) == (0, n, 0)
    assert p.stdout.startswith(f"{FAILING}/ " + "F" * n + "\n")
    assert p.stdout.count("\nFAILED ") == n and "log:\n" in p.stdout
    # -x: stops at the first failure
    p = jux("test", "-x", FAILING, "tests/data/passing")
    assert p.returncode == 1 and p.stdout.startswith(f"{FAILING}/ F\n") and p.stdout.count("\nFAILED ") == 1
    assert p.stdout.rstrip().endswith(f"(stopped at the first failure: {n + 1} not run)")
    # -q: dots only, no game log
    p = jux("test", "-q", FAILING)
    assert p.stdout.startswith("F" * n + "\n") and "log:\n" not in p.stdout
    # -k: by path or title, any case
    p = jux("test", "-k", "Should Give TWO", "tests/data")
    assert p.returncode == 0 and summary(p.stdout) == (0, 0, 1)
    p = jux("test", "-k", "tiny_", "tests/data")
    assert p.returncode == 0 and summary(p.stdout) == (1, 0, 0)
    # -k given twice: the scenarios that either selects (it kept only the last one)
    p = jux("test", "-k", "tiny_", "-k", "Should Give TWO", "tests/data")
    assert p.returncode == 0 and summary(p.stdout) == (1, 0, 1)
    # a file named twice runs once
    p = jux("test", "tests/data/passing/tiny_counters.yaml", "tests/data/passing")
    assert summary(p.stdout) == (1, 0, 1)


def test_a_rule_file_named_is_not_a_scenario(jux):
    p = jux("test", "docs/examples/banker.yaml")
    assert p.returncode == 1
    assert "docs/examples/banker.yaml:4:1: a rule file (it has a 'variant' section), not a scenario" in p.stdout


def test_a_game_yaml_named_runs_its_rulesets_scenarios(jux):
    """A game.yaml names its ruleset, whose scenarios are in its scenarios/ folder (tiny has none)."""
    p = jux("test", "tests/data/passing/tiny/game.yaml")
    assert p.returncode == 2 and p.stdout == ""
    assert p.stderr == ("jux: test: no scenarios in the ruleset tests/data/passing/tiny/game.yaml: a ruleset's "
                        "own scenarios are the *.yaml files of its scenarios/ folder\n")


@pytest.mark.parametrize("args,words", [
    (["test"], "the following arguments are required: PATH"),
    (["test", "no/such/folder"], "test: no such file or folder: no/such/folder"),
    (["test", "tests/data/passing/tiny"], "test: no scenarios in the ruleset tests/data/passing/tiny: a ruleset's own"),
    (["test", "-k", "no such words", "tests/data"], "test: no scenario matches -k 'no such words'"),
    (["test", "-k", "nope", "-k", "nor this", "tests/data"], "test: no scenario matches -k 'nope' or -k 'nor this'"),
    (["test", "--bad", "tests/data"], "unrecognized arguments: --bad"),
])
def test_bad_usage_is_one_line_and_status_2(jux, args, words):
    p = jux(*args)
    assert p.returncode == 2 and p.stdout == ""
    assert len(p.stderr.strip().splitlines()) == 1 and p.stderr.startswith("jux: ") and words in p.stderr, p.stderr


def _paths(x, p=()):
    yield p
    if isinstance(x, dict):
        for k, v in x.items():
            yield from _paths(v, p + (k,))
    elif isinstance(x, list):
        for i, v in enumerate(x):
            yield from _paths(v, p + (i,))


def test_any_value_anywhere_in_a_scenario_is_a_located_failure_never_a_crash(tmp_path):
    """Each value of a valid scenario replaced in turn by values of other kinds: the outcome is a
    pass or failures located in that file, never an exception or an internal error."""
    import copy
    import shutil

    import yaml

    from jux.interpreter.authoring.scenario_run import run_file

    shutil.copytree(ROOT / "tests" / "data" / "passing" / "tiny", tmp_path / "tiny")
    data = yaml.safe_load((ROOT / "tests" / "data" / "passing" / "tiny_counters.yaml").read_text())
    f = tmp_path / "s.yaml"
    runs = 0
    for path in list(_paths(data))[1:]:
        for junk in (None, 5, "hand[7]", [[1]], {"a": 1}):
            changed = copy.deepcopy(data)
            at = changed
            for k in path[:-1]:
                at = at[k]
            at[path[-1]] = junk
            f.write_text(yaml.safe_dump(changed))
            outcome = run_file(f)
            runs += 1
            for failure in outcome.failures:
                assert failure.pos.file.endswith("s.yaml") and failure.pos.line >= 1, (path, junk, failure)
                assert "internal error" not in failure.what, (path, junk, failure)
    assert runs > 300
