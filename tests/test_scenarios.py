"""Scenario tests written as data: every worked example and clarification of a rulebook is one
YAML file in tests/scenarios/, run here as one pytest case (its id is the file name) by the runner
`jux test` uses (interpreter/authoring/scenario_run.py). The format is docs/testing.md."""
from __future__ import annotations

from pathlib import Path

import pytest

from jux.interpreter.authoring.scenario_file import find_scenarios, read_scenario
from jux.interpreter.authoring.scenario_run import FAILED, XFAILED, run_file

HERE = Path(__file__).parent / "scenarios"
FILES = find_scenarios(str(HERE))


def test_there_are_scenarios():
    assert len(FILES) > 100, "the scenario files of tests/scenarios/ are not found"


@pytest.mark.parametrize("path", FILES, ids=[str(f.relative_to(HERE).with_suffix("")) for f in FILES])
def test_scenario(path):
    outcome = run_file(path)
    if outcome.status == XFAILED:
        pytest.xfail(outcome.xfail)
    assert outcome.status != FAILED, f"{outcome.file}: {outcome.title}\n{outcome.report()}"


def test_every_scenario_names_its_source():
    """The project's own scenarios each say where their rule comes from (for authors `source` is
    optional)."""
    missing = [str(f) for f in FILES if not read_scenario(f).data.get("source")]
    assert not missing, f"'source' is missing in {missing}"
