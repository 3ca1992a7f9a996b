"""`jux play NAME` opens its start screen before it imports the engine when the compile cache
holds the ruleset named (engine/keys.py): it loads without an error, so the screen loads it after
its first frame, as it does the default one. Any other ruleset is loaded first, its errors before
the screen opens."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys

import pytest

from jux.interpreter.engine.keys import compiled_before
from jux.interpreter.engine.ruleset import load_ruleset
from jux.interpreter.paths import RULES_DIR

# jux play, as at a terminal, with the app's run replaced: what it was given, and what was imported
PLAY = r"""
import io, json, sys
class Tty(io.StringIO):
    def isatty(self):
        return True
import jux.tui
def run(**options):
    seen = {m: m in sys.modules for m in ("lark", "jux.interpreter.engine.ruleset", "jux.interpreter.checks.checker")}
    sys.__stdout__.write(json.dumps({"ruleset": options["ruleset"], "tiles": options["tiles"], "imported": seen}))
    return 0
jux.tui.run = run
sys.stdin, sys.stdout = Tty(), Tty()
from jux.interpreter.cli.main import main
sys.exit(main(["play", *sys.argv[1:]]))
"""


def _play(tmp_path, *args) -> subprocess.CompletedProcess:
    env = dict(os.environ, JUX_CACHE_DIR=str(tmp_path / "cache"))
    env.pop("JUX_CACHE", None)
    return subprocess.run([sys.executable, "-c", PLAY, *args], capture_output=True, text=True, env=env,
                          cwd=tmp_path, timeout=120)


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("JUX_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("JUX_CACHE", raising=False)
    return tmp_path


def test_a_ruleset_the_cache_holds_is_loaded_by_the_screen(cache):
    first = _play(cache, "capital_jux", "--tiles", "aristocrat")
    assert first.returncode == 0, first.stderr
    cold = json.loads(first.stdout)
    assert all(cold["imported"].values()), cold  # loaded first
    second = _play(cache, "capital_jux", "--tiles", "aristocrat")
    warm = json.loads(second.stdout)
    assert not any(warm["imported"].values()), warm  # the screen loads it, after its first frame
    # the tiles as named (the start screen fills in the rest as the loader does: below)
    assert warm["ruleset"] == cold["ruleset"] == "capital_jux" and warm["tiles"] == ["aristocrat"]
    assert "aristocrat" in cold["tiles"] and len(cold["tiles"]) > 1  # (the ruleset's variants, loaded)
    # the same ruleset given by its path: the screen is given it as before
    by_path = json.loads(_play(cache, str(RULES_DIR / "capital_jux")).stdout)
    assert by_path["ruleset"] == "capital_jux"


def test_an_edited_ruleset_is_loaded_first_and_its_error_shown(cache, monkeypatch):
    monkeypatch.chdir(cache)  # (as jux play is: the files as shown from here are part of the key)
    game = cache / "mine"
    shutil.copytree(RULES_DIR / "capital_jux", game)
    load_ruleset("mine")  # (as jux play names it: how a path is given is part of the key)
    assert compiled_before("mine") and not compiled_before("mine", ["aristocrat"])
    ok = json.loads(_play(cache, "mine").stdout)
    assert not ok["imported"]["lark"] and ok["ruleset"] == str(game)
    rules = game / "game.yaml"
    rules.write_text(rules.read_text() + "\nnot a section: [\n")
    assert not compiled_before("mine")
    bad = _play(cache, "mine")
    assert bad.returncode == 1 and bad.stdout == "" and "game.yaml:" in bad.stderr
    assert "Traceback" not in bad.stderr


def test_nothing_is_held_without_a_cache(cache, monkeypatch):
    from jux.interpreter.engine import ruleset

    monkeypatch.setattr(ruleset, "_CACHE", {})  # (loaded before in this process: not from the disk)
    load_ruleset("capital_jux")
    assert compiled_before("capital_jux")
    monkeypatch.setenv("JUX_CACHE", "off")
    assert not compiled_before("capital_jux")
    assert not compiled_before("no such ruleset")


def test_the_start_screen_makes_the_same_table_of_the_tiles_named_or_loaded():
    """The screen given the tiles as named (`jux play` with the cache warm) loads the ruleset with
    the variants that loading it first gives (`jux play` with the cache cold)."""
    import asyncio

    from jux.tui.app import JuxApp
    from jux.tui.screens.start import StartScreen

    loaded = load_ruleset("capital_jux", ["aristocrat"]).variants

    async def shown(tiles):
        app = JuxApp(ruleset="capital_jux", tiles=tiles, bot_delay=0)
        async with app.run_test(size=(80, 24)) as pilot:
            for _ in range(500):
                start = app.screen
                if isinstance(start, StartScreen) and start.rules is not None:
                    return start.rules.variants, [k.value for k in start.query("#tile-rows Choice")]
                await pilot.pause(0.02)
        raise AssertionError("the start screen did not load its ruleset")

    named = asyncio.run(shown(["aristocrat"]))
    assert named == asyncio.run(shown(list(loaded)))
    assert named[0] == loaded
