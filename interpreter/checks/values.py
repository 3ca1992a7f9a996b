"""The types of the values a rule file gives: a card attribute holds one type of value across the
cards of its kind (numbers, or texts, or true/false; `none` may stand beside any), so the rules never
add or compare a number with a text when the game runs. A check tightened in language 2
(versions.py): a warning in files of language 1."""
from __future__ import annotations


def _kind_of(x) -> str | None:
    if x is None:
        return None
    if isinstance(x, bool):
        return "true/false"
    if isinstance(x, (int, float)):
        return "number"
    if isinstance(x, str):
        return "text"
    return "other"


_PLURAL = {"number": "numbers", "text": "texts", "true/false": "true/false values", "other": "lists or tables"}


def mixed_attributes(spec) -> list:
    """(pos, message, fix) for each card attribute whose values mix types, at its first value of
    the type fewer of its values have."""
    out = []
    for kind, d in spec.cards.items():
        values: dict = {}  # attribute -> [(value, where key)]
        for attr, v in (d.get("attributes") or {}).items():
            if isinstance(v, list):
                values.setdefault(attr, []).extend((x, ("cards", kind, "attributes", attr, i)) for i, x in enumerate(v))
            else:
                values.setdefault(attr, []).append((v, ("cards", kind, "attributes", attr)))
        for i, entry in enumerate(d.get("list") or ()):
            for attr, x in (entry or {}).items():
                values.setdefault(attr, []).append((x, ("cards", kind, "list", i, attr)))
        for attr, xs in values.items():
            by: dict = {}
            for x, w in xs:
                k = _kind_of(x)
                if k is not None:
                    by.setdefault(k, []).append((x, w))
            if len(by) < 2:
                continue
            most = max(by, key=lambda k: len(by[k]))
            odd = min((k for k in by if k != most), key=lambda k: len(by[k]))
            x, w = by[odd][0]
            pos = spec.where.get(w) or spec.where.get(("cards", kind))
            out.append((pos, f"attribute '{attr}' of card kind '{kind}' mixes {_PLURAL[odd]} and {_PLURAL[most]} "
                        f"({x!r} among {', '.join(repr(v) for v, _ in by[most][:3])}"
                        f"{', ...' if len(by[most]) > 3 else ''}): the rules would fail when they add or compare them",
                        f"give every value of '{attr}' one type (a number without quotes, or every value as a text)"))
    return out


def seats_of_no_one(spec) -> list:
    """(pos, message, fix) for each counter that holds a seat (`seat: true`) but starts at a
    number that is no seat (-1 for "nobody yet"): write none for no seat."""
    out = []
    for name, d in spec.counters.items():
        if not (isinstance(d, dict) and d.get("seat")):
            continue
        v = d.get("start")
        if isinstance(v, int) and not isinstance(v, bool) and v < 0:
            pos = spec.where.get(("counters", name, "start")) or spec.where.get(("counters", name))
            out.append((pos, f"counter '{name}' holds a seat, and {v} is no seat",
                        f"start it at none for no seat (start: none), and ask '{name} != none' where the "
                        f"rules ask '{name} != {v}'"))
    return out


# keys an author may mean as "how many cards" where jux reads an attribute of the card
_SETUP_WORDS = ("copies", "count", "quantity", "qty", "amount", "times", "how_many", "repeat")


def card_counts_said(spec) -> tuple:
    """(errors, warnings) as (pos, message) about how many cards a kind makes: a `list` item's own
    `copies` that is not a whole number from 1; and a key that reads like "how many" but is an
    attribute of the card (`attributes: {copies: 2}`, a list item's `count: 3`)."""
    errors, warnings = [], []
    for kind, d in spec.cards.items():
        if not isinstance(d, dict):
            continue
        for i, n in enumerate(d.get("list_copies") or ()):
            if n is not None and not (type(n) is int and n >= 1):
                pos = spec.where.get(("cards", kind, "list", i, "copies")) or spec.where.get(("cards", kind))
                errors.append((pos, f"card kind '{kind}': copies of list item {i + 1} must be a whole number from "
                                    f"1, not {n!r}"))
        for key in d.get("attributes") or {}:
            if key in _SETUP_WORDS:
                pos = spec.where.get(("cards", kind, "attributes", key)) or spec.where.get(("cards", kind))
                fix = "copies: N beside attributes" if key != "copies" else "copies: N beside attributes, not in them"
                warnings.append((pos, f"card kind '{kind}': '{key}' is an attribute of every card, not how many "
                                      f"cards the kind makes; for that, write {fix}"))
        for i, item in enumerate(d.get("list") or ()):
            for key in item if isinstance(item, dict) else ():
                if key in _SETUP_WORDS:
                    pos = spec.where.get(("cards", kind, "list", i, key)) or spec.where.get(("cards", kind))
                    warnings.append((pos, f"card kind '{kind}': '{key}' in list item {i + 1} is an attribute of "
                                          "that card, not how many cards it makes; for that, write copies: N in "
                                          "the item"))
    return errors, warnings
