"""The language features a second game needed: counters per player and per key, a plain `none` in
YAML values, functions with locals, procedures that return a value, and `choose ... distinct`
(several options, no two alike, as one decision). Each runs in the tiny ruleset of
test_language.py, through the driver (apply) and through autoplay's direct path."""
from __future__ import annotations

import random
import textwrap

import pytest

from jux.interpreter.bots.random_bot import random_picker
from jux.interpreter.bots.answers import answers_of
from jux.interpreter.engine.game import Game
from jux.interpreter.engine.ruleset import load_ruleset
from jux.interpreter.errors import IllegalAnswer, RuleErrors

from test_language import RULES, run


def rules_with(tmp_path, functions: str = "", procedures: str = "", flow: str = "t()", counters: str = ""):
    """The tiny ruleset with more functions, procedures (t among them) and counters, and a flow."""
    text = RULES.replace("  t: |\n{code}\n{extra}\n", textwrap.indent(textwrap.dedent(procedures).strip("\n"), "  ") + "\n")
    text = text.replace("  double(x): x * 2\n", "  double(x): x * 2\n" + textwrap.indent(
        textwrap.dedent(functions).strip("\n"), "  ") + "\n" if functions else "  double(x): x * 2\n")
    text = text.replace("  threats: {per: [player, colours], start: 0}\n",
                        "  threats: {per: [player, colours], start: 0}\n" + textwrap.indent(
                            textwrap.dedent(counters).strip("\n"), "  ") + "\n" if counters else
                        "  threats: {per: [player, colours], start: 0}\n")
    text = text.replace("flow: |\n  t()\n", "flow: |\n" + textwrap.indent(textwrap.dedent(flow).strip("\n"), "  ") + "\n")
    d = tmp_path / "feat"
    d.mkdir(exist_ok=True)
    (d / "game.yaml").write_text(text)
    return load_ruleset(d)


def errors(tmp_path, **parts) -> list:
    with pytest.raises(RuleErrors) as e:
        rules_with(tmp_path, **parts)
    return [str(x) for x in e.value.errors]


# ---------------------------------------------------------------- counters per player and per key


def test_counter_per_player_and_per_key(tmp_path):
    g = run(tmp_path, """
        threats[1]["blue"] += 2
        threats[0]["red"] = 5
        threats[1]["blue"] -= 1
        out = (threats[1]["blue"], threats[0]["red"], sum(threats[p][c] for p in players for c in colours))
    """)
    assert g.counter("threats") == [{"red": 5, "blue": 0}, {"red": 0, "blue": 1}]
    assert g.counter("out") == (1, 5, 6)
    assert g.view(1)["counters"]["threats"] == [{"red": 5, "blue": 0}, {"red": 0, "blue": 1}]
    # other counters keep their places
    assert g.counter("gold") == [0, 0] and g.counter("stock") == {"red": 0, "blue": 0}


def test_counter_per_player_and_per_key_set_by_a_scenario(tmp_path):
    g = run(tmp_path, 'out = threats[0]["blue"] * 10 + threats[1]["red"]',
            counters={"threats": [{"red": 0, "blue": 4}, {"red": 2, "blue": 0}]})
    assert g.counter("out") == 42


@pytest.mark.parametrize("code, message", [
    ("threats[0] += 1", "counter 'threats' is one per player and per item of 'colours': write threats[player][key]"),
    ("let x = threats[0]", "counter 'threats' is one per player and per item of 'colours': write threats[player][key]"),
    ('gold[0]["red"] = 1', "counter 'gold' is one per player: it takes one index, not two"),
])
def test_counter_per_player_and_per_key_misused(tmp_path, code, message):
    with pytest.raises(RuleErrors) as e:
        run(tmp_path, code)
    assert any(message in str(x) for x in e.value.errors), [str(x) for x in e.value.errors]


def test_counter_per_must_name_player_then_a_list(tmp_path):
    msgs = errors(tmp_path, counters="bad: {per: [player, nothing_here], start: 0}", procedures="t: |\n  n = 1")
    assert any("per 'nothing_here' is neither 'player' nor a list constant" in m for m in msgs), msgs


# ---------------------------------------------------------------- none in YAML


def test_plain_none_is_nothing_where_a_value_may_be_nothing(tmp_path):
    g = Game.scenario(rules_with(tmp_path, counters='who: {start: none, seat: true}\nshort: none\nword: "none"',
                                 procedures="t: |\n  n = 1"), 2, run="t")
    assert g.counter("who") is None and g.counter("short") is None and g.counter("word") == "none"
    # elsewhere `none` stays a word of the rule files: the deck is visible to nobody
    assert g.rules.spec.zones["deck"]["visible"] == "none"


