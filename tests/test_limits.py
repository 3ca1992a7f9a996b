"""Rule files past the bounds of interpreter/limits.py: each is refused quickly with one located
line (never a hang, a MemoryError or Python's own limit), and what the rules run is bounded too."""
from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from jux.interpreter.engine.game import Game
from jux.interpreter.engine.ruleset import load_ruleset, RuleRuntimeError
from jux.interpreter.errors import JuxError
from jux.interpreter.limits import MAX_CARDS, MAX_DIGITS, MAX_NESTING
from test_rule_errors import BASE, at, edit, error, where, with_code, write

ROOT = Path(__file__).resolve().parent.parent


def quick_error(tmp_path, text, seconds=10.0):
    t = time.monotonic()
    e = error(tmp_path, text)
    assert time.monotonic() - t < seconds
    return e


def test_an_alias_bomb_is_refused_where_it_grows_past_the_bound(tmp_path):
    lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
    for i in range(1, 9):  # 10^9 values once expanded
        lines.append(f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 10) + "]")
    text = BASE + "\n".join(lines) + "\n"
    e = quick_error(tmp_path, text)
    assert "stands for more than 200,000 values" in e.message
    # a4 stands for 111,111 values, a5 for 1,111,111: the first past the bound
    assert where(e) == at(text, "&a5")


def test_a_merge_key_bomb_is_refused(tmp_path):
    lines = ["m0: &m0 {a: 1, b: 2, c: 3, d: 4, e: 5, f: 6, g: 7, h: 8, i: 9, j: 10}"]
    for i in range(1, 8):
        lines.append(f"m{i}: &m{i} {{<<: [" + ", ".join([f"*m{i - 1}"] * 10) + "]}")
    e = quick_error(tmp_path, BASE + "\n".join(lines) + "\n")
    assert "stands for more than 200,000 values" in e.message


def test_an_alias_inside_its_own_anchor(tmp_path):
    text = BASE + "loop: &l {a: *l}\n"
    e = quick_error(tmp_path, text)
    assert e.message.startswith("the alias *l is inside its own anchor")
    assert where(e) == at(text, "*l")


def test_yaml_nested_too_deep(tmp_path):
    text = BASE + "deep: " + "[" * 500 + "]" * 500 + "\n"
    e = quick_error(tmp_path, text)
    assert e.message == f"lists and mappings nested more than {MAX_NESTING} deep"
    assert where(e) == at(text, "[", nth=MAX_NESTING, after="deep:")  # (the file's mapping is a level)


@pytest.mark.parametrize("value, message", [
    ("9" * 5000, f"a number of more than {MAX_DIGITS} digits"),
    (".inf", "'.inf' is not a finite number"),
    ("1.0e+999", "'1.0e+999' is not a finite number"),
    (".nan", "'.nan' is not a finite number"),
])
def test_numbers_a_rule_file_cannot_hold(tmp_path, value, message):
    text = edit("  limit: 3\n", f"  limit: {value}\n")
    e = quick_error(tmp_path, text)
    assert e.message == message and where(e) == at(text, value)


@pytest.mark.parametrize("code, needle, message", [
    ("let x = " + "[" * 200 + "1" + "]" * 200, "[", "nested more than"),
    ("let x = " + " + ".join(["1"] * 3000), "1", "nested more than"),
    ("if true {\n" * 990 + "let x = 1\n" + "}\n" * 990, "if", "nested more than"),
    ("let x = " + "9" * 5000, "9", f"a number of more than {MAX_DIGITS} digits"),
])
def test_effect_code_past_the_bounds(tmp_path, code, needle, message):
    e = quick_error(tmp_path, with_code(code))
    assert message in e.message
    assert e.pos.line >= BASE.count("\n", 0, BASE.index("    draw 2 from deck to hand[0]")) + 1


def test_too_many_cards_is_refused_before_they_are_made(tmp_path):
    text = edit("    label: \"{colour} {value}\"\n", "    label: \"{colour} {value}\"\n    copies: 100000\n")
    e = quick_error(tmp_path, text)
    assert e.message == f"the card kinds make 600,000 cards ('num' 600,000): at most {MAX_CARDS:,} in a ruleset"
    assert where(e) == at(text, "num:", shift=0)


def test_a_label_format_too_wide(tmp_path):
    text = edit('"{colour} {value}"', '"{colour:999999999} {value}"')
    e = quick_error(tmp_path, text)
    assert e.message == "card label of 'num': the format '999999999' is wider than 200 characters"


