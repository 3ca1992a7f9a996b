"""The game screen's status line: the ruleset, the time left for this seat's decision (a server's
table with a turn timer), who you are (or that you watch), who is connected (remote play), who is to
play, whether the game is saved. What matters most comes first: at 80 columns a long line is cut at
its end."""
from __future__ import annotations

import math

from rich.text import Text


def clock(seconds: float) -> str:
    """Seconds left as m:ss (whole seconds, rounded up: 0:00 only once the time is up)."""
    whole = max(0, math.ceil(seconds))
    return f"{whole // 60}:{whole % 60:02d}"


def status_line(g, viewer, covered: bool, watching: bool) -> Text:
    """The line for session g, drawn for the seat at the keyboard (viewer; covered: the table is
    hidden while the keyboard changes hands; watching: a spectator of a server's table)."""
    names = g.names
    status = Text(f" {g.rules.title}", style="bold")
    left = None if g.over else g.time_left()
    if left is not None:  # (first: a long line is cut at its end)
        status.append(f"  ·  time left {clock(left)}", style="bold red" if left < 10 else "bold")
    if watching:
        status.append("  ·  you are watching")
    elif viewer is not None and not covered:  # (before the others: a line cut at 80 columns keeps it)
        status.append(f"  ·  you are {names[viewer]}")
    if g.status():  # remote play: who is away, or that the connection is coming back
        status.append(f"  ·  {g.status()}", style="italic")
    if g.over:
        status.append("  ·  game over")
    else:
        waiting = sorted({d.player for d in g.pending})
        status.append("  ·  to play: " + ", ".join(names[p] for p in waiting))
    if (viewer is None or covered) and not g.humans and g.local:
        status.append("  ·  watching (all seats are bots)")
    if g.dirty:
        status.append("  ·  unsaved", style="italic")
    return status
