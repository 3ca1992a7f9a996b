"""The decision panel: a prompt and its options; one pick, or several toggled then confirmed.
Under the prompt, greyed out, what the rules say cannot be chosen now and why (decision.unavailable):
no list of options pushes it out of sight, nor it the options (decision_layout.py).

Keys (the list has the focus while a decision is shown):

  1-9         pick the line of that number (in a multi-pick: toggle it). With more than nine lines,
              type a number's digits within a second: 1 then 2 picks line 12; a 1 alone is picked
              when the second has passed, or at once with Enter. A number no line has rings the bell.
  0           decline, where the decision may be declined (its line reads "0. (none: decline)")
  up/down, PgUp/PgDn, Home/End   move the highlight; it never wraps from the last line to the
              first; Up on the first line, when the prompt is cut short, reads the rest of it
  Enter       pick the highlighted line (in a multi-pick: confirm the chosen ones; on a group line:
              open it)
  space       toggle the highlighted line (multi-pick)
  /           filter: type part of an option's text (case ignored); only the options that contain it
              are listed, the filter shown above them. Backspace edits, Enter ends the typing (the
              filter stays, and numbers refer to the filtered list), Escape clears it. While typing,
              every letter (s, l, u, q, ? ...) goes to the filter, not to the screen's keys.
  Escape      clear the filter; in a group's options: back to the groups (it never declines)
  Backspace   edit the filter; in a group's options: back to the groups
  the mouse   a click picks (toggles) a line

What the lines show (merged, grouped, with hints): option_rows.py says.

Answers go up as a DecisionPanel.Answered message: an option's index (None: declined), or a list of
them in the order chosen (a multi-pick).

This module holds the widget (DecisionPanel: showing, the keys, answering). Which lines there are
(merged, grouped, filtered; numbers typed; toggles) is option_rows.py, how they read option_text.py,
the list itself (ChoiceList, the lines' ids) choice_list.py, the panel's parts and how they share
its rows decision_layout.py, the prompt's box prompt_box.py; the names are re-exported here.
"""
from __future__ import annotations

from rich.text import Text
from textual.message import Message
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from .choice_list import BACK, CONFIRM, DECLINE, ROW, ChoiceList
from .decision_layout import DecisionLayout
from .option_rows import MANY, Row, groups_of, option_hint, read_number, row_toggled, rows_of, toggled
from .option_text import back_text, confirm_text, decline_text, hint_text, number_width, row_text
from .prompt_box import PromptBox

__all__ = ["BACK", "CONFIRM", "DECLINE", "DIGIT_WAIT", "MANY", "ROW", "ChoiceList", "DecisionPanel", "Row",
           "groups_of", "option_hint"]

DIGIT_WAIT = 1.0  # seconds a typed digit waits for the next one


class DecisionPanel(DecisionLayout):
    """Shows the decision of the seat at the keyboard, or what the table waits for."""

    decision = None  # the decision shown (None: none)
    selected: list  # in a multi-pick: the options chosen, in the order chosen
    rows: list  # the numbered lines (option_rows.Row)
    filter = ""  # the filter's text
    typing = False  # the filter is being typed
    group: str | None = None  # the group whose options are listed (None: the groups, or no groups)
    digits = ""  # the digits of a number being typed
    _groups: list | None = None  # the groups (groups_of), None: one step
    _timer = None  # the wait for a number's next digit

    class Answered(Message):
        def __init__(self, decision, choice) -> None:
            super().__init__()
            self.decision = decision
            self.choice = choice

    def on_mount(self) -> None:
        self.wait("")  # its _reset sets the state below

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
        self.fit()

    def show(self, decision, name: str) -> None:
        """Show a decision: its prompt and options, numbered."""
        self._reset(decision)
        self._groups = groups_of(decision)
        self.query_one(PromptBox).scroll_home(animate=False, immediate=True)
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
    def _decline_shown(self) -> bool:
        """The decline line is listed (a single pick that may be declined; not in a group's options)."""
        d = self.decision
        return d is not None and not d.many and d.min == 0 and (self.group is None or bool(self.filter))

    def _rows(self) -> list:
        """The numbered lines now: filtered, the groups, one group's options, or all options."""
        rows, self.group = rows_of(self.decision, self._groups, self.group, self.filter)
        return rows

    def _lines(self) -> list:
        """The numbered lines, then decline, back (in a group) or confirm (a multi-pick)."""
        d = self.decision
        width = number_width(self.rows)
        group = None if self.filter else self.group  # filtered: the labels in full
        room = max(0, self.content_size.width - 1) or None  # a column for the list's scroll bar
        out = [Option(row_text(d, k, row, width, self.selected, group, room), id=f"{ROW}{k}")
               for k, row in enumerate(self.rows)]
        pad = " " * (width + 1)
        if self._decline_shown:
            out.append(Option(decline_text(width), id=DECLINE))
        if self.group is not None and not self.filter:
            out.append(Option(back_text(pad), id=BACK))
        if d.many:
            out.append(Option(confirm_text(d, self.selected, pad), id=CONFIRM))
        return out

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
        hint = hint_text(self.decision, self.rows, self.filter, self.typing, self.group, self.digits)
        static = self.query_one("#hint", Static)
        static.update(hint)
        static.display = bool(hint.plain)
        self.fit()

    # ------------------------------------------------------------ the keys

    def on_key(self, event) -> None:
        """Digits, the filter, Escape and Backspace; what is not used here goes on to the screen."""
        if self.decision is None:
            return
        key, ch = event.key, event.character
        if self.query_one(PromptBox).has_focus and not (ch and ch.isdigit()):
            return  # reading the prompt: its keys (Escape: back to the options)
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
        elif key == "escape" and self._decline_shown:  # Escape never answers: say what declines
            self.app.bell()
            self.notify("To decline, press 0 (the line '0. (none: decline)').", timeout=4, markup=False)
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
        """Number key n (0-9): pick (or toggle) the line of that number; 0 declines. With more than
        nine lines, digits typed within DIGIT_WAIT seconds make one number (1, 2: line 12)."""
        d = self.decision
        if d is None or not 0 <= n <= 9:
            return
        typed = self.digits + str(n)
        self._stop_timer()
        self.digits = ""
        if typed == "0" and self._decline_shown:
            self._answer(None)
            return
        number = read_number(typed, len(self.rows))
        if number is None:
            self.app.bell()
            self._refresh()
            return
        k, longer = number
        if longer:  # a longer number may follow: wait for its next digit
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
        self._select(row_toggled(self.decision, self.selected, row.members))

    def toggle(self, i: int) -> None:
        """In a multi-pick: choose option i, or leave it out when it was chosen."""
        d = self.decision
        if d is None or not d.many or not 0 <= i < len(d.options):
            return
        self._select(toggled(d, self.selected, i))

    def _select(self, chosen: list | None) -> None:
        """The chosen options are now these (None: no change may be made, the bell rings)."""
        if chosen is None:
            self.app.bell()
            return
        self.selected[:] = chosen
        self._refresh()

    def enter(self) -> None:
        """Enter typed outside the panel (the table has the focus): as Enter in its list."""
        if self.typing:
            self.typing = False
            self._refresh()
        elif self.digits:
            self._digits_done(then_confirm=True)
        else:
            self.confirm()

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
