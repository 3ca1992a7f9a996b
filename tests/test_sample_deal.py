"""A sample's deal (bots/sample.py, docs/performance.md "Fifth pass"): the cards shuffled by the
same random numbers as before, in the same order, and the buried cards dealt the same way."""
from __future__ import annotations

import random

from jux.interpreter.bots.sample import shuffled


def _by_index(cards: list, rnd) -> list:
    """The shuffle as it was: an index sorted by a list of random keys, then the cards looked up."""
    keys = [rnd() for _ in cards]
    return [cards[i] for i in sorted(range(len(cards)), key=keys.__getitem__)]


def test_shuffled_draws_the_same_numbers_and_gives_the_same_order():
    for n in (0, 1, 2, 3, 33, 154):
        cards = list(range(100, 100 + n))
        for seed in range(5):
            a, b = random.Random(seed), random.Random(seed)
            got = shuffled(cards, a.random)
            want = cards[:] if n < 2 else _by_index(cards, b.random)
            assert got == want
            assert a.random() == b.random()  # (as many numbers drawn: none for fewer than 2 cards)
            assert cards == list(range(100, 100 + n))  # (the list given is left as it was)


def _positions(ruleset: str, steps=(8, 40)):
    from jux.interpreter.bots import make_bot
    from jux.interpreter.engine.game import Game
    from jux.interpreter.engine.ruleset import load_ruleset

    rules = load_ruleset(ruleset)
    for n in steps:
        g = Game.new(rules, 4, 1, log=False)
        rng = random.Random(1)
        for _ in range(n):
            d = g.next_decision()
            d.answer(make_bot("random", rng.randrange(1 << 30)).choose(None, d))
        yield g


def test_runs_of_places_next_to_each_other_with_their_masks():
    from jux.interpreter.bots.places import runs

    K = [0, 4, 4, 0, 2, 2]
    ps = [(0, 0, 0), (0, 1, 3), (0, 3, 1), (0, 4, 2), (2, 0, 4), (3, 0, 5)]
    assert runs(K, ps) == [(0, 0, 2, 0, 0, None), (0, 3, 5, 2, 4, None), (2, 0, 1, 4, 2, None),
                           (3, 0, 1, 5, 2, None)]
    assert runs([0, 1], [(1, 5, 0), (1, 6, 1)]) == [(1, 5, 7, 0, [0, 1], None)]  # (masks that differ: each its own)
    # the cards that would change zone or mask in a run, when fewer than half of those that may land there
    loc = [0, 0, 0, 0, 2, 3]
    assert runs(K, ps, loc, range(6)) == [(0, 0, 2, 0, 0, None), (0, 3, 5, 2, 4, None), (2, 0, 1, 4, 2, None),
                                          (3, 0, 1, 5, 2, None)]  # (4 of the 6 would change: all written)
    assert runs(K, ps[:2], loc, [0, 3, 1]) == [(0, 0, 2, 0, 0, frozenset({1}))]
    assert runs(K, []) == []


def test_a_deal_by_runs_gives_the_samples_a_deal_card_by_card_gives():
    """Buried draw piles (Bruges), a deck and hands (Guildhall, Capital Jux): the same zones, masks
    and places whether the places are laid by runs or card by card (and relabelled)."""
    from jux.interpreter.bots.sample import _determinize, facts_of, unknown_places

    laid = 0
    for ruleset in ("bruges", "guildhall", "capital_jux"):
        for g in _positions(ruleset):
            for seat in range(g.state.n):
                plan = unknown_places(g, seat)
                facts = facts_of(g, seat, plan)
                laid += facts[4] is not None
                for r in range(3):
                    a, _ = _determinize(g, seat, random.Random(r), plan, facts)
                    b, _ = _determinize(g, seat, random.Random(r), plan, facts[:4] + (None,))
                    A, B = a.state, b.state
                    assert (A.z, A.k, A.loc, A.m, A.v, A.rng) == (B.z, B.k, B.loc, B.m, B.v, B.rng)
                    assert [t[:3] for t in A.threads] == [t[:3] for t in B.threads]
    assert laid >= 12  # (most of those positions have no card the seat does not know outside the zones)


def test_no_runs_where_a_value_besides_the_zones_holds_an_unknown_card():
    """A pending decision's options of cards another seat holds: that seat's samples relabel them,
    so its places are dealt card by card."""
    from jux.interpreter.bots.places import dealt_by_runs
    from jux.interpreter.bots.sample import facts_of, unknown_places

    g = next(_positions("capital_jux", (8,)))
    d = g.next_decision()
    plan = unknown_places(g, d.player)
    assert dealt_by_runs(g.state, plan, facts_of(g, d.player, plan)[2]) is not None  # (its own hand)
    other = (d.player + 1) % g.state.n
    plan = unknown_places(g, other)
    assert facts_of(g, other, plan)[4] is None
