"""Errors that carry a place in a rule file, and the list of them a load reports."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Pos:
    """A place in a rule file: path, 1-based line and column."""

    file: str
    line: int
    col: int

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.col}"


class JuxError(Exception):
    """Any error jux reports to a user as a one-line message (no traceback)."""


class RuleError(JuxError):
    """One problem at one place in a rule file."""

    def __init__(self, pos: Pos | None, message: str):
        self.pos = pos
        self.message = message
        super().__init__(str(self))

    def __str__(self) -> str:
        return f"{self.pos}: {self.message}" if self.pos else self.message


class RuleErrors(JuxError):
    """All the problems found in a set of rule files, reported at once."""

    def __init__(self, errors: list[RuleError]):
        self.errors = sorted(errors, key=lambda e: (e.pos.file, e.pos.line, e.pos.col) if e.pos else ("", 0, 0))
        super().__init__("\n".join(str(e) for e in self.errors))


class IllegalAnswer(JuxError):
    """An answer that is not one of the legal options; the game is unchanged."""


class RecordError(JuxError):
    """A game record or save that cannot be replayed or loaded."""


class DecisionLimit(JuxError):
    """A game still not over when it asked for more answers than autoplay's limit allowed
    (Game.autoplay(direct=True, limit=N)): the game is left where the limit stopped it."""


class StepBudgetExceeded(JuxError):
    """An effect ran too long without stopping at a decision: probably an endless loop."""


def did_you_mean(name: str, known) -> str:
    import difflib

    close = difflib.get_close_matches(name, sorted(set(known)), n=1, cutoff=0.6)
    return f" (did you mean '{close[0]}'?)" if close else ""
