"""The decision panel's parts (tui/widgets/decision.py) and how they share its rows.

Top to bottom: the prompt (with the lines of what cannot be chosen and why) in its box (PromptBox),
the keys' hint, the list of options (ChoiceList). The panel takes at most the rows of the side column
that it leaves room_below rows of (the log). When its parts need more rows than that, the list
keeps at least about half of them (never fewer than LIST_MIN rows, where it has that many) and the
prompt the rest (fit); each part cut short scrolls and gets one row more under it that says what is
out of sight ("… 4 lines more: ↑ reads", "↑ 3 more · ↓ 5 more"). Up on the list's first line gives
the focus to a prompt cut short (to read the rest); Escape gives it back.
"""
from __future__ import annotations

from dataclasses import dataclass

from textual.containers import Vertical
from textual.geometry import Size
from textual.widgets import Static

from .choice_list import ChoiceList
from .option_text import more_text, prompt_more_text
from .prompt_box import PromptBox

LIST_MIN = 4  # rows the list keeps (its lines permitting) however long the prompt


@dataclass(frozen=True)
class Fit:
    prompt: int  # the prompt's rows shown
    prompt_cut: bool  # the prompt has more rows than shown (a row under it says so)
    options: int  # the list's rows shown
    options_cut: bool  # the list has more rows than shown (a row under it says so)


def fit(room: int, prompt: int, hint: int, options: int) -> Fit:
    """Share room rows between a prompt of `prompt` rows, a hint of `hint` rows and a list of
    `options` rows."""
    avail = max(0, room - hint)
    if prompt + options <= avail:
        return Fit(prompt, False, options, False)
    keep = min(options, max(LIST_MIN, avail * 3 // 5))  # the list's rows, before the prompt's
    if prompt + keep <= avail:
        shown, cut = prompt, False
    else:
        shown, cut = max(1, avail - keep - 1), True
    left = avail - shown - cut
    if options <= left:
        return Fit(shown, cut, options, False)
    return Fit(shown, cut, max(1, left - 1), True)


class DecisionLayout(Vertical):
    """The decision panel's parts, and the rows each is given (DecisionPanel fills them)."""

    decision = None  # the decision shown (None: none)
    room_below = 5  # rows of the side column left to what is under the panel (the log)

    def compose(self):
        with PromptBox(id="prompt-box"):
            yield Static("", id="prompt")
        yield Static("", id="prompt-more", classes="more")
        yield Static("", id="hint")
        yield ChoiceList(id="options")
        yield Static("", id="more", classes="more")

    _width = 0  # the panel's width at its last resize
    _height = 0  # the height of the column it is in (its parent) at its last fit

    def on_mount(self) -> None:
        self.screen.screen_layout_refresh_signal.subscribe(self, self._layout_done)

    def _layout_done(self, _screen) -> None:
        """The screen's layout changed: fit again when the column the panel is in changed height."""
        if self.parent is not None and self.parent.content_size.height != self._height:
            self.fit()

    def _refresh(self, highlight: int | None = None) -> None:
        """Draw the lines again (the panel: for its width), then fit."""
        self.fit()

    def on_resize(self, event) -> None:
        if event.size.width != self._width:
            self._width = event.size.width
            self._refresh()
        else:
            self.fit()

    def fit(self) -> None:
        """Share the rows the panel may take between the prompt and the list (fit)."""
        box, ol = self.query_one(PromptBox), self.query_one(ChoiceList)
        width = self.content_size.width
        if self.decision is None or width <= 0 or self.parent is None:
            box.styles.height = ol.styles.height = "auto"
            box.can_focus = False
            self.query_one("#prompt-more").display = self.query_one("#more").display = False
            return
        self._height = self.parent.content_size.height
        room = self._height - self.room_below - self.styles.gutter.height

        def rows(widget, w) -> int:
            return widget.get_content_height(Size(w, 1000), Size(w, 1000), w) if widget.display else 0

        prompt, hint = rows(self.query_one("#prompt", Static), width), rows(self.query_one("#hint", Static), width)
        f = fit(room, prompt, hint, rows(ol, width))
        if f.options_cut:  # its scroll bar takes a column
            f = fit(room, prompt, hint, rows(ol, width - ol.styles.scrollbar_size_vertical))
        box.styles.height = f.prompt
        box.can_focus = f.prompt_cut
        ol.styles.height = f.options
        self.query_one("#prompt-more").display = f.prompt_cut
        self.query_one("#more").display = f.options_cut
        self.call_after_refresh(self._after_fit)

    def _after_fit(self) -> None:
        ol = self.query_one(ChoiceList)
        ol.scroll_to_highlight()
        self._say_more()

    def _say_more(self) -> None:
        """The rows under the prompt and the list, when cut short: what is out of sight."""
        box, ol = self.query_one(PromptBox), self.query_one(ChoiceList)
        if box.can_focus:
            self.query_one("#prompt-more", Static).update(
                prompt_more_text(round(box.scroll_y), box.lines_after(), box.has_focus))
        if self.query_one("#more").display:
            self.query_one("#more", Static).update(more_text(*ol.beyond()))

    def on_choice_list_moved(self, event: ChoiceList.Moved) -> None:
        event.stop()
        self._say_more()

    def on_prompt_box_moved(self, event: PromptBox.Moved) -> None:
        event.stop()
        self._say_more()

    def on_choice_list_top(self, event: ChoiceList.Top) -> None:
        """Up on the list's first line: read the prompt's lines out of sight, if any."""
        event.stop()
        box = self.query_one(PromptBox)
        if box.can_focus:
            box.focus()

    def on_prompt_box_done(self, event: PromptBox.Done) -> None:
        event.stop()
        self.query_one(ChoiceList).focus()
