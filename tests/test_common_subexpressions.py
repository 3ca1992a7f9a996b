"""A call read several times in a compiled function worked out once (interpreter/compiler/common.py):
the same values, the first reading named only where it is surely read, and in a comprehension
each item's own value (never the item before's)."""
from __future__ import annotations

from jux.interpreter.compiler.common import once
from jux.interpreter.engine.game import Game

from test_language_features import rules_with


def test_a_call_read_again_is_named_where_it_is_first_read():
    text = "(sum(x) if sum(x) <= len(y) else len(y) - sum(x))"
    assert once(text) == "_c0 if (_c0 := sum(x)) <= (_c1 := len(y)) else _c1 - _c0"


def test_a_call_first_read_in_a_branch_is_left_alone():
    # (the first reading may not happen: a later one would read a name never set)
    assert once("(sum(x) if a else 0) + sum(x)") == "(sum(x) if a else 0) + sum(x)"
    assert once("a and sum(x) > 1 or sum(x)") == "a and sum(x) > 1 or sum(x)"
    assert once("a < b < sum(x) + sum(x)") == "a < b < sum(x) + sum(x)"  # (after the first comparison)
    assert once("a < sum(x) < sum(x)") == "a < (_c0 := sum(x)) < _c0"  # (its first two operands: surely)


def test_only_calls_that_change_nothing_and_give_no_list_are_named():
    assert once("len(f(x)) + len(f(x))") == "len(f(x)) + len(f(x))"  # (f: not known to change nothing)
    assert once("list(x) + list(x)") == "list(x) + list(x)"  # (a list two readers would share)
    assert once("len(F_a(S)) + len(F_a(S))") == "(_c0 := len(F_a(S))) + _c0"


def test_each_comprehension_item_has_its_own_value():
    # the element is a scope of its own: named there, set again for each item
    out = once("[sum(v) if sum(v) > 1 else -sum(v) for v in vs]")
    assert out == "[_c0 if (_c0 := sum(v)) > 1 else -_c0 for v in vs]"
    assert eval(out, {"vs": [[1], [2, 3], [0]]}) == [-1, 5, 0]


def test_functions_with_calls_read_again_give_the_values_of_calls(tmp_path):
    rules = rules_with(tmp_path, functions="""
        total(x): sum(y for y in [x, x + 1])
        kept(x): if total(x) <= 6 or total(x) > 20 then total(x) else if total(x) - 6 <= 2 then 6 else 0
        all_kept: "[kept(x) for x in [1, 3, 4, 5, 10]]"
        """, procedures="""
        t: |
          out = (all_kept(), kept(3), kept(4))
        """)
    # total: 3, 7, 9, 11, 21 -> kept 3, 6 (7 - 6 <= 2), 0, 0, 21
    assert Game.scenario(rules, 2, run="t").counter("out") == ([3, 6, 0, 0, 21], 6, 0)
    assert "(_c0 := " in rules.source
