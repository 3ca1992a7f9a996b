"""The table: every zone and counter of a view, drawn from what the ruleset declares.

Shared zones first, then each player's zones and counters (a counter declared `show: false` is
left out; one kept per key is a line of its own; a track, a row of spaces with the next one's data). Hidden cards are face-down markers; a
hidden card whose back shows (a card kind's `back`) is a marker in its back's colour (when a back
value names one), and the count says how many of each back: "3 face down: 2 blue, 1 red". A
zone whose `group` names an attribute is drawn one group a line; when every visible card of a zone
has an integer `value`, groups and zones show their totals. Card labels keep their own words, so a
colour (when an attribute value names one) is never shown by colour alone. Marks (tokens on a card)
follow its label in brackets: "card 5 [token 10]".
"""
from __future__ import annotations

from functools import lru_cache

from rich.text import Text
from textual.widgets import Static

from interpreter import tracks

FACE_DOWN = "▮"
MANY = 8  # more face-down cards than this are shown as a count only


def humanize(name: str) -> str:
    return str(name).replace("_", " ")


@lru_cache(maxsize=256)
def colour_style(word) -> str:
    """A text style for an attribute value that names a colour (any CSS colour name), else ''."""
    if not isinstance(word, str) or not word.isalpha():
        return ""
    from textual.color import Color, ColorParseError

    try:
        c = Color.parse(word)
    except (ColorParseError, ValueError):
        return ""
    if c.brightness < 0.45:  # keep dark colours readable on a dark background
        c = c.lighten(0.25)
    return f"bold {c.hex6}"


def card_style(card: dict) -> str:
    for k, v in card.items():
        if k in ("label", "id", "kind", "marks"):
            continue
        s = colour_style(v)
        if s:
            return s
    return ""


def mark_defaults(spec) -> dict:
    """mark name -> its declared default value (a mark at its default is not shown)."""
    out = {}
    for name, d in (getattr(spec, "marks", None) or {}).items():
        if isinstance(d, dict) and "default" in d:
            out[name] = d["default"]
    return out


def marks_text(marks, defaults: dict | None = None) -> str:
    """Tokens on a card, compactly: 'name value, name' (a mark set to true shows its name only;
    unset ones, none, false or the mark's default, are left out); '' when there are none."""
    if not isinstance(marks, dict):
        return ""
    defaults = defaults or {}
    out = []
    for k, v in marks.items():
        if v is None or v is False or (k in defaults and v == defaults[k] and type(v) is type(defaults[k])):
            continue
        out.append(humanize(k) if v is True else f"{humanize(k)} {humanize(v)}")
    return ", ".join(out)


def back_style(card: dict) -> str:
    """A hidden card's marker style: its back's colour when a back value names one, else dim."""
    for v in (card.get("back") or {}).values():
        s = colour_style(v)
        if s:
            return s
    return "dim"


def back_words(card: dict) -> str:
    """What a hidden card's back shows, as words ('blue'), or '' when it shows nothing."""
    return " ".join(humanize(v) for v in (card.get("back") or {}).values())


def hidden_text(hidden: list) -> Text:
    """Face-down cards: a marker each (in its back's colour) when few, then how many, and how many
    of each back when their backs show: '▮▮▮ 3 face down: 2 blue, 1 red'; a pile whose top card
    alone shows its back: '12 face down, top red'."""
    out = Text()
    n = len(hidden)
    backs: dict = {}
    for c in hidden:
        w = back_words(c)
        if w:
            backs.setdefault(w, [0, back_style(c)])[0] += 1
    if not backs:  # no back shows: plain markers
        if n <= MANY:
            out.append(FACE_DOWN * n + " ", style="dim")
        out.append(f"{n} face down", style="dim")
        return out
    if n <= MANY:
        for c in hidden:
            out.append(FACE_DOWN, style=back_style(c))
        out.append(" ")
    out.append(f"{n} face down", style="dim")
    if n > 1 and len(backs) == 1 and back_words(hidden[-1]) and not any(back_words(c) for c in hidden[:-1]):
        w, (_, style) = next(iter(backs.items()))
        out.append(", top ", style="dim")
        out.append(w, style=style)
        return out
    out.append(": ", style="dim")
    for i, (w, (k, style)) in enumerate(backs.items()):
        if i:
            out.append(", ", style="dim")
        out.append(f"{k} " if n > 1 else "", style="dim")
        out.append(w, style=style)
    plain = n - sum(k for k, _ in backs.values())
    if plain:
        out.append(f", {plain} other", style="dim")
    return out


