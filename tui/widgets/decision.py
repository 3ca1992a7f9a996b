"""The decision panel: a prompt and its options; one pick, or several toggled then confirmed.
Under the prompt, greyed out, what the rules say cannot be chosen now and why (decision.unavailable),
where it stays in sight however long the list of options is.

Keys (the list has the focus while a decision is shown):

  1-9, 0      pick the line of that number (in a multi-pick: toggle it). With more than nine lines,
              type a number's digits within a second: 1 then 2 picks line 12; a 1 alone is picked
              when the second has passed, or at once with Enter. A number no line has rings the bell.
  up/down, PgUp/PgDn, Home/End   move the highlight
  Enter       pick the highlighted line (in a multi-pick: confirm the chosen ones; on a group line:
              open it)
  space       toggle the highlighted line (multi-pick)
  /           filter: type part of an option's text (case ignored); only the options that contain it
              are listed, the filter shown above them. Backspace edits, Enter ends the typing (the
              filter stays, and numbers refer to the filtered list), Escape clears it. While typing,
              every letter (s, l, u, q, ? ...) goes to the filter, not to the screen's keys.
  Escape      clear the filter; in a group's options: back to the groups
  Backspace   edit the filter; in a group's options: back to the groups
  the mouse   a click picks (toggles) a line

What the lines show:

- Identical options (the same label and hint) are one line with their count, "card 3  (x3)". Picked,
  it answers with the first of them; in a multi-pick each toggle chooses one more of them ("2 of 3
  chosen"), and the toggle after the last one clears them, so every legal answer can be made.
- More than nine options whose values are tuples sharing a card (or a name), such as (card, place)
  pairs, come in two steps: first the distinct cards, each with how many choices it leads to, then
  the options of the chosen one (Escape goes back). The answer is the option's id, as in one step.
  Cards of one label are one group. When nothing is shared, the list is flat. A filter always
  searches the flat list of all options.
- An option may carry a short consequence the rules give (its `hint`), shown dimmed after its label.

Answers go up as a DecisionPanel.Answered message: an option's index (None: declined), or a list of
them in the order chosen (a multi-pick).
"""
from __future__ import annotations

from rich.cells import cell_len
from rich.text import Text
from textual.binding import Binding
from textual.containers import Vertical
from textual.message import Message
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

DECLINE = "decline"
CONFIRM = "confirm"
BACK = "back"
ROW = "row-"

MANY = 9  # more lines than this: numbers of two digits, the keys' hint; more options: two steps
DIGIT_WAIT = 1.0  # seconds a typed digit waits for the next one


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


def _hashable(x):
    try:
        hash(x)
        return x
    except TypeError:
        return repr(x)


def _item_label(decision, item) -> str:
    """A part of an option's value (a card, a name) as text for the deciding player."""
    game = getattr(decision, "_game", None)
    render = getattr(game, "_render_value", None)
    if render is not None:
        try:
            text = render(item, decision.player)
            if isinstance(text, str) and text:
                return text
        except Exception:  # noqa: BLE001 - a label is a nicety; the raw value will do
            pass
    return str(item)


def _is_card(x) -> bool:
    try:
        from interpreter.state import Card
    except ImportError:  # pragma: no cover
        return False
    return type(x) is Card


def groups_of(decision) -> list | None:
    """[(name, [option index, ...]), ...] in the order of the options when more than nine options
    are tuples whose item at one place (a card, preferably; else a name) is shared by several;
    None when they do not group usefully (every item distinct, or all one)."""
    opts = decision.options
    values = [o.value for o in opts]
    if len(opts) <= MANY or not all(isinstance(v, tuple) and len(v) >= 2 for v in values):
        return None
    best = None
    for at in range(min(len(v) for v in values)):
        items = [v[at] for v in values]
        if len({_hashable(x) for x in items}) < 2:
            continue
        names: dict = {}
        for i, x in enumerate(items):
            names.setdefault(_item_label(decision, x), []).append(i)
        if not 1 < len(names) < len(values):
            continue
        found = list(names.items())
        if all(_is_card(x) for x in items):
            return found
        if best is None:
            best = found
    return best


