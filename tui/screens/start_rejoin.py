"""The start screen's Rejoin rows: the server tables this user hosted or joined (tui/known_tables.py),
newest first, one button each (ctrl+o: the newest), at any server (the entry knows its own). A
rejoin says `hello` with the seat's code in a thread (tui/joining.py); a code the server says is
bad takes its table off the list, with one line saying so. A mixin of StartScreen (with ServerPlay's _ask and _busy)."""
from __future__ import annotations

from rich.text import Text
from textual.containers import Vertical
from textual.widgets import Button, Static

SHOWN = 3  # the newest tables offered


class Rejoin:
    """What StartScreen does with the tables known (self.rejoinable)."""

    rejoinable: list = []

    def _rejoin_rows(self):
        from ..known_tables import read

        self.rejoinable, note = read()
        self.rejoinable = self.rejoinable[:SHOWN]
        with Vertical(id="rejoin") as box:
            box.display = bool(self.rejoinable or note)
            box.styles.height = "auto"
            box.styles.margin = (0, 0, 1, 0)
            yield Static(Text("Rejoin a table you hosted or joined:"), classes="rejoin-head")
            for i, t in enumerate(self.rejoinable):
                yield Button(t.label(), id=f"rejoin-{i}", classes="small rejoin")
            info = Static(Text(note or ""), id="rejoin-note")
            info.display = bool(note)
            yield info

    def action_rejoin(self) -> None:
        """ctrl+o: rejoin the newest table (the others: their buttons)."""
        if self.rejoinable and not self._asking:
            self._rejoin(self.rejoinable[0])

    def _rejoin_pressed(self, button_id: str) -> bool:
        """Rejoin the table of this button; False: no button of Rejoin's."""
        if not button_id.startswith("rejoin-") or not button_id[7:].isdigit():
            return False
        i = int(button_id[7:])
        if i < len(self.rejoinable) and not self._asking:
            self._rejoin(self.rejoinable[i])
        return True

    def _rejoin(self, t) -> None:
        from ...interpreter.errors import JuxError
        from ..joining import join
        from ..known_tables import forget

        def work():
            try:
                return join(t.url, t.code), None
            except JuxError as e:
                if ": bad_code: " not in str(e):
                    raise
                why = str(e).split(": bad_code: ", 1)[1]
                kept = forget(t.url, t.code)
                return None, (f"That table is gone ({why}): it is taken off the list."
                              + (f" ({kept})" if kept else ""))

        self._busy(f"joining at {t.url}…")
        self._ask(work, lambda result: self._rejoined(t, *result))

    def _rejoined(self, t, session, gone) -> None:
        from ..known_tables import read

        if session is None:
            self.query_one("#start-error", Static).update(Text(" ".join(gone.split())))
            self.rejoinable = [k for k in read()[0] if (k.url, k.code) != (t.url, t.code)][:SHOWN]
            self.query_one("#rejoin").display = bool(self.rejoinable)
            for i, b in enumerate(self.query(".rejoin").results(Button)):  # (the list as it is now)
                b.display = i < len(self.rejoinable)
                if i < len(self.rejoinable):
                    b.label = self.rejoinable[i].label()
            self.refresh_bindings()
            return
        if t.hosted and t.codes:  # (i in the game shows the codes again)
            from ..joining import Hosted

            self.app.invitation = Hosted(t.table, dict(t.codes), t.spectate, list(t.names), t.url, session)
        self.app.show_session(session)


__all__ = ["Rejoin"]
