"""Tables the rules show (`show TITLE columns [...] rows [...]`, e.g. at the end of a round): a modal
screen over the game that waits for a key, and the table both it and the final scores draw.

A table comes from the view of one seat: {"title", "columns", "rows" (text), "at" (its log entry)}.
Column headers that name a colour are drawn in it (the name is still written out).

A table fits the width it is drawn in and loses no cell (FittedTable), in the first of these that fits:
1. as the rules wrote it, no cell wrapped;
2. as written with its long cells wrapped between words (a blank line between rows then), so that
   every table of a game keeps one shape; unless it cannot fit so, or would take more than half as
   many lines again as transposed: the rows become columns headed by their first cell ("player |
   Ann | Bob | Cy"), a line per column of the rules. At 80 columns a wide table of numbers (a final
   scoring of 11 columns) cannot fit as written and reads well transposed, as a score sheet; a
   table of few rows with long texts (a round's end, a cell per group of cards) reads best as written, wrapped;
3. one block per row: "player Ann", then "column value · column value ...", as many to a line as
   fit (and a word wider than the screen folded onto the next line, never cut).
So nothing needs a sideways scroll: everything is on the screen or below it (the screen scrolls
down, and says so).
"""
from __future__ import annotations

from functools import lru_cache
import re

from rich import box
from rich.cells import cell_len
from rich.console import Group
from rich.measure import Measurement
from rich.padding import Padding
from rich.table import Table
from rich.text import Text
from textual.binding import Binding
from textual.containers import ScrollableContainer, Vertical
from textual.screen import ModalScreen
from textual.widgets import Static

from .closing import ClosesOnce, if_open

SCROLL_KEYS = {"up", "down", "pageup", "pagedown", "home", "end", "left", "right", "tab", "shift+tab"}
GAP = 2  # the columns between two columns of a table
MORE = "  (↑↓ PgUp PgDn: more below)"  # the hint of a table taller than the screen
SHORT = 12  # a cell this short (a name, "kept (gold)") is never wrapped, when the table can fit it


def tables_of(game, viewer) -> list:
    """The tables the viewer may read so far (the engine's game.tables, else the view's "tables")."""
    f = getattr(game, "tables", None)
    if callable(f):
        return f(viewer)
    return list(game.view(viewer).get("tables") or [])


