"""The greedy bot in a `simultaneously` block (issue 37): every seat picks a card at once, face
down, and the picks are turned up when all have picked (tests/data/blind_draft). Its score, the
bots' value(p), counts only the cards turned up.

The greedy bot values the position after its answer. In a copy of the game the seat's own thread
moves the pick face down at once, but the turn-up comes after the block, once every seat has
picked: only the seat that answered last saw its pick count, the others picked at random. Now
the other seats' pending picks are made at random on each copy (the same for every answer tried)
so the block ends and every seat sees its own pick count."""
from pathlib import Path

import pytest

from jux import Game, load_ruleset
from jux.interpreter.bots import make_bot
from jux.interpreter.bots.sample import InfoSet
from jux.interpreter.study.simulate import play

DRAFT = str(Path(__file__).resolve().parent / "data" / "blind_draft")


def value_of(label: str) -> int:
    return int(label.split()[1])


def greedy_answers(game, bots) -> list:
    """(seat, value picked, best value offered) of every greedy answer in the game."""
    again = Game.new(game.rules, game.state.n, game.seed)
    out = []
    for player, answer in game.answers:
        d = again.pending_for(player)[0]
        values = [value_of(o.label) for o in d.options]
        if bots[player] == "greedy":
            out.append((player, values[answer], max(values)))
        again.apply(answer, player=player)
    return out


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_greedy_seat_picks_its_best_card_in_a_simultaneous_pick(players):
    rules = load_ruleset(DRAFT)
    seen = set()
    for seed in range(12):
        for bots in (["greedy"] * players, ["random"] * (players - 1) + ["greedy"], ["greedy"] + ["random"] * (players - 1)):
            for seat, got, best in greedy_answers(play(rules, players, seed, bots), bots):
                assert got == best, f"seed {seed}, {bots}: seat {seat + 1} picked {got}, not {best}"
                seen.add(seat)
    assert seen == set(range(players))  # (every seat, the first to answer too)


def test_the_first_seat_to_answer_sees_its_pick_while_the_others_still_choose():
    """At the first pick every seat's decision is pending: seat 1 answers first, with the others'
    picks still to come, and picks its best card."""
    rules = load_ruleset(DRAFT)
    for seed in range(10):
        game = Game.new(rules, 3, seed)
        pending = game.pending
        assert [d.player for d in pending] == [0, 1, 2]
        d = pending[0]
        answer = make_bot("greedy", seed).choose(InfoSet(game, 0), d)
        values = [value_of(o.label) for o in d.options]
        assert values[answer] == max(values)


def test_greedy_scores_more_than_random_bots_in_the_draft():
    rules = load_ruleset(DRAFT)
    totals = [0, 0, 0]
    for seed in range(20):
        for p, s in enumerate(play(rules, 3, seed, ["greedy", "random", "random"]).scores):
            totals[p] += s
    assert totals[0] > 1.2 * max(totals[1:])
