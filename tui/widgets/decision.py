"""The decision panel: a prompt and its options; one pick, or several toggled then confirmed.
Under the prompt, greyed out, what the rules say cannot be chosen now and why (decision.unavailable),
where it stays in sight however long the list of options is.

Keys: 1-9 pick (or toggle) an option, arrows move, Enter picks (or confirms several), space
toggles, the mouse clicks. Answers go up as a DecisionPanel.Answered message.
"""
from __future__ import annotations

from rich.text import Text
from textual.binding import Binding
from textual.containers import Vertical
from textual.message import Message
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

DECLINE = "decline"
CONFIRM = "confirm"


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
        if self.many and self.highlighted is not None and self.get_option_at_index(self.highlighted).id != "confirm":
            self.post_message(self.Toggle(self.highlighted))


class DecisionPanel(Vertical):
    """Shows the decision of the seat at the keyboard, or what the table waits for."""

    class Answered(Message):
        def __init__(self, decision, choice) -> None:
            super().__init__()
            self.decision = decision
            self.choice = choice

    def compose(self):
        yield Static("", id="prompt")
        yield ChoiceList(id="options")

    def on_mount(self) -> None:
        self.decision = None
        self.selected: list = []
        self.wait("")

    # ------------------------------------------------------------ showing

    def wait(self, message: str) -> None:
        """No decision here: show what the table waits for."""
        self.decision = None
        self.selected = []
        self.query_one("#prompt", Static).update(Text(message, style="italic"))
        ol = self.query_one(ChoiceList)
        ol.clear_options()
        ol.many = False
        ol.display = False

    def show(self, decision, name: str) -> None:
        """Show a decision: its prompt and options, numbered."""
        self.decision = decision
        self.selected = []
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
        ol.set_options(self._options())
        ol.highlighted = 0 if decision.options or self._declinable or decision.many else None
        ol.focus()

    @property
    def _declinable(self) -> bool:
        d = self.decision
        return d is not None and not d.many and d.min == 0

    def _options(self) -> list:
        d = self.decision
        out = []
        taken = {d.keys[j]: j for j in self.selected} if d.keys is not None else {}
        for i, o in enumerate(d.options):
            t = Text(f"{i + 1}. " if i < 9 else "   ", style="bold")
            if d.many:
                t.append("[x] " if i in self.selected else "[ ] ")
            alike = i not in self.selected and d.keys is not None and d.keys[i] in taken
            t.append(o.label, style="dim" if alike else "")
            if alike:  # a `distinct` choice: one like it is chosen (choosing this one swaps them)
                t.append(f"  (like {d.options[taken[d.keys[i]]].label}, chosen)", style="dim italic")
            out.append(Option(t, id=str(i)))
        if self._declinable:
            out.append(Option(Text("   (none: decline)", style="italic"), id=DECLINE))
        if d.many:
            n = len(self.selected)
            ok = d.min <= n <= d.max
            out.append(Option(Text(f"   ✓ confirm ({n} chosen)" if ok else f"   ({n} chosen)",
                                   style="bold" if ok else "dim"), id=CONFIRM))
        return out

    # ------------------------------------------------------------ answering

    def toggle(self, i: int) -> None:
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
        ol = self.query_one(ChoiceList)
        keep = ol.highlighted
        ol.set_options(self._options())
        ol.highlighted = keep

    def pick_number(self, n: int) -> None:
        """Number key n (from 1): pick option n, or toggle it in a multi-pick."""
        d = self.decision
        if d is None or not 1 <= n <= len(d.options):
            return
        if d.many:
            self.query_one(ChoiceList).highlighted = n - 1
            self.toggle(n - 1)
        else:
            self._answer(n - 1)

    def confirm(self) -> None:
        d = self.decision
        if d is None:
            return
        if not d.many:
            ol = self.query_one(ChoiceList)
            if ol.highlighted is not None:
                opt = ol.get_option_at_index(ol.highlighted)
                self._answer(None if opt.id == DECLINE else int(opt.id))
            return
        if d.min <= len(self.selected) <= d.max:
            self._answer(list(self.selected))  # in the order chosen (discards: the last on top)
        else:
            self.app.bell()

    def _answer(self, choice) -> None:
        d = self.decision
        self.decision = None
        self.post_message(self.Answered(d, choice))

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        d = self.decision
        if d is None:
            return
        if event.option.id == DECLINE:
            self._answer(None)
        elif event.option.id == CONFIRM:
            self.confirm()
        elif d.many:
            self.toggle(int(event.option.id))
        else:
            self._answer(int(event.option.id))

    def on_choice_list_confirm(self, event: ChoiceList.Confirm) -> None:
        event.stop()
        self.confirm()

    def on_choice_list_toggle(self, event: ChoiceList.Toggle) -> None:
        event.stop()
        self.toggle(event.index)

