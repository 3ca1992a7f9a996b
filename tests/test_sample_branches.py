"""Which branch a secret number chose is not in a bot's sample (issue 39; docs/bots.md step 6).

Where the rules wait tells which way the tests on the way there went: rules that wait, in a
branch a sealed bid chose, at a decision that reads the same in either branch, would show that
branch to the samples of every seat. A sample of a seat that may not know such a test makes that
thread a dead end (its decision has no option, or, the seat's own, it fails once answered); the
seat a counter `visible: owner` belongs to knows its own tests and keeps its thread."""
from __future__ import annotations

import random

import pytest
from test_sample_secrets import DECIDE, FLOWS_HEAD, PROCEDURES, check_twins, rules_of

from jux.interpreter.bots import make_bot
from jux.interpreter.bots.sample import InfoSet, determinize
from jux.interpreter.engine.game import Game

# seat 1's sealed bid (`visible: none`: no seat knows it) sends the rules one way or the other
FLOWS = {
    "a decision": "if bid[1] > 1 {\nDECIDE\npoints[0] += 1\n} else {\nDECIDE\npoints[0] += 2\n}",
    "a procedure that waits": "if bid[1] > 1 { ask(1) } else { ask(2) }",
    "a loop's rounds": "let n = 0\nwhile n < 3 {\nn += 1\nif bid[1] == n { break }\nDECIDE\n}",
}
# each seat's chips (`visible: owner`) are its own sealed bid: its own test, which only it knows
# (read directly, through a local set once, or through a function of the seat)
OWN = """\
for p in players { chips[p] = bid[p] }
simultaneously for q in players {
  let c = chips[q]
  if TEST {
    choose keep from ["point", "pass"] by q prompt "Take a point?" label "{keep}"
    points[q] += 1
  } else {
    choose keep from ["point", "pass"] by q prompt "Take a point?" label "{keep}"
    points[q] += 2
  }
}"""


def branch_rules(tmp, name: str, body: str, functions: str = "", procedures: str = "", zones: str = ""):
    """The rules of flow body (DECIDE: each seat's decision in turn), with more functions,
    procedures and zones (YAML lines of those sections)."""
    head = FLOWS_HEAD.replace("%s}", "}", 2).replace(
        "  score(p): points[p]\n", "  score(p): points[p]\n  rich(p): chips[p] > 1\n" + functions).replace(
        "  bid: {start: 0, per: player, visible: none}\n",
        "  bid: {start: 0, per: player, visible: none}\n  chips: {start: 0, per: player, visible: owner}\n").replace(
        "  shown: {visible: all}\n", "  shown: {visible: all}\n" + zones)
    lines = body.replace("DECIDE", DECIDE).splitlines()
    text = head.replace("%s\n", "\n".join("    " + line for line in lines) + "\n", 1)
    text += PROCEDURES.replace("    DECIDE", "\n".join("    " + line for line in DECIDE.splitlines())) + procedures
    return rules_of(tmp / name.replace(" ", "_").replace("'", ""), text)


def bids(rules, *bid):
    g = Game.new(rules, len(bid), 1)
    for p, b in enumerate(bid):
        g.apply(b, player=p)
    return g


def test_a_branch_a_sealed_bid_chose_is_not_in_the_samples(tmp_path):
    """Two games alike but for seat 1's sealed bid wait at the same-looking decision in one
    branch or the other: their samples are the same (they were not: the frame's resume point
    and what follows from it told the bid)."""
    for name, body in FLOWS.items():
        assert check_twins(branch_rules(tmp_path, name, body), 3, range(8), 1, tries=6) > 50, name


@pytest.mark.parametrize("test", ["chips[q] > 1", "c > 1", "rich(q)"])
def test_the_owner_of_the_secret_keeps_its_own_branch(tmp_path, test):
    """Each seat's test reads its own chips: its own samples keep its thread as it is (it knows
    which way it went), the other seats' samples make it a dead end."""
    rules = branch_rules(tmp_path, "own", OWN.replace("TEST", test))
    assert rules.any_branch
    g = bids(rules, 0, 2, 3)
    assert sorted(d.player for d in g.pending) == [0, 1, 2]
    for seat in range(3):
        s = determinize(g, seat, random.Random(0))
        for t in s.state.threads:
            if t[2] is None:
                continue
            dead = t[0][-1][0] == rules.dead_end
            assert dead == (t[2][0] != seat), (seat, t[2][0])
            assert len(t[2][1]) == (2 if t[2][0] == seat else 0)  # (another seat's: a dead end, no option)
    assert check_twins(rules, 3, range(6), 1, tries=6) > 30


