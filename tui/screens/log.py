"""The whole log, full screen (`g` in a game): what the seat at the keyboard may read of it, from the
first line to the latest, the tables the rules showed (a round's end, say) drawn in full where they
came. It opens at the latest line; `p` and `n` go to the previous and the next table, so a round's
end is found in a key or two however long the game; Home and End go to the first and the latest
line; Escape (or `g`) goes back to the game."""
from __future__ import annotations

from rich.text import Text
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, Static

from .closing import ClosesOnce, if_open
from .tables import FittedTable, tables_of


def log_parts(lines: list, tables: list) -> list:
    """The log as parts to draw in order: ("lines", [line, ...]) and ("table", table), a table
    where the log says it came (its "at": the index of its log line, which it stands for)."""
    at = {t.get("at"): t for t in tables}
    parts: list = []
    run: list = []
    for i, line in enumerate(lines):
        if i in at:
            if run:
                parts.append(("lines", run))
                run = []
            parts.append(("table", at[i]))
        else:
            run.append(line)
    if run:
        parts.append(("lines", run))
    return parts


class LogScreen(ClosesOnce, Screen):
    DEFAULT_CSS = """
    LogScreen #whole-log { padding: 0 1; }
    LogScreen .log-table { margin: 1 0; }
    LogScreen #log-title { height: 1; background: $primary-background; }
    """
    BINDINGS = [
        Binding("escape,g", "close", "Back to the game"),
        Binding("p", "table(-1)", "Previous table"),
        Binding("n", "table(1)", "Next table"),
        Binding("home", "first", "First line", show=False),
        Binding("end", "latest", "Latest line", show=False),
    ]

    def __init__(self, session, viewer) -> None:
        super().__init__()
        self.parts = log_parts(session.log_lines(viewer), tables_of(session, viewer))
        self.title_text = f"{session.rules.title}: the log"

    def compose(self):
        tables = sum(1 for kind, _ in self.parts if kind == "table")
        lines = sum(len(p) if kind == "lines" else 1 for kind, p in self.parts)
        head = Text(self.title_text, style="bold")
        head.append(f"  ·  {lines} line{'s' if lines != 1 else ''}")
        if tables:
            head.append(f"  ·  {tables} table{'s' if tables != 1 else ''} (p, n)")
        yield Static(head, id="log-title")
        with VerticalScroll(id="whole-log"):
            if not self.parts:
                yield Static(Text("Nothing has happened yet.", style="dim"))
            for kind, part in self.parts:
                if kind == "table":
                    yield Static(FittedTable(part), classes="log-table")
                else:
                    yield Static(Text("\n".join(str(x) for x in part)), classes="log-lines")
        yield Footer()

    @if_open
    def on_mount(self) -> None:
        scroll = self.query_one("#whole-log")
        scroll.focus()
        self.call_after_refresh(self.action_latest)

    def action_close(self) -> None:
        self.dismiss(None)

    def action_latest(self) -> None:
        self.query_one("#whole-log").scroll_end(animate=False, immediate=True)

    def action_first(self) -> None:
        self.query_one("#whole-log").scroll_home(animate=False, immediate=True)

    def action_table(self, step: int) -> None:
        """To the previous (step -1) or next (1) table from the top of the screen; the bell
        when there is none that way."""
        scroll = self.query_one("#whole-log")
        top = round(scroll.scroll_y)
        if step > 0 and top >= scroll.max_scroll_y:  # (the last tables may be on the last page)
            self.app.bell()
            return
        starts = [w.virtual_region.y for w in self.query(".log-table")]
        if step < 0:
            there = [y for y in starts if y < top]
            y = there[-1] if there else None
        else:
            there = [y for y in starts if y > top]
            y = there[0] if there else None
        if y is None:
            self.app.bell()
            return
        scroll.scroll_to(y=y, animate=False, immediate=True)
