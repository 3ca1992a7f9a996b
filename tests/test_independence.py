"""Independent threads (interpreter/compiler/independence.py): which `simultaneously` blocks may run thread
by thread when Game.autoplay answers with a pick, and that they then leave the same game."""
from __future__ import annotations

import random
import re

import pytest

from jux.interpreter.bots.random_bot import random_picker
from jux.interpreter.compiler.layout import make_layout
from jux.interpreter.engine.game import Game
from jux.interpreter.errors import IllegalAnswer
from jux.interpreter.compiler.independence import bound_outside, independent
from jux.interpreter.language.tree import Simultaneously, walk
from jux.interpreter.language.parse import parse_block

from test_language import SRC, ruleset

# the line the compiler makes of independent threads run one by one in one loop (direct.py: the
# thread in T while they run)
INDEPENDENT = re.compile(r"^ *_T, T = T, _t$", re.M)


@pytest.fixture(scope="module")
def spec(tmp_path_factory):
    return ruleset(tmp_path_factory.mktemp("ind"), "n += 1").spec


def verdict(spec, code: str, outer=()) -> bool:
    (s,) = parse_block(code, SRC)
    return independent(s, make_layout(spec), spec, set(outer))


@pytest.mark.parametrize("body", [
    "choose c from hand[p] by p\n move c to hand[p]",
    "let k = min(2, len(hand[p]))\n if k > 0 { choose cs from hand[p] pick k by p prompt \"{k}\"\n move cs to hand[p] }",
    "choose c from deck by p\n gold[p] += c.value",  # reads a shared zone nobody writes
    "choose x from [1, 2] by p\n gold[p] = gold[p] + x + n + limit",
    "let cs = [c for c in hand[p] if c.value > 1]\n for c in cs { move c to hand[p] }",
    "move hand[p] to hand[p]",
    "choose a from [1, 2] by p\n choose b from hand[p] by p optional\n gold[p] += a",
])
def test_threads_that_touch_only_their_own_are_independent(spec, body):
    assert verdict(spec, f"simultaneously for p in players {{\n {body}\n}}")
    assert verdict(spec, f"simultaneously for p in turn_order(0) {{\n {body}\n}}")


@pytest.mark.parametrize("body, why", [
    ("choose c from deck by p\n move c to hand[p]", "takes a card from a shared zone"),
    ("move top(deck) to hand[p]", "takes a card from a shared zone"),
    ("choose c from hand[p] by p\n move c to table", "writes a shared zone"),
    ("n += 1", "writes a global counter"),
    ("gold[next_seat(p)] += 1", "writes another seat's counter"),
    ("gold[p] = len(hand[next_seat(p)])", "reads another seat's zone"),
    ("gold[p] = gold[next_seat(p)]", "reads another seat's counter"),
    ("choose c from hand[p] by p\n log \"{c}\"", "logs"),
    ("gold[p] = random([1, 2])", "draws chance"),
    ("gold[p] = double(1)", "calls a function"),
    ("choose c from hand[p] by p\n t()", "calls a procedure"),
    ("shuffle hand[p]", "shuffles"),
    ("draw 1 from deck to hand[p]", "draws"),
    ("choose c from hand[p] by p\n set c.tapped = true", "sets a mark"),
    ("let c = top(hand[p])\n while len(hand[p]) > 0 { move c to hand[p]\n c = top(deck) }",
     "a loop takes a card from a shared zone on its second turn"),
    ("p = 0\n move hand[p] to hand[p]", "the seat is not its own any more"),
])
def test_threads_that_touch_what_others_may_are_not(spec, body, why):
    assert not verdict(spec, f"simultaneously for p in players {{\n {body}\n}}"), why