def test_every_round_of_a_for_loop_counts_against_the_step_budget(tmp_path):
    # 100,000 rounds of a range, each with a loop over the deck: 700,000 steps, with no decision
    text = edit("  score(p): gold[p] + len(hand[p])\n", "  score(p): gold[p] + len(hand[p])\n  many(n): |\n"
                "    let t = 0\n    for i in range(n) { for c in deck { t += 1 } }\n    return t\n")
    text = edit("  main: |\n", "  main: |\n    gold[0] = many(100000)\n", text)
    rules = load_ruleset(write(tmp_path, {"game.yaml": text}))
    t = time.monotonic()
    with pytest.raises(JuxError) as e:
        Game.new(rules, 1, 1)
    assert time.monotonic() - t < 20
    assert "steps without stopping at a decision" in str(e.value)
    line, _ = at(text, "for i in range(n)")
    assert f"game.yaml:{line}:" in str(e.value)


def test_a_range_too_long_is_a_located_error_not_a_hang(tmp_path):
    text = with_code("for i in range(1000000000) { gold[0] += 1 }")
    rules = load_ruleset(write(tmp_path, {"game.yaml": text}))
    with pytest.raises(RuleRuntimeError) as e:
        Game.new(rules, 1, 1)
    line, _ = at(text, "for i in range")
    assert f"game.yaml:{line}:" in str(e.value) and "range() of 1,000,000,000 numbers" in str(e.value)


@pytest.mark.parametrize("code, needle", [
    ("let xs = [1]\n    for i in range(60) { xs = xs + xs }\n    gold[0] = len(xs)", "xs = xs + xs"),
    ("let xs = [1]\n    for i in range(60) { xs += xs }\n    gold[0] = len(xs)", "xs += xs"),
    ("let t = \"ab\"\n    for i in range(60) { t = t + t }\n    gold[0] = len(t)", "t = t + t"),
    ("let xs = [1]\n    for i in range(60) { xs = xs * 2 }\n    gold[0] = len(xs)", "xs = xs * 2"),
    ("gold[0] = len([0] * 100000000)", "[0] * 100000000"),
])
def test_a_list_or_text_made_ever_longer_is_a_located_error(tmp_path, code, needle):
    text = with_code(code)
    rules = load_ruleset(write(tmp_path, {"game.yaml": text}))
    t = time.monotonic()
    with pytest.raises(RuleRuntimeError) as e:
        Game.new(rules, 1, 1)
    assert time.monotonic() - t < 10
    line, _ = at(text, needle)
    assert f"game.yaml:{line}:" in str(e.value) and "at most 1,000,000" in str(e.value)


def test_an_error_in_the_score_function_names_its_rule(tmp_path):
    # (the table is empty when the game ends: known only then; top([]).value is told by validate)
    text = edit("  score(p): gold[p] + len(hand[p])\n", "  score(p): top(table).value\n")
    rules = load_ruleset(write(tmp_path, {"game.yaml": text}))
    g = Game.new(rules, 1, 1)
    with pytest.raises(RuleRuntimeError) as e:
        g.scores
    line, col = at(text, "top(table).value")
    assert f"game.yaml:{line}:{col}: a value is none" in str(e.value)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_a_fifo_in_a_ruleset_folder_is_refused_not_read(tmp_path):
    d = write(tmp_path, {"game.yaml": BASE})
    os.mkfifo(d / "x.yaml")
    r = subprocess.run([sys.executable, "-m", "jux", "validate", str(d)], capture_output=True,
                       text=True, timeout=30, cwd=ROOT)
    assert r.returncode == 1 and "x.yaml:1:1: not a regular file" in r.stderr and "Traceback" not in r.stderr


def test_a_symlink_in_a_ruleset_folder_is_not_followed(tmp_path):
    d = write(tmp_path, {"game.yaml": BASE})
    secret = tmp_path / "secret.txt"
    secret.write_text("root:SECRET-LINE\n")
    os.symlink(secret, d / "x.yaml")
    with pytest.raises(JuxError) as e:
        load_ruleset(d)
    assert "x.yaml:1:1: a symbolic link" in str(e.value) and "SECRET" not in str(e.value)


def test_a_variant_names_its_game_never_a_path(tmp_path):
    f = tmp_path / "v.yaml"
    f.write_text("variant:\n  name: x\n  game: \"/\"\n")
    t = time.monotonic()
    r = subprocess.run([sys.executable, "-m", "jux", "validate", str(f)], capture_output=True,
                       text=True, timeout=60, cwd=ROOT)
    assert time.monotonic() - t < 30
    assert r.returncode == 1 and "v.yaml:3:9: no game '/'" in r.stderr


def test_a_changed_copy_of_a_catalogue_variant_given_by_path_is_the_one_loaded(tmp_path):
    src = ROOT / "variants" / "capital_jux" / "power_tiles.yaml"
    copy = tmp_path / "power_tiles.yaml"
    copy.write_text(src.read_text() + "\nprocedures:\n  broken(: x\n")
    with pytest.raises(JuxError) as e:
        load_ruleset("capital_jux", [str(copy)])
    assert str(copy.name) in str(e.value).splitlines()[0]
