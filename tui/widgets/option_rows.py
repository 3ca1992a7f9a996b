"""The numbered lines of a decision's options, worked out without Textual (the decision panel,
tui/widgets/decision.py, draws them and handles the keys).

Plain functions of a decision (its options, min, max, keys, player) and the panel's state:

- identical options (the same label and hint) as one Row with its members (merged);
- more than nine options whose values are tuples sharing a card (or a name) in two steps: the
  groups (groups_of), then one group's options (rows_of);
- the filter (rows_of: the options whose label contains the text, case ignored);
- a number typed one digit at a time (read_number);
- what a toggle in a multi-pick chooses (toggled, row_toggled).

What the lines show (a part cut short scrolls, a row under it says what is out of sight):

- Identical options (the same label and hint) are one line with their count, "card 3  (x3)". Picked,
  it answers with the first of them (cards alike to the player but for a mark or a place read apart:
  interpreter/engine/telling.py); in a multi-pick each toggle chooses one more of them ("2 of 3
  chosen"), and the toggle after the last one clears them, so every legal answer can be made.
- More than nine options whose values are tuples sharing a card (or a name), such as (card, place)
  pairs, come in two steps: first the distinct cards, each with how many choices it leads to, then
  the options of the chosen one (Escape goes back). The answer is the option's id, as in one step.
  Cards of one label are one group. When nothing is shared, the list is flat. A filter always
  searches the flat list of all options.
- An option may carry a short consequence the rules give (its `hint`), shown dimmed after its label.
"""
from __future__ import annotations

from ...interpreter.engine.option_groups import MANY, option_groups

# (MANY: more lines than this: numbers of two digits, the keys' hint; more options: two steps)
SEPARATORS = " :,;-—–"  # what may stand between a group's name and the rest of an option's label


def option_hint(option) -> str:
    """The consequence the rules give for an option ("draws a card"), or ''."""
    hint = getattr(option, "hint", None)
    return hint.strip() if isinstance(hint, str) else ""


class Row:
    """A numbered line of the list: one option, several identical ones, or a group (its options)."""

    __slots__ = ("members", "name", "group")

    def __init__(self, members: list, name: str = "", group: bool = False) -> None:
        self.members = members
        self.name = name
        self.group = group


def groups_of(decision) -> list | None:
    """[(name, [option index, ...]), ...] when the options group usefully (more than nine tuples
    sharing a card or a name: interpreter/engine/option_groups.py), else None. A remote decision
    carries the groups the server worked out (its values never leave the server)."""
    if hasattr(decision, "groups"):
        return decision.groups
    return option_groups(decision)


def merged(decision, indices) -> list:
    """Rows of the options at indices, identical ones (label and hint) as one row."""
    rows: dict = {}
    for i in indices:
        o = decision.options[i]
        rows.setdefault((o.label, option_hint(o)), []).append(i)
    return [Row(members) for members in rows.values()]


def rows_of(decision, groups: list | None, group: str | None, text: str = "") -> tuple[list, str | None]:
    """The numbered lines now, and the group they are in: the options whose label contains text
    (a filter), else the options of the group named group, else the groups (from groups_of; a
    group of identical options is their one line), else all options. A group no longer among
    groups is left (None)."""
    every = range(len(decision.options))
    if text:
        text = text.casefold()
        return merged(decision, [i for i in every if text in decision.options[i].label.casefold()]), group
    if groups is None:
        return merged(decision, every), group
    if group is not None:
        for name, members in groups:
            if name == group:
                return merged(decision, members), group
        group = None
    out = []
    for name, members in groups:
        inner = merged(decision, members)
        out.append(inner[0] if len(inner) == 1 else Row(members, name, group=True))
    return out, group


def leads_to(decision, row: Row, selected: list) -> str:
    """How many choices a group line leads to (and how many of them are chosen): "  (2 choices)"."""
    n = len(merged(decision, row.members))
    chosen = sum(m in selected for m in row.members)
    return f"  ({n} choices" + (f", {chosen} chosen)" if chosen else ")")


def short_label(label: str, group: str | None) -> str:
    """In a group's options, the label without the group's name it starts with ("card 7: take
    2 coins" under "card 7" reads "take 2 coins")."""
    if group is None or not label.startswith(group):
        return label
    rest = label[len(group):]
    short = rest.lstrip(SEPARATORS)
    return short if short and rest[:1] in SEPARATORS else label


def read_number(typed: str, count: int) -> tuple[int, bool] | None:
    """The digits typed so far against a list of count lines: (the line's number from 1, whether a
    longer number may still follow), or None when no line has that number."""
    k = int(typed)
    if typed.startswith("0") or k > count:
        return None
    return k, k * 10 <= count


def _alike(decision, selected: list, i: int) -> bool:
    keys = decision.keys
    return keys is not None and any(j != i and keys[j] == keys[i] for j in selected)


def toggled(decision, selected: list, i: int) -> list | None:
    """In a multi-pick, the chosen options (in the order chosen) once option i is toggled: left out
    when it was chosen; else chosen, in the place of one like it (the same key: no two alike) or
    added after them; None when no more may be chosen."""
    keys = decision.keys
    alike = [j for j in selected if keys is not None and j != i and keys[j] == keys[i]]
    out = list(selected)
    if i in out:
        out.remove(i)
    elif alike:
        out[out.index(alike[0])] = i
    elif len(out) < decision.max:
        out.append(i)
    else:
        return None
    return out


def row_toggled(decision, selected: list, members: list) -> list | None:
    """In a multi-pick, the chosen options once a line of identical options (members) is toggled:
    one more of them chosen, or (all of them chosen, or no more may be) none of them; None when
    nothing changes."""
    chosen = [m for m in members if m in selected]
    keys = decision.keys
    taken = {keys[m] for m in chosen} if keys is not None else set()
    free = [m for m in members if m not in selected and (keys is None or keys[m] not in taken)]
    if free and (len(selected) < decision.max or (not chosen and _alike(decision, selected, free[0]))):
        return toggled(decision, selected, free[0])
    if chosen:
        return [m for m in selected if m not in chosen]
    return None
