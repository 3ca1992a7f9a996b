"""Labelled tie-breaks: `tiebreak(p)` may give (label, value) pairs. Only the values are compared,
so a labelled tie-break picks the same winners as the bare list it labels; the labels name the
final scores' columns."""
from __future__ import annotations

import random
import shutil
from pathlib import Path

import pytest

from jux.interpreter.engine.game import Game
from jux.interpreter.engine.ruleset import load_ruleset

RULES = Path(__file__).resolve().parent.parent / "rules"

# each game's tiebreak line, and the same tie-break written as a bare list (as before the labels)
BARE = {
    "capital_jux": '"[count(c for c in hometown[p] + bonus[p] if c.value == v) for v in [6, 5, 4, 3, 2, 1, 0]]"',
    "bruges": '"[guilders[p]]"',
}


def bare_copy(tmp_path, name) -> Path:
    """The game's rules with its tiebreak(p) written as a bare list of values."""
    folder = tmp_path / name
    shutil.copytree(RULES / name, folder)
    game = folder / "game.yaml"
    lines = game.read_text().splitlines(keepends=True)
    at = [i for i, line in enumerate(lines) if line.startswith("  tiebreak(p):")]
    assert len(at) == 1
    lines[at[0]] = f"  tiebreak(p): {BARE[name]}\n"
    game.write_text("".join(lines))
    return folder


def play(rules, players, seed, pick_seed):
    """A whole game where every decision is a fixed pseudo-random pick."""
    rng = random.Random(pick_seed)
    g = Game.new(rules, players, seed)
    while not g.over:
        d = g.pending[0]
        n = len(d.values)
        g.apply(sorted(rng.sample(range(n), d.min or 1)) if d.many else rng.randrange(n), decision=d.id)
    return g


def test_the_games_name_their_tie_break_values():
    assert Game.new(load_ruleset("capital_jux"), 3, 1).tiebreak_labels() == ["6s", "5s", "4s", "3s", "2s", "1s", "0s"]
    tiles = load_ruleset("capital_jux", ("outsider", "sentinel"))
    assert Game.new(tiles, 3, 1).tiebreak_labels() == ["6s", "5s", "4s", "3s", "2s", "1s", "0s"]
    assert Game.new(load_ruleset("bruges"), 3, 1).tiebreak_labels() == ["guilders"]
    guildhall = Game.new(load_ruleset("guildhall"), 3, 1)  # its rules give no tie-break
    assert guildhall.tiebreak_labels() == [] and guildhall.tiebreaks() == [[], [], []]


@pytest.mark.parametrize("name, players, games", [("capital_jux", 4, 12), ("capital_jux", 2, 12), ("bruges", 4, 4)])
def test_labels_change_no_value_and_no_winner(tmp_path, name, players, games):
    labelled = load_ruleset(name)
    bare = load_ruleset(bare_copy(tmp_path, name))
    bare_game = Game.new(bare, players, 1)
    assert bare_game.tiebreak_labels() == [""] * len(bare_game.tiebreaks()[0])
    ties = 0
    for seed in range(games):
        a, b = play(labelled, players, seed, seed), play(bare, players, seed, seed)
        assert a.answers == b.answers and a.scores == b.scores
        assert a.tiebreaks() == b.tiebreaks()
        assert all(type(v) is int for t in a.tiebreaks() for v in t)  # values, no labels
        assert a.winners == b.winners
        # the winners are the seats with the best (score, tie-break values)
        keys = [(s, t) for s, t in zip(a.scores, a.tiebreaks())]
        assert a.winners == [p for p, k in enumerate(keys) if k == max(keys)]
        ties += len([s for s in a.scores if s == max(a.scores)]) > 1
    if name == "capital_jux" and players == 4:
        assert ties  # the games include a tie on score, which the tie-break decided


def test_a_tie_on_score_goes_to_the_better_labelled_values():
    g = play(load_ruleset("capital_jux"), 4, 2, 2)
    values = g.tiebreaks()
    assert len(set(map(tuple, values))) > 1
    best = max(values)
    assert g.winners_by([50] * 4) == [p for p in range(4) if values[p] == best]
    assert g.winners_by([50, 51, 50, 50]) == [1]


def test_a_tie_break_of_one_value_or_one_pair_alone_is_a_list_of_one():
    from jux.interpreter.engine.game import _tie_values

    assert _tie_values([("6s", 2), ("5s", 0)]) == [2, 0]
    assert _tie_values([3, ("guilders", 4)]) == [3, 4]
    assert _tie_values(("guilders", 4)) == [4] and _tie_values(7) == [7]


WAYS = """\
game: {name: ways, title: Ways, players: {min: 3, max: 3}, winner: WINNER}
cards: {c: {label: "c {v}", attributes: {v: [1]}}}
zones: {deck: {visible: all, start: [c]}}
counters:
  coins: {per: player, start: 0}
  held: {per: player, start: 0}
functions:
  score(p): "0"
  tiebreak(p): '[("coins", coins[p]), ("cards in hand", held[p], "lowest")]'
flow: |
  log "over"
"""


@pytest.mark.parametrize("winner", ["highest", "lowest"])
def test_a_tie_break_entry_may_say_its_own_way(tmp_path, winner):
    """("cards in hand", n, "lowest"): the fewest wins for that value, whatever the others do; the
    values are shown as they are, and the final screen's note says each way."""
    from jux.tui.screens.gameover import tiebreak_note

    (tmp_path / "game.yaml").write_text(WAYS.replace("WINNER", winner))
    rules = load_ruleset(tmp_path)
    # seats 0 and 1 tie on coins in either way; seat 1 holds fewer cards
    coins = [5, 5, 9] if winner == "highest" else [1, 1, 0]
    g = Game.scenario(rules, 3, counters={"coins": coins, "held": [4, 2, 1]})
    assert g.over and g.scores == [0, 0, 0]
    assert g.tiebreaks() == [[coins[0], 4], [coins[1], 2], [coins[2], 1]]  # as they are, never negated
    lowest_first = winner == "lowest"
    assert g.tiebreak_lowest() == [lowest_first, True]
    if winner == "highest":  # seat 2 has the most coins
        assert g.winners == [2] and g.ranking() == [2, 1, 0]
        assert tiebreak_note(g) == "A tie on score goes to the most coins, then the fewest cards in hand."
    else:  # seat 2 has the fewest coins
        assert g.winners == [2] and g.ranking() == [2, 1, 0]
        assert tiebreak_note(g) == "A tie on score goes to the fewest coins, then cards in hand, in order."
    g = Game.scenario(rules, 3, counters={"coins": [3, 3, 3], "held": [4, 2, 2]})
    assert g.winners == [1, 2] and g.ranking() == [1, 2, 0]  # the fewest cards, shared
