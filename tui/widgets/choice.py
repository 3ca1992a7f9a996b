"""Choice: one value among a few options, on one line (the chosen option's label and ▼).

A light stand-in for Textual's Select where start-up time counts: one widget with no children (a
Select is six), and its list of options is made only when opened, as a small screen over the
current one. Enter, space, up/down or a click open the list; there up/down (or the mouse) move,
Enter or a click picks, Escape or a click outside closes it. Left/right step to the previous/next
option without opening the list. A new value posts a Choice.Changed message.
"""
from __future__ import annotations

from rich.cells import cell_len
from rich.text import Text
from textual import events
from textual.binding import Binding
from textual.message import Message
from textual.screen import ModalScreen
from textual.widget import Widget
from textual.widgets import Footer, OptionList
from ..screens.closing import ClosesOnce


class InvalidChoice(ValueError):
    """A value that is none of the options."""


class Choice(Widget, can_focus=True):
    COMPONENT_CLASSES = {"choice--arrow"}

    DEFAULT_CSS = """
    Choice {
        height: 1;
        width: 24;
        padding: 0 1;
        background: $boost;
        pointer: pointer;
    }
    Choice > .choice--arrow {
        color: $foreground 50%;
    }
    Choice:focus {
        background: $accent 40%;
        text-style: bold;
    }
    Choice:disabled {
        color: $text-disabled;
    }
    """

    BINDINGS = [
        Binding("enter,space,down,up", "open", "Show the options", show=False),
        Binding("left", "step(-1)", "Previous", show=False),
        Binding("right", "step(1)", "Next", show=False),
    ]

    class Changed(Message):
        """The value changed (by the user or by the program)."""

        def __init__(self, choice: "Choice", value) -> None:
            super().__init__()
            self.choice = choice
            self.value = value

        @property
        def control(self) -> "Choice":
            return self.choice

    def __init__(self, options, value=None, *, id: str | None = None, classes: str | None = None,
                 disabled: bool = False) -> None:
        """options: (label, value) pairs, at least one; value: the one chosen first (else the first)."""
        super().__init__(id=id, classes=classes, disabled=disabled)
        self._options: list = []
        self._value = self._set(options, value)

    # ------------------------------------------------------------ the options and the value

    @property
    def options(self) -> list:
        """(label, value) pairs."""
        return list(self._options)

    @property
    def value(self):
        return self._value

    @value.setter
    def value(self, value) -> None:
        if not any(v == value for _, v in self._options):
            raise InvalidChoice(f"{value!r} is none of the options of {self.id or 'this choice'}")
        self._change(value)

    def set_options(self, options) -> None:
        """New options; the value stays if it is one of them, else it becomes the first."""
        self._change(self._set(options, self._value))

    def _set(self, options, value):
        options = [(label if isinstance(label, (str, Text)) else str(label), v) for label, v in options]
        if not options:
            raise InvalidChoice("a choice needs at least one option")
        self._options = options
        if not any(v == value for _, v in options):
            value = options[0][1]
        if self.is_mounted:
            self.refresh(layout=True)
        return value

    def _change(self, value) -> None:
        if value == self._value:
            return
        self._value = value
        if self.is_mounted:
            self.refresh()
        self.post_message(self.Changed(self, value))

    @property
    def index(self) -> int:
        return next((i for i, (_, v) in enumerate(self._options) if v == self._value), 0)

    @property
    def label(self):
        return self._options[self.index][0]

    # ------------------------------------------------------------ drawing

    def render(self) -> Text:
        width = self.content_region.width or self.size.width
        label = self.label
        text = label.copy() if isinstance(label, Text) else Text(str(label))
        room = max(0, width - 2)
        if cell_len(text.plain) > room:
            text.truncate(room, overflow="ellipsis")
        text.pad_right(room - cell_len(text.plain))
        text.append(" ▼", style=self.get_component_rich_style("choice--arrow"))
        return text

    def get_content_width(self, container, viewport) -> int:
        return max(cell_len(label if isinstance(label, str) else label.plain) for label, _ in self._options) + 2

    # ------------------------------------------------------------ keys and mouse

    def action_step(self, delta: int) -> None:
        i = self.index + delta
        if 0 <= i < len(self._options):
            self._change(self._options[i][1])

    def action_open(self) -> None:
        if self.disabled or not self.is_mounted:
            return

        def picked(i) -> None:
            if i is not None and 0 <= i < len(self._options):
                self._change(self._options[i][1])
            if self.is_attached:
                self.focus()

        self.app.push_screen(ChoiceMenu(self), picked)

    async def _on_click(self, event: events.Click) -> None:
        event.stop()
        self.focus()
        self.action_open()


class ChoiceMenu(ClosesOnce, ModalScreen):
    """The options of a Choice in a list just under it (or over it, where there is no room below)."""

    DEFAULT_CSS = """
    ChoiceMenu {
        background: transparent;
    }
    ChoiceMenu > Footer {
        dock: bottom;
    }
    ChoiceMenu > OptionList {
        border: tall $accent;
        background: $surface;
        padding: 0;
        height: auto;
    }
    ChoiceMenu > OptionList > .option-list--option {
        padding: 0 1;
    }
    """

    BINDINGS = [Binding("escape", "close", "Close the list")]

    def __init__(self, choice: Choice) -> None:
        super().__init__()
        self.choice = choice

    def compose(self):
        choice = self.choice
        menu = OptionList(*[label for label, _ in choice.options])
        region = choice.region
        screen = choice.screen.size
        room = screen.height - 1  # the footer's line
        rows = min(len(choice.options), max(3, room - 4))
        height = rows + 2  # the border
        width = min(max(region.width, choice.get_content_width(None, None) + 4), screen.width)
        x = max(0, min(region.x, screen.width - width))
        below = region.y + 1
        y = below if below + height <= room or region.y < room // 2 else max(0, region.y - height)
        menu.styles.width = width
        menu.styles.max_height = max(3, min(height, room - y))
        menu.styles.offset = (x, y)
        yield menu
        yield Footer()

    def on_mount(self) -> None:
        menu = self.query_one(OptionList)
        menu.highlighted = self.choice.index
        menu.focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.dismiss(event.option_index)

    def action_close(self) -> None:
        self.dismiss(None)

    def on_click(self, event: events.Click) -> None:
        widget, _ = self.get_widget_at(event.screen_x, event.screen_y)
        if widget is self:  # outside the list
            self.dismiss(None)
