"""The shortcuts the moves take for who knows which card give what the card-by-card rules give.

runtime/plans.py works out, per pair of zones, what a move has to do (an int: the card's new
knowers and nothing else; a tuple; a whole zone's bits), and runtime/moves.py skips work by S.o
(for each zone, the seats that may know one of its cards beyond those that see it) and keeps
S.fresh small. The reference here plays the same games with a zone table whose every move is the
card-by-card rule of docs/language.md, "Knowledge that follows the card" (moves.py _followed:
the seats that see the new zone, those that could follow the card, the cards left mixed; a whole
zone's cards keep their knowers and gain the seats that see the new zone; a shuffle leaves the
seats that see the zone), and an S.o that says every seat may know every card: every seat's
knowledge must be the same at every decision. bench/knowledge.py checks many more games against
the engine before a change.
"""
from __future__ import annotations

import pytest

from jux.interpreter.bots import seat_seed
from jux.interpreter.bots.random_bot import random_picker, seeded
from jux.interpreter.engine.game import Game
from jux.interpreter.engine.ruleset import load_ruleset
from jux.interpreter.runtime.plans import DROP, FRESH, GAIN, GROW, KEEP, TOP
from jux.interpreter.runtime.state import ZoneTable

TILES = [("infiltrator", "doomsayer", "aristocrat", "convertor"), ("agent", "mentalist", "dualist", "sentinel"),
         ("outsider", "cleric", "discoverer", "follower"), ("recruiter", "missionary", "scholar", "merchant")]


class EveryoneMayKnow(list):
    """An S.o that never lets a move skip work: every seat may know every card of every zone."""

    def __getitem__(self, i):
        return -1 if type(i) is int else EveryoneMayKnow(list.__getitem__(self, i))

    def __setitem__(self, i, value):
        pass


def card_by_card(vis) -> ZoneTable:
    """vis with every move done card by card (no plan) and every whole zone's move doing it all."""
    ref = ZoneTable(vis)
    for name in ZoneTable.__slots__:
        setattr(ref, name, getattr(vis, name))
    n = len(vis)
    ref.plan = [[None] * n for _ in range(n)]
    ref.whole = [[KEEP | GAIN | GROW | (FRESH if vis.mixable[zi] else 0) | (TOP if zi in vis.top else 0)
                  | (DROP if vis.drop[zi] else 0) for zi in range(n)] for _ in range(n)]
    ref.blind = None
    return ref


def knowledge(rules, players: int, seed: int, direct: bool, reference: bool) -> list:
    """Who knows which card, and where each card is, at every decision of a random-bot game."""
    game = Game.new(rules, players, seed, start=False)
    if reference:
        game.state.vis = card_by_card(game.state.vis)
        game.state.o = EveryoneMayKnow(game.state.o)
    seen = []
    picks = []
    for p in range(players):
        inner = random_picker(seeded(seat_seed(seed, p)).random)

        def pick(n, lo, hi, many, keys=None, inner=inner):
            seen.append((game.state.k[:], game.state.loc[:]))
            return inner(n, lo, hi, many, keys)
        picks.append(pick)
    game.autoplay(pick=picks, direct=direct, limit=3000)
    seen.append((game.state.k[:], game.state.loc[:]))
    return seen


@pytest.mark.parametrize("name,tiles,players,games", [
    ("capital_jux", (), 4, 4), ("capital_jux", (), 2, 2), ("capital_jux", TILES[0], 3, 2),
    ("capital_jux", TILES[1], 4, 2), ("capital_jux", TILES[2], 4, 2), ("capital_jux", TILES[3], 3, 2),
    ("guildhall", (), 3, 1), ("bruges", (), 2, 1), ("tests/data/blind_draft", (), 3, 3),
    ("docs/examples/market_swap", (), 3, 3), ("docs/examples/discard_pile", (), 2, 3),
    ("docs/examples/secret_bids", (), 3, 3)])
def test_the_moves_know_what_the_card_by_card_rules_know(name, tiles, players, games):
    rules = load_ruleset(name, list(tiles))
    for seed in range(games):
        for direct in (True, False):
            assert knowledge(rules, players, seed, direct, False) == knowledge(rules, players, seed, direct, True), \
                (name, tiles, players, seed, direct)
