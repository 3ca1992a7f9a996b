"""The table: every zone and counter of a view, drawn from what the ruleset declares.

Shared zones first, then each player's standing (the ruleset's `standing(p)`), counters (a counter
declared `show: false` is left out; one kept per key is a line of its own; a track, a row of spaces
with the next one's data) and zones. Hidden cards are face-down markers; a hidden card whose back
shows (a card kind's `back`) is a marker in its back's colour (when a back value names one), and
the count says how many of each back: "3 face down: 2 blue, 1 red". Identical cards side by side
are one piece with a count ("green 4 ×2"). A zone whose `group` names an attribute is drawn one
group a line. Totals only where the ruleset asks: a zone's `total` adds that attribute of the
cards the player sees (each group's, and its `adds` zone's cards of that group), a face-down card
counted as not known; `limit` shows each group against another zone's group total. Card labels
keep their own words, so a colour (when an attribute value names one) is never shown by colour
alone. Marks (tokens on a card) follow its label in brackets: "card 5 [token 10]". A zone whose
size the seat may not see (`size: hidden`) shows the cards it knows there and "? cards", never a
count; a counter the seat may not see (`visible: owner` or `none`) shows "?".
"""
from __future__ import annotations

from rich.text import Text
from textual.widgets import Static

from .counters import (counter_value, is_secret, keyed_text, player_counter_lines, shown_counters,  # noqa: F401
                       standing_text)
from .card_text import cards_text, mark_defaults, pile_text, unsized_text
from .words import colour_style, humanize  # noqa: F401

LINES = 3  # the most lines a zone that is not the seat's own takes at the table (its cards: key c)


def total(cards: list, attr: str = "value") -> int:
    """What the visible cards add up to: each card's `worth` when the ruleset gives one, else attr."""
    return sum(c.get("worth", c.get(attr)) or 0 for c in cards
               if not c.get("hidden") and isinstance(c.get("worth", c.get(attr)), int))


class Zones:
    """The zones of a view by (name, key, owner), with what the ruleset declares for the table."""

    def __init__(self, view: dict, spec):
        self.defs = spec.zones
        self.by = {(z["name"], z["key"], z["owner"]): z["cards"] for z in view["zones"]}
        self.unsized = {(z["name"], z["key"], z["owner"]) for z in view["zones"] if z.get("size_hidden")}
        self.added = {d["adds"] for d in self.defs.values() if isinstance(d, dict) and d.get("adds")}
        self.over = bool(view.get("over"))

    def group_cards(self, zone: tuple, key, group: str) -> tuple:
        """(the visible cards of the group key of zone (name, key, owner), the cards of the zone
        it adds in for that group)."""
        d = self.defs.get(zone[0]) or {}
        cards = [c for c in self.by.get(zone, []) if c.get(group) == key and not c.get("hidden")]
        extra = self.by.get((d.get("adds"), key, None), []) if d.get("adds") else []
        return cards, extra

    def group_total(self, zone: tuple, key) -> tuple:
        """(the known total of the group key of zone (name, key, owner), its face-down cards)."""
        d = self.defs.get(zone[0]) or {}
        cards, extra = self.group_cards(zone, key, d.get("group"))
        both = cards + extra
        return total(both, d.get("total")), sum(1 for c in both if c.get("hidden"))


def total_text(known: int, unknown: int) -> str:
    return f"{known}" + (f" + {unknown} face down" if unknown else "")


