"""The rules' `plural(n, noun)` and `plural(n, noun, nouns)`: a number with the noun that agrees
with it, so a ruleset never writes "card(s)"."""
from __future__ import annotations

from .ops import RuleRuntimeError


def plural(n, noun, nouns=None) -> str:
    """"1 card", "0 cards", "5 cards"; the plural of the noun's last word adds "s" ("es" after s, x,
    z, ch, sh; "ies" for a consonant and y), unless nouns gives it ("person", "people")."""
    if isinstance(n, bool) or not isinstance(n, int):
        raise RuleRuntimeError(f"plural() takes a whole number, not {n!r}")
    if not isinstance(noun, str) or (nouns is not None and not isinstance(nouns, str)):
        raise RuleRuntimeError("plural() takes a noun as text: plural(n, \"card\")")
    if n == 1 or n == -1:
        return f"{n} {noun}"
    return f"{n} {nouns if nouns is not None else regular_plural(noun)}"


def regular_plural(noun: str) -> str:
    low = noun.lower()
    if low.endswith(("s", "x", "z", "ch", "sh")):
        return noun + "es"
    if len(low) >= 2 and low.endswith("y") and low[-2] not in "aeiou":
        return noun[:-1] + "ies"
    return noun + "s"
