"""The words of the effect language an editor offers (`jux lsp`): its keywords, read from the
grammar, and its built-in functions and values with what each gives (as docs/language.md says)."""
from __future__ import annotations

from functools import lru_cache

# name -> (how it is called, what it gives); tests check these are exactly the built-ins of compile.py
BUILTIN_DOCS = {
    "len": ("len(xs)", "The number of items of a list, a zone or a text."),
    "sum": ("sum(xs)", "The sum of a list, or of a generator: `sum(c.value for c in zone if ...)`."),
    "count": ("count(xs)", "How many items of a list (or of a generator) are true."),
    "any": ("any(xs)", "Whether any item of a list (or of a generator) is true."),
    "all": ("all(xs)", "Whether every item of a list (or of a generator) is true."),
    "min": ("min(xs) / min(a, b, ...)", "The smallest item (of a list, a generator or the arguments); "
            "`none` when there is none."),
    "max": ("max(xs) / max(a, b, ...)", "The largest item (of a list, a generator or the arguments); "
            "`none` when there is none."),
    "first": ("first(xs)", "The first item of a list (or of a generator), or `none`."),
    "last": ("last(xs)", "The last item of a list, or `none`."),
    "top": ("top(zone)", "The top card of a zone (its last), or `none`."),
    "max_by": ("max_by(xs, x -> key)", "The first item with the highest key, or `none`."),
    "min_by": ("min_by(xs, x -> key)", "The first item with the lowest key, or `none`."),
    "sort_by": ("sort_by(xs, x -> key)", "The list sorted by the key (stable)."),
    "reverse": ("reverse(xs)", "The list reversed."),
    "range": ("range(n) / range(a, b)", "The numbers a, a+1, ..., b-1 (from 0 with one argument)."),
    "turn_order": ("turn_order(p)", "All seats clockwise, starting at seat p."),
    "next_seat": ("next_seat(p)", "The seat to the left of p (clockwise)."),
    "prev_seat": ("prev_seat(p)", "The seat to the right of p."),
    "abs": ("abs(x)", "The absolute value of a number."),
    "random": ("random(xs)", "An item of xs chosen with the game's seeded generator (`none` if empty); "
               "in procedures only."),
    "slot_name": ("slot_name(slot, key)", "The name of the procedure the slot calls for key."),
}

# names the language gives besides the built-in functions
OTHER_DOCS = {
    "players": ("players", "The list of seats, in clockwise order."),
    "previous": ("previous(...)", "In a variant's override: calls the definition it replaces, with the "
                 "same parameters."),
}


@lru_cache(maxsize=1)
def keywords() -> tuple:
    """The language's own words (`let`, `choose`, `true`, ...), from the grammar's terminals."""
    from .syntax import parser

    words = set()
    for t in parser().terminals:
        value = getattr(t.pattern, "value", "")
        if t.pattern.type == "str" and value.isidentifier():
            words.add(value)
    return tuple(sorted(words))


def describe(name: str) -> str | None:
    """Markdown for a built-in function or value, or None when name is none of them."""
    doc = BUILTIN_DOCS.get(name) or OTHER_DOCS.get(name)
    if doc is None:
        return None
    call, gives = doc
    return f"```\n{call}\n```\nbuilt-in: {gives}"