class ChoiceList(OptionList):
    """An OptionList where Enter confirms and a click (or space) toggles in multi-pick mode."""

    BINDINGS = [
        Binding("enter", "confirm", "Choose", show=False),
        Binding("space", "toggle", "Toggle", show=False),
    ]

    class Confirm(Message):
        pass

    class Toggle(Message):
        def __init__(self, index: int) -> None:
            super().__init__()
            self.index = index

    many = False

    def action_confirm(self) -> None:
        if self.many:
            self.post_message(self.Confirm())
        else:
            self.action_select()

    def action_toggle(self) -> None:
        if self.many and self.highlighted is not None and self.get_option_at_index(self.highlighted).id != CONFIRM:
            self.post_message(self.Toggle(self.highlighted))


class DecisionPanel(Vertical):
    """Shows the decision of the seat at the keyboard, or what the table waits for."""

    decision = None
    _groups = None

    class Answered(Message):
        def __init__(self, decision, choice) -> None:
            super().__init__()
            self.decision = decision
            self.choice = choice

    def compose(self):
        yield Static("", id="prompt")
        yield Static("", id="hint")
        yield ChoiceList(id="options")

    def on_mount(self) -> None:
        self.decision = None
        self.selected: list = []
        self.rows: list = []
        self.filter = ""
        self.typing = False
        self.group: str | None = None
        self.digits = ""
        self._groups: list | None = None
        self._timer = None
        self.wait("")

    # ------------------------------------------------------------ showing

    def _reset(self, decision) -> None:
        self._stop_timer()
        self.decision = decision
        self.selected = []
        self.rows = []
        self.filter = ""
        self.typing = False
        self.group = None
        self.digits = ""
        self._groups = None

    def wait(self, message: str) -> None:
        """No decision here: show what the table waits for."""
        self._reset(None)
        self.query_one("#prompt", Static).update(Text(message, style="italic"))
        hint = self.query_one("#hint", Static)
        hint.update("")
        hint.display = False
        ol = self.query_one(ChoiceList)
        ol.clear_options()
        ol.many = False
        ol.display = False

    def show(self, decision, name: str) -> None:
        """Show a decision: its prompt and options, numbered."""
        self._reset(decision)
        self._groups = groups_of(decision)
        prompt = Text(f"{name}: ", style="bold")
        prompt.append(decision.prompt)
        if decision.many:
            want = str(decision.min) if decision.min == decision.max else f"{decision.min} to {decision.max}"
            prompt.append(f"\n(pick {want}: space/number toggles, Enter confirms)", style="dim")
        for u in decision.unavailable:
            prompt.append(f"\n✗ {u['option']}", style="dim strike")
            if u["reason"]:
                prompt.append(f": {u['reason']}", style="dim italic")
        self.query_one("#prompt", Static).update(prompt)
        ol = self.query_one(ChoiceList)
        ol.many = decision.many
        ol.display = True
        self._refresh(highlight=0)
        if not ol.option_count:
            ol.highlighted = None
        ol.focus()

    @property
    def _declinable(self) -> bool:
        d = self.decision
        return d is not None and not d.many and d.min == 0

    def _merged(self, indices) -> list:
        """Rows of the options at indices, identical ones (label and hint) as one row."""
        d = self.decision
        rows: dict = {}
        for i in indices:
            o = d.options[i]
            rows.setdefault((o.label, option_hint(o)), []).append(i)
        return [Row(members) for members in rows.values()]

    def _rows(self) -> list:
        """The numbered lines now: filtered, the groups, one group's options, or all options."""
        d = self.decision
        every = range(len(d.options))
        if self.filter:
            text = self.filter.casefold()
            return self._merged([i for i in every if text in d.options[i].label.casefold()])
        if self._groups is None:
            return self._merged(every)
        if self.group is not None:
            for name, members in self._groups:
                if name == self.group:
                    return self._merged(members)
            self.group = None
        out = []
        for name, members in self._groups:
            inner = self._merged(members)
            out.append(inner[0] if len(inner) == 1 else Row(members, name, group=True))
        return out

    def _row_text(self, k: int, row: Row, width: int, long: bool = True) -> Text:
        d = self.decision
        t = Text(f"{k + 1}.".rjust(width) + " ", style="bold")
        chosen = [m for m in row.members if m in self.selected]
        if row.group:  # "card 4  (2 choices)", or where one such line does not fit: "card 4 ›2"
            t.append(row.name)
            t.append(self._leads_to(row, long), style="dim")
            return t
        first = d.options[row.members[0]]
        if d.many:
            t.append("[x] " if chosen else "[ ] ")
        taken = {d.keys[j]: j for j in self.selected} if d.keys is not None else {}
        alike = not chosen and d.keys is not None and d.keys[row.members[0]] in taken
        t.append(self._short(first.label), style="dim" if alike else "")
        hint = option_hint(first)
        if hint:
            t.append(f" — {hint}", style="dim")
        if len(row.members) > 1:
            count = len(row.members)
            t.append(f"  ({len(chosen)} of {count} chosen)" if chosen else f"  (x{count})", style="dim")
        if alike:  # a `distinct` choice: one like it is chosen (choosing this one swaps them)
            t.append(f"  (like {d.options[taken[d.keys[row.members[0]]]].label}, chosen)", style="dim italic")
        return t

    def _leads_to(self, row: Row, long: bool) -> str:
        """How many choices a group line leads to (and how many of them are chosen)."""
        n = len(self._merged(row.members))
        chosen = sum(m in self.selected for m in row.members)
        if long:
            return f"  ({n} choices" + (f", {chosen} chosen)" if chosen else ")")
        return f" ›{n}" + (f" ({chosen} chosen)" if chosen else "")

    def _short(self, label: str) -> str:
        """In a group's options, the label without the group's name it starts with ("card 7: take
        2 coins" under "card 7" reads "take 2 coins")."""
        name = self.group
        if name is None or self.filter or not label.startswith(name):
            return label
        rest = label[len(name):]
        short = rest.lstrip(" :,;-—–")
        return short if short and rest[:1] in " :,;-—–" else label

    def _lines(self) -> list:
        d = self.decision
        width = len(str(len(self.rows))) + 1
        room = self.scrollable_content_region.width - 2  # the list's scroll bar, when it has one
        long = room <= 0 or all(width + 1 + cell_len(row.name + self._leads_to(row, True)) <= room
                                for row in self.rows if row.group)
        out = [Option(self._row_text(k, row, width, long), id=f"{ROW}{k}") for k, row in enumerate(self.rows)]
        pad = " " * (width + 1)
        if self._declinable and (self.group is None or self.filter):
            out.append(Option(Text(f"{pad}(none: decline)", style="italic"), id=DECLINE))
        if self.group is not None and not self.filter:
            out.append(Option(Text(f"{pad}‹ back (Esc)", style="italic"), id=BACK))
        if d.many:
            n = len(self.selected)
            ok = d.min <= n <= d.max
            out.append(Option(Text(f"{pad}✓ confirm ({n} chosen)" if ok else f"{pad}({n} chosen)",
                                   style="bold" if ok else "dim"), id=CONFIRM))
        return out

    def _hint(self) -> Text:
        """The line above the list: the filter, the group, a number being typed, or the keys."""
        d = self.decision
        t = Text()
        if self.typing or self.filter:
            t.append("filter: ", style="dim")
            t.append(self.filter, style="bold")
            if self.typing:
                t.append("▏", style="bold")
            t.append(f"  {len(self.rows)} of {len(self._merged(range(len(d.options))))}", style="dim")
            t.append("  Enter: done, Esc: clear" if self.typing else "  Esc: clear", style="dim")
        elif self.group is not None:
            t.append("‹ ", style="dim")
            t.append(self.group, style="bold")
            t.append("  Esc: back", style="dim")
        if self.digits:
            t.append("\n" if t.plain else "")
            t.append(f"number: {self.digits}…", style="bold")
            t.append("  (Enter, or wait)", style="dim")
        elif not self.typing and (len(self.rows) > MANY or len(d.options) > MANY):
            keys = []
            if len(self.rows) > MANY:
                keys.append("12: type 1 2")
            keys.append("/: filter")
            t.append("\n" if t.plain else "")
            t.append(" · ".join(keys), style="dim")
        return t

    def _refresh(self, highlight: int | None = None) -> None:
        """Draw the list again; highlight: the line to highlight (None: the same line as before)."""
        if self.decision is None:
            return
        self.rows = self._rows()
        ol = self.query_one(ChoiceList)
        keep = ol.highlighted if highlight is None else highlight
        ol.set_options(self._lines())
        if ol.option_count:
            ol.highlighted = min(max(keep or 0, 0), ol.option_count - 1)
        hint = self._hint()
        static = self.query_one("#hint", Static)
        static.update(hint)
        static.display = bool(hint.plain)

    _width = 0

    def on_resize(self, event) -> None:
        """A group's line says how many choices it leads to at length when the lines have room."""
        if event.size.width != self._width:
            self._width = event.size.width
            if self.decision is not None and self._groups is not None:
                self._refresh()

    # ------------------------------------------------------------ the keys

    def on_key(self, event) -> None:
        """Digits, the filter, Escape and Backspace; what is not used here goes on to the screen."""
        if self.decision is None:
            return
        key, ch = event.key, event.character
        if self.typing:
            if key == "escape":
                self._set_filter("", typing=False)
            elif key == "enter":
                self.typing = False
                self._refresh()
            elif key == "backspace":
                if self.filter:
                    self._set_filter(self.filter[:-1])
                else:
                    self.typing = False
                    self._refresh()
            elif ch and event.is_printable:
                self._set_filter(self.filter + ch)
            else:
                return  # up/down and the like move in the filtered list
            event.stop()
            event.prevent_default()
            return
        if self.digits and key != "enter" and not (ch and ch.isdigit()):
            self._cancel_digits()
        if ch and len(ch) == 1 and ch in "0123456789":
            self.pick_number(int(ch))
        elif key == "enter" and self.digits:
            self._digits_done(then_confirm=True)
        elif ch == "/":
            self.typing = True
            self._refresh(highlight=0)
        elif key == "escape" and (self.filter or self.group is not None):
            if self.filter:
                self._set_filter("")
            else:
                self.back()
        elif key == "backspace" and (self.filter or self.group is not None):
            if self.filter:
                self.typing = True
                self._set_filter(self.filter[:-1])
            else:
                self.back()
        else:
            return
        event.stop()
        event.prevent_default()

    def _set_filter(self, text: str, typing: bool | None = None) -> None:
        self.filter = text
        if typing is not None:
            self.typing = typing
        self._cancel_digits()
        self._refresh(highlight=0)

    def back(self) -> None:
        """From a group's options back to the groups, the group left highlighted."""
        if self.group is None:
            return
        name, self.group = self.group, None
        self._cancel_digits()
        rows = self._rows()
        at = next((k for k, r in enumerate(rows) if r.group and r.name == name), 0)
        self._refresh(highlight=at)

    # ------------------------------------------------------------ numbers

    def pick_number(self, n: int) -> None:
        """Number key n (0-9): pick (or toggle) the line of that number. With more than nine lines,
        digits typed within DIGIT_WAIT seconds make one number (1, 2: line 12)."""
        d = self.decision
        if d is None or not 0 <= n <= 9:
            return
        typed = self.digits + str(n)
        self._stop_timer()
        self.digits = ""
        count = len(self.rows)
        k = int(typed)
        if typed.startswith("0") or k > count:
            self.app.bell()
            self._refresh()
            return
        if k * 10 <= count:  # a longer number may follow: wait for its next digit
            self.digits = typed
            self.query_one(ChoiceList).highlighted = k - 1
            self._timer = self.set_timer(DIGIT_WAIT, self._digits_done)
            self._refresh()
            return
        self._refresh()
        self._pick_row(k - 1)

    def _digits_done(self, then_confirm: bool = False) -> None:
        self._timer = None
        if not self.digits or self.decision is None:
            return
        k, self.digits = int(self.digits), ""
        self._refresh()
        confirm = then_confirm and self.decision.many and not self.rows[k - 1].group
        self._pick_row(k - 1)
        if confirm and self.decision is not None:
            self.confirm()

    def _cancel_digits(self) -> None:
        if self.digits:
            self.digits = ""
            self._stop_timer()
            self._refresh()

    def _stop_timer(self) -> None:
        if self._timer is not None:
            self._timer.stop()
            self._timer = None

    # ------------------------------------------------------------ answering

    def _pick_row(self, k: int) -> None:
        """Line k (from 0): open a group; answer with an option; toggle it in a multi-pick."""
        d = self.decision
        if d is None or not 0 <= k < len(self.rows):
            return
        row = self.rows[k]
        ol = self.query_one(ChoiceList)
        if row.group:
            self.group = row.name
            self._refresh(highlight=0)
        elif d.many:
            ol.highlighted = k
            self.toggle_row(row)
        else:
            self._answer(row.members[0])

    def toggle_row(self, row: Row) -> None:
        """In a multi-pick: choose one more of the row's options, or (all of them chosen, or no more
        may be) clear them."""
        d = self.decision
        chosen = [m for m in row.members if m in self.selected]
        keys = d.keys
        taken = {keys[m] for m in chosen} if keys is not None else set()
        free = [m for m in row.members if m not in self.selected and (keys is None or keys[m] not in taken)]
        if free and (len(self.selected) < d.max or (not chosen and self._alike(free[0]))):
            self.toggle(free[0])
        elif chosen:
            for m in chosen:
                self.selected.remove(m)
            self._refresh()
        else:
            self.app.bell()

    def _alike(self, i: int) -> bool:
        d = self.decision
        return d.keys is not None and any(j != i and d.keys[j] == d.keys[i] for j in self.selected)

    def toggle(self, i: int) -> None:
        """In a multi-pick: choose option i, or leave it out when it was chosen."""
        d = self.decision
        if d is None or not d.many or not 0 <= i < len(d.options):
            return
        alike = [j for j in self.selected if d.keys is not None and j != i and d.keys[j] == d.keys[i]]
        if i in self.selected:
            self.selected.remove(i)
        elif alike:  # no two alike: this one takes the place of the one like it
            self.selected[self.selected.index(alike[0])] = i
        elif len(self.selected) < d.max:
            self.selected.append(i)
        else:
            self.app.bell()
            return
        self._refresh()

    def confirm(self) -> None:
        """Enter: the highlighted line (one pick; a group opens), or the chosen options (several)."""
        d = self.decision
        if d is None:
            return
        ol = self.query_one(ChoiceList)
        opt = ol.get_option_at_index(ol.highlighted) if ol.highlighted is not None else None
        if opt is not None and opt.id == BACK:
            self.back()
            return
        if opt is not None and opt.id.startswith(ROW) and (not d.many or self.rows[int(opt.id[len(ROW):])].group):
            self._pick_row(int(opt.id[len(ROW):]))
            return
        if not d.many:
            if opt is not None and opt.id == DECLINE:
                self._answer(None)
            return
        if d.min <= len(self.selected) <= d.max:
            self._answer(list(self.selected))  # in the order chosen (discards: the last on top)
        else:
            self.app.bell()

    def _answer(self, choice) -> None:
        d = self.decision
        self._stop_timer()
        self.digits = ""
        self.decision = None
        self.post_message(self.Answered(d, choice))

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        d = self.decision
        if d is None:
            return
        oid = event.option.id
        self._cancel_digits()
        if oid == DECLINE:
            self._answer(None)
        elif oid == CONFIRM:
            self.confirm()
        elif oid == BACK:
            self.back()
        elif oid and oid.startswith(ROW):
            self._pick_row(int(oid[len(ROW):]))

    def on_choice_list_confirm(self, event: ChoiceList.Confirm) -> None:
        event.stop()
        self.confirm()

    def on_choice_list_toggle(self, event: ChoiceList.Toggle) -> None:
        event.stop()
        if self.decision is None:
            return
        opt = self.query_one(ChoiceList).get_option_at_index(event.index)
        if opt.id == BACK:
            self.back()
        elif opt.id and opt.id.startswith(ROW):
            self._pick_row(int(opt.id[len(ROW):]))
