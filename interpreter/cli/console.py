"""What the `jux` commands print: one-line errors, tables' numbers, the progress bar of games, a
game as text. Names, paths and rule texts are printed as written, never read as Rich markup."""
from __future__ import annotations

import sys

PROG = "jux"


def console(stderr: bool = False, markup: bool = True):
    """A Rich console; markup=False: texts (names, rule texts, paths) are printed as written unless
    a print asks for markup (and escapes what it puts in it)."""
    from rich.console import Console

    return Console(stderr=stderr, highlight=False, markup=markup)


def err(message: str) -> None:
    print(f"{PROG}: {message}", file=sys.stderr)


def print_error(e) -> None:
    """An error (a JuxError) as one line each: rule errors carry their own path:line:col prefix."""
    from ..errors import RuleError, RuleErrors

    if isinstance(e, RuleErrors):
        for one in e.errors:
            print(str(one), file=sys.stderr)
    elif isinstance(e, RuleError) and e.pos:
        print(str(e), file=sys.stderr)
    else:
        for line in str(e).splitlines() or [type(e).__name__]:
            err(line)


def fmt(x, digits: int = 2) -> str:
    if x is None:
        return "-"
    if isinstance(x, float):
        return f"{x:.{digits}f}"
    return str(x)


def games_progress():
    """A progress bar of games on stderr (games done, rate, time, time left); the task's
    `rate` field is the games per second text."""
    from rich.progress import (BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn,
                               TimeRemainingColumn)

    columns = [TextColumn("{task.description}", style="bold", markup=False), BarColumn(), MofNCompleteColumn(),
               TextColumn("games"), TextColumn("{task.fields[rate]}"),
               TimeElapsedColumn(), TextColumn("eta"), TimeRemainingColumn()]
    return Progress(*columns, console=console(stderr=True), transient=True)


def names_list(game, seats) -> str:
    names = [game.names[p] for p in seats]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def tie_broken(game, scores: list, winner: int) -> str:
    """", tied with X; the tie-break (coins) decides: 3 against 2" when others had the winner's
    score, else "". The value shown is the first the winner and the last of them to fall differ in."""
    tied = [p for p in range(len(scores)) if p != winner and scores[p] == scores[winner]]
    if not tied:
        return ""
    ties, labels = game.tiebreaks(), game.tiebreak_labels()
    mine = ties[winner]

    def differs(p):
        return next((i for i, (a, b) in enumerate(zip(mine, ties[p])) if a != b), None)
    deciding = max((i for i in map(differs, tied) if i is not None), default=None)
    if deciding is None:
        return f", tied with {names_list(game, tied)}"
    label = labels[deciding] if deciding < len(labels) and labels[deciding] else ""
    last = [p for p in tied if differs(p) == deciding]
    return (f", tied with {names_list(game, tied)}; the tie-break{f' ({label})' if label else ''} decides: "
            f"{mine[deciding]} against {', '.join(str(ties[p][deciding]) for p in last)}")


def standing_text(game, viewer: int, p: int) -> str:
    """Seat p's standing before the end as seat viewer may know it, as the table shows it: the
    ruleset's standing(p) summed, '?' for a part the viewer may not see ('score 12 + ?: cards 12,
    chips ?'); '?' alone when the ruleset gives no standing (its score may read what the viewer
    may not see)."""
    standing = game.standing(viewer)
    if standing is None:
        return "?"
    parts = standing[p]

    def secret(v) -> bool:
        return isinstance(v, dict) and v.get("hidden") is True

    numbers = [v for _, v in parts if isinstance(v, (int, float)) and not isinstance(v, bool)]
    hidden = sum(1 for _, v in parts if secret(v))
    said = ", ".join(f"{name} {'?' if secret(v) else v}".strip() for name, v in parts)
    if numbers and len(numbers) + hidden == len(parts):
        head = f"score {sum(numbers)}" + (" + ?" if hidden else "")
    elif hidden and hidden == len(parts):
        head = "score ?"
    else:
        return said
    return head + (f": {said}" if len(parts) > 1 else "")


def print_game(game, about: str, viewer=None) -> None:
    """A game as text: its title and `about`, the log (as the viewer knows it), the scores (for a
    viewer before the end, each seat's standing as the viewer may know it) and the winner (or
    who the game waits for). Names and rule texts are never read as markup."""
    from rich.markup import escape
    from rich.table import Table
    from rich.text import Text

    out = console()
    out.print(f"[bold]{escape(game.rules.title)}[/]: {escape(about)}", soft_wrap=True)
    for line in game.log_lines(viewer):
        out.print(line, markup=False, soft_wrap=True)
    out.print()
    seat = viewer is not None and not game.over  # (at the end every seat sees every score)
    scores = game.scores if not seat else [standing_text(game, viewer, p) for p in range(game.state.n)]
    t = Table(title="Final scores" if game.over else "Standings so far" if seat else "Scores so far",
              title_justify="left")
    t.add_column("Seat", justify="right")
    t.add_column("Player")
    t.add_column("Standing" if seat else "Score", justify="left" if seat else "right")
    for p in range(game.state.n):  # seats numbered from 1 for people (records keep theirs from 0)
        t.add_row(str(p + 1), Text(game.names[p]), Text(str(scores[p])))
    out.print(t)
    if game.over:
        w = game.winners
        lowest = " (the lowest score wins)" if game.rules.lowest_wins else ""
        if len(w) == 1:
            out.print(f"Winner: {game.names[w[0]]} (seat {w[0] + 1}) with {scores[w[0]]}{lowest}"
                      f"{tie_broken(game, scores, w[0])}", markup=False, soft_wrap=True)
        else:
            out.print(f"Complete tie between {names_list(game, w)} with {scores[w[0]]}{lowest}", markup=False)
    else:
        waiting = sorted({d.player for d in game.pending})
        out.print(f"The record stops before the end of the game: waiting for {names_list(game, waiting)}.",
                  markup=False)
