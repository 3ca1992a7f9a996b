"""The words of the effect language an editor offers (`jux lsp`): its keywords, read from the
grammar, and its built-in functions (from builtins.py) and values with what each gives."""
from __future__ import annotations

from functools import lru_cache

from ..language.builtins import TABLE


def _call(b) -> str:
    """How a built-in is called, from its signatures: `min(list[T]) -> T? / min(T, T, ...) -> T`."""
    forms = []
    for sig in b.signatures:
        params, result = (part.strip() for part in sig.rsplit("->", 1))
        forms.append(f"{b.name}({params}) -> {result}")
    return " / ".join(forms)


def _gives(b) -> str:
    text = b.text[0].upper() + b.text[1:]
    if b.gen:
        text += f"; also `{b.name}(x for x in xs if ...)`"
    if b.impure:
        text += "; in procedures only"
    return text + "."


# name -> (how it is called, what it gives): from the one table of built-ins (builtins.py)
BUILTIN_DOCS = {b.name: (_call(b), _gives(b)) for b in TABLE}

# names the language gives besides the built-in functions
OTHER_DOCS = {
    "players": ("players", "The list of seats, in clockwise order."),
    "previous": ("previous(...)", "In a variant's override: calls the definition it replaces, with the "
                 "same parameters."),
}


@lru_cache(maxsize=1)
def keywords() -> tuple:
    """The language's own words (`let`, `choose`, `true`, ...), from the grammar's terminals."""
    from ..language.parse_errors import parser

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
