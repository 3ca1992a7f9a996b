"""ChoiceList: the decision panel's list of lines (tui/widgets/decision.py), an OptionList where
Enter confirms and a click (or space) toggles in multi-pick mode; and the ids of its lines.
"""
from __future__ import annotations

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