class FittedTable:
    """A table ({"title", "columns", "rows"}) as a Rich renderable that fits the width it is drawn in
    without cutting a cell (see the module's text for how). bold: the rows drawn in bold."""

    def __init__(self, table: dict, title: bool = True, bold=()) -> None:
        self.title = str(table.get("title", "") or "") if title else ""
        columns = [str(c) for c in table.get("columns") or []]
        rows = [[str(v) for v in r] for r in table.get("rows") or []]
        width = max([len(columns)] + [len(r) for r in rows])
        self.columns = columns + [""] * (width - len(columns))
        self.rows = [r + [""] * (width - len(r)) for r in rows]
        self.bold = set(bold)
        self._layouts = {}  # by width

    def layout(self, console, options) -> tuple[str, object]:
        """How the table is drawn at options.max_width: ("as written" | "wrapped" | "transposed" |
        "blocks", the Rich renderable of the table without its title)."""
        width = max(1, options.max_width)
        if width not in self._layouts:
            self._layouts[width] = self._layout(console, options, width)
        return self._layouts[width]

    def _layout(self, console, options, width: int) -> tuple[str, object]:
        cols, rows = self.columns, self.rows
        if not cols:
            return "as written", Text("")
        nat, least = _measure(cols, rows)
        widths = _fit(cols, rows, nat, least, width)
        if widths == nat:
            return "as written", self._table(cols, rows, widths, across=False)
        found = []
        if widths:
            found.append(("wrapped", self._table(cols, rows, widths, across=False,
                                                 spaced=_wraps(rows, widths))))
        tcols, trows = transposed(cols, rows)
        tnat, tleast = _measure(tcols, trows)
        twidths = _fit(tcols, trows, tnat, tleast, width)
        if twidths:
            found.append(("transposed", self._table(tcols, trows, twidths, across=True,
                                                    spaced=_wraps(trows, twidths))))
        if len(found) == 2:  # as written, unless wrapping makes it half as tall again as turned
            opts = options.update(width=width)
            tall = [len(console.render_lines(f[1], opts, pad=False)) for f in found]
            return found[0] if 2 * tall[0] <= 3 * tall[1] else found[1]
        if found:
            return found[0]
        return "blocks", self._blocks(width)

    def _table(self, cols, rows, widths, across: bool, spaced: bool = False) -> Table:
        """A Rich table with these column widths. across: transposed (the rules' columns are the rows,
        the rules' rows the columns). spaced: a blank line between rows (some wrap)."""
        from ..widgets.words import colour_style

        t = Table(box=box.SIMPLE_HEAD, show_edge=False, padding=(0, 1), collapse_padding=True,
                  pad_edge=False, show_lines=spaced, expand=False)
        for i, c in enumerate(cols):
            numeric = bool(rows) and all(_numberish(r[i]) for r in rows)
            bold = across and i - 1 in self.bold
            t.add_column(Text("\n".join(_wrap(c, widths[i])),
                              style=(colour_style(c) or "bold") if i or not across else "bold"),
                         justify="right" if numeric else "left", width=widths[i], overflow="fold",
                         style="bold" if bold else "")
        for k, r in enumerate(rows):
            cells = [Text("\n".join(_wrap(v, w))) for v, w in zip(r, widths)]  # (never markup)
            if across:
                cells[0].stylize(colour_style(r[0]) or "bold")
            t.add_row(*cells, style="bold" if not across and k in self.bold else "")
        return t

    def _blocks(self, width: int) -> Group:
        """One block per row: its first cell (after its column's name), then its other cells after
        their column's name, as many to a line as fit (a cell is broken only when wider than a line)."""
        from ..widgets.words import colour_style

        parts = []
        for k, r in enumerate(self.rows):
            head = Text(self.columns[0], style="italic") + " " if self.columns[0] else Text()
            parts.append(Text.assemble(head, (r[0], "bold"), overflow="fold"))
            lines = [Text()]
            for c, v in zip(self.columns[1:], r[1:]):
                if not v.strip():
                    continue
                pair = Text(c, style=colour_style(c) or "italic") + Text(" " + v)
                line = lines[-1]
                if line.plain and line.cell_len + 3 + pair.cell_len > width - 2:
                    lines.append(Text())
                    line = lines[-1]
                if line.plain:
                    line.append(" · ", style="dim")
                line.append_text(pair)
            body = Text("\n", overflow="fold", style="bold" if k in self.bold else "").join(lines)
            parts.append(Padding(body, (0, 0, 0, 2)))
        return Group(*parts)

    def size_at(self, console, width: int) -> tuple[int, int]:
        """The columns and lines the table (with its title) takes when drawn in `width`."""
        opts = console.options.update(width=width)
        _, shown = self.layout(console, opts)
        wide = min(width, max(Measurement.get(console, opts, shown).maximum, cell_len(self.title)))
        return wide, len(console.render_lines(self, opts.update(width=wide), pad=False))

    def __rich_console__(self, console, options):
        if self.title:
            yield Text(self.title, style="bold", overflow="fold")
        yield self.layout(console, options)[1]

    def __rich_measure__(self, console, options):
        nat, _ = _measure(self.columns, self.rows)
        widest = sum(nat) + GAP * max(0, len(nat) - 1)
        return Measurement(min(options.max_width, 20), max(widest, cell_len(self.title)))


def transposed(columns: list, rows: list) -> tuple[list, list]:
    """The table turned: its header is the first column's name and each row's first cell; a row
    per other column, its name first."""
    return ([columns[0]] + [r[0] for r in rows],
            [[c] + [r[i] for r in rows] for i, c in enumerate(columns) if i])


def _measure(cols: list, rows: list) -> tuple[list, list]:
    """Each column's width unwrapped, and the least it may wrap to (its longest word, and at least
    its longest short cell)."""
    nat, least = [], []
    for i, c in enumerate(cols):
        cells = [r[i] for r in rows]
        nat.append(max([cell_len(c)] + [cell_len(v) for v in cells]))
        words = [cell_len(w) for v in [c] + cells for w in v.split()]
        short = [cell_len(v) for v in cells if cell_len(v) <= SHORT]
        least.append(max(words + short + [1]))
    return nat, least


def _fit(cols: list, rows: list, nat: list, least: list, room: int) -> list | None:
    """Column widths that fit `room`: the unwrapped ones if they fit, else, from the least ones, the
    widening that saves the most lines for the fewest columns first, again and again (what saves no
    line is left out: the table is no wider than it needs); None when even the least do not fit."""
    gaps = GAP * (len(nat) - 1)
    if sum(nat) + gaps <= room:
        return list(nat)
    if sum(least) + gaps > room:
        return None
    widths = list(least)
    spare = room - gaps - sum(widths)
    grid = [cols] + rows  # the header is a row too
    while spare > 0:
        now = _height(grid, widths)
        best = None
        for move in _moves(grid, widths, nat):
            cost = sum(w - widths[i] for i, w in move.items())
            if not 0 < cost <= spare:
                continue
            saved = now - _height(grid, [move.get(i, w) for i, w in enumerate(widths)])
            if saved > 0 and (best is None or saved * best[1] > best[0] * cost):
                best = (saved, cost, move)
        if best is None:
            break
        for i, w in best[2].items():
            widths[i] = w
        spare -= best[1]
    return widths


