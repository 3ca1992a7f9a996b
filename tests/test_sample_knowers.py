"""Who knows a test that reads a card, followed through the rules (issue 39; docs/bots.md step 6).

Where the rules wait under a test of seat 1's hand, seat 1 knows which way the test went and
seat 0 does not: seat 0's samples make the thread a dead end, seat 1's keep it, even when seat 0
is the one deciding there. The analysis follows the test through what a procedure or a function
of several statements gives back, through a local set by several statements, through a
procedure's parameter (to what its caller gave it), and through cards taken from a list; a test
it still cannot name a seat for is taken as known to the deciding seat (the limit, checked last)."""
from __future__ import annotations

import random

import pytest
from test_sample_branches import DECIDE, bids, branch_rules
from test_sample_secrets import check_twins

from jux.interpreter.bots.sample import determinize

IF_HIGH = "if TEST {\nDECIDE\npoints[0] += 1\n} else {\nDECIDE\npoints[0] += 2\n}"
FLOWS = {
    "what a procedure gives back": "let l = level(1)\n" + IF_HIGH.replace("TEST", "l == 1"),
    "what a function of several statements gives back": "let l = high(1)\n" + IF_HIGH.replace("TEST", "l == 1"),
    "a local set by several statements": ("let l = 0\nfor c in hand[1] {\nif c.value > 4 { l = 1 }\n}\n"
                                          + IF_HIGH.replace("TEST", "l == 1")),
    "a procedure's parameter": "let l = level(1)\non_level(l)",
    "a card taken from a hand": "let cs = hand[1]\n" + IF_HIGH.replace("TEST", "first(cs).value > 4"),
    "a card chosen from a hand": ("choose c from hand[1] by 1 prompt \"Show a card\" label \"{c}\"\n"
                                  + IF_HIGH.replace("TEST", "c.value > 4")),
}
MORE = """\
  level(q): |
    if any(c.value > 4 for c in hand[q]) { return 1 }
    return 0
  on_level(x): |
INDENTED
"""
HIGH = """\
  high(q): |
    let n = count(c for c in hand[q] if c.value > 4)
    return if n > 0 then 1 else 0
  aside_total(): sum(c.value for c in aside)
  deep(n): 'if n <= 0 then top(deck).value else deep(n - 1)'
"""


def knowers_rules(tmp, name: str, body: str):
    inner = IF_HIGH.replace("TEST", "x == 1").replace("DECIDE", DECIDE)
    more = MORE.replace("INDENTED", "\n".join("    " + line for line in inner.splitlines()))
    return branch_rules(tmp, name, body, HIGH, more, "  aside: {visible: none}\n")


def waiting(g, seat):
    """Whether each thread with a decision of g is a dead end in a sample of seat."""
    s = determinize(g, seat, random.Random(0))
    return [t[0][-1][0] == g.rules.dead_end for t in s.state.threads if t[2] is not None]


@pytest.mark.parametrize("name", sorted(FLOWS))
def test_the_seat_that_knows_a_test_keeps_its_thread_and_the_others_do_not(tmp_path, name):
    """Seat 0 decides under a test of seat 1's hand: seat 1's samples keep the thread, seat 0's
    (and seat 2's) make it a dead end, and two games alike but for seat 1's hand give seat 0 the
    same samples. (Taken as known to the deciding seat, as before, seat 0 kept its thread: the
    twins' samples differed.)"""
    rules = knowers_rules(tmp_path, name, FLOWS[name])
    g = bids(rules, 0, 0, 0)
    if name == "a card chosen from a hand":
        g.apply(0, player=1)
    assert g.pending[0].player == 0 and g.pending[0].prompt == "Take a point?"
    assert waiting(g, 1) == [False]
    assert waiting(g, 0) == [True] and waiting(g, 2) == [True]
    assert check_twins(rules, 3, range(6), 1, tries=6) > 30


@pytest.mark.parametrize("revealed", [False, True])
def test_cards_of_a_zone_no_seat_sees_are_known_as_they_were_when_read(tmp_path, revealed):
    """A total over a face-down zone, worked out by a `let`: the seats that knew every card there
    as it ran know it (noted then). Revealed first, every seat keeps the thread (as Capital Jux's
    limits, read after the modifiers are revealed); not revealed, no seat does, the deciding one
    included."""
    reveal = "for c in aside { reveal c }\n" if revealed else ""
    body = "draw 2 from deck to aside\n" + reveal + "let t = aside_total()\n" + IF_HIGH.replace("TEST", "t > 6")
    rules = knowers_rules(tmp_path, f"aside{revealed}", body)
    assert "_known_all" in rules.source
    g = bids(rules, 0, 0, 0)
    assert g.pending[0].player == 0
    assert [waiting(g, seat) for seat in range(3)] == [[not revealed]] * 3
    assert check_twins(rules, 3, range(4), 1, tries=6) > 10


def test_a_card_no_seat_can_be_named_for_is_taken_as_known_to_the_deciding_seat(tmp_path):
    """The limit left (docs/bots.md): a test the analysis cannot follow (here through a function
    calling itself) cannot be named for any seat; the deciding seat keeps its thread, the others
    do not."""
    body = "let t = deep(2)\n" + IF_HIGH.replace("TEST", "t > 3")
    rules = knowers_rules(tmp_path, "deep", body)
    assert "_deciding" in rules.source
    g = bids(rules, 0, 0, 0)
    assert waiting(g, 0) == [False] and waiting(g, 1) == [True]
