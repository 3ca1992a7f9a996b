"""Fuzzing (issue 15): bad input never hangs, never leaks, never harms.

Rule and tile files: the project's own, mutated the ways checks from outside mutate them (a
character dropped, doubled or changed, a line dropped, doubled or moved, a value swapped for a
hostile one: an alias bomb, deep nesting, a huge number, a tag), are loaded through `jux validate`'s
path. Each either loads, or fails with RuleErrors / JuxError whose every line is one located
message: never another exception, a traceback or a hang (each example is timed).

Game records and saves: real ones (games of Capital Jux with tiles and of Guildhall played by
random bots), mutated as data (wrong types at every key, huge, negative and non-finite numbers,
deep nesting, missing and extra keys, answers that do not fit) and as text (cut short, bytes that
are not UTF-8, tokens standard JSON does not allow). Through Python, Game.from_record either
replays or raises JuxError of one line; through the command line (`jux replay`, `jux play
--load` without a terminal), exit 0, or exit 1 with one line `jux: ...` on stderr, no traceback,
in bounded time."""
from __future__ import annotations

import copy
import functools
import json
import math
import os
import random
import re
import subprocess
import sys
import time
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from jux.interpreter.bots.random_bot import random_answer
from jux.interpreter.engine.game import Game
from jux.interpreter.engine.ruleset import load_ruleset
from jux.interpreter.errors import JuxError, RuleErrors
from jux.interpreter.engine.records import read_record

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


# ------------------------------------------------------------------ game records and saves

SECONDS = 20  # what one record may take at most, through Python or the command line


@functools.lru_cache(maxsize=None)
def played() -> dict:
    """Real records and saves: games played by random bots with Game.new and apply, each recorded
    at its end and saved halfway (the save of Capital Jux with the seats the terminal UI adds)."""
    out = {}
    for name, tiles, players, seed in (("capital_jux", ["agent"], 3, 11), ("guildhall", [], 2, 5)):
        game = Game.new(load_ruleset(name, tiles), players, seed)
        rnd = random.Random(seed).random
        save = None
        while not game.over:
            d = game.pending[0]
            game.apply(random_answer(d, rnd), player=d.player)
            if save is None and len(game.answers) == 40:
                save = game.save()
        out[f"{name} record"] = json.loads(json.dumps(game.record()))
        out[f"{name} save"] = json.loads(json.dumps(save))
    out["capital_jux save"]["tui"] = {"seats": ["human", "random", "greedy"]}
    return out


def _nested(depth: int):
    x: list = []
    for _ in range(depth):
        x = [x]
    return x


HOSTILE_VALUES = st.one_of(
    st.sampled_from([None, True, False, 0, -1, 2 ** 31, 2 ** 63, 2 ** 64, -2 ** 64 - 1, 10 ** 30, 10 ** 31,
                     10 ** 4400, -10 ** 4400, math.nan, math.inf, -math.inf, 1e308, -0.0, 0.5, "", " ", "x" * 100_000,
                     "[/]", "[bold]x", "a\x00b", "\udcff", "\u202e", "/etc/passwd", "../" * 12 + "etc/passwd",
                     "capital_jux", "guildhall", "agent", "jux-record/1", [], {}, [[]], [0, 0], [[0, 0]], [0, [0, 1]],
                     {"a": [1]}, list(range(20_000))]),
    st.integers(), st.floats(), st.text(max_size=30), st.lists(st.integers(-3, 300), max_size=6),
    st.integers(1, 3000).map(_nested),
)


def _places(data, where=()):
    """Every place in data: a tuple of keys and indexes from the top."""
    yield where
    if isinstance(data, dict):
        for k, v in data.items():
            yield from _places(v, where + (k,))
    elif isinstance(data, list):
        for i, v in enumerate(data):
            yield from _places(v, where + (i,))


def _at(data, where):
    for k in where:
        data = data[k]
    return data


@st.composite
def bad_data(draw):
    """A real record or save, changed in one place (as Python data: values JSON cannot hold too)."""
    base = draw(st.sampled_from(sorted(played())))
    data = copy.deepcopy(played()[base])
    how = draw(st.sampled_from(["replace", "replace", "delete", "add", "answer", "answers"]))
    places = list(_places(data))
    if how == "replace":
        where = draw(st.sampled_from(places))
        value = draw(HOSTILE_VALUES)
        if not where:
            return value
        _at(data, where[:-1])[where[-1]] = value
    elif how == "delete":
        where = draw(st.sampled_from(places[1:]))
        del _at(data, where[:-1])[where[-1]]
    elif how == "add":
        where = draw(st.sampled_from([w for w in places if isinstance(_at(data, w), dict)]))
        key = draw(st.one_of(st.sampled_from(["state", "names", "variants", "digest", "tui", "bots", ""]), st.text(max_size=8)))
        _at(data, where)[key] = draw(HOSTILE_VALUES)
    elif how == "answer":  # an answer that does not fit: another seat, another option, a list
        answers = data["answers"]
        i = draw(st.integers(0, len(answers) - 1))
        if draw(st.booleans()):
            answers[i][0] = draw(st.integers(-2, 6))
        else:
            answers[i][1] = draw(st.one_of(st.none(), st.integers(-3, 400), st.lists(st.integers(-1, 60), max_size=6)))
    else:  # the answers cut, doubled, swapped or reversed
        answers = data["answers"]
        i, j = draw(st.integers(0, len(answers) - 1)), draw(st.integers(0, len(answers) - 1))
        what = draw(st.sampled_from(["cut", "double", "swap", "reverse"]))
        if what == "cut":
            del answers[i:]
        elif what == "double":
            answers.insert(i, list(answers[i]))
        elif what == "swap":
            answers[i], answers[j] = answers[j], answers[i]
        else:
            answers.reverse()
    return data