# ---------------------------------------------------------------- functions with locals


FUNCTIONS = """
best(xs): |
  let b = none
  for x in xs { if b == none or x > b { b = x } }
  return b
sign(x): |
  if x > 0 { return 1 } elif x < 0 { return -1 }
  return 0
steps(m): |
  let i = 0
  while m > 1 {
    m = if m % 2 == 0 then m // 2 else 3 * m + 1
    i += 1
  }
  return i
"""


def test_functions_with_locals_loops_and_return(tmp_path):
    rules = rules_with(tmp_path, functions=FUNCTIONS,
                       procedures="t: |\n  out = (best([3, 9, 2]), best([]), sign(-4), sign(0), sign(2), steps(6))")
    assert Game.scenario(rules, 2, run="t").counter("out") == (9, None, -1, 0, 1, 8)


@pytest.mark.parametrize("body, message", [
    ("|\n    let x = 1\n    move top(deck) to table\n    return x", "a function only computes a value: 'move' belongs in a procedure"),
    ("|\n    n = 3\n    return n", "a function only computes a value: it cannot change 'n' (a counter)"),
    ("|\n    log \"hi\"\n    return 1", "a function only computes a value: 'log' belongs in a procedure"),
    ("|\n    let y = t()\n    return y", "'t' is a procedure: a function cannot call one"),
])
def test_functions_only_compute(tmp_path, body, message):
    msgs = errors(tmp_path, functions=f"f(x): {body}", procedures="t: |\n  out = f(1)")
    assert any(message in m for m in msgs), msgs


def test_a_function_block_with_a_syntax_error_is_reported_as_a_block(tmp_path):
    msgs = errors(tmp_path, functions="f(x): |\n    let y = 1 +\n    return y", procedures="t: |\n  out = f(1)")
    # the block's own error (not the expression parser's "unexpected 'let'")
    assert len(msgs) == 1 and "syntax error" in msgs[0] and "'let'" not in msgs[0], msgs


# ---------------------------------------------------------------- procedures that return a value


PROCS = """
ask(p): |
  choose x from [10, 20, 30] by p prompt "How much?"
  return x * 2
add(a, b): |
  return a + b
nothing_back(p): |
  if p == 0 { return 5 }
t: |
  let a = ask(1)
  let b = add(2, 3)
  n = ask(0)
  n += add(1, 1)
  let c = nothing_back(1)
  out = (a, b, c, n)
"""


def test_procedures_return_values_through_decisions(tmp_path):
    rules = rules_with(tmp_path, procedures=PROCS)
    g = Game.scenario(rules, 2, run="t")
    assert [d.player for d in g.pending] == [1]
    g.apply(1, player=1)
    g.apply(2, player=0)
    assert g.over and g.counter("out") == (40, 5, None, 62) and g.counter("n") == 62


def test_procedures_return_values_in_autoplay_direct(tmp_path):
    rules = rules_with(tmp_path, procedures=PROCS)
    answers = {1: 1, 0: 2}
    driven = Game.new(rules, 2, seed=3)
    while not driven.over:
        d = driven.pending[0]
        driven.apply(answers[d.player], player=d.player)
    for direct in (False, True):
        g = Game.new(rules, 2, seed=3, start=False)
        g.autoplay(pick=lambda n, lo, hi, many, keys=None: 1 if n == 3 and not many else 0, direct=direct)
        g2 = Game.new(rules, 2, seed=3, start=False)
        g2.autoplay(lambda d: answers[d.player], direct=direct)
        assert g2.counter("out") == driven.counter("out") == (40, 5, None, 62)
        assert g.over


def test_a_procedure_without_a_value_cannot_be_taken_as_one(tmp_path):
    msgs = errors(tmp_path, procedures="quiet(p): |\n  n += 1\nt: |\n  let x = quiet(0)")
    assert any("'quiet' gives no value (it has no 'return EXPR'): call it as a statement" in m for m in msgs), msgs


# ---------------------------------------------------------------- choose ... distinct


DISTINCT = """
t: |
  choose xs from deck pick 3 by 0 distinct c -> c.value prompt "Three of different values"
  out = sorted_values(xs)
"""


def sorted_rules(tmp_path):
    return rules_with(tmp_path, procedures=DISTINCT, functions="sorted_values(xs): sort_by([c.value for c in xs], v -> v)")


