"""Small modal dialogs: a yes/no question, a file path, and the load dialog (the saves folder's
saves, newest first, or a path typed)."""
from __future__ import annotations

import time

from rich.text import Text
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Input, OptionList, Static
from textual.widgets.option_list import Option

from .closing import ClosesOnce, if_open


class ConfirmScreen(ClosesOnce, ModalScreen):
    """A question answered yes (y, Enter on Yes) or no (n, Escape)."""

    BINDINGS = [Binding("y", "answer(True)", "Yes"), Binding("n,escape", "answer(False)", "No")]

    def __init__(self, question: str, yes: str = "Yes", no: str = "No") -> None:
        super().__init__()
        self.question = question
        self.yes_label = yes
        self.no_label = no

    def compose(self):
        with Vertical(classes="dialog"):
            yield Static(self.question, classes="question", markup=False)
            with Horizontal(classes="buttons"):
                yield Button(f"{self.yes_label} (y)", id="yes", variant="error")
                yield Button(f"{self.no_label} (n)", id="no", variant="primary")

    @if_open
    def on_mount(self) -> None:
        self.query_one("#no", Button).focus()

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "yes")


class PathScreen(ClosesOnce, ModalScreen):
    """Ask for a file path; dismissed with the path, or None on Escape."""

    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, title: str, value: str = "") -> None:
        super().__init__()
        self.title_text = title
        self.value = value

    def compose(self):
        with Vertical(classes="dialog"):
            yield Static(self.title_text, classes="question")
            yield Input(value=self.value, id="path")
            yield Static("Enter: OK   Escape: cancel", classes="hint")

    @if_open
    def on_mount(self) -> None:
        self.query_one(Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.dismiss(event.value.strip() or None)

    def action_cancel(self) -> None:
        self.dismiss(None)


class LoadScreen(PathScreen):
    """Load a game: the saves of the saves folder, newest first (ruleset, tiles, players, round,
    when saved), or the path of a save elsewhere typed in the field. Enter loads the highlighted
    save when nothing is typed, else the path typed; up and down move in the list. Dismissed
    with a path, or None (Escape)."""

    DEFAULT_CSS = """
    LoadScreen {
        align: center middle;
    }
    LoadScreen #saves {
        height: auto;
        margin-bottom: 1;
    }
    LoadScreen #no-saves {
        color: $text-muted;
        margin-bottom: 1;
    }
    """

    BINDINGS = [Binding("escape", "cancel", "Cancel"),
                Binding("up", "move(-1)", "Up", show=False),
                Binding("down", "move(1)", "Down", show=False)]

    def __init__(self, title: str = "Load a game", saves: list | None = None, folder=None,
                 value: str = "") -> None:
        """saves: SaveInfos (session.list_saves), newest first; folder: where they are (shown)."""
        super().__init__(title, value)
        self.saves = list(saves or [])
        self.folder = folder

    def compose(self):
        with Vertical(classes="dialog"):
            yield Static(self.title_text, classes="question", markup=False)
            where = f" in {self.folder}" if self.folder is not None else ""
            if self.saves:
                yield Static(Text(f"Saved games{where}, newest first:"), classes="hint")
                yield OptionList(*[self._option(i, s) for i, s in enumerate(self.saves)], id="saves")
            else:
                yield Static(Text(f"No saved games yet{where}."), id="no-saves")
            yield Input(value=self.value, id="path",
                        placeholder="or type the path of a save or game record elsewhere")
            yield Static("↑↓: choose   Enter: load (the path typed, if any)   Escape: cancel",
                         classes="hint")

    @staticmethod
    def _option(i: int, s) -> Option:
        when = time.strftime("%Y-%m-%d %H:%M", time.localtime(s.mtime))
        if s.error is not None:
            text = Text(f"{s.path.name}: unreadable ({s.error})", style="dim")
            return Option(text, id=f"save-{i}", disabled=True)
        text = Text(s.title, style="bold")
        if s.tiles:
            text.append(" · tiles: " + ", ".join(s.tiles))
        text.append(f"\n  {s.players} player{'s' if s.players != 1 else ''} · {s.progress}"
                    f" · saved {when} · {s.path.name}", style="dim")
        return Option(text, id=f"save-{i}")

    @if_open
    def on_mount(self) -> None:
        box = self.query_one(".dialog")
        box.styles.width = 90  # wider than the other dialogs (their width is the stylesheet's)
        self.query_one(Input).focus()
        if self.saves:
            ol = self.query_one(OptionList)
            first = next((i for i, s in enumerate(self.saves) if s.error is None), None)
            ol.highlighted = first
            ol.styles.height = min(len(self.saves) * 2 + 2, 6)  # until the lines are measured
            self.call_after_refresh(self._fit_list)

    def on_resize(self, event) -> None:
        if self.saves:
            self.call_after_refresh(self._fit_list)

    def _fit_list(self) -> None:
        """The list as tall as its lines, at most about half the screen (a parent of auto height
        would otherwise grow to the whole list, past the screen's bottom)."""
        ol = self.query_one(OptionList)
        lines = ol.virtual_size.height
        if not lines:
            return
        most = max(4, self.size.height - 14)
        height = min(lines + 2, most)
        if ol.styles.height is None or ol.styles.height.value != height:
            ol.styles.height = height
            if ol.highlighted is not None:
                self.call_after_refresh(ol.scroll_to_highlight)

    def action_move(self, step: int) -> None:
        if not self.saves:
            return
        ol = self.query_one(OptionList)
        if step < 0:
            ol.action_cursor_up()
        else:
            ol.action_cursor_down()

    def _highlighted(self):
        if not self.saves:
            return None
        i = self.query_one(OptionList).highlighted
        if i is None or not 0 <= i < len(self.saves) or self.saves[i].error is not None:
            return None
        return self.saves[i]

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        event.prevent_default()  # (PathScreen's handler would dismiss a second time)
        typed = event.value.strip()
        if typed:
            self.dismiss(typed)
            return
        s = self._highlighted()
        if s is not None:
            self.dismiss(str(s.path))

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        i = event.option_index
        if 0 <= i < len(self.saves) and self.saves[i].error is None:
            self.dismiss(str(self.saves[i].path))