def test_bots_answer_at_a_decision_whose_branch_they_may_not_know(tmp_path):
    """Seat 0 decides in a branch seat 1's sealed bid chose: its own decision is the same in either
    branch, every sample fails once it is answered, and the bots still answer (a legal option)."""
    rules = branch_rules(tmp_path, "a decision", FLOWS["a decision"])
    g = bids(rules, 1, 3, 0)
    d = g.pending[0]
    assert d.player == 0 and d.prompt == "Take a point?"
    s = determinize(g, 0, random.Random(0))
    t = s.state.threads[0]
    assert t[0] == [[rules.dead_end, 0, []]] and t[2][1] == ["point", "pass"]
    for spec in ("greedy", "ismcts:iterations=40"):
        bot = make_bot(spec, seed=1)
        assert bot.choose(InfoSet(g, 0), d) in (0, 1)


@pytest.mark.parametrize("test", ["sum(chips[x] for x in players) > 3", "chips[(q + 1) % 3] > 1", "bid[q] > 1"])
def test_a_branch_that_reads_what_the_seat_may_not_know_is_a_dead_end_in_its_own_samples(tmp_path, test):
    """A test of every seat's chips, of another seat's, or of a sealed bid: no seat knows which way
    every thread went, so each is a dead end in every seat's samples, its own included."""
    rules = branch_rules(tmp_path, "theirs", OWN.replace("TEST", test))
    g = bids(rules, 0, 2, 3)
    for seat in range(3):
        s = determinize(g, seat, random.Random(0))
        assert all(t[0] == [[rules.dead_end, 0, []]] for t in s.state.threads if t[2] is not None)


# a card's attribute: of a card a local holds (drawn face down: no seat knows it), of a seat's
# own hand (only that seat knows it)
CARDS = {
    "a card no seat sees": "let c = top(deck)\nif c.value > 3 {\nDECIDE\npoints[0] += 1\n} else {\nDECIDE\npoints[0] += 2\n}",
    "a hand": ("simultaneously for q in players {\n  if any(c.value > 4 for c in hand[q]) {\n"
               "    choose keep from [\"point\", \"pass\"] by q prompt \"Take a point?\" label \"{keep}\"\n"
               "    points[q] += 1\n  } else {\n"
               "    choose keep from [\"point\", \"pass\"] by q prompt \"Take a point?\" label \"{keep}\"\n"
               "    points[q] += 2\n  }\n}"),
}


@pytest.mark.parametrize("name", sorted(CARDS))
def test_a_branch_a_card_chose_is_not_in_the_samples_of_a_seat_that_does_not_know_it(tmp_path, name):
    """A test of the card a local holds is known to the seats that know that card; a test of a
    seat's own hand to that seat: the others' samples make the thread a dead end, and two games
    alike but for those cards give the same samples."""
    rules = branch_rules(tmp_path, name, CARDS[name])
    assert check_twins(rules, 3, range(8), 1, tries=6) > 50
    g = bids(rules, 0, 0, 0)
    for seat in range(3):
        s = determinize(g, seat, random.Random(0))
        for t in s.state.threads:
            if t[2] is not None:
                dead = t[0][-1][0] == rules.dead_end
                assert dead == (name == "a card no seat sees" or t[2][0] != seat), (seat, t[2][0])


def test_a_card_test_no_seat_can_be_named_for_keeps_only_the_deciding_seats_own_thread(tmp_path):
    """`top(deck).value` (no local holds the card): the analysis cannot name who knows it. Another
    seat's thread there is a dead end in a seat's samples; the seat's own is kept (the limit of
    docs/bots.md: such tests in the three games read cards every seat has seen)."""
    body = CARDS["a hand"].replace("any(c.value > 4 for c in hand[q])", "top(deck).value > 3")
    rules = branch_rules(tmp_path, "top", body)
    g = bids(rules, 0, 0, 0)
    for seat in range(3):
        s = determinize(g, seat, random.Random(0))
        for t in s.state.threads:
            if t[2] is not None:
                assert (t[0][-1][0] == rules.dead_end) == (t[2][0] != seat), (seat, t[2][0])
