"""The game screen's log pane: the log as it grows, kept at its end and wrapped again when its width changes."""
from __future__ import annotations

from textual.message import Message
from textual.widgets import RichLog


class GameLog(RichLog):
    """The log; when it gets shorter (the decision panel above it grew) while its last line was in
    sight, it stays at its end."""

    _height = 0
    _width = 0

    def on_resize(self, event) -> None:
        was_at_end = self.scroll_y >= self.virtual_size.height - self._height - 1
        self._height = event.size.height
        if self._width and event.size.width != self._width:  # lines are wrapped as written: again
            self.post_message(self.Rewrap())
        self._width = event.size.width
        if was_at_end:
            self.scroll_end(animate=False, immediate=True, x_axis=False)

    class Rewrap(Message):
        """The log's width changed: its lines are to be written again, wrapped at the new width."""
