"""The card reader (key c): every card the seat at the keyboard can see, listed by where it lies
(the cards of the option highlighted in the decision panel first, then the seat's own zones, the
shared ones, the other seats'), and the highlighted card in full: its label, its kind's text, its
attributes (those its label does not already say), what it counts for, its marks and the texts of the rules it carries
(Game.read_card). The list comes from the seat's view, so a card it may not see is never listed:
face-down cards are one line that says only what their backs show. Nothing here names a game."""
from __future__ import annotations

import re

from rich.text import Text
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from ...interpreter.engine.option_groups import cards_in
from ..widgets.card_text import card_style, hidden_text, mark_defaults, marks_text
from ..widgets.words import humanize
from .closing import ClosesOnce, if_open

HIDDEN = "hidden-"  # an entry's id: HIDDEN + its number, for a line of face-down cards
CARD = "card-"  # CARD + its number, for a card


class Entry:
    """A line of the reader's list: a card (its reading, how many alike lie there) or face-down
    cards (what the view gives of them)."""

    __slots__ = ("where", "reading", "count", "hidden")

    def __init__(self, where: str, reading: dict | None = None, count: int = 1, hidden: list | None = None):
        self.where = where
        self.reading = reading
        self.count = count
        self.hidden = hidden


def _same(reading: dict) -> tuple:
    return repr({k: v for k, v in reading.items() if k != "id"})


def _zone_title(spec, z: dict, names: list, viewer) -> str:
    d = spec.zones.get(z["name"]) if isinstance(spec.zones.get(z["name"]), dict) else {}
    title = d.get("title") or humanize(z["name"])
    if z["key"] is not None and not (z["owner"] is not None and z["key"] == z["owner"]):  # per player: its seat
        title += f" {humanize(z['key'])}"
    if z["owner"] is None:
        return title
    return f"your {title}" if z["owner"] == viewer else f"{names[z['owner']]}'s {title}"


def _zone_entries(game, viewer, z: dict, where: str) -> list:
    out: list = []
    alike: dict = {}
    for info in z["cards"]:
        if info.get("hidden"):
            continue
        r = game.read_card(info.get("id"), viewer)
        if not r or r.get("hidden"):
            continue
        key = _same(r)
        if key in alike:
            alike[key].count += 1
        else:
            alike[key] = Entry(where, r)
            out.append(alike[key])
    hidden = [c for c in z["cards"] if c.get("hidden")]
    if hidden:
        out.append(Entry(where, hidden=hidden))
    return out


def option_cards(game, viewer, values: list, places: dict | None = None) -> list:
    """Entries for the cards of these option values that the viewer knows, each once (places:
    card id -> where it lies)."""
    out, seen = [], set()
    for v in values:
        for c in cards_in(v):
            r = game.read_card(c, viewer)
            if c in seen or not r or r.get("hidden"):
                continue
            seen.add(c)
            out.append(Entry((places or {}).get(c, "the highlighted option"), r))
    return out


def sections(game, viewer, highlighted: list = ()) -> list:
    """[(title, [Entry, ...]), ...]: the highlighted option's cards, the viewer's
    own zones, the shared zones and each other seat's, from the viewer's view (empty ones left out)."""
    view = game.view(viewer)
    spec = game.rules.spec
    names = view["names"]
    out = []
    places = {c["id"]: _zone_title(spec, z, names, viewer) for z in view["zones"] for c in z["cards"] if "id" in c}
    first = option_cards(game, viewer, highlighted, places)
    if first:  # (every option's cards lie in some zone below too)
        out.append(("the highlighted option", first))
    order = ([viewer] if viewer is not None else []) + [None] + [p for p in range(len(names)) if p != viewer]
    for owner in order:
        for z in view["zones"]:
            if z["owner"] != owner or not z["cards"]:
                continue
            where = _zone_title(spec, z, names, viewer)
            entries = _zone_entries(game, viewer, z, where)
            if entries:
                out.append((where, entries))
    return out


def entry_label(e: Entry, defaults: dict) -> Text:
    if e.hidden is not None:
        return hidden_text(e.hidden)
    r = e.reading
    t = Text(str(r["label"]), style=card_style(dict(r["attributes"])))
    m = marks_text(r.get("marks"), defaults)
    if m:
        t.append(f" [{m}]", style="italic")
    if e.count > 1:
        t.append(f" ×{e.count}", style="bold")
    return t


def _long(v) -> bool:
    return isinstance(v, str) and " " in v.strip()


def _in_label(label: str, v) -> bool:
    """Whether the card's label already says attribute value v (as a whole word or words): the
    reader leaves it out ("blue Prince" needs no "name prince", "title Prince")."""
    w = humanize(v).casefold().strip()
    return bool(w) and re.search(r"(?<!\w)" + re.escape(w) + r"(?!\w)", humanize(label).casefold()) is not None


def details(r: dict) -> list:
    """A reading's attributes that its label does not already say: [(name, value), ...]."""
    return [(k, v) for k, v in r["attributes"] if not _in_label(str(r["label"]), v)]


