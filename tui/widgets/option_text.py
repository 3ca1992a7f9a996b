"""How the decision panel's lines read, as Rich Text (no Textual; tui/widgets/decision.py puts
them in its list): a numbered line (an option, identical ones with their count, or a group with
how many choices it leads to), the lines under them (decline, back, confirm), and the line above
the list (the filter, the group, a number being typed, or the keys), and the rows that say what
is out of sight (more_text, prompt_more_text).
"""
from __future__ import annotations

from rich.cells import cell_len
from rich.console import Console
from rich.text import Text

from .option_rows import MANY, Row, leads_to, merged, option_hint, short_label

_KEEP = "\ue000"  # stands for a space no line may break at ("(2 choices)" stays whole)
_CONSOLE = Console(width=200)


def _whole(text: str) -> str:
    """text (after the spaces it starts with) as one word, that a line break never splits."""
    rest = text.lstrip(" ")
    return text[:len(text) - len(rest)] + rest.replace(" ", _KEEP)


def grouped(label: str, room: int | None, listed: bool = False) -> str:
    """A label that reads a list of lists ("red 4, red 5, red 6; blue 7, green 7, yellow 7": an
    arrangement of melds), or a list (listed: the option's value is one), with what a line break
    may not split: each group when every group fits in room cells, else each item ("red 4") that
    fits, so that a card never reads across lines."""
    if room is None or not (listed or "; " in label):
        return label
    groups = label.split("; ")
    if all(cell_len(g) < room for g in groups):
        return "; ".join(map(_whole, groups))
    return "; ".join(", ".join(_whole(x) if cell_len(x) < room else x for x in g.split(", ")) for g in groups)


def hang(head: Text, body: Text, room: int | None) -> Text:
    """head (a line's number), then body wrapped within room cells, its lines after the first
    under the first (a hanging indent), so numbers stand alone in their column."""
    indent = cell_len(head.plain)
    if room is not None and room - indent >= 8 and cell_len(body.plain) > room - indent:
        lines = body.wrap(_CONSOLE, room - indent)
        body = Text("\n" + " " * indent).join(lines)
    out = head + body
    return Text(out.plain.replace(_KEEP, " "), style=out.style, spans=out.spans)


def number_width(rows: list) -> int:
    """The width of the lines' numbers ("12."), the space after them left out."""
    return len(str(len(rows))) + 1


def row_text(decision, k: int, row: Row, width: int, selected: list, group: str | None,
             room: int | None = None) -> Text:
    """Line k (from 0): its number, then the option's label (without the name of group, the group
    its options are listed under, if it starts with it) and hint, or the group's name; wrapped
    within room cells (None: not wrapped here), a hanging indent."""
    d = decision
    head = Text(f"{k + 1}.".rjust(width) + " ", style="bold")
    chosen = [m for m in row.members if m in selected]
    t = Text()
    if row.group:  # "card 4  (2 choices)": picked, its choices are listed
        t.append(row.name)
        t.append(_whole(leads_to(d, row, selected)), style="dim")
        return hang(head, t, room)
    first = d.options[row.members[0]]
    if d.many:
        head.append("[x] " if chosen else "[ ] ")
    taken = {d.keys[j]: j for j in selected} if d.keys is not None else {}
    alike = not chosen and d.keys is not None and d.keys[row.members[0]] in taken
    listed = type(getattr(first, "value", None)) is list  # (a remote option has no value: its label tells)
    label = grouped(short_label(first.label, group), None if room is None else room - cell_len(head.plain), listed)
    t.append(label, style="dim" if alike else "")
    hint = option_hint(first)
    if hint:
        t.append(f" — {hint}", style="dim")
    if len(row.members) > 1:
        count = len(row.members)
        t.append(_whole(f"  ({len(chosen)} of {count} chosen)" if chosen else f"  (x{count})"), style="dim")
    if alike:  # a `distinct` choice: one like it is chosen (choosing this one swaps them)
        t.append(f"  (swaps with {d.options[taken[d.keys[row.members[0]]]].label}, chosen)", style="dim italic")
    return hang(head, t, room)


def decline_text(width: int) -> Text:
    """The decline line, numbered 0 (the 0 key declines)."""
    t = Text("0.".rjust(width) + " ", style="bold")
    t.append("(none: decline)", style="italic")
    return t


def back_text(pad: str) -> Text:
    return Text(f"{pad}‹ back (Esc)", style="italic")


def confirm_text(decision, selected: list, pad: str) -> Text:
    """A multi-pick's last line: how many are chosen, and a confirm when that many may be."""
    n = len(selected)
    ok = decision.min <= n <= decision.max
    return Text(f"{pad}✓ confirm ({n} chosen)" if ok else f"{pad}({n} chosen)", style="bold" if ok else "dim")


def hint_text(decision, rows: list, text: str, typing: bool, group: str | None, digits: str) -> Text:
    """The line above the list: the filter (text; typing: still being typed), the group, a number
    being typed (digits), or the keys."""
    d = decision
    t = Text()
    if typing or text:
        t.append("filter: ", style="dim")
        t.append(text, style="bold")
        if typing:
            t.append("▏", style="bold")
        t.append(f"  {len(rows)} of {len(merged(d, range(len(d.options))))}", style="dim")
        t.append("  Enter: done, Esc: clear" if typing else "  Esc: clear", style="dim")
    elif group is not None:
        t.append("‹ ", style="dim")
        t.append(group, style="bold")
        t.append("  Esc: back", style="dim")
    if digits:
        t.append("\n" if t.plain else "")
        t.append(f"number: {digits}…", style="bold")
        t.append("  (Enter, or wait)", style="dim")
    elif not typing and (len(rows) > MANY or len(d.options) > MANY):
        keys = []
        if len(rows) > MANY:
            keys.append("12: type 1 2")
        keys.append("/: filter")
        t.append("\n" if t.plain else "")
        t.append(" · ".join(keys), style="dim")
    return t


def more_text(above: int, below: int) -> Text:
    """The row under a list cut short: how many of its lines are above and below the window."""
    parts = ([f"↑ {above} more"] if above else []) + ([f"↓ {below} more"] if below else [])
    return Text(" · ".join(parts) + ("  (↑↓ scroll)" if below and not above else ""), style="dim")


def prompt_more_text(before: int, after: int, focused: bool) -> Text:
    """The row under a prompt cut short: how many of its lines are out of sight, how to read them."""
    if focused:
        return Text("↑↓ read · Esc: the options", style="dim")
    n = after or before
    lines = f"{n} line{'s' if n != 1 else ''}"
    return Text(f"… {lines} more: ↑ reads" if after else f"… {lines} above: ↑ reads", style="dim")