def card_text(card: dict, defaults: dict | None = None) -> Text:
    """A card's label in its colour (when an attribute names one), then its marks in brackets."""
    if card.get("hidden"):
        return Text(FACE_DOWN, style=back_style(card))
    t = Text(str(card.get("label", "?")), style=card_style(card))
    marks = marks_text(card.get("marks"), defaults)
    if marks:
        t.append(f" [{marks}]", style="italic")
    return t


def has_values(cards: list) -> bool:
    shown = [c for c in cards if not c.get("hidden")]
    return bool(shown) and all(type(c.get("value")) is int for c in shown)


def cards_text(cards: list, defaults: dict | None = None) -> Text:
    """Labels of the visible cards, then the face-down ones as markers (or a count)."""
    out = Text()
    shown = [c for c in cards if not c.get("hidden")]
    hidden = [c for c in cards if c.get("hidden")]
    for i, c in enumerate(shown):
        if i:
            out.append(", ")
        out.append_text(card_text(c, defaults))
    if hidden:
        if shown:
            out.append(" + ")
        out.append_text(hidden_text(hidden))
    if not cards:
        out.append("—", style="dim")
    return out


def total(cards: list) -> int:
    return sum(c.get("worth", c["value"]) for c in cards if not c.get("hidden"))


def zone_lines(title: str, cards: list, group: str | None, indent: str = "", defaults: dict | None = None) -> list:
    """One zone as lines of Text: 'title: cards' or a title then one line per group."""
    values = has_values(cards)
    shown = [c for c in cards if not c.get("hidden")]
    head = Text(indent)
    head.append(title, style="bold")
    if group and shown:
        groups: dict = {}
        for c in shown:
            groups.setdefault(c.get(group), []).append(c)
        head.append(f" ({len(cards)})" if not values else f" (total {total(cards)})")
        lines = [head]
        for key, cs in groups.items():
            t = Text(indent + "  ")
            t.append(str(key), style=colour_style(key) or "bold")
            t.append(": ")
            t.append_text(cards_text(cs, defaults))
            if values:
                t.append(f"  = {total(cs)}", style="bold")
            lines.append(t)
        hidden = [c for c in cards if c.get("hidden")]
        if hidden:
            lines.append(Text(indent + "  ").append_text(cards_text(hidden)))
        return lines
    head.append(": ")
    head.append_text(cards_text(cards, defaults))
    if values and len(shown) > 1:
        head.append(f"  = {total(cards)}", style="bold")
    return [head]


def counter_value(spec_counters: dict, name: str, value, names: list) -> str:
    if isinstance(value, dict):  # one per key (a seat's counter per player and per key)
        return ", ".join(f"{humanize(k)} {counter_value(spec_counters, name, v, names)}" for k, v in value.items())
    d = spec_counters.get(name)
    if isinstance(d, dict) and d.get("seat") and isinstance(value, int) and 0 <= value < len(names):
        return names[value]
    if value is True:
        return "yes"
    if value is False:
        return "no"
    return "—" if value is None else str(value)


def shown_counters(spec) -> set:
    """The counters the table draws: all but those declared `show: false`."""
    return {n for n, d in (spec.counters or {}).items() if not (isinstance(d, dict) and d.get("show") is False)}


def keyed_text(value: dict, spec_counters: dict, name: str, names: list) -> Text:
    """A counter per key: 'blue 1, brown 0, ...' with each key in its colour when it names one."""
    t = Text()
    for i, (k, v) in enumerate(value.items()):
        if i:
            t.append(", ")
        t.append(humanize(k), style=colour_style(k))
        t.append(f" {counter_value(spec_counters, name, v, names)}")
    return t


def track_text(reached, spaces: list) -> Text:
    """A marker on a track: '■■■□□ 3/5 · next: colour red, price 3' (the next space's data, each
    value in its colour when it names one)."""
    if not isinstance(reached, int) or isinstance(reached, bool):
        return Text(str(reached))
    n = len(spaces)
    k = max(0, min(reached, n))
    t = Text("■" * k, style="bold")
    t.append("□" * (n - k), style="dim")
    t.append(f" {reached}/{n}")
    if k < n:
        t.append("  next: ", style="dim")
        for i, (thing, value) in enumerate(spaces[k].items()):
            if i:
                t.append(", ")
            t.append(f"{humanize(thing)} ")
            t.append(humanize(value), style=colour_style(value))
    else:
        t.append("  complete", style="dim")
    return t


