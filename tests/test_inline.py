"""Calls of the rules' functions compiled in place (interpreter/compiler/inline.py): the values are
those of the calls, also where an argument has the name of a variable the function's body binds."""
from __future__ import annotations

from jux.interpreter.engine.game import Game

from test_language_features import rules_with

FUNCTIONS = """
plus_all(x): "[x + y for y in [1, 2]]"
nested(y): plus_all(y)
twice(x): x + x
"""


def test_inlined_calls_give_the_values_of_calls(tmp_path):
    rules = rules_with(tmp_path, functions=FUNCTIONS, procedures="""
        t: |
          let y = 10
          out = (nested(y), plus_all(3), [twice(y) for y in [1, 2]], [nested(x) for x in [5]], twice(y))
        """)
    assert Game.scenario(rules, 2, run="t").counter("out") == ([11, 12], [4, 5], [2, 4], [[6, 7]], 20)
    assert "F_twice(S, v_y)" not in rules.source  # (compiled in place)
    assert "F_plus_all(S, v_y)" in rules.source  # (its body binds y: called, not compiled in place)
