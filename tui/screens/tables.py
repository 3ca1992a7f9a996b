"""Tables the rules show (`show TITLE columns [...] rows [...]`, e.g. at the end of a round): a modal
screen over the game that waits for a key, and the Rich table both it and the final scores draw.

A table comes from the view of one seat: {"title", "columns", "rows" (text), "at" (its log entry)}.
Column headers that name a colour are drawn in it (the name is still written out).
"""
from __future__ import annotations

from rich import box
from rich.markup import escape
from rich.table import Table
from rich.text import Text
from textual.binding import Binding
from textual.containers import ScrollableContainer, Vertical
from textual.screen import ModalScreen
from textual.widgets import Static

SCROLL_KEYS = {"up", "down", "pageup", "pagedown", "home", "end", "left", "right", "tab", "shift+tab"}


def tables_of(game, viewer) -> list:
    """The tables the viewer may read so far (the engine's game.tables, else the view's "tables")."""
    f = getattr(game, "tables", None)
    if callable(f):
        return f(viewer)
    return list(game.view(viewer).get("tables") or [])


def rich_table(table: dict, title: bool = True) -> Table:
    """The table as a Rich table; narrow columns wrap between words."""
    from ..widgets.table import colour_style

    t = Table(title=escape(str(table.get("title", ""))) if title else None, title_justify="left",
              title_style="bold", expand=False, box=box.SIMPLE_HEAD, show_edge=False,
              padding=(0, 1), collapse_padding=True, pad_edge=False)
    columns = [str(c) for c in table.get("columns") or []]
    rows = [[str(v) for v in r] for r in table.get("rows") or []]
    width = max([len(columns)] + [len(r) for r in rows])
    columns += [""] * (width - len(columns))
    for i, c in enumerate(columns):
        numeric = bool(rows) and all(i >= len(r) or _numberish(r[i]) for r in rows)
        cells = [r[i] for r in rows if i < len(r)]
        words = [w for v in [c] + cells for w in v.split()]
        short = [len(v) for v in cells if len(v) <= 12]  # a short cell (a name) is never cut
        t.add_column(Text(c, style=colour_style(c) or "bold"), justify="right" if numeric else "left",
                     min_width=max(map(len, words), default=1) if not short
                     else max(max(map(len, words), default=1), max(short)))  # others wrap between words
    for r in rows:
        t.add_row(*(escape(v) for v in r + [""] * (width - len(r))))  # (names, texts: never markup)
    return t


def log_text(table: dict) -> Text:
    """A table as the narrow log shows it: its title, then a line per row, "first cell: column
    value · column value" (r shows the last table in full)."""
    from ..widgets.table import colour_style

    t = Text(str(table.get("title", "")), style="bold")
    columns = [str(c) for c in table.get("columns") or []]
    for r in table.get("rows") or []:
        r = [str(v) for v in r]
        if not r:
            continue
        cells = [(columns[i] if i < len(columns) else "", v) for i, v in enumerate(r)][1:]
        t.append(f"\n  {r[0]}: ")
        for n, (c, v) in enumerate((c, v) for c, v in cells if v.strip()):
            if n:
                t.append(" · ", style="dim")
            if c:
                t.append(c, style=colour_style(c) or "italic")
                t.append(" ")
            t.append(v)
    return t


def _numberish(s: str) -> bool:
    s = s.strip()
    return s == "" or s.lstrip("+-").replace(".", "", 1).isdigit()


class TableScreen(ModalScreen):
    """One table, over the game; arrows and page keys scroll, any other key (Enter, Escape) goes on.
    Dismissed with None."""

    BINDINGS = [Binding("enter,escape,space", "close", "Continue")]

    def __init__(self, table: dict, note: str = "") -> None:
        super().__init__()
        self.table = table
        self.note = note

    def compose(self):
        with Vertical(id="table-box"):
            with ScrollableContainer(id="table-shown"):
                yield Static(rich_table(self.table), id="table-rich")
            yield Static(self.note or "Press any key to continue", id="table-hint")

    def on_mount(self) -> None:
        from rich.measure import Measurement

        console = self.app.console
        table = rich_table(self.table)
        room = max(20, self.app.size.width - 6)  # inside the box's border and padding
        m = Measurement.get(console, console.options.update_width(10_000), table)
        hint = len(self.note or "Press any key to continue")
        self.query_one("#table-box").styles.width = min(max(m.maximum, hint), room) + 6
        if m.minimum > room:  # too wide even with its columns wrapped: it scrolls sideways
            self.query_one("#table-rich").styles.width = m.minimum
        self.query_one("#table-shown").focus()

    def on_key(self, event) -> None:
        if event.key in SCROLL_KEYS:
            return  # scrolling a long table
        event.stop()
        event.prevent_default()
        self.action_close()

    def on_click(self) -> None:
        self.action_close()

    def action_close(self) -> None:
        self.dismiss(None)
