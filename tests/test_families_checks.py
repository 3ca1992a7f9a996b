"""Families of zones made during play (`per: made`, docs/language.md "Zones made during play"):
what `jux validate` refuses before the game starts, each at its file:line:col in plain words."""
from __future__ import annotations

import pytest

from jux.interpreter.cli.main import main
from jux.interpreter.engine.ruleset import load_ruleset
from jux.interpreter.errors import RuleErrors

GOOD = """\
game: {name: piles, players: {min: 2, max: 2}}
cards:
  card: {label: "c{n}", attributes: {n: [1, 2, 3, 4]}}
zones:
  deck: {visible: none, start: [card]}
  hand: {per: player, visible: owner}
  pile: {per: made, visible: all, most: 4}
functions:
  score(p): len(hand[p])
  sizes(): "[len(pile[k]) for k in made(pile)]"
procedures:
  go(p): |
    let k = make(pile)
    move top(deck) to pile[k]
    log "{p} makes pile {k}: {sizes()}"
    move pile[k] to hand[p]
    remove pile[k]
flow: |
  go(0)
"""


def errors_of(tmp_path, text: str) -> list:
    f = tmp_path / "piles.yaml"
    f.write_text(text)
    with pytest.raises(RuleErrors) as e:
        load_ruleset(f)
    return [(err.pos.line, err.pos.col, err.message) for err in e.value.errors]


def at(text: str, line_has: str, word: str) -> tuple:
    """(line, col) of word in the first line of text that holds line_has (1-based)."""
    for i, line in enumerate(text.splitlines(), 1):
        if line_has in line:
            return i, line.index(word) + 1
    raise AssertionError(line_has)


def test_the_good_file_validates(tmp_path, capsys):
    f = tmp_path / "piles.yaml"
    f.write_text(GOOD)
    assert main(["validate", str(f)]) == 0
    assert capsys.readouterr().out.startswith("ok: ")


@pytest.mark.parametrize("old, new, line_has, word, message", [
    ("let k = make(pile)", "let k = make(hand)", "make(hand)", "make",
     "'make' takes a family of zones made during play (a zone with per: made); 'hand' is not one (families: pile)"),
    ("let k = make(pile)", "let k = make(pil)", "make(pil)", "make", "(did you mean 'pile'?)"),
    ("remove pile[k]", "remove hand[p]", "remove hand", "remove",
     "'remove' takes a zone of a family made during play (per: made), such as pile[k]; 'hand' is one per player"),
    ("remove pile[k]", "remove deck", "remove deck", "remove", "'deck' is a single zone, which is always there"),
    ("remove pile[k]", "remove pile", "remove pile", "remove", "'pile' is a family: write pile[k]"),
    ("for k in made(pile)", "for k in made(deck)", "made(deck)", "made",
     "'made' takes a family of zones made during play (a zone with per: made); 'deck' is not one"),
    ("score(p): len(hand[p])", "score(p): len(hand[p]) + make(pile)", "score(p)", "make",
     "'make' makes a zone: use it in a procedure, not in a function"),
    ("move top(deck) to pile[k]", "move top(deck) to pile", "to pile", "pile",
     "zone 'pile' is a family of zones made during play: write pile[...]"),
    ("move top(deck) to pile[k]", 'move top(deck) to pile["a"]', 'pile["a"]', '"a"',
     "zone 'pile' is indexed by the key make(...) gave it (a number), not a text"),
])
def test_code_that_misuses_a_family_is_refused_where_it_is(tmp_path, old, new, line_has, word, message):
    assert old in GOOD
    text = GOOD.replace(old, new)
    found = errors_of(tmp_path, text)
    line, col = at(text, line_has, word)
    assert any(message in m and (ln, c) == (line, col) for ln, c, m in found), found


@pytest.mark.parametrize("decl, word, message", [
    ("{per: made, visible: all, most: 4, start: [card]}", "[card]",
     "zone 'pile' is a family of zones made during play: no card can start in a zone that is not made yet"),
    ("{per: made, visible: owner}", "owner",
     "its zones have no owner, so 'visible: owner' cannot be"),
    ("{per: made, visible: all, most: 0}", "0", "zones.pile.most: must be at least 1"),
    ("{per: made, visible: all, most: 65}", "65", "greater than the maximum of 64"),
    ("{visible: all, most: 3}", "3", "zone 'pile': 'most' bounds a family of zones made during play: add per: made"),
])
def test_a_family_declared_wrong_is_refused_where_it_is(tmp_path, decl, word, message):
    text = GOOD.replace("{per: made, visible: all, most: 4}", decl)
    if "per: made" not in decl:  # (no family: no code that makes one)
        text = text.split("  sizes():")[0] + "flow: |\n  log \"x\"\n"
    found = errors_of(tmp_path, text)
    line, col = at(text, "  pile: {", word)
    assert any(message in m and (ln, c) == (line, col) for ln, c, m in found), found


def test_a_counter_cannot_be_per_made(tmp_path):
    text = GOOD.replace("functions:", "counters:\n  n: {start: 0, per: made}\nfunctions:")
    found = errors_of(tmp_path, text)
    line, _ = at(text, "  n: {start", "n")
    assert any(ln == line and "counter 'n': per 'made' is for zones" in m for ln, c, m in found), found


def test_validate_prints_them_as_path_line_col(tmp_path, capsys):
    f = tmp_path / "piles.yaml"
    f.write_text(GOOD.replace("remove pile[k]", "remove deck"))
    assert main(["validate", str(f)]) == 1
    err = capsys.readouterr().err
    line, col = at(f.read_text(), "remove deck", "remove")
    assert f"piles.yaml:{line}:{col}: 'remove' takes a zone of a family" in err, err
    assert "Traceback" not in err
