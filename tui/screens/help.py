"""Help: the keys, the game's text, the variants (tiles) in use, its zones, counters and marks, and the
text of every rule that has one."""
from __future__ import annotations

from rich.text import Text
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

KEYS = ("Keys: 1-9 pick an option (toggle in a multi-pick) · arrows + Enter pick · space toggles · "
        "Enter confirms a multi-pick · mouse clicks work · s save · l load · ? help · q quit")


def _flat(text) -> str:
    return " ".join(str(text).split())


def help_text(rules) -> Text:
    spec = rules.spec
    t = Text()
    t.append(rules.title + "\n", style="bold underline")
    if spec.game.get("text"):
        t.append(_flat(spec.game["text"]) + "\n")
    for title, text in (spec.game.get("help") or {}).items():  # how to play, the ruleset's words
        t.append(f"\n{title}\n", style="bold underline")
        t.append(_flat(text) + "\n")
    t.append("\n" + KEYS + "\n", style="italic")
    t.append_text(variants_text(rules))
    texts = rules.procedure_texts()
    if texts:
        t.append("\nPowers and rules\n", style="bold underline")
        for name, txt in texts.items():
            t.append(f"\n{name.replace('_', ' ')}\n", style="bold")
            t.append(_flat(txt) + "\n")
    zones = [(n, z) for n, z in spec.zones.items() if isinstance(z, dict) and z.get("text")]
    if zones:
        t.append("\nZones\n", style="bold underline")
        for name, z in zones:
            t.append(name.replace("_", " "), style="bold")
            t.append(f": {_flat(z['text'])} (visible to: {z.get('visible', 'all')})\n")
    counters = [(n, c) for n, c in (spec.counters or {}).items() if isinstance(c, dict) and c.get("text")]
    if counters:
        t.append("\nCounters\n", style="bold underline")
        for name, c in counters:
            t.append(name.replace("_", " "), style="bold")
            t.append(f": {_flat(c['text'])}\n")
    marks = [(n, m) for n, m in (getattr(spec, "marks", None) or {}).items() if isinstance(m, dict) and m.get("text")]
    if marks:
        t.append("\nMarks (shown after a card in brackets)\n", style="bold underline")
        for name, m in marks:
            t.append(name.replace("_", " "), style="bold")
            t.append(f": {_flat(m['text'])}\n")
    return t


def variants_text(rules) -> Text:
    """The variants the game is played with (tiles first by key), each with its own text."""
    from ..tiles import variants_in_use
    from ..widgets.table import colour_style

    used = variants_in_use(rules)
    t = Text()
    if not used:
        return t
    t.append("\nPlayed with\n", style="bold underline")
    for info, name in sorted(used, key=lambda u: not (u[0] is not None and u[0].fills)):
        t.append("\n")
        if info is None:
            t.append(name + "\n", style="bold")
            continue
        keys = [k for _, k in info.fill_keys]
        for k in keys:
            t.append(f"{k} ", style=colour_style(k) or "bold")
        t.append(info.title or name, style="bold")
        about = ", ".join(x for x in (info.family, f"tile {info.letter}" if info.letter else "") if x)
        if about:
            t.append(f" ({about})")
        t.append("\n")
        if info.text:
            t.append(_flat(info.text) + "\n")
    return t


class HelpScreen(ModalScreen):
    BINDINGS = [Binding("escape,q,question_mark,f1", "close", "Close")]

    def __init__(self, rules) -> None:
        super().__init__()
        self.rules = rules

    def compose(self):
        with VerticalScroll(id="help"):
            yield Static(help_text(self.rules), id="help-text")

    def on_mount(self) -> None:
        self.query_one("#help").focus()

    def action_close(self) -> None:
        self.dismiss(None)
