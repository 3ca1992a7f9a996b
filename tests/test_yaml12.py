"""Rule files and scenarios are read as YAML 1.2 (its core schema), the way editors and the JSON
Schema read them: yes/no/on/off are text, 010 is ten, 0o10 is eight."""
from __future__ import annotations

from pathlib import Path
import shutil

import pytest
import yaml

from jux.interpreter.authoring.scenario_file import read_scenario
from jux.interpreter.engine.game import Game
from jux.interpreter.engine.ruleset import build_ruleset
from jux.interpreter.errors import RuleErrors
from jux.interpreter.reading.spec import ruleset_path
from jux.interpreter.reading.variants import catalogue
import jux.interpreter.reading.variants as variants_module
from jux.interpreter.reading.yaml_reader import PlainLoader, read_file

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("text, value", [
    ("yes", "yes"), ("no", "no"), ("on", "on"), ("off", "off"), ("y", "y"), ("n", "n"), ("Yes", "Yes"),
    ("NO", "NO"), ("true", True), ("False", False), ("TRUE", True),
    ("010", 10), ("0o10", 8), ("0x10", 16), ("+7", 7), ("-3", -3), ("007", 7),
    ("1_000", "1_000"), ("1:30", "1:30"), ("0b11", "0b11"), ('"010"', "010"), ("'yes'", "yes"),
    ("1e3", 1000.0), ("1.5", 1.5), ("010.5", 10.5), ("~", None), ("null", None), ("2024-01-01", "2024-01-01"),
])
def test_a_plain_value_reads_as_yaml_1_2(tmp_path, text, value):
    f = tmp_path / "one.yaml"
    f.write_text(f"x: {text}\nlist: [{text}]\n{text}: key\n")
    data = read_file(f).data
    assert data["x"] == value and type(data["x"]) is type(value)
    assert data["list"] == [value]
    # a key is a text or a whole number as it reads; any other key is its text as written
    plain = isinstance(value, (str, int)) and not isinstance(value, bool)
    assert list(data)[2] == (value if plain else text)
    # the fast loader of a variant's head reads alike
    assert yaml.load(f"x: {text}", Loader=PlainLoader)["x"] == value


def test_the_json_schema_and_jux_agree_letter_no_is_a_letter(tmp_path, monkeypatch):
    shutil.copytree(ROOT / "variants" / "capital_jux", tmp_path / "capital_jux")
    tile = tmp_path / "capital_jux" / "scientists" / "scholar.yaml"
    tile.write_text(tile.read_text().replace("  letter: A\n", "  letter: no\n"))
    monkeypatch.setattr(variants_module, "VARIANTS_DIR", tmp_path)
    assert catalogue("capital_jux")["scholar"].letter == "no"
    build_ruleset(ruleset_path("capital_jux"), ("scholar",))  # (was: 'letter' expected a text, found false)


def test_seat_yes_is_refused_as_the_schema_refuses_it(tmp_path):
    folder = tmp_path / "g"
    shutil.copytree(ROOT / "tests" / "corpus" / "tightened" / "marked", folder)
    game = folder / "game.yaml"
    game.write_text(game.read_text().replace("  last: 0\n", "  last: {start: 0, seat: yes}\n"))
    with pytest.raises(RuleErrors) as e:
        build_ruleset(folder)
    (err,) = e.value.errors
    assert (err.pos.line, err.pos.col, err.message) == (11, 26, "counters.last.seat: 'yes' is text in YAML 1.2, not true or false: write true")


def test_a_counter_that_starts_at_010_starts_at_ten(tmp_path):
    folder = tmp_path / "g"
    shutil.copytree(ROOT / "tests" / "corpus" / "tightened" / "marked", folder)
    game = folder / "game.yaml"
    game.write_text(game.read_text().replace("gold: {per: player, start: 0}", "gold: {per: player, start: 010}")
                    .replace("  last: 0\n", "  last: 0o10\n"))
    g = Game.new(build_ruleset(folder), 2, seed=1, start=False)
    assert g.counter("gold") == [10, 10] and g.counter("last") == 8


def test_a_scenario_reads_as_a_rule_file_does(tmp_path):
    shutil.copytree(ROOT / "tests" / "data" / "passing" / "tiny", tmp_path / "tiny")
    f = tmp_path / "s.yaml"
    text = (ROOT / "tests" / "data" / "passing" / "tiny_counters.yaml").read_text()
    f.write_text(text.replace("counters: {gold: [0, 5]", "counters: {gold: [0, 010]")
                 .replace("title: Tiny", "title: yes Tiny"))
    s = read_scenario(f)
    assert s.data["counters"]["gold"] == [0, 10]
