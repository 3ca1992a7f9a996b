"""A sample relabels only the values that hold a card the seat does not know (bots/places.py,
docs/performance.md "Fourth pass"): a decision's options made of the deciding seat's own hand are
the same in every one of its samples; another seat, which does not know those cards, sees them
relabelled in its samples."""
from __future__ import annotations

import random

from jux.interpreter.bots.places import carriers, hidden
from jux.interpreter.bots.sample import InfoSet, unknown_places
from jux.interpreter.engine.game import Game
from jux.interpreter.engine.ruleset import load_ruleset
from jux.interpreter.runtime.state import Card


def _position():
    """Capital Jux, 4 players, seed 1, after 8 random answers: a seat choosing among its own cards."""
    from jux.interpreter.bots import make_bot

    g = Game.new(load_ruleset("capital_jux"), 4, 1, log=False)
    rng = random.Random(1)
    for _ in range(8):
        d = g.next_decision()
        d.answer(make_bot("random", rng.randrange(1 << 30)).choose(None, d))
    return g, g.next_decision()


def _cards(x) -> set:
    if type(x) is Card:
        return {x}
    if type(x) in (list, tuple):
        return set().union(*map(_cards, x)) if x else set()
    return set()


def test_options_of_known_cards_are_not_relabelled_and_unknown_ones_are():
    g, d = _position()
    S = g.state
    t = next(t for t in S.threads if t[2] is not None and t[6] == d.id)
    cards = _cards(t[2][1])
    assert cards and all(S.k[c] >> d.player & 1 for c in cards)  # (its own cards)
    ti = S.threads.index(t)
    assert carriers(S)[1][ti][1]  # (they hold cards)
    assert not carriers(S, hidden(unknown_places(g, d.player)))[1][ti][1]  # (none the seat does not know)
    info = InfoSet(g, d.player)
    for r in range(10):
        s = info.sample(random.Random(r))
        assert s.state.threads[ti][2][1] == t[2][1]
    other = next(p for p in range(S.n) if not any(S.k[c] >> p & 1 for c in cards))
    assert carriers(S, hidden(unknown_places(g, other)))[1][ti][1]
    info = InfoSet(g, other)
    seen = set()
    for r in range(20):
        s = info.sample(random.Random(r))
        T = s.state
        opts = T.threads[ti][2][1]
        # relabelled with the zones: each option's card lies where the real one lies
        assert [T.loc[c] for c in _cards_in_order(opts)] == [S.loc[c] for c in _cards_in_order(t[2][1])]
        seen.add(repr(opts))
    assert len(seen) > 1


def _cards_in_order(x) -> list:
    if type(x) is Card:
        return [x]
    if type(x) in (list, tuple):
        return [c for v in x for c in _cards_in_order(v)]
    return []
