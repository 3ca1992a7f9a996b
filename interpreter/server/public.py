"""The `state` a table's spectators are sent (docs/protocol.md, "Spectators"), made once per change
of the table for all of them rather than once per spectator: the engine's view for no seat
(views.PUBLIC) written as JSON once, and the table's public log lines kept in one list. Each
spectator's frame is that text with the log lines and notices it was not sent yet, made when its
connection is ready to send it: a spectator whose connection is behind gets the latest state in
place of the ones it did not take (its log lines still all come, in order). Nothing here knows a
game."""
from __future__ import annotations

from ..engine.views import PUBLIC
from .messages import results
from .protocol import dumps, message
from .store import OPEN


class Public:
    """One position of a table as its spectators see it. `head` is the frame's JSON but its log and
    notices, without its closing brace, in UTF-8 (encoded once for all of them); `log` the table's public log lines (a new list after an
    undo), of which the first `lines` are this position's; `notices` the table's, the first
    `notice_count` this position's. Made under the table's lock; read-only after."""

    __slots__ = ("head", "log", "lines", "notices", "notice_count")

    def __init__(self, head: str, log: list, lines: int, notices: list, notice_count: int):
        self.head, self.log, self.lines, self.notices, self.notice_count = head, log, lines, notices, notice_count


def public_state(table) -> Public:
    """The table's position now, for every spectator (its public log brought up to date once)."""
    game = table.game
    lines, table.public_events = game.log_since(PUBLIC, table.public_events)
    table.public_log.extend(lines)
    view = game.view(PUBLIC, log=False)
    view.pop("decisions")  # (always empty for PUBLIC)
    over = game.over
    head = dumps(message("state", view=view, decisions=[], seats=table.seat_list(), over=over,
                         started=table.state != OPEN, undo=False, undo_refusal=table.undo_refusal(None),
                         timer_left=None, **(results(game) if over else {})))
    return Public(head[:-1].encode(), table.public_log, len(table.public_log), table.notices, len(table.notices))


def spectator_frame(public: Public, client) -> bytes:
    """The frame of this position for one spectator, in UTF-8: the log lines and notices it was not
    sent (all of them the first time; after an undo, the rewound game's whole log with `log_reset`)."""
    if client.public_log is public.log:
        start, reset = client.sent_log, False
    else:
        start, reset = 0, client.public_log is not None
    tail = {"log": public.log[start:public.lines], "notices": public.notices[client.sent_notices:public.notice_count]}
    if reset:
        tail["log_reset"] = True
    client.public_log, client.sent_log, client.sent_notices = public.log, public.lines, public.notice_count
    return public.head + b"," + dumps(tail)[1:].encode()


__all__ = ["Public", "public_state", "spectator_frame"]