_VALUE = re.compile(rb'(?<=: )(-?\d+(?:\.\d+)?|"(?:[^"\\]|\\.)*"|true|false|null)')
RAW_TOKENS = [b"NaN", b"Infinity", b"-Infinity", b"1e999", b"-1e999", b"9" * 5000, b"[" * 5000, b'"\\ud800"',
              b"0x10", b"01", b"'x'", b'"\\u0000"', b"{" * 300, b"[" * 63 + b"]" * 63, b'"\\x"', b"1_000"]


@st.composite
def bad_text(draw):
    """A real record or save as the bytes of its file, changed: cut short, a byte that is not
    UTF-8, a value swapped for a token standard JSON does not allow, another encoding."""
    base = draw(st.sampled_from(sorted(played())))
    text = json.dumps(played()[base]).encode()
    how = draw(st.sampled_from(["cut", "byte", "token", "token", "encoding"]))
    if how == "cut":
        return text[:draw(st.integers(0, len(text) - 1))]
    if how == "byte":
        i = draw(st.integers(0, len(text) - 1))
        return text[:i] + draw(st.sampled_from([b"\xff", b"\xc3", b"\xed\xa0\x80", b"\x00", b"\x80", b"\xfe\xff"])) + text[i + 1:]
    if how == "token":
        m = draw(st.sampled_from(list(_VALUE.finditer(text))))
        return text[:m.start()] + draw(st.sampled_from(RAW_TOKENS)) + text[m.end():]
    return draw(st.sampled_from([b"\xef\xbb\xbf" + text, text.decode().encode("utf-16"), text.decode().encode("utf-32")]))


def check_from_record(data) -> None:
    start = time.monotonic()
    try:
        Game.from_record(data)
    except JuxError as e:
        assert str(e).strip() and "\n" not in str(e), str(e)
    assert time.monotonic() - start < SECONDS


@settings(max_examples=300)
@given(bad_data())
def test_a_changed_record_or_save_replays_or_raises_one_jux_error(data):
    check_from_record(data)


@settings(max_examples=150)
@given(bad_text())
def test_a_changed_record_file_reads_or_raises_one_jux_error(tmp_path_factory, text):
    path = tmp_path_factory.mktemp("record") / "bad.json"
    path.write_bytes(text)
    start = time.monotonic()
    try:
        data = read_record(path)
    except JuxError as e:
        assert str(e).startswith(str(path)) and "\n" not in str(e), str(e)
    else:
        check_from_record(data)
    assert time.monotonic() - start < SECONDS


def jux_command(*args, cwd):
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))
    p = subprocess.run([sys.executable, "-m", "jux", *args], cwd=cwd, stdin=subprocess.DEVNULL,
                       capture_output=True, text=True, timeout=SECONDS, env=env)
    assert "Traceback" not in p.stdout + p.stderr and "internal error" not in p.stdout + p.stderr, p.stderr
    if p.returncode != 0:
        assert p.returncode == 1, (p.returncode, p.stderr)
        lines = p.stderr.splitlines()
        assert len(lines) == 1 and lines[0].startswith("jux: bad.json"), p.stderr
    return p


@st.composite
def bad_file(draw):
    """The bytes of a changed record file: bad_text, or bad_data written as JSON."""
    if draw(st.booleans()):
        try:
            return json.dumps(draw(bad_data())).encode()
        except (ValueError, RecursionError):  # (a number or a nesting json.dumps refuses to write)
            pass
    return draw(bad_text())


@settings(max_examples=4)
@given(bad_file())
def test_a_changed_record_through_the_command_line(tmp_path_factory, text):
    """A handful of examples (each is two commands): the same answers the Python API gives."""
    folder = tmp_path_factory.mktemp("cli")
    (folder / "bad.json").write_bytes(text)
    jux_command("replay", "bad.json", cwd=folder)
    jux_command("play", "--load", "bad.json", cwd=folder)
