"""Help: the game's text, the keys (the game screen's own bindings, so the list cannot drift from
them, then the decision panel's), the variants (tiles) in use, the text of every rule that has one,
every card kind's text (each card of a listed kind once), its zones, counters and marks."""
from __future__ import annotations

from rich.text import Text
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from .closing import ClosesOnce, if_open

# the decision panel's keys (tui/widgets/decision.py reads them itself: they are no bindings)
PANEL_KEYS = ("1-9 pick an option (toggle in a multi-pick) · arrows + Enter pick · space toggles · "
              "Enter confirms a multi-pick (from anywhere on the screen) · / filters the options · Escape clears the filter (or goes "
              "back from a group) · mouse clicks work · Tab moves to the log and the table (arrows, "
              "PgUp and PgDn scroll them; so does the mouse wheel)")
KEY_NAMES = {"question_mark": "?", "escape": "Esc", "enter": "Enter", "space": "space",
             "right_square_bracket": "]", "left_square_bracket": "["}


def key_name(key: str) -> str:
    k = key.strip()
    return KEY_NAMES.get(k, k.upper() if len(k) == 2 and k[0] == "f" and k[1].isdigit() else k)


def screen_keys(screen) -> list:
    """[(keys, what they do), ...]: a screen's bindings (keys bound to one action as one line, a
    key bound twice, e.g. to an action and to its refusal, once; of a screen instance, those it
    offers now) and its key_* methods (their docstring's first line)."""
    out: dict = {}
    shown = None if isinstance(screen, type) else screen  # (a screen up now: only the keys it offers now)
    screen = screen if isinstance(screen, type) else type(screen)  # (an instance's properties stay unread)
    for b in getattr(screen, "BINDINGS", None) or ():
        if not isinstance(b, Binding):
            continue
        if shown is not None and hasattr(shown, "check_action") and shown.check_action(b.action, ()) is False:
            continue  # (the invitation key of a table hosted elsewhere, the last table before one was shown)
        keys = " / ".join(key_name(k) for k in b.key.split(","))
        if not any(keys == k for k in out):
            out[keys] = b.description or b.action.replace("_", " ")
    for name in sorted(dir(screen)):
        doc = (getattr(getattr(screen, name, None), "__doc__", None) or "").strip()
        if name.startswith("key_") and doc:
            out.setdefault(key_name(name[4:]), doc.splitlines()[0].rstrip("."))
    return list(out.items())


def keys_text(screen=None) -> Text:
    """The keys of the screen (bold), then the decision panel's, as one paragraph."""
    t = Text()
    for k, what in screen_keys(screen) if screen else ():
        t.append(k, style="bold")
        t.append(f" {what[:1].lower() + what[1:]} · ")
    t.append(PANEL_KEYS)
    return t


def _flat(text) -> str:
    return " ".join(str(text).split())


def help_text(rules, screen=None) -> Text:
    """The help of a ruleset (screen: the screen it is opened from, whose keys it lists)."""
    spec = rules.spec
    t = Text()
    t.append(rules.title + "\n", style="bold underline")
    if spec.game.get("text"):
        t.append(_flat(spec.game["text"]) + "\n")
    t.append("\nKeys\n", style="bold underline")
    t.append_text(keys_text(screen))
    t.append("\n")
    for title, text in (spec.game.get("help") or {}).items():  # how to play, the ruleset's words
        t.append(f"\n{title}\n", style="bold underline")
        t.append(_flat(text) + "\n")
    t.append_text(variants_text(rules))
    texts = rules.procedure_texts()
    if texts:
        t.append("\nPowers and rules\n", style="bold underline")
        for name, txt in texts.items():
            t.append(f"\n{name.replace('_', ' ')}\n", style="bold")
            t.append(_flat(txt) + "\n")
    t.append_text(cards_help(rules))
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


def cards_help(rules) -> Text:
    """Every card kind: its text, the rules its cards carry (`powers`), and each different card
    of a listed kind once, with its values (card_reading: the source `jux rules` reads too)."""
    from ...interpreter.engine.card_reading import distinct_cards, kind_text
    from ..widgets.words import humanize

    t = Text()
    kinds = list((rules.spec.cards or {}).items())
    if not kinds:
        return t
    t.append("\nCards (key c reads any card you can see)\n", style="bold underline")
    for kind, d in kinds:
        d = d if isinstance(d, dict) else {}
        t.append(f"\n{humanize(kind)}", style="bold")
        n = sum(1 for c in rules.cards if rules.card_attrs[c].get("kind") == kind)
        t.append(f" ({n} card{'s' if n != 1 else ''})")
        text = kind_text(rules, kind)
        t.append(f": {text}\n" if text else "\n")
        attrs = [(k, list(dict.fromkeys(v if isinstance(v, list) else [v])))
                 for k, v in (d.get("attributes") or {}).items()]
        if attrs:
            t.append("  " + "; ".join(f"{humanize(k)}: {', '.join(map(str, v))}" for k, v in attrs) + "\n")
        for slot, attr in (d.get("powers") or {}).items():
            table = (rules.spec.slots or {}).get(slot) or {}
            named = [f"{k}: {humanize(p)}" for k, p in table.items() if str(k) != str(p)]
            t.append(f"  A card also reads the rule its {humanize(attr)} names (see Powers and rules)"
                     + (": " + ", ".join(named) if named else "") + "\n")
        for label, count, values in distinct_cards(rules, kind):
            t.append(f"  {label}", style="bold")
            t.append(f" ×{count}" if count > 1 else "")
            short = [f"{humanize(k)} {v}" for k, v in values if " " not in v.strip()]
            long = [v for k, v in values if " " in v.strip() and v != label]
            if short:
                t.append(" (" + ", ".join(short) + ")")
            t.append((": " + " ".join(" ".join(long).split())) if long else "")
            t.append("\n")
    return t


def variants_text(rules) -> Text:
    """The variants the game is played with (tiles first by key), each with its own text."""
    from ..tiles import variants_in_use
    from ..widgets.words import colour_style

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


class HelpScreen(ClosesOnce, ModalScreen):
    BINDINGS = [Binding("escape,q,question_mark,f1", "close", "Close")]

    def __init__(self, rules) -> None:
        super().__init__()
        self.rules = rules

    def compose(self):
        stack = self.app.screen_stack  # the keys of the screen help is opened from
        under = [s for s in stack if s is not self][-1:]
        with VerticalScroll(id="help"):
            yield Static(help_text(self.rules, under[0] if under else None), id="help-text")

    @if_open
    def on_mount(self) -> None:
        self.query_one("#help").focus()

    def action_close(self) -> None:
        self.dismiss(None)
