"""The start screen at a server (`jux play --server URL`): host a table of the ruleset, tiles and seats
the screen chooses (each seat human or a bot), with an optional turn timer, then show its codes and
play the host's own seat; or join a table with a code typed in (a seat's, or the spectator code to
watch). A mixin of StartScreen; the network is asked in a thread (tui/joining.py)."""
from __future__ import annotations

from rich.text import Text
from textual.containers import Horizontal
from textual.widgets import Button, Input, Label, Static
from .closing import still_open


class ServerPlay:
    """What StartScreen does at a server (self.app.server is its address)."""

    @property
    def server(self):
        return getattr(self.app, "server", None)

    def _timer_row(self):
        """The turn timer's field (instead of the seed and the bots' delay: the server keeps both)."""
        return Horizontal(Label("Timer", classes="label"),
                          Input(placeholder="none", id="timer", classes="timer"),
                          Label("seconds per decision (empty: no timer)", classes="hint"),
                          classes="row")

    def _join_rows(self):
        yield Static(Text("Or join a table with a code (a seat's, or the spectator code to watch):"),
                     classes="join-head")
        with Horizontal(classes="row"):
            yield Label("Code", classes="label")
            yield Input(placeholder="an invitation code", id="join-code", classes="code")
            yield Button("Join", id="join-button", classes="small")
        yield Static("", id="server-info")

    def _busy(self, note: str | None) -> None:
        """A request at a server is under way (note: what it is), or done (None). (Without --server
        only a rejoin asks one: its note goes where errors go.)"""
        for info in self.query("#server-info").results(Static):
            info.update(Text(note or ""))
        for b in self.query("#join-button, .rejoin").results(Button):
            b.disabled = note is not None
        self.query_one("#start-button", Button).disabled = note is not None or self.rules is None
        if note is not None:
            self.query_one("#start-error", Static).update("" if self.server else Text(note))

    def _host(self, seats: list) -> None:
        """Make the table of the rules and seats chosen, at the server, and join its first human seat."""
        from ...interpreter.errors import JuxError
        from ..joining import host, timer_seconds

        if self._asking:
            return
        err = self.query_one("#start-error", Static)
        try:
            timer = timer_seconds(self.query_one("#timer", Input).value)
        except JuxError as e:
            err.update(Text(str(e)))
            return
        if not any(s.human for s in seats):
            err.update("A table at a server has at least one human seat (yours).")
            return
        url, rules = self.server, self.rules
        self._busy(f"making the table at {url}…")
        self._ask(lambda: host(url, rules, seats, timer), self._hosted)

    def _join(self) -> None:
        from ..joining import join

        if self._asking:
            return
        code, url = self.query_one("#join-code", Input).value.strip(), self.server
        if not code:
            self.query_one("#start-error", Static).update("Type a table's code first.")
            return
        self._busy(f"joining at {url}…")
        self._ask(lambda: join(url, code), self.app.show_session)

    _asking = False  # a request at the server is under way: another (Enter again, ctrl+s) waits for it

    def _ask(self, work, then) -> None:
        """Run work (it blocks on the network) in a thread; then(its result), or its error in one line."""
        from ...interpreter.errors import JuxError

        self._asking = True

        def run():
            try:
                result, error = work(), None
            except JuxError as e:
                result, error = None, str(e)
            except Exception as e:  # a server that answers nonsense must not take the screen down
                result, error = None, f"{type(e).__name__}: {e}"
            self.app.call_from_thread(self._answered, then, result, error)

        self.run_worker(run, thread=True, exclusive=True, group="server")

    def _answered(self, then, result, error) -> None:
        self._asking = False
        if not still_open(self):
            return
        self._busy(None)
        if error is not None:
            self.query_one("#start-error", Static).update(Text(" ".join(error.split())))
            return
        then(result)

    def _hosted(self, hosted) -> None:
        """The table is made: its codes first (to pass on), then the host's seat."""
        from .invitation import InvitationScreen

        self.app.invitation = hosted
        self.app.push_screen(InvitationScreen(hosted), lambda _: self._to_table(hosted))

    def _to_table(self, hosted) -> None:
        """The host's own seat; or, when joining it failed, why, with the host's code typed in to try again."""
        if hosted.session is not None:
            self.app.show_session(hosted.session)
            return
        mine = hosted.codes[min(hosted.codes)]
        self.query_one("#join-code", Input).value = mine
        self.query_one("#start-error", Static).update(Text(
            f"The table {hosted.table} is made, but your seat could not be joined ({' '.join(hosted.failed.split())}): "
            "Join tries again with your code."))
