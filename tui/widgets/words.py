"""Words at the table: a name as people read it, and the style of a word that names a colour."""
from __future__ import annotations

from functools import lru_cache


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