def player_counter_lines(view: dict, spec, p: int, shown: set) -> tuple:
    """Player p's counters: (Text for the head line: plain values; lines: one per counter kept per
    key, and one per track)."""
    cdefs = spec.counters or {}
    names = view["names"]
    head, lines = Text(), []
    for name, value in view["counters"].items():
        if not isinstance(value, list) or name not in shown:
            continue
        mine = value[p]
        track = tracks.spaces(spec, name)
        if track is not None and isinstance(mine, dict):  # a track per key: a line each
            for k, v in mine.items():
                line = Text(f"  {humanize(name)} ", style="bold")
                line.append(humanize(k), style=colour_style(k))
                line.append(" ")
                line.append_text(track_text(v, track.get(k) or track.get(None) or []))
                lines.append(line)
        elif track is not None:
            line = Text(f"  {humanize(name)} ", style="bold")
            line.append_text(track_text(mine, track.get(None) or []))
            lines.append(line)
        elif isinstance(mine, dict):
            line = Text(f"  {humanize(name)}: ", style="bold")
            line.append_text(keyed_text(mine, cdefs, name, names))
            lines.append(line)
        else:
            head.append(f"  ·  {humanize(name)}: {counter_value(cdefs, name, mine, names)}")
    return head, lines


def render_table(view: dict, spec, you: int | None = None) -> Text:
    """The whole table of a view as Text (spec: the ruleset's spec, for zone groups and counters)."""
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
        if isinstance(value, dict):
            glob.append_text(keyed_text(value, cdefs, name, names))
        else:
            glob.append(counter_value(cdefs, name, value, names))
    if glob:
        lines.append(glob)

    # shared zones, keyed ones (one per item of a list) gathered under their name
    shared: dict = {}
    for z in view["zones"]:
        if z["owner"] is None:
            shared.setdefault(z["name"], []).append(z)
    for name, zs in shared.items():
        group = (zdefs.get(name) or {}).get("group")
        if len(zs) == 1 and zs[0]["key"] is None:
            lines.extend(zone_lines(humanize(name), zs[0]["cards"], group, defaults=md))
        elif not group:  # one line: "name: key cards · key cards"
            t = Text(humanize(name), style="bold")
            t.append(": ")
            for i, z in enumerate(zs):
                if i:
                    t.append("  ·  ")
                t.append(str(z["key"]), style=colour_style(z["key"]))
                t.append(" ")
                t.append_text(cards_text(z["cards"], md))
            lines.append(t)
        else:
            lines.append(Text(humanize(name), style="bold"))
            for z in zs:
                lines.extend(zone_lines(str(z["key"]), z["cards"], group, indent="  ", defaults=md))

    # each player's counters and zones (empty zones left out)
    for p, pname in enumerate(names):
        lines.append(Text(""))
        head = Text("▸ " if p == you else "  ")
        head.append(pname, style="bold reverse" if p == you else "bold underline")
        if p == you:
            head.append(" (you)")
        if p in waiting:
            head.append("  … deciding", style="italic")
        plain, counter_lines = player_counter_lines(view, spec, p, shown)
        head.append_text(plain)
        lines.append(head)
        lines.extend(counter_lines)
        any_zone = False
        for z in view["zones"]:
            if z["owner"] != p or not z["cards"]:
                continue
            any_zone = True
            lines.extend(zone_lines(humanize(z["name"]), z["cards"], (zdefs.get(z["name"]) or {}).get("group"),
                                    indent="  ", defaults=md))
        if not any_zone:
            lines.append(Text("  no cards", style="dim"))
    return Text("\n").join(lines)


class TableView(Static):
    """Shows one view of the table (or nothing while the table is covered)."""

    text = ""  # the plain text shown (for tests and for reading the screen)

    def show(self, view: dict | None, spec=None, you: int | None = None) -> None:
        t = Text("(the table is hidden)", style="dim") if view is None else render_table(view, spec, you)
        self.text = t.plain
        self.update(t)