def test_distinct_choose_is_one_decision_with_keys(tmp_path):
    g = Game.scenario(sorted_rules(tmp_path), 2, run="t")
    (d,) = g.pending
    assert d.many and d.min == d.max == 3 and len(d.options) == 6
    values = [g.rules.card_attrs[c]["value"] for c in d.values]
    # options alike share a group number
    assert all((d.keys[i] == d.keys[j]) == (values[i] == values[j]) for i in range(6) for j in range(6))
    two_alike = [i for i in range(6) if values[i] == 1][:2] + [values.index(2)]
    with pytest.raises(IllegalAnswer, match="are alike: choose at most one of them"):
        g.apply(two_alike, player=0)
    assert g.pending  # refused, nothing changed
    g.apply([values.index(3), values.index(1), values.index(2)], player=0)
    assert g.counter("out") == [1, 2, 3]


def test_distinct_bounds_the_count_by_the_kinds_there_are(tmp_path):
    rules = rules_with(tmp_path, procedures="""
        t: |
          choose xs from deck pick up to 5 by 0 distinct c -> c.colour
          out = len(xs)
        """)
    (d,) = Game.scenario(rules, 2, run="t").pending
    assert (d.min, d.max) == (1, 2)  # two colours


def test_distinct_needs_a_choice_of_several(tmp_path):
    msgs = errors(tmp_path, procedures="t: |\n  choose x from deck by 0 distinct c -> c.value")
    assert any("'distinct' is for a choice of several" in m for m in msgs), msgs


def test_bots_answer_distinct_choices_legally(tmp_path):
    rules = sorted_rules(tmp_path)
    g = Game.scenario(rules, 2, run="t")
    (d,) = g.pending
    pick = random_picker(random.Random(5).random)
    for _ in range(200):
        a = pick(len(d.values), d.min, d.max, True, d.keys)
        assert len(a) == 3 and len({d.keys[i] for i in a}) == 3
    answers = answers_of(d, random.Random(1))
    assert answers and all(len({d.keys[i] for i in a}) == len(a) == 3 for a in answers)
    assert len(answers) == 2 * 2 * 2  # one of the two cards of each value
    for seed in range(20):  # autoplay with a pick, direct or not: always a legal answer
        for direct in (False, True):
            h = Game.new(rules, 2, seed=seed, start=False)
            h.autoplay(pick=random_picker(random.Random(seed).random), direct=direct)
            assert h.counter("out") == [1, 2, 3]


def test_choose_hint_says_what_an_option_would_do_as_each_player_may_read_it(tmp_path):
    rules = rules_with(tmp_path, procedures="""
        t: |
          shuffle deck
          move top(deck) to hand[0]
          choose c from deck by 0 prompt "Take a card?" hint "{c.value + gold[0]} gold, then {top(hand[0])}"
          gold[0] = c.value
        """)
    g = Game.new(rules, 2, seed=1)
    d = g.pending[0]
    for o in d.options:
        assert o.label == g.rules.card_labels[o.value] or o.label == "a face-down card"
        assert o.hint.startswith(f"{g.rules.card_attrs[o.value]['value']} gold, then ")
    # the card in hand reads as seat 0 knows it, in the hint as anywhere
    hand = [c for c in g.state.z[rules.layout.zone_names(2).index("hand[0]")]][0]
    assert d.options[0].hint.endswith(rules.card_labels[hand])
    view = g.view(0)["decisions"][0]["options"][0]
    assert view["hint"] == d.options[0].hint
    g.apply(0, player=0)
    assert g.over


def test_a_choose_without_hint_has_options_without_one(tmp_path):
    rules = rules_with(tmp_path, procedures="""
        t: |
          choose c from [1, 2] by 0 label "take {c}"
          gold[0] = c
        """)
    g = Game.new(rules, 1, seed=1)
    assert [(o.label, o.hint) for o in g.pending[0].options] == [("take 1", None), ("take 2", None)]
    assert "hint" not in g.view(0)["decisions"][0]["options"][0]


def test_a_hint_is_checked_like_a_label(tmp_path):
    errs = errors(tmp_path, procedures="""
        t: |
          choose c from [1, 2] by 0 hint "{gold_x[0]}"
        """)
    assert any("unknown name 'gold_x'" in e for e in errs), errs


def test_slot_name_gives_the_procedure_a_slots_key_calls(tmp_path):
    rules = rules_with(tmp_path, procedures="""
        t: |
          choose d from colours by 0 label "the {slot_name(power, d)}"
          power[d](0)
        """)
    g = Game.new(rules, 1, seed=1)
    assert [o.label for o in g.pending[0].options] == ["the red power", "the blue power"]


def test_slot_name_needs_a_slot(tmp_path):
    errs = errors(tmp_path, procedures="""
        t: |
          log "{slot_name(colours, 1)}"
        """)
    assert any("'slot_name' takes a slot's name and a key" in e for e in errs), errs
