"""Counters at the table: each seat's standing, plain counters on its head line, one line for a
counter kept per key, a row of spaces for a track (interpreter/checks/tracks.py). Nothing here names a
game: what is shown and how comes from the ruleset (`show`, `track`, `standing`)."""
from __future__ import annotations

from rich.text import Text

from ...interpreter.checks import tracks
from .words import colour_style, humanize

DIE_FACES = "⚀⚁⚂⚃⚄⚅"


SECRET = "?"  # a counter's value the seat may not see (`visible: owner` or `none`)


def is_secret(value) -> bool:
    """Whether a counter's value in a view is one the viewer may not see ({"hidden": true})."""
    return isinstance(value, dict) and len(value) == 1 and value.get("hidden") is True


def _card_words(value) -> str | None:
    """A card a counter holds, as a view gives it: its label, or its back ("a face-down card")."""
    if not isinstance(value, dict):
        return None
    if isinstance(value.get("label"), str) and "id" in value:
        return value["label"]
    if value.get("hidden") is True and isinstance(value.get("back"), dict):
        return f"a face-down card ({', '.join(str(v) for v in value['back'].values())})"
    return None


def counter_value(spec_counters: dict, name: str, value, names: list) -> str:
    if is_secret(value):
        return SECRET
    card = _card_words(value)
    if card is not None:
        return card
    if isinstance(value, list):  # cards (or values) a counter holds; lists of them read "; " apart
        sep = "; " if value and isinstance(value[0], list) else ", "
        return sep.join(counter_value(spec_counters, name, v, names) for v in value) or "none"
    if isinstance(value, dict):  # one per key (a seat's counter per player and per key)
        return ", ".join(f"{humanize(k)} {counter_value(spec_counters, name, v, names)}" for k, v in value.items())
    d = spec_counters.get(name)
    if isinstance(d, dict) and d.get("seat") and isinstance(value, int) and 0 <= value < len(names):
        return names[value]
    if isinstance(d, dict) and d.get("show") == "die" and type(value) is int and 1 <= value <= 6:
        return f"{DIE_FACES[value - 1]} {value}"  # a die's face, and its number
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
    """A marker on a track: '■■■□□ 3/5: points 2  next: points 3' (the data of the space reached,
    which is what the marker holds now, then the next space's; each value in its colour when it
    names one)."""
    if not isinstance(reached, int) or isinstance(reached, bool):
        return Text(str(reached))
    n = len(spaces)
    k = max(0, min(reached, n))
    t = Text("■" * k, style="bold")
    t.append("□" * (n - k), style="dim")
    t.append(f" {reached}/{n}")
    if k > 0:
        t.append(": ")
        _space_text(t, spaces[k - 1])
    if k < n:
        t.append("  next: ", style="dim")
        _space_text(t, spaces[k])
    else:
        t.append("  complete", style="dim")
    return t


def _space_text(t: Text, space: dict) -> None:
    for i, (thing, value) in enumerate(space.items()):
        if i:
            t.append(", ")
        t.append(f"{humanize(thing)} ")
        t.append(humanize(value), style=colour_style(value))


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
        if is_secret(mine):  # another seat's secret: that it has one, not what it is
            head.append(f"  ·  {humanize(name)}: {SECRET}")
            continue
        track = tracks.spaces(spec, name)
        if track is not None and isinstance(mine, dict):  # a track per key: a line each
            for k, v in mine.items():
                line = Text(f"  {humanize(name)} ", style="bold")
                line.append(humanize(k), style=colour_style(k))
                line.append(" ")
                line.append_text(track_text(v, track.get(k) or track.get(None) or []))
                lines.append(line)
        elif track is not None:  # one track, or the one a counter says is in play (`by`)
            by = tracks.selector(spec, name)
            spaces = track.get(view["counters"].get(by)) if by else track.get(None)
            line = Text(f"  {humanize(name)} ", style="bold")
            line.append_text(track_text(mine, spaces or []))
            lines.append(line)
        elif isinstance(mine, dict):
            line = Text(f"  {humanize(name)}: ", style="bold")
            line.append_text(keyed_text(mine, cdefs, name, names))
            lines.append(line)
        else:
            head.append(f"  ·  {humanize(name)}: {counter_value(cdefs, name, mine, names)}")
    return head, lines


def standing_text(view: dict, p: int, lowest: bool = False) -> Text:
    """Seat p's standing as the ruleset gives it ('  ·  score 23: cards 15, tokens 4,
    coins 4'; the score is the sum of the parts), or nothing when it gives none; where the lowest
    score wins (lowest), the score says so ('score 23 (lowest wins)')."""
    standing = view.get("standing")
    if not standing or p >= len(standing):
        return Text()
    parts = standing[p]
    t = Text("  ·  ")
    numbers = [v for _, v in parts if isinstance(v, int) and not isinstance(v, bool)]
    secret = sum(1 for _, v in parts if is_secret(v))  # (a part the viewer may not know: "?")
    said = ", ".join(f"{name} {SECRET if is_secret(v) else v}" for name, v in parts)
    if numbers and len(numbers) + secret == len(parts):
        t.append(f"score {sum(numbers)}" + (f" + {SECRET}" if secret else "") if len(numbers) else
                 f"score {SECRET}", style="bold")
        if lowest:
            t.append(" (lowest wins)", style="dim")
        if len(parts) > 1:
            t.append(": " + said)
    elif secret and secret == len(parts):
        t.append(f"score {SECRET}", style="bold")
        if len(parts) > 1:
            t.append(": " + said)
    else:
        t.append(said)
    return t