def test_the_items_must_be_distinct_seats_and_outer_locals_may_hold_anything(spec):
    assert not verdict(spec, "simultaneously for p in [0, 1] { gold[p] += 1 }")
    assert verdict(spec, "simultaneously for p in players { move c to hand[p] }") is False  # c: unknown
    assert not verdict(spec, "simultaneously for p in players { move c to hand[p] }", outer={"c"})
    (routine,) = [parse_block("let c = top(deck)\n simultaneously for p in players {\n let c = top(hand[p])\n"
                              " move c to hand[p]\n}", SRC)]
    (s,) = [n for n in walk(routine) if isinstance(n, Simultaneously)]
    assert bound_outside(routine, ("q",), s) == {"q", "c"}
    assert not independent(s, make_layout(spec), spec, bound_outside(routine, ("q",), s))  # c may be the deck's
    assert independent(s, make_layout(spec), spec, {"q"})


DRAFTS = """
    draft()
    out = [gold[p] for p in players]
"""


def _picked_both_ways(rules, players, seed):
    games = []
    for direct in (False, True):
        g = Game.new(rules, players, seed)
        rnd = random.Random(seed).random
        g.autoplay(pick=random_picker(rnd), direct=direct)
        games.append(g)
    return games


def test_independent_threads_run_alone_leave_the_same_game(tmp_path):
    """With a pick and direct=True an independent block runs thread by thread (its Q function):
    the same answers, in the same order, state, log and first player as the driver gives."""
    rules = ruleset(tmp_path, DRAFTS, extra="""
        draft(): |
          for r in range(2) {
            simultaneously for p in players {
              let k = min(2, len(hand[p]))
              choose a from [1, 2, 3] by p
              gold[p] += a
              if k > 0 {
                choose cs from hand[p] pick k by p prompt "keep {k}"
                move cs to hand[p]
              }
              choose b from [c.value for c in deck] by p optional
              if b != none { gold[p] += b * 10 }
            }
            for p in players { draw 2 from deck to hand[p] }
          }
          choose last from [1, 2] by 1
    """)
    assert INDEPENDENT.search(rules._c["source"])
    for seed in range(8):
        ref, g = _picked_both_ways(rules, 2 + seed % 3, seed)
        assert g.over and g.answers == ref.answers and len(g.answers) > 10
        assert g.state.same_as(ref.state) and g.log_lines() == ref.log_lines()
        assert g.first_player == ref.first_player == 1  # set by the last choose, not in the threads


def test_threads_that_are_not_independent_still_wait_for_each_other(tmp_path):
    """Each thread takes the top card of the deck after its choice: run one after another, the
    second would take before the first had. Such a block keeps the driver's order with a pick."""
    rules = ruleset(tmp_path, DRAFTS, extra="""
        draft(): |
          simultaneously for p in players {
            gold[p] = len(deck)
            choose a from [1, 2] by p
            move top(deck) to hand[p]
          }
    """)
    assert not INDEPENDENT.search(rules._c["source"])
    for seed in range(3):
        ref, g = _picked_both_ways(rules, 3, seed)
        assert g.answers == ref.answers and g.state.same_as(ref.state)
        assert g.counter("out") == [6, 6, 6]  # every thread looked before any took a card


def test_picks_in_threads_run_alone_are_refused_or_taken_as_apply_takes_them(tmp_path):
    rules = ruleset(tmp_path, DRAFTS, extra="""
        draft(): |
          simultaneously for p in players {
            choose a from [1, 2, 3] by p
            choose cs from hand[p] pick 2 by p
            move cs to hand[p]
          }
    """)
    assert INDEPENDENT.search(rules._c["source"])
    zones = {"hand[0]": ["red 1", "red 2", "red 3"], "hand[1]": ["blue 1", "blue 2", "blue 3"]}

    def game():
        return Game.scenario(rules, 2, zones=zones, run="t")

    g = game()
    with pytest.raises(IllegalAnswer) as e:
        g.autoplay(pick=lambda n, lo, hi, many: [1, 1] if many else 0, direct=True)
    assert e.value.answer == [1, 1] and e.value.player == 0 and "twice" in str(e.value)
    ref, g = game(), game()
    ref.autoplay(pick=lambda n, lo, hi, many: [2, 0] if many else 1, direct=True)
    g.autoplay(pick=lambda n, lo, hi, many: (2, 0) if many else 1, direct=True)  # a tuple, as apply takes it
    assert g.answers == ref.answers == [[0, 1], [0, [2, 0]], [1, 1], [1, [2, 0]]]
    assert g.state.same_as(ref.state)
