"""Undo's rule, for every place that offers it (the terminal UI's Session, a server's table): a
seat's last answer is taken back with every answer after it, unless that would hide again what was
learnt since: the random generator moved (a shuffle or a random draw) or the seat came to know a
card it did not know. No knowledge of any game."""
from __future__ import annotations


class UndoRefused(Exception):
    """An undo that is not allowed; the message says why, in words for the player."""


NOTHING = "Nothing to undo: you have not decided anything yet."
OVER = "The game is over."


def last_answer(answers: list, seat: int) -> int | None:
    """The index of seat's last answer among answers [(seat, choice), ...], or None."""
    return next((i for i in range(len(answers) - 1, -1, -1) if answers[i][0] == seat), None)


def learnt_since(before: tuple, now: tuple, seat: int) -> str | None:
    """Why the game cannot go back from now to before, each (its state's random generator, each
    card's knowers), for seat (words for the player), or None when nothing was learnt since: the
    same random generator, and no card the seat knows now that it did not know then."""
    if before[0] != now[0]:
        return "Cannot undo: something was shuffled or drawn at random since your last decision."
    bit = 1 << seat
    if any(not k0 & bit and k1 & bit for k0, k1 in zip(before[1], now[1])):
        return "Cannot undo: you have seen a hidden card since your last decision."
    return None


def undo_plan(game, seat: int, rules=None) -> tuple:
    """(the game just before seat's last answer, how many answers that takes back), replayed from
    the game's record; UndoRefused (words for the player) when undo's rule refuses."""
    from ..errors import JuxError
    from .game import Game

    if game.over:  # (taking back the last answer would un-end a finished game)
        raise UndoRefused(OVER)
    answers = game.answers
    last = last_answer(answers, seat)
    if last is None:
        raise UndoRefused(NOTHING)
    record = game.record()
    record["answers"] = [list(a) for a in answers[:last]]
    try:
        before = Game.from_record(record, rules=rules or game.rules)
    except JuxError as e:  # (a game made through Python with names a record cannot hold)
        raise UndoRefused(f"Cannot undo: {e}") from None
    why = learnt_since((before.state.rng, before.state.k), (game.state.rng, game.state.k), seat)
    if why:
        raise UndoRefused(why)
    return before, len(answers) - last


__all__ = ["UndoRefused", "NOTHING", "OVER", "last_answer", "learnt_since", "undo_plan"]
