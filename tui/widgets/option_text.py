"""How the decision panel's lines read, as Rich Text (no Textual; tui/widgets/decision.py puts
them in its list): a numbered line (an option, identical ones with their count, or a group with
how many choices it leads to), the lines under them (decline, back, confirm), and the line above
the list (the filter, the group, a number being typed, or the keys).
"""
from __future__ import annotations

from rich.cells import cell_len
from rich.text import Text

from .option_rows import MANY, Row, leads_to, merged, option_hint, short_label


def number_width(rows: list) -> int:
    """The width of the lines' numbers ("12."), the space after them left out."""
    return len(str(len(rows))) + 1


def groups_fit(decision, rows: list, selected: list, width: int, room: int) -> bool:
    """Whether every group line says at length how many choices it leads to within room cells
    (room 0 or less: not known yet, at length)."""
    return room <= 0 or all(width + 1 + cell_len(row.name + leads_to(decision, row, selected, True)) <= room
                            for row in rows if row.group)


def row_text(decision, k: int, row: Row, width: int, selected: list, group: str | None,
             long: bool = True) -> Text:
    """Line k (from 0): its number, then the option's label (without the name of group, the group
    its options are listed under, if it starts with it) and hint, or the group's name."""
    d = decision
    t = Text(f"{k + 1}.".rjust(width) + " ", style="bold")
    chosen = [m for m in row.members if m in selected]
    if row.group:  # "card 4  (2 choices)", or where one such line does not fit: "card 4 ›2"
        t.append(row.name)
        t.append(leads_to(d, row, selected, long), style="dim")
        return t
    first = d.options[row.members[0]]
    if d.many:
        t.append("[x] " if chosen else "[ ] ")
    taken = {d.keys[j]: j for j in selected} if d.keys is not None else {}
    alike = not chosen and d.keys is not None and d.keys[row.members[0]] in taken
    t.append(short_label(first.label, group), style="dim" if alike else "")
    hint = option_hint(first)
    if hint:
        t.append(f" — {hint}", style="dim")
    if len(row.members) > 1:
        count = len(row.members)
        t.append(f"  ({len(chosen)} of {count} chosen)" if chosen else f"  (x{count})", style="dim")
    if alike:  # a `distinct` choice: one like it is chosen (choosing this one swaps them)
        t.append(f"  (like {d.options[taken[d.keys[row.members[0]]]].label}, chosen)", style="dim italic")
    return t


def decline_text(pad: str) -> Text:
    return Text(f"{pad}(none: decline)", style="italic")


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
