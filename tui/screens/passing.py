"""The pass screen: covers the table while the keyboard goes from one human to another."""
from __future__ import annotations

from rich.markup import escape
from rich.text import Text
from textual.binding import Binding
from textual.containers import Center, Middle
from textual.screen import Screen
from textual.widgets import Button, Static

from .closing import ClosesOnce, if_open


class PassScreen(ClosesOnce, Screen):
    """Shows no game information but whose turn comes; Enter (or the button) reveals the table."""

    BINDINGS = [Binding("enter", "ready", "I am ready", show=True)]

    def __init__(self) -> None:
        super().__init__()
        self.target: int | None = None
        self.name_of_target = ""
        self._ready = False

    def compose(self):
        with Middle():
            with Center():
                yield Static("Waiting for the other players…", id="pass-message")
            with Center():
                yield Button("Show my table (Enter)", id="ready", variant="primary", disabled=True)

    def set_target(self, seat: int, name: str) -> None:
        self.target = seat
        self.name_of_target = name
        if self._ready:
            self._show()

    @if_open
    def on_mount(self) -> None:
        self._ready = True
        if self.target is not None:
            self._show()

    def _show(self) -> None:
        name = self.name_of_target
        self.query_one("#pass-message", Static).update(  # (a name is never markup)
            Text(f"Pass the keyboard to {name}.\n\n{name}: press Enter when the others cannot see the screen."))
        b = self.query_one("#ready", Button)
        b.label = escape(f"I am {name}: show my table (Enter)")
        b.disabled = False
        b.focus()

    def action_ready(self) -> None:
        if self.target is not None:
            self.dismiss(self.target)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.action_ready()
