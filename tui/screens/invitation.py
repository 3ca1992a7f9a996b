"""The invitation screen: the codes of a table just made at a server (one per human seat, the host's
own too, and the spectator code), for the host to pass on and to come back to their own seat; Enter
goes to the table (the host's own seat). The game screen opens it again on a key (i)."""
from __future__ import annotations

from rich.text import Text
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.screen import Screen
from textual.widgets import Button, Footer, Static

from .closing import ClosesOnce, if_open


def invitation_text(hosted) -> Text:
    """The table's codes in words: who plays with which code, how they join, the spectator code."""
    out = Text()
    out.append(f"Table {hosted.table} at {hosted.url}\n\n", style="bold")
    if hosted.failed:
        out.append(f"Your seat could not be joined ({hosted.failed}): join it with its code below.\n\n",
                   style="bold red")
    mine = hosted.seat
    for seat, code in sorted(hosted.codes.items()):
        who = f"{hosted.names[seat]} (seat {seat + 1})" if seat < len(hosted.names) else f"seat {seat + 1}"
        if seat == mine:  # (shown too: the host comes back to their seat with it)
            out.append(f"{who}: you (your own code, to come back to your seat)\n", style="italic")
        else:
            out.append(f"{who}:\n")
        out.append(f"  {code}\n", style="bold")
    out.append("Spectators:\n")
    out.append(f"  {hosted.spectate}\n", style="bold")
    out.append("\nEach player joins with their code: on the start screen of\n"
               f"  jux play --server {hosted.url}\nor with\n  jux join CODE --server {hosted.url}",
               style="dim")
    return out


class InvitationScreen(ClosesOnce, Screen):
    DEFAULT_CSS = """
    #invitation { padding: 0 2; }
    #invitation-text { height: auto; margin-bottom: 1; }
    #invitation-buttons { height: auto; }
    """
    BINDINGS = [Binding("enter,escape", "done", "To the table")]

    def __init__(self, hosted) -> None:
        super().__init__()
        self.hosted = hosted

    def compose(self):
        with VerticalScroll(id="invitation"):
            yield Static(invitation_text(self.hosted), id="invitation-text")
            with Horizontal(id="invitation-buttons"):
                yield Button("To the table (Enter)" if self.hosted.session is not None else "Back (Enter)",
                         id="invitation-done", variant="primary")
        yield Footer()

    @if_open
    def on_mount(self) -> None:
        self.query_one("#invitation-done", Button).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.action_done()

    def action_done(self) -> None:
        self.dismiss(None)
