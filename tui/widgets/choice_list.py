"""ChoiceList: the decision panel's list of lines (tui/widgets/decision.py), an OptionList where
Enter confirms and a click (or space) toggles in multi-pick mode; and the ids of its lines.

The highlight never wraps: Down on the last line stays there (a decline or a confirm line, last,
is never left for the first option by one key too many), Up on the first line asks the panel to
show what is above the list (ChoiceList.Top). The list says how many of its lines are out of
sight above and below (beyond), and tells the panel when that may have changed (Moved).
"""
from __future__ import annotations

from textual import _widget_navigation as navigation
from textual.binding import Binding
from textual.message import Message
from textual.widgets import OptionList

DECLINE = "decline"
CONFIRM = "confirm"
BACK = "back"
ROW = "row-"  # and the line's index from 0: a numbered line


class ChoiceList(OptionList):
    """An OptionList where Enter confirms and a click (or space) toggles in multi-pick mode."""

    BINDINGS = [
        Binding("enter", "confirm", "Choose", show=False),
        Binding("space", "toggle", "Toggle", show=False),
    ]

    class Confirm(Message):
        pass

    class Top(Message):
        """Up was pressed on the first line."""

    class Moved(Message):
        """The list scrolled: the lines out of sight may be others."""

    class Toggle(Message):
        def __init__(self, index: int) -> None:
            super().__init__()
            self.index = index

    many = False

    def action_confirm(self) -> None:
        if self.many:
            self.post_message(self.Confirm())
        else:
            self.action_select()

    def action_toggle(self) -> None:
        if self.many and self.highlighted is not None and self.get_option_at_index(self.highlighted).id != CONFIRM:
            self.post_message(self.Toggle(self.highlighted))

    def action_cursor_up(self) -> None:
        up = navigation.find_next_enabled_no_wrap(self.options, anchor=self.highlighted, direction=-1)
        if up is None or up == self.highlighted:
            self.post_message(self.Top())
        else:
            self.highlighted = up

    def action_cursor_down(self) -> None:
        down = navigation.find_next_enabled_no_wrap(self.options, anchor=self.highlighted, direction=1)
        if down is not None:
            self.highlighted = down

    def watch_scroll_y(self, old_value: float, new_value: float) -> None:
        super().watch_scroll_y(old_value, new_value)
        if round(old_value) != round(new_value):
            self.post_message(self.Moved())

    def beyond(self) -> tuple[int, int]:
        """How many lines (options, each maybe wrapped on several rows) are wholly out of sight:
        above the list's window, and below it (a line partly in sight is not counted)."""
        height = self.scrollable_content_region.height
        if not self.option_count or height <= 0:
            return 0, 0
        top = round(self.scroll_y)
        bottom = top + height
        rows, heights = self._index_to_line, self._heights
        above = sum(1 for i in range(self.option_count) if rows.get(i, 0) + heights.get(i, 1) <= top)
        below = sum(1 for i in range(self.option_count) if rows.get(i, 0) >= bottom)
        return above, below