def zone_lines(zones: Zones, name: str, key, owner, indent: str = "", defaults: dict | None = None,
               title: str | None = None, room: int | None = None) -> list:
    """One zone as lines of Text: 'title: cards' or a title then one line per group (its `adds`
    zone's cards in it, its total and the limit it is held to when the ruleset declares them).
    room: at most this many characters of cards a line (a long zone is compact: cards_text)."""
    d = zones.defs.get(name) or {}
    cards = zones.by.get((name, key, owner), [])
    if (name, key, owner) in zones.unsized:  # its size hidden: the cards the viewer knows, no count
        head = Text(indent)
        head.append(title or d.get("title") or humanize(name), style="bold")
        head.append(": ")
        return [head.append_text(unsized_text(cards, defaults))]
    if d.get("visible") == "top":  # a face-up pile: its top card and its count
        head = Text(indent)
        head.append(title or d.get("title") or humanize(name), style="bold")
        return [head.append(": ").append_text(pile_text(cards, defaults))]
    group, attr = d.get("group"), d.get("total")
    shown = [c for c in cards if not c.get("hidden")]
    head = Text(indent)
    head.append(title or d.get("title") or humanize(name), style="bold")
    keys = list(dict.fromkeys(c.get(group) for c in shown)) if group else []
    if group and d.get("adds"):  # groups with added cards only (a modifier over an empty colour)
        keys += [k for (n, k, o), cs in zones.by.items() if n == d["adds"] and cs and k not in keys]
    if group and keys:
        head.append(f" ({len(cards)})")
        lines = [head]
        for k in keys:
            mine, extra = zones.group_cards((name, key, owner), k, group)
            t = Text(indent + "  ")
            t.append(str(k), style=colour_style(k) or "bold")
            t.append(": ")
            t.append_text(cards_text(mine, defaults, _room(room, t)))
            if extra:
                t.append(" + ")
                t.append_text(cards_text(extra, defaults))
            if attr:
                known, unknown = zones.group_total((name, key, owner), k)
                t.append(f"  = {total_text(known, unknown)}", style="bold")
                if d.get("limit") and not zones.over:  # (once the game is over no limit is checked)
                    limit, hidden = zones.group_total((d["limit"], None, None), k)
                    t.append(f"  ({d.get('limit_title') or 'limit'} {total_text(limit, hidden)})")
                    if known > limit and not hidden:
                        t.append(" over", style="bold red")
            lines.append(t)
        hidden = [c for c in cards if c.get("hidden")]
        if hidden:
            lines.append(Text(indent + "  ").append_text(cards_text(hidden)))
        return lines
    text = cards_text(cards, defaults, _room(room, head))
    if len(text.plain) < len(cards_text(cards, defaults).plain):  # compact: how many in all
        head.append(f" ({len(cards)})")
    head.append(": ")
    head.append_text(text)
    if attr and shown:
        head.append(f"  = {total_text(total(cards, attr), len(cards) - len(shown))}", style="bold")
    return [head]


def _room(room: int | None, line: Text) -> int | None:
    return None if room is None else max(20, room - len(line.plain) - 8)


def render_table(view: dict, spec, you: int | None = None, width: int | None = None) -> Text:
    """The whole table of a view as Text (spec: the ruleset's spec, for zone groups and counters):
    the counters every seat shares, then the seat `you` (its own area, seen first), the shared
    zones, the other seats. width (the table's, in characters): a zone not the seat's own takes at
    most LINES lines of that width (its other cards as a count: the card reader lists them)."""
    return Text("\n").join(table_lines(view, spec, you, width)[0])


def table_lines(view: dict, spec, you: int | None = None, width: int | None = None) -> tuple:
    """(render_table's lines, {seat: the index of the line its area starts at})."""
    room = LINES * width if width and width > 0 else None
    view = _with_player_names(view)
    names = view["names"]
    zdefs = spec.zones
    cdefs = spec.counters or {}
    waiting = set(view.get("waiting_for") or ())
    md = mark_defaults(spec)
    shown = shown_counters(spec)
    lines: list = []

    # global counters
    glob = Text()
    for name, value in view["counters"].items():
        if isinstance(value, list) or name not in shown:
            continue
        if glob:
            glob.append("  ·  ")
        glob.append(humanize(name) + ": ", style="bold")
        if isinstance(value, dict) and not is_secret(value):
            glob.append_text(keyed_text(value, cdefs, name, names))
        else:
            glob.append(counter_value(cdefs, name, value, names))
    for title, value in view.get("shown") or ():  # values the ruleset shows to everyone
        if glob:
            glob.append("  ·  ")
        glob.append(f"{title}: ", style="bold")
        glob.append(str(value))
    if glob:
        lines.append(glob)

    zones = Zones(view, spec)
    if zones.over and any(isinstance(d, dict) and d.get("limit") for d in zdefs.values()):
        # the limits were checked when the rules checked them (their tables say so); the totals
        # left now are held to nothing, and a limit worked out now would be a false "over"
        lines.append(Text("The game is over: totals are final, no limit is checked any more.", style="italic"))
    starts: dict = {}
    if you is not None and 0 <= you < len(names):  # the seat at the keyboard first
        starts[you] = len(lines)
        lines.extend(seat_lines(view, spec, zones, you, you, waiting, md, shown, None)[1:] + [Text("")])

    # shared zones, keyed ones (one per item of a list) gathered under their name; a zone that
    # adds into another's groups is drawn there; a family made during play (per: made) shows the
    # zones made now (a view holds no other), a line each, and nothing when none is
    shared: dict = {}
    for z in view["zones"]:
        if z["owner"] is None and z["name"] not in zones.added:
            shared.setdefault(z["name"], []).append(z)
    for name, zs in shared.items():
        group = (zdefs.get(name) or {}).get("group")
        ztitle = (zdefs.get(name) or {}).get("title") or humanize(name)
        if len(zs) == 1 and zs[0]["key"] is None:
            lines.extend(zone_lines(zones, name, None, None, defaults=md, room=room))
        elif not group and (zdefs.get(name) or {}).get("per") != "made":  # one line: "name: key cards · key cards"
            t = Text(ztitle, style="bold")
            t.append(": ")
            for i, z in enumerate(zs):
                if i:
                    t.append("  ·  ")
                t.append(str(z["key"]), style=colour_style(z["key"]))
                t.append(" ")
                if z.get("size_hidden"):
                    t.append_text(unsized_text(z["cards"], md))
                elif (zdefs.get(name) or {}).get("visible") == "top":
                    t.append_text(pile_text(z["cards"], md))
                else:
                    t.append_text(cards_text(z["cards"], md))
            lines.append(t)
        else:
            lines.append(Text(ztitle, style="bold"))
            for z in zs:
                lines.extend(zone_lines(zones, name, z["key"], None, indent="  ", defaults=md, title=str(z["key"]),
                                        room=room))

    # each other seat's counters and zones (empty zones left out)
    for p in range(len(names)):
        if p != you:
            starts[p] = len(lines) + 1  # (its first line is blank)
            lines.extend(seat_lines(view, spec, zones, p, you, waiting, md, shown, room))
    return lines, starts


