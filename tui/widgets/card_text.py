"""How cards read at the table and in the card reader: a card's label in its style, marks in
brackets ("card 5 [token 10]"), identical cards side by side as one piece with a count
("green 4 ×2"), face-down cards as markers (in their back's colour when a back value names one)
with a count by back ("3 face down: 2 blue, 1 red"), a face-up pile as its top card and its count,
a zone of hidden size as the cards the viewer knows there and "? cards"."""
from __future__ import annotations

from rich.text import Text

from .words import colour_style, humanize  # noqa: F401

FACE_DOWN = "▮"
MANY = 8  # more face-down cards than this are shown as a count only


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
    if card.get("played_by_name"):  # who played it, in a zone that keeps it (`played_by`)
        t.append(f" ({card['played_by_name']})", style="dim")
    return t


def cards_text(cards: list, defaults: dict | None = None, room: int | None = None) -> Text:
    """Labels of the visible cards, then the face-down ones as markers (or a count). With room
    (characters), labels that would not fit are one count before the last ones (the top of a pile
    is its last card), "41 more … red 4, blue 2": the card reader (key c) lists them all."""
    out = Text()
    shown = [c for c in cards if not c.get("hidden")]
    hidden = [c for c in cards if c.get("hidden")]
    runs: list = []  # identical cards next to each other are one piece with a count
    for c in shown:
        t = card_text(c, defaults)
        if runs and runs[-1][0].plain == t.plain:
            runs[-1][1] += 1
        else:
            runs.append([t, 1])
    pieces = [t.plain + (f" ×{n}" if n > 1 else "") for t, n in runs]
    if room is not None and len(", ".join(pieces)) > room:
        room -= len(hidden_text(hidden).plain) + 3 if hidden else 0
        keep = 0
        while keep < len(runs) and len(", ".join(pieces[len(runs) - keep - 1:])) + 12 <= room:
            keep += 1
        left = sum(n for _, n in runs[:len(runs) - keep])
        out.append(f"{left} more …" + (" " if keep else ""), style="dim")
        runs = runs[len(runs) - keep:]
    for i, (t, n) in enumerate(runs):
        if i:
            out.append(", ")
        out.append_text(t)
        if n > 1:
            out.append(f" ×{n}", style="bold")
    if hidden:
        if shown:
            out.append(" + ")
        out.append_text(hidden_text(hidden))
    if not cards:
        out.append("—", style="dim")
    return out


def pile_text(cards: list, defaults: dict | None = None) -> Text:
    """A `visible: top` zone: its top card only, and how many cards it holds: 'red 4 (top of 6)'
    (no one may look through the cards under the top)."""
    if not cards:
        return Text("—", style="dim")
    out = card_text(cards[-1], defaults)
    if len(cards) > 1:
        out.append(f" (top of {len(cards)})", style="dim")
    return out


def unsized_text(cards: list, defaults: dict | None = None) -> Text:
    """A zone whose size the viewer may not see (`size: hidden`): the cards it knows there, and
    "? cards" (or "+ ? more") for how many, never a count."""
    if not cards:
        return Text("? cards", style="dim")
    return cards_text(cards, defaults).append(" + ? more", style="dim")
