"""bench/reference.py, the hand-written Capital Jux that jux's speed is measured against, plays
legal, complete base games of the same length as jux's."""
from __future__ import annotations

import ast
from collections import Counter
import importlib.util
from pathlib import Path
import random

import pytest

ROOT = Path(__file__).resolve().parent.parent
_spec = importlib.util.spec_from_file_location("bench_reference", ROOT / "bench" / "reference.py")
reference = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(reference)

STANDARD_DEAL = {2: 6, 3: 6, 4: 5}


def cards_of(state) -> Counter:
    """Every profession card of the game, wherever it lies."""
    cards = Counter(state["deck"])
    for d, values in enumerate(state["capital"]):
        cards.update(d * 8 + v for v in values)
    for town in state["home"]:
        for d, values in enumerate(town):
            cards.update(d * 8 + v for v in values)
    for zone in ("hands", "bonus"):
        for cs in state[zone]:
            cards.update(cs)
    cards.update(state["discard"])
    return cards


def tiebreak(state, p) -> list:
    values = [v for vs in state["home"][p] for v in vs] + [c & 7 for c in state["bonus"][p]]
    return [values.count(v) for v in (6, 5, 4, 3, 2, 1, 0)]


class Checker:
    """watch() for play_game: checks each event against the rules and counts what it saw."""

    def __init__(self, n, deck_left=None):
        self.n = n
        self.deck_left = deck_left  # cards to leave in the deck after round 2 (the rest discarded)
        self.events = []
        self.short_deals = 0
        self.last_start = None
        self.decisions = 0  # at the last event

    def __call__(self, event, s):
        n = self.n
        self.events.append(event)
        assert cards_of(s) == Counter(reference.DECK), event
        assert sorted(s["modifier_deck"] + [m for ms in s["above"] for m in ms]) == sorted(reference.MODIFIERS)
        assert s["pile"] >= 0 and min(s["gold"]) >= 0 and s["pile"] + sum(s["gold"]) == reference.GOLD
        if event == "hands":
            # every player is dealt the round's number (fewer, alike, from a short deck) and keeps it all
            k = min(STANDARD_DEAL[n], s["before"] // n)
            self.short_deals += k < STANDARD_DEAL[n]
            assert s["k"] == k and [len(h) for h in s["hands"]] == [k] * n
            assert len(s["deck"]) == s["before"] - n * k
            # a draft step asks each player holding a card: 2 of k, then 2 of k - 2 (ruling 5)
            assert s["decisions"] - self.decisions == n * (k >= 1) + n * (k >= 3)
            if s["round_no"] == 1:
                assert s["before"] == 71 and sum(map(len, s["capital"])) == 1
            else:  # the highest hometown starts; ties: the nearest from the last starter, themself first
                towns = [sum(map(sum, town)) for town in s["home"]]
                best = max(towns)
                order = [(self.last_start + i) % n for i in range(n)]
                assert s["start"] == next(p for p in order if towns[p] == best)
            self.last_start = s["start"]
        elif event == "round end":
            assert all(h == [] for h in s["hands"])
            assert all(len(s["above"][d]) <= 4 for d in range(4))
            if s["round_no"] == 2 and self.deck_left is not None:  # a short deck for round 3
                deck = s["deck"]
                s["discard"].extend(deck[:len(deck) - self.deck_left])
                del deck[:len(deck) - self.deck_left]
        elif event == "end":
            for p in range(n):  # hometown + bonus cards + gold
                town = sum(map(sum, s["home"][p]))
                assert s["scores"][p] == town + sum(c & 7 for c in s["bonus"][p]) + s["gold"][p]
            key = [(s["scores"][p], tiebreak(s, p)) for p in range(n)]
            assert s["winners"] == [p for p in range(n) if key[p] == max(key)]
        self.decisions = s["decisions"]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_games_are_legal_and_complete(players):
    short = 0
    for seed in range(150):
        check = Checker(players)
        scores, winners, decisions = reference.play_game(players, random.Random(seed), check)
        assert check.events == ["hands", "round end"] * 3 + ["end"]
        # at least: 2 draft picks a round each, and one decision a card played from the hand
        assert decisions >= 3 * players * 2 + 3 * players * (STANDARD_DEAL[players] - 1)
        assert winners and all(scores[p] == max(scores) for p in winners)
        short += check.short_deals
    if players == 2:  # 2 players draw the deck the lowest: no short deal
        assert short == 0


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("left", [0, 1, 5, 6, 9, 11])
def test_a_short_deck_deals_alike(players, left):
    """Round 3 may find the deck short (rare: with 4 players, a dozen scholar draws before): each
    player gets len(deck) // players cards, none when fewer than the players, and the round still
    ends (the cards are put short by discarding the rest of the deck after round 2)."""
    for seed in range(10):
        check = Checker(players, deck_left=left)
        reference.play_game(players, random.Random(seed), check)
        assert check.events == ["hands", "round end"] * 3 + ["end"]
        assert check.short_deals == 1


def test_the_same_seed_plays_the_same_game():
    a = [reference.play_game(3, random.Random(s)) for s in range(20)]
    b = list(reference.run_games(3, range(20)))
    assert a == b and len({tuple(r[0]) for r in a}) > 10


def test_the_simulator_imports_no_jux():
    """The reference is one file of plain Python: jux is imported only by the comparison."""
    tree = ast.parse((ROOT / "bench" / "reference.py").read_text())
    top = {a.name for node in tree.body if isinstance(node, ast.Import) for a in node.names}
    top |= {node.module for node in tree.body if isinstance(node, ast.ImportFrom)}
    assert top <= {"__future__", "argparse", "random", "statistics", "time"}


def test_as_many_decisions_a_game_as_jux():
    """Over 300 games at each player count, the reference's mean decisions a game is jux's within
    3% (1% is about 3 standard errors here; over 10,000 games they are within 0.1%)."""
    for players in (2, 3, 4):
        both = reference.compare(300, players)
        jux, ref = both["jux"], both["reference"]
        assert abs(ref["mean_decisions"] / jux["mean_decisions"] - 1) < 0.03, (players, both)


def test_ratio_reports_both_speeds():
    r = reference.ratio(batches=2, games=3, players=2)
    assert r["games"] == 6
    for key in ("jux_games_per_second", "reference_games_per_second", "jux_best_games_per_second",
                "reference_best_games_per_second"):
        assert r[key] > 0
    assert r["ratio"] == pytest.approx(r["jux_games_per_second"] / r["reference_games_per_second"])
