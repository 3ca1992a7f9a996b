"""Shared test configuration: hypothesis settings profiles.

Profiles (choose with the environment variable JUX_HYPOTHESIS_PROFILE):

- default: ~40 random games per property, no deadline (a game is many engine calls; speed is
  measured by the benchmark, never asserted). tests/test_properties.py runs in well under a
  minute on 2 cores.
- ci: derandomized (the same examples on every run, so CI is stable), more examples, no
  example database.
- quick: a handful of examples, for a fast local loop.
- thorough: many examples, for hunting bugs before a release.
"""
import atexit
import os
import shutil
import subprocess
import tempfile

import pytest
from hypothesis import HealthCheck, settings

_COMMON = dict(deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

settings.register_profile("default", max_examples=50, **_COMMON)
settings.register_profile("ci", max_examples=100, derandomize=True, database=None, print_blob=True, **_COMMON)
settings.register_profile("quick", max_examples=8, **_COMMON)
settings.register_profile("thorough", max_examples=1000, **_COMMON)

settings.load_profile(os.environ.get("JUX_HYPOTHESIS_PROFILE", "default"))

# The compile cache (interpreter/engine/compiled.py) of this test process: a folder of its own,
# emptied at the end, never the user's (the jux commands the tests start inherit it).
os.environ["JUX_CACHE_DIR"] = _CACHE_DIR = tempfile.mkdtemp(prefix="jux-test-cache-")
atexit.register(shutil.rmtree, _CACHE_DIR, True)


@pytest.fixture(autouse=True)
def _own_data_folder(tmp_path_factory, monkeypatch):
    """Each test's own data folder ($JUX_DATA_DIR, empty): what jux keeps there (saves, the tables
    joined: tui/known_tables.py) never reaches the user's, nor another test's. A test sets its own."""
    monkeypatch.setenv("JUX_DATA_DIR", str(tmp_path_factory.mktemp("jux-data")))


@pytest.fixture
def run(tmp_path, capsys, monkeypatch):
    """jux in process, in a temporary folder: returns an object like subprocess.run's
    (returncode, stdout, stderr); a traceback in the output fails the test."""
    from jux.interpreter.cli.main import main

    monkeypatch.chdir(tmp_path)

    def call(*args):
        capsys.readouterr()
        try:
            code = main([str(a) for a in args])
        except SystemExit as e:  # argparse usage errors
            code = e.code
        out, err = capsys.readouterr()
        assert "Traceback" not in out + err, err
        return subprocess.CompletedProcess(args, code, out, err)

    return call


@pytest.fixture
def both_ways():
    """play(rules, players, seed) -> (state machines' game, direct game, what each asked): one game
    played twice with Game.autoplay, without and with direct=True, each decision answered at
    random (seeded by the game's seed) and recorded as (player, prompt, option labels, min, max,
    unavailable)."""
    import random

    from jux.interpreter.bots.random_bot import random_answer
    from jux.interpreter.engine.game import Game

    def play(rules, players, seed):
        games, asked = [], []
        for direct in (False, True):
            g = Game.new(rules, players, seed)
            rnd = random.Random(seed).random
            seen = []

            def answer(d):
                seen.append((d.player, d.prompt, [o.label for o in d.options], d.min, d.max, d.unavailable))
                return random_answer(d, rnd)

            g.autoplay(answer, direct=direct)
            games.append(g)
            asked.append(seen)
        return games[0], games[1], asked[0], asked[1]

    return play
