"""Tuples of card attributes read from tables made at load (`AA0[c]`, `map(AAT0, cs)`) and a
function's lets only asked whether they hold a value made as sets (interpreter/compiler/fast.py,
members.py): the values are those of the general path, for cards that lack an attribute, for an
attribute a mark replaces while set, and for locals read in any other way (which stay lists)."""
from __future__ import annotations

import textwrap

import pytest

from jux.interpreter.engine.game import Game
from jux.interpreter.engine.ruleset import load_ruleset

RULES = """\
game:
  name: tabs
  players: {min: 1, max: 4}
cards:
  num:
    label: "{colour} {value}"
    attributes:
      colour: [red, blue]
      value: [1, 2]
  # no colour: its tuples hold none
  wild:
    label: "wild {value}"
    list:
      - {value: 5}
  plain:
    label: "plain {colour}"
    list:
      - {colour: blue, value: 7}
zones:
  deck: {visible: none, start: [num, wild, plain]}
  table: {visible: all}
counters:
  out: {start: null}
marks:
  # a mark named like an attribute replaces it while set
  value: {default: none}
functions:
  score(p): "0"
  pairs(cs): "[(c.colour, c.value) for c in cs]"
  reds(cs): '[(c.value, c.colour) for c in cs if c.colour == "red"]'
  pair(c): (c.colour, c.value)
  with_kind(cs): "[(c.colour, c.kind) for c in cs]"
  # have: only asked whether it holds a value (a set); seen: also counted (a list)
  fitting(cs, ds): |
    let have = [(x.colour, x.kind) for x in ds]
    return [c for c in cs if (c.colour, c.kind) not in have]
  counted(cs, ds): |
    let seen = [x.kind for x in ds]
    return (len(seen), [c for c in cs if c.kind in seen])
  none_in(cs): |
    let colours = [x.colour for x in cs]
    return (none in colours, "red" in colours, "green" not in colours)
  sorted_pairs(cs): "sort_by(cs, c -> (c.kind, c.colour))"
flow: |
  t()
procedures:
  t: |
{code}
"""


def run(tmp_path, code: str, marks=None) -> Game:
    d = tmp_path / "tabs"
    d.mkdir(exist_ok=True)
    (d / "game.yaml").write_text(RULES.replace("{code}", textwrap.indent(textwrap.dedent(code).strip("\n"), "    ")))
    rules = load_ruleset(d)
    return Game.scenario(rules, 2, run="t", marks=marks)


def general(rules, cards, attrs):
    """Each card's tuple of attributes, as the general path reads them (a mark first)."""
    return [tuple(rules.card_attrs[c].get(a) for a in attrs) for c in cards]


def test_tuples_of_attributes_are_those_read_one_by_one(tmp_path):
    g = run(tmp_path, """
        out = (pairs(deck), reds(deck), [pair(c) for c in deck], with_kind(deck), sorted_pairs(deck))
    """)
    rules, deck = g.rules, list(g.state.z[g.rules.layout.zone_index["deck"]])
    pairs, reds, one_by_one, kinds, ordered = g.counter("out")
    assert pairs == one_by_one == general(rules, deck, ("colour", "value"))
    assert (None, 5) in pairs and ("blue", 7) in pairs  # (a card lacking one, a kind of its own)
    assert reds == [(v, c) for c, v in pairs if c == "red"]
    assert kinds == general(rules, deck, ("colour", "kind"))
    assert ordered == sorted(deck, key=lambda c: (rules.card_attrs[c]["kind"], str(rules.card_attrs[c].get("colour"))))
    assert "AAT" in rules.source and "AA0[" in rules.source  # (the tables are read)


def test_a_mark_named_like_an_attribute_is_read_in_the_tuple(tmp_path):
    """A mark replaces the printed value while set: its tuple is made when read, not taken from
    a table."""
    g = run(tmp_path, """
        let c = first(x for x in deck if x.kind == "num" and x.colour == "red" and x.value == 1)
        set c.value = 9
        out = (pairs([c]), pair(c), fitting([c], [c]))
    """)
    assert g.counter("out") == ([("red", 9)], ("red", 9), [])


def test_membership_only_locals_answer_as_lists_do(tmp_path):
    g = run(tmp_path, """
        let nums = [c for c in deck if c.kind == "num"]
        let others = [c for c in deck if c.kind != "num"]
        out = (fitting(deck, nums), fitting(deck, []), counted(deck, others), none_in(deck), none_in(nums))
    """)
    fit, fit_none, (n, hits), all_colours, num_colours = g.counter("out")
    rules, deck = g.rules, list(g.state.z[g.rules.layout.zone_index["deck"]])
    kinds = {rules.card_attrs[c]["kind"] for c in deck}
    assert fit == [c for c in deck if rules.card_attrs[c]["kind"] != "num"]
    assert fit_none == deck
    assert n == 2 and sorted(hits) == sorted(c for c in deck if rules.card_attrs[c]["kind"] != "num")
    assert all_colours == (True, True, True) and num_colours == (False, True, True)
    assert kinds == {"num", "wild", "plain"}


@pytest.mark.parametrize("name, made", [("fitting", "v_have = set("), ("counted", "v_seen = list("),
                                        ("none_in", "v_colours = set(")])
def test_which_locals_are_made_as_sets(tmp_path, name, made):
    """A local read only by `in` / `not in` with a left side that hashes is a set; one also
    counted stays a list."""
    rules = run(tmp_path, "out = 0").rules
    body = rules.source.split(f"def F_{name}(")[1].split("\ndef ")[0]
    assert made in body