def reading_text(e: Entry, defaults: dict | None = None) -> Text:
    """An entry in full: a card's reading, or what face-down cards show (their backs only)."""
    t = Text()
    if e.hidden is not None:
        t.append(f"{len(e.hidden)} face-down card{'s' if len(e.hidden) != 1 else ''}", style="bold")
        t.append(f" ({e.where})\n\n")
        t.append("You cannot see their faces; all that shows of them:\n")
        t.append_text(hidden_text(e.hidden))
        return t
    r = e.reading
    attrs = dict(r["attributes"])
    t.append(str(r["label"]), style=f"bold {card_style(attrs)}".strip())
    if e.count > 1:
        t.append(f" ×{e.count}", style="bold")
    t.append(f"  ({e.where})\n", style="dim")
    if r.get("kind_text"):
        t.append(r["kind_text"] + "\n", style="italic")
    shown = details(r)
    short = [(k, v) for k, v in shown if not _long(v)]
    if short:
        t.append("\n")
        for i, (k, v) in enumerate(short):
            if i:
                t.append(" · ", style="dim")
            t.append(f"{humanize(k)} ", style="bold")
            t.append(humanize(v) if isinstance(v, str) else str(v))
        t.append("\n")
    for k, v in shown:
        if _long(v):  # (the card's own `text` reads as a paragraph, without its name)
            t.append("\n" if k == "text" else f"\n{humanize(k)}: ", style="bold")
            t.append(" ".join(v.split()) + "\n")
    if "worth" in r:
        t.append("\ncounts for: ", style="bold")
        t.append(f"{r['worth']}\n")
    m = marks_text(r.get("marks"), defaults)
    if m:
        t.append("\non it: ", style="bold")
        t.append(m + "\n")
    for name, text in r.get("powers") or ():
        t.append(f"\n{humanize(name)}: ", style="bold")
        t.append(text + "\n")
    return t


def highlighted_values(panel) -> list:
    """The values of the option(s) on the decision panel's highlighted line ([]: no decision, or
    a line that is no option)."""
    from ..widgets.choice_list import ROW, ChoiceList

    d = getattr(panel, "decision", None)
    if d is None:
        return []
    ol = panel.query_one(ChoiceList)
    if ol.highlighted is None or not ol.option_count:
        return []
    oid = ol.get_option_at_index(ol.highlighted).id or ""
    rows = getattr(panel, "rows", None) or []
    if not oid.startswith(ROW) or not oid[len(ROW):].isdigit() or int(oid[len(ROW):]) >= len(rows):
        return []
    return [_value(d.options[m]) for m in rows[int(oid[len(ROW):])].members if 0 <= m < len(d.options)]


def _value(option):
    """An option's value; a remote option's (the server never sends values) as the cards it names
    that the seat knows (the server's `cards`)."""
    from ...interpreter.runtime.state import Card

    if option.value is None and getattr(option, "cards", ()):
        return tuple(Card(c) for c in option.cards)
    return option.value


class CardsScreen(ClosesOnce, ModalScreen):
    """Every card the seat can see, each readable in full."""

    DEFAULT_CSS = """
    CardsScreen { align: center middle; }
    #cards { width: 100%; height: 100%; border: round $accent; background: $surface; }
    #cards-list { width: 2fr; min-width: 24; height: 100%; border: none; }
    #card-scroll { width: 3fr; height: 100%; padding: 0 1; }
    """
    BINDINGS = [Binding("escape,q,c", "close", "Close")]

    def __init__(self, game, viewer, highlighted: list = ()) -> None:
        super().__init__()
        self.game = game
        self.viewer = viewer
        self.defaults = mark_defaults(game.rules.spec)
        self.entries: list = []
        self.lines: list = []
        for title, entries in sections(game, viewer, highlighted):
            self.lines.append(Option(Text(title, style="bold underline"), disabled=True))
            for e in entries:
                self.lines.append(Option(Text("  ").append_text(entry_label(e, self.defaults)),
                                         id=f"{HIDDEN if e.hidden is not None else CARD}{len(self.entries)}"))
                self.entries.append(e)

    def compose(self):
        with Horizontal(id="cards"):
            yield OptionList(*self.lines, id="cards-list")
            with VerticalScroll(id="card-scroll"):
                yield Static("", id="card-text")

    @if_open
    def on_mount(self) -> None:
        box = self.query_one("#cards")
        box.border_title = "Cards you can see"
        box.border_subtitle = "↑↓ read · Esc close"
        ol = self.query_one(OptionList)
        ol.focus()
        first = next((i for i, o in enumerate(self.lines) if not o.disabled), None)
        if first is None:
            self.query_one("#card-text", Static).update(Text("No card is in sight.", style="dim"))
        else:
            ol.highlighted = first
            self.show_entry(first)

    @property
    def shown(self) -> Entry | None:
        """The entry read now (None: none)."""
        ol = self.query_one(OptionList)
        if ol.highlighted is None:
            return None
        oid = ol.get_option_at_index(ol.highlighted).id or ""
        return self.entries[int(oid.split("-")[1])] if oid else None

    def show_entry(self, index: int) -> None:
        oid = self.lines[index].id or ""
        if not oid:
            return
        e = self.entries[int(oid.split("-")[1])]
        self.query_one("#card-text", Static).update(reading_text(e, self.defaults))
        self.query_one("#card-scroll").scroll_home(animate=False)

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        self.show_entry(event.option_index)

    def action_close(self) -> None:
        self.dismiss(None)