def _moves(grid: list, widths: list, nat: list):
    """Widenings worth trying: one cell's column just enough for that cell to lose a line, and
    every tallest cell of a row just enough for the row to lose a line."""
    def shorter(i, v):  # the least width at which v takes fewer lines in column i
        n = _lines(v, widths[i])
        return next((w for w in range(widths[i] + 1, nat[i] + 1) if _lines(v, w) < n), None)

    for r in grid:
        tall = max(_lines(v, w) for v, w in zip(r, widths))
        if tall == 1:
            continue
        row = {}
        for i, v in enumerate(r):
            n = _lines(v, widths[i])
            w = shorter(i, v) if n > 1 else None
            if w is not None:
                yield {i: w}
            if n == tall:
                row[i] = w
        if None not in row.values():
            yield row


def _height(grid: list, widths: list) -> int:
    """The lines the rows (the header first) take at these widths."""
    return sum(max(_lines(v, w) for v, w in zip(r, widths)) for r in grid)


def _wraps(rows: list, widths: list) -> bool:
    """Whether a row takes more than a line at these widths (then a blank line parts the rows)."""
    return any(_lines(v, w) > 1 for r in rows for v, w in zip(r, widths))


def _lines(text: str, width: int) -> int:
    """The lines a cell takes at `width` (see _wrap)."""
    return len(_wrap(text, width))


@lru_cache(maxsize=4096)
def _wrap(text: str, width: int) -> tuple:
    """A cell's lines at `width`: broken between the items of a list ("pink 4, green 6": after a
    comma) where it can, else between words; a word wider than the line is folded."""
    lines = [""]
    for item in re.split(r"(?<=,)\s+", text):
        item = " ".join(item.split())
        if not item:
            continue
        if lines[-1] and cell_len(lines[-1]) + 1 + cell_len(item) <= width:
            lines[-1] += " " + item
            continue
        if lines[-1]:
            lines.append("")
        for word in item.split():
            if lines[-1] and cell_len(lines[-1]) + 1 + cell_len(word) <= width:
                lines[-1] += " " + word
                continue
            if lines[-1]:
                lines.append("")
            while cell_len(word) > width:
                lines[-1], word = word[:width], word[width:]
                lines.append("")
            lines[-1] = word
    return tuple(lines)


def log_text(table: dict) -> Text:
    """A table as the narrow log shows it: its title, then a line per row, "first cell: column
    value · column value" (r shows the last table in full)."""
    from ..widgets.words import colour_style

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


class TableScreen(ClosesOnce, ModalScreen):
    """One table, over the game; arrows and page keys scroll a table taller than the screen, any
    other key (Enter, Escape) goes on. Dismissed with None."""

    BINDINGS = [Binding("enter,escape,space", "close", "Continue")]
    HINT = "Press any key to continue"

    def __init__(self, table: dict, note: str = "") -> None:
        super().__init__()
        self.table = table
        self.note = note

    def compose(self):
        with Vertical(id="table-box"):
            with ScrollableContainer(id="table-shown"):
                yield Static(FittedTable(self.table), id="table-rich")
            yield Static(self.note or self.HINT, id="table-hint")

    @if_open
    def on_mount(self) -> None:
        room = max(20, self.app.size.width - 6)  # inside the box's border and padding
        table = FittedTable(self.table)
        wide, high = table.size_at(self.app.console, room)
        if high > min(20, self.app.size.height - 4):  # it scrolls: room for the scroll bar
            wide = table.size_at(self.app.console, room - 2)[0] + 2
        hint = cell_len(self.note or self.HINT) + len(MORE)
        self.query_one("#table-box").styles.width = min(max(wide, hint), room) + 6
        shown = self.query_one("#table-shown")
        shown.focus()
        self.watch(shown, "show_vertical_scrollbar", self._say_more)

    def _say_more(self, scrolls: bool) -> None:
        """A table taller than the screen says so beside the hint (and its scroll bar shows)."""
        for hint in self.query("#table-hint").results(Static):
            hint.update((self.note or self.HINT) + (MORE if scrolls else ""))

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