def seat_lines(view: dict, spec, zones: Zones, p: int, you, waiting: set, md: dict, shown: set,
               room: int | None) -> list:
    """Seat p's lines: a blank line, its head (name, standing, plain counters), its zones (empty
    ones left out; its hand is seen before its longer counters), its other counters."""
    lines: list = [Text("")]
    head = Text("▸ " if p == you else "  ")
    head.append(view["names"][p], style="bold reverse" if p == you else "bold underline")
    if p == you:
        head.append(" (you)")
    if p in waiting:
        head.append("  … deciding", style="italic")
    head.append_text(standing_text(view, p, _lowest_wins(spec)))
    plain, counter_lines = player_counter_lines(view, spec, p, shown)
    head.append_text(plain)
    lines.append(head)
    any_zone = False
    for z in view["zones"]:
        if z["owner"] != p or not (z["cards"] or z.get("size_hidden")):
            continue
        any_zone = True
        lines.extend(zone_lines(zones, z["name"], z["key"], p, indent="  ", defaults=md, room=room))
    if not any_zone:
        lines.append(Text("  no cards", style="dim"))
    lines.extend(counter_lines)
    return lines


class TableView(Static):
    """Shows one view of the table (or nothing while the table is covered)."""

    text = ""  # the plain text shown (for tests and for reading the screen)
    _shown: tuple | None = None  # what it shows (view, spec, you), drawn again at a new width
    _width = 0

    _lines: list = []
    _starts: dict = {}

    def show(self, view: dict | None, spec=None, you: int | None = None) -> None:
        self._shown = (view, spec, you)
        self._width = self.size.width
        if view is None:
            self._lines, self._starts = [Text("(the table is hidden)", style="dim")], {}
        else:
            self._lines, self._starts = table_lines(view, spec, you, self._width or None)
        t = Text("\n").join(self._lines)
        self.text = t.plain
        self.update(t)

    def seat_rows(self) -> list:
        """[(seat, the row of the table its area starts at)], top to bottom, as drawn now."""
        width = self.content_size.width
        if width <= 0:
            return []
        rows, row = {}, 0
        where = {i: p for p, i in self._starts.items()}
        for i, line in enumerate(self._lines):
            if i in where:
                rows[where[i]] = row
            row += max(1, len(line.wrap(self.app.console, width)))
        return sorted(rows.items(), key=lambda pr: pr[1])

    def on_resize(self, event) -> None:
        if self._shown is not None and event.size.width != self._width:
            self.show(*self._shown)


def _lowest_wins(spec) -> bool:
    """Whether the ruleset's lowest score wins (its game's `winner`)."""
    w = (getattr(spec, "game", None) or {}).get("winner")
    return (w.get("score") if isinstance(w, dict) else w) == "lowest"


def _with_player_names(view: dict) -> dict:
    """The view with each card that says who played it (`played_by`) given that player's name."""
    if not any("played_by" in c for z in view["zones"] for c in z["cards"]):
        return view
    names = view["names"]

    def named(c):
        p = c.get("played_by")
        return dict(c, played_by_name=names[p]) if isinstance(p, int) and 0 <= p < len(names) else c
    return dict(view, zones=[dict(z, cards=[named(c) for c in z["cards"]]) for z in view["zones"]])
