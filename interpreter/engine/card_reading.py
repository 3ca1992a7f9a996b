"""How a card reads in full, from what the ruleset declares: its kind's `text`, its attributes, and
the text of each rule it carries (its kind's `powers`: {slot: attribute}, the procedure that slot
names for the card's value of the attribute, as the variants in use made it). One source for
`jux rules`, the terminal UI's help and its card reader (Views.read_card); nothing here names a game."""
from __future__ import annotations

# what a card's information holds besides its attributes (views.card_info)
NOT_ATTRIBUTES = ("label", "id", "kind", "marks", "worth", "hidden", "back")


def kind_def(rules, kind) -> dict:
    d = (rules.spec.cards or {}).get(kind)
    return d if isinstance(d, dict) else {}


def kind_text(rules, kind) -> str:
    """The kind's `text` (what its cards are), one line; '' when it has none."""
    return " ".join(str(kind_def(rules, kind).get("text") or "").split())


def slot_rule(rules, slot, value):
    """The procedure slot `slot` names for key `value` (keys may be written as numbers or words)."""
    table = (rules.spec.slots or {}).get(slot)
    if not isinstance(table, dict) or value is None or isinstance(value, (dict, list)):
        return None
    if value in table:
        return table[value]
    return next((p for k, p in table.items() if str(k) == str(value)), None)


def powers(rules, attrs: dict) -> list:
    """[(rule name, its text), ...]: the rules a card with these attributes carries (its kind's
    `powers`) that have a text."""
    out = []
    procs = rules.spec.procedures or {}
    for slot, attr in (kind_def(rules, attrs.get("kind")).get("powers") or {}).items():
        name = slot_rule(rules, slot, attrs.get(attr))
        proc = procs.get(name) if name is not None else None
        text = getattr(proc, "text", None)
        if text:
            out.append((str(name), " ".join(str(text).split())))
    return out


def words(v):
    """A value of a card as a reader reads it: a number or a text as it is, true and false as
    yes and no, a list as its items ("red, blue"), a table as its entries ("red 1, blue 2");
    None for nothing to read (none, an empty text, list or table)."""
    if v is None or v == "" or (isinstance(v, (list, tuple, dict)) and not v):
        return None
    if v is True or v is False:
        return "yes" if v else "no"
    if isinstance(v, (list, tuple)):
        items = [w for w in map(words, v) if w is not None]
        return ", ".join(map(str, items)) if items else None
    if isinstance(v, dict):
        items = [f"{str(k).replace('_', ' ')} {w}" for k, w in ((k, words(x)) for k, x in v.items()) if w is not None]
        return ", ".join(items) if items else None
    return v


def reading(rules, info: dict) -> dict:
    """A known card in full, from its information in a view (views.card_info): its label, kind
    and the kind's text, every attribute that has a value ([name, value] in the kind's order, the
    value in words: `words`), what it counts for (`worth`, when the ruleset gives one and it is
    something), its marks and the texts of the rules it carries."""
    attrs = [[k, w] for k, w in ((k, words(v)) for k, v in info.items() if k not in NOT_ATTRIBUTES) if w is not None]
    out = {"id": info.get("id"), "label": info.get("label", "?"), "kind": info.get("kind"),
           "kind_text": kind_text(rules, info.get("kind")), "attributes": attrs,
           "powers": [list(p) for p in powers(rules, info)]}
    if words(info.get("worth")) is not None:
        out["worth"] = words(info["worth"])
    # (a mark keeps its value when it is one, so that a reader can leave out those at their default)
    marks = {k: words(v) if isinstance(v, (list, tuple, dict)) else v for k, v in (info.get("marks") or {}).items()
             if words(v) is not None}
    if marks:
        out["marks"] = marks
    return out


def item_label(template: str, attrs: dict, combos: list, label: str) -> str:
    """A card's label with its combination attributes read as 'any colour' (its own label when
    it has none, or when the template cannot take a word there)."""
    if not combos:
        return label
    try:
        return template.format_map({**attrs, **{k: f"any {k}" for k in combos}})
    except (ValueError, KeyError, IndexError, TypeError):
        return label


def distinct_cards(rules, kind) -> list:
    """The different cards of a kind listed card by card (`list`): [(label, count, [(attribute,
    value as text), ...]), ...], each once; a kind whose cards are every combination of some
    attributes (colour) and of the list's items shows each item once, its combinations named in
    the label ("any colour Prince"). [] for a kind without a list."""
    d = kind_def(rules, kind)
    if not d.get("list"):
        return []
    combos = [k for k, v in (d.get("attributes") or {}).items() if isinstance(v, list) and len(v) > 1]
    seen: dict = {}
    for c in rules.cards:
        a = rules.card_attrs[c]
        if a.get("kind") == kind:
            values = tuple((k, str(v)) for k, v in a.items() if k != "kind" and k not in combos)
            key = item_label(d.get("label", ""), a, combos, rules.card_labels[c]), values
            seen[key] = seen.get(key, 0) + 1
    return [(label, n, list(values)) for (label, values), n in seen.items()]
