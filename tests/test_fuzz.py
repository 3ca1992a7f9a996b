"""Fuzzing: the project's own rule and tile files, mutated the ways checks from outside mutate them
(a character dropped, doubled or changed, a line dropped, doubled or moved, a value swapped for a
hostile one: an alias bomb, deep nesting, a huge number, a tag), are loaded through `jux validate`'s
path. Each either loads, or fails with RuleErrors / JuxError whose every line is one located
message: never another exception, a traceback or a hang (each example is timed)."""
from __future__ import annotations

import re
import time
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from interpreter.engine import load_ruleset
from interpreter.errors import JuxError, RuleErrors

ROOT = Path(__file__).resolve().parent.parent
SOURCES = {
    "guildhall": (ROOT / "rules" / "guildhall" / "game.yaml").read_text(),
    "capital_jux": (ROOT / "rules" / "capital_jux" / "game.yaml").read_text(),
}
TILE = (ROOT / "variants" / "capital_jux" / "rebels" / "agent.yaml").read_text()
HOSTILE = [
    "&a [x, x, x, x, x, x, x, x, x, x]", "[" * 300 + "]" * 300, "9" * 5000, ".inf", "!!python/object:os.system x",
    "{<<: *nothing}", '"' + "(" * 300 + ")" * 300 + '"', "1 +" * 400 + " 1", "-", ":", "{", "'", "\t", "\x00",
]
LOCATED = re.compile(r"^\S.*:\d+:\d+: \S")


def mutate(text: str, data) -> str:
    lines = text.split("\n")
    how = data.draw(st.sampled_from(["drop_char", "double_char", "change_char", "drop_line", "double_line",
                                     "move_line", "hostile_value"]))
    if how.endswith("char"):
        i = data.draw(st.integers(0, len(text) - 1))
        if how == "drop_char":
            return text[:i] + text[i + 1:]
        if how == "double_char":
            return text[:i] + text[i] + text[i:]
        return text[:i] + data.draw(st.sampled_from(list("{}[]()\"':-#&*!|> \n\tx0"))) + text[i + 1:]
    i = data.draw(st.integers(0, len(lines) - 1))
    if how == "drop_line":
        del lines[i]
    elif how == "double_line":
        lines.insert(i, lines[i])
    elif how == "move_line":
        j = data.draw(st.integers(0, len(lines) - 1))
        lines.insert(j, lines.pop(i))
    else:
        line = lines[i]
        head = line.split(":", 1)[0] if ":" in line else line
        lines[i] = f"{head}: {data.draw(st.sampled_from(HOSTILE))}"
    return "\n".join(lines)


def check_load(ruleset, tiles=()):
    t = time.monotonic()
    try:
        load_ruleset(ruleset, list(tiles))
    except RuleErrors as e:
        for line in str(e).splitlines():
            assert LOCATED.match(line), line
    except JuxError as e:
        assert "\n" not in str(e) and str(e).strip(), str(e)
    assert time.monotonic() - t < 20


@settings(max_examples=60)
@given(st.sampled_from(sorted(SOURCES)), st.data())
def test_a_mutated_rule_file_loads_or_fails_with_located_lines(tmp_path_factory, game, data):
    folder = tmp_path_factory.mktemp("rules")
    (folder / "game.yaml").write_text(mutate(SOURCES[game], data))
    check_load(folder)


@settings(max_examples=30)
@given(st.data())
def test_a_mutated_tile_file_loads_or_fails_with_located_lines(tmp_path_factory, data):
    folder = tmp_path_factory.mktemp("tile")
    f = folder / "agent.yaml"
    f.write_text(mutate(TILE, data))
    check_load("capital_jux", [str(f)])
