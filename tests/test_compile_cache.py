"""The compile cache (interpreter/engine/compiled.py, issue 40): a tile is read, checked and
compiled once per process, and once per machine in the user's cache folder; an edited file is
compiled again (never stale), a damaged entry is made again (never an error), and the games are
the same with and without it. Each test has a cache folder of its own (JUX_CACHE_DIR), never the
user's."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from jux.interpreter.engine import compiled, ruleset
from jux.interpreter.engine.ruleset import load_ruleset
from jux.interpreter.reading import routines

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

import same_games  # noqa: E402

TILE = """\
variant:
  name: banker
  title: Banker
  game: capital_jux
  requires: [power_tiles]
slots:
  power: {{yellow: banker}}
procedures:
  banker(p, card): |
    gold[p] += {gain}
"""


@pytest.fixture
def cache(tmp_path, monkeypatch):
    """An empty cache folder of the test's own; the rulesets this process keeps forgotten (so a
    load goes to the cache), and the cache's counts from zero."""
    folder = tmp_path / "cache"
    monkeypatch.setenv("JUX_CACHE_DIR", str(folder))
    monkeypatch.delenv("JUX_CACHE", raising=False)
    monkeypatch.setattr(ruleset, "_CACHE", {})
    monkeypatch.setattr(compiled, "STATS", dict.fromkeys(compiled.STATS, 0))
    return folder


def _generated(monkeypatch) -> list:
    """The rulesets generated (compiled) from now on, by name."""
    made = []
    real = ruleset.generate
    monkeypatch.setattr(ruleset, "generate", lambda spec, *a, **k: made.append(spec.variants) or real(spec, *a, **k))
    return made


def test_the_tests_never_write_the_user_s_cache(monkeypatch):
    monkeypatch.delenv("JUX_CACHE", raising=False)
    assert os.environ.get("JUX_CACHE_DIR") and compiled.cache_dir() == Path(os.environ["JUX_CACHE_DIR"])


def test_a_tile_in_two_combinations_is_parsed_once_and_each_combination_compiled_once(cache, monkeypatch):
    load_ruleset("capital_jux", ["agent", "cleric", "merchant", "scholar"])
    load_ruleset("capital_jux", ["recruiter", "cleric", "merchant", "dualist"])
    parsed = []
    real = routines._parse_routine
    monkeypatch.setattr(routines, "_parse_routine", lambda *a, **k: parsed.append(a[0]) or real(*a, **k))
    made = _generated(monkeypatch)
    first = load_ruleset("capital_jux", ["agent", "cleric", "merchant", "dualist"])  # (a new combination of them)
    assert load_ruleset("capital_jux", ["agent", "cleric", "merchant", "dualist"]) is first
    assert parsed == [] and len(made) == 1
    monkeypatch.setattr(ruleset, "_CACHE", {})  # (forgotten by the process: the disk's entry is read)
    again = load_ruleset("capital_jux", ["agent", "cleric", "merchant", "dualist"])
    assert len(made) == 1 and compiled.STATS["loaded"] == 1 and again.source == first.source


def test_a_second_process_with_a_warm_cache_compiles_nothing(cache):
    code = ("from jux import load_ruleset\nfrom jux.interpreter.engine import compiled\n"
            "load_ruleset('capital_jux', ['agent', 'cleric', 'merchant', 'scholar'], coverage=True)\n"
            "print(compiled.STATS['loaded'], compiled.STATS['stored'])\n")
    env = dict(os.environ, JUX_CACHE_DIR=str(cache))
    runs = [subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True,
                           check=True).stdout.split() for _ in range(2)]
    assert runs == [["0", "1"], ["1", "0"]]


def test_an_edited_tile_is_compiled_again(cache, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    tile = tmp_path / "banker.yaml"
    tile.write_text(TILE.format(gain=1))
    first = load_ruleset("capital_jux", ["banker.yaml"])
    monkeypatch.setattr(ruleset, "_CACHE", {})
    stat = tile.stat()
    tile.write_text(TILE.format(gain=2))  # the same size and time: only what it holds tells
    os.utime(tile, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    again = load_ruleset("capital_jux", ["banker.yaml"])
    assert compiled.STATS == {"loaded": 0, "stored": 2, "rebuilt": 0}
    assert "value=2" in repr(again.spec.procedures["banker"].body) and again.source != first.source
    monkeypatch.setattr(ruleset, "_CACHE", {})
    tile.write_text(TILE.format(gain=1))  # (back as it was: the first entry serves)
    assert load_ruleset("capital_jux", ["banker.yaml"]).source == first.source and compiled.STATS["loaded"] == 1


@pytest.mark.parametrize("damage", [lambda b: b[:len(b) // 2], lambda b: b"", lambda b: b"not a cache entry",
                                    lambda b: b[:20] + bytes(200) + b[220:]])
def test_a_damaged_entry_is_made_again(cache, monkeypatch, damage):
    first = load_ruleset("capital_jux", ["agent"])
    (entry,) = cache.glob("*.jux")
    entry.write_bytes(damage(entry.read_bytes()))
    monkeypatch.setattr(ruleset, "_CACHE", {})
    again = load_ruleset("capital_jux", ["agent"])
    assert again.source == first.source
    assert compiled.STATS["stored"] == 2 and compiled.STATS["loaded"] == 0
    monkeypatch.setattr(ruleset, "_CACHE", {})
    load_ruleset("capital_jux", ["agent"])
    assert compiled.STATS["loaded"] == 1  # (the entry made again is whole)


def test_an_unwritable_cache_folder_only_slows_jux(cache, monkeypatch):
    cache.parent.mkdir(exist_ok=True)
    cache.write_text("a file where the folder would be")
    assert load_ruleset("capital_jux").name == "capital_jux" and compiled.STATS["stored"] == 0


def test_jux_cache_off_keeps_nothing(cache, monkeypatch):
    monkeypatch.setenv("JUX_CACHE", "off")
    load_ruleset("capital_jux", ["agent"])
    assert compiled.cache_dir() is None and not cache.exists()


@pytest.mark.parametrize("name", ["capital_jux 4", "capital_jux 4 tiles", "bruges 2"])
def test_the_same_games_from_the_cache(cache, monkeypatch, name):
    stored = json.loads((ROOT / "bench" / "same_games.json").read_text())["20"][name]
    monkeypatch.setenv("JUX_CACHE", "off")
    assert same_games.set_digest(name, 20) == stored  # (compiled here, kept in no cache)
    monkeypatch.delenv("JUX_CACHE")
    monkeypatch.setattr(ruleset, "_CACHE", {})
    assert same_games.set_digest(name, 20) == stored and compiled.STATS["stored"] == 1  # (compiled, kept)
    monkeypatch.setattr(ruleset, "_CACHE", {})
    assert same_games.set_digest(name, 20) == stored and compiled.STATS["loaded"] == 1  # (from the cache)

