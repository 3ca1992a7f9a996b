"""PromptBox: the decision panel's prompt (tui/widgets/decision.py), with the lines of what cannot
be chosen and why, in a box of the rows the panel can give it; when they are fewer than its lines it
scrolls. The panel gives it the focus (Up on the list's first line); then Up and Down scroll it, and
Down at its end, Escape, Enter or Tab give the focus back to the list (PromptBox.Done).
"""
from __future__ import annotations

from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.message import Message


class PromptBox(VerticalScroll, can_focus=False):
    BINDINGS = [
        Binding("down", "down", show=False),
        Binding("escape,enter,tab", "done", show=False),
    ]

    class Done(Message):
        """The focus goes back to the list."""

    class Moved(Message):
        """The box scrolled."""

    def action_down(self) -> None:
        if self.scroll_y >= self.max_scroll_y:
            self.action_done()
        else:
            self.scroll_down(animate=False, immediate=True)

    def action_done(self) -> None:
        self.post_message(self.Done())

    def on_focus(self) -> None:
        self.post_message(self.Moved())

    def on_blur(self) -> None:
        self.post_message(self.Moved())

    def watch_scroll_y(self, old_value: float, new_value: float) -> None:
        super().watch_scroll_y(old_value, new_value)
        if round(old_value) != round(new_value):
            self.post_message(self.Moved())

    def lines_after(self) -> int:
        """Its lines below the box's window."""
        return max(0, self.virtual_size.height - self.scrollable_content_region.height - round(self.scroll_y))
