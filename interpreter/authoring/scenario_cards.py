"""Stable references in a scenario (docs/testing.md): a card named by what it is rather than by how
it reads, `{card: vp_card, vp: 9}` (its kind and the attributes that tell it apart), and an option
named by the rules' value rather than by its label, `{value: pass}`. A rewording of labels changes
neither, so a scenario written so keeps running when the rules reword their cards and options.

Cards so named in the position and the expectations are read as their labels before the scenario
runs (`named`); an answer so named picks its option when its decision is asked (`answer_of`)."""
from __future__ import annotations

from ..errors import RuleError, did_you_mean

KIND = "card"  # the key of a card named by what it is; the others are its attributes
VALUE = "value"  # the key of an option named by its value in the rules


def is_card(x) -> bool:
    """Whether x names a card by what it is (a counter per item of a list may have an item named
    card: its value is a number, not a kind)."""
    return isinstance(x, dict) and isinstance(x.get(KIND), str)


def names_any(choose) -> bool:
    """Whether an answer names a card by what it is or an option by its value."""
    items = choose if isinstance(choose, list) else [choose]
    return any(is_card(x) or isinstance(x, dict) and VALUE in x for x in items)


def written(x) -> str:
    """A card reference or an option's value as the scenario wrote it, for messages."""
    if isinstance(x, dict):
        return "{" + ", ".join(f"{k}: {v}" for k, v in x.items()) + "}"
    if isinstance(x, list):
        return "[" + ", ".join(map(written, x)) + "]"
    return str(x)


def cards_named(rules, ref: dict, errors: list, sc, path: tuple) -> list:
    """The cards of the ruleset that `ref` names (its kind and every attribute given), or [] with a
    located error in errors that says what the kind and its attributes are."""
    kinds = {}
    for c in rules.cards:
        kinds.setdefault(rules.card_attrs[c]["kind"], []).append(c)
    kind = ref[KIND]
    if kind not in kinds:
        errors.append(sc.error(path, f"no kind of card '{kind}' in this ruleset"
                                     f"{did_you_mean(str(kind), kinds) or ' (kinds: ' + ', '.join(kinds) + ')'}"))
        return []
    attrs = [a for a in rules.card_attrs[kinds[kind][0]] if a != "kind"]
    for a in ref:
        if a != KIND and a not in attrs:
            errors.append(sc.error(path + (a,), f"cards of kind {kind} have no attribute '{a}' (their "
                                                f"attributes: {', '.join(attrs) or 'none'})"))
            return []
    found = [c for c in kinds[kind] if all(_same(rules.card_attrs[c][a], v) for a, v in ref.items() if a != KIND)]
    if not found:
        given = ", ".join(f"{a} {v}" for a, v in ref.items() if a != KIND)
        errors.append(sc.error(path, f"no card of kind {kind} has {given}"))
    return found


def _same(attr, given) -> bool:
    return attr == given or str(attr) == str(given)


def label_of(rules, ref: dict, errors: list, sc, path: tuple) -> str | None:
    """The label of the cards ref names, or None with a located error (no such card, or cards that
    read differently: more attributes must tell which)."""
    found = cards_named(rules, ref, errors, sc, path)
    labels = list(dict.fromkeys(rules.card_labels[c] for c in found))
    if len(labels) > 1:
        errors.append(sc.error(path, f"{written(ref)} names cards that read differently ({'; '.join(labels)}): "
                                     "give the attributes that tell which"))
        return None
    return labels[0] if labels else None


def named(sc, rules) -> list:
    """Rewrite, in sc.data, every card named by what it is in the position (zones, counters) and
    the expectations (zones, zones_in_order, views, counters) as its label; the errors (RuleError)
    of those that name no card, or cards that read differently."""
    errors = []
    data = sc.data

    def fix(path, x):
        if is_card(x):
            return label_of(rules, x, errors, sc, path) or x
        if isinstance(x, list):
            return [fix(path + (i,), v) for i, v in enumerate(x)]
        if isinstance(x, dict):
            return {k: fix(path + (k,), v) for k, v in x.items()}
        return x

    for key in ("zones", "counters"):
        if isinstance(data.get(key), dict):
            data[key] = fix((key,), data[key])
    expect = data.get("expect")
    if isinstance(expect, dict):
        for key in ("zones", "zones_in_order", "views", "counters"):
            if isinstance(expect.get(key), dict):
                expect[key] = fix(("expect", key), expect[key])
    return errors


def answer_of(choose, decision, game, sc, at: tuple) -> tuple:
    """(choose with every card or value it names as the number of its option, errors): a card
    names the option that is that card, else the one option holding it; `{value: V}` the option
    whose value in the rules is V. An option already taken by the same answer is not taken again;
    one that names no option is left as its text, for the game to refuse."""
    errors: list[RuleError] = []
    taken: list[int] = []

    def one(x, path):
        if not names_any(x):
            return x
        if is_card(x):
            cards = set(cards_named(game.rules, x, errors, sc, path))
            if not cards:
                return x
            hits = [i for i, v in enumerate(decision.values) if v in cards] or \
                   [i for i, v in enumerate(decision.values) if _holds(v, cards)]
        else:
            hits = [i for i, v in enumerate(decision.values) if _same_value(v, x[VALUE])]
        free = [i for i in hits if i not in taken]
        if not free:  # (the game refuses it, listing the options: an answer may expect that)
            return written(x)
        if is_card(x) and len({decision.options[i].label for i in free}) > 1 and not [
                i for i in free if decision.values[i] in cards]:
            errors.append(sc.error(path, f"{written(x)} is in several options "
                                         f"({'; '.join(decision.options[i].label for i in free)}): "
                                         "give the option's label or number"))
            return x
        taken.append(free[0])
        return free[0]

    if isinstance(choose, list):
        out = [one(x, at + (i,)) for i, x in enumerate(choose)]
    else:
        out = one(choose, at)
    return out, errors


def _holds(v, cards: set) -> bool:
    if isinstance(v, (tuple, list)):
        return any(_holds(x, cards) for x in v)
    return v in cards


def _same_value(v, given) -> bool:
    """Whether an option's value in the rules is the value a scenario gives (a text, a number, a
    seat by its number, a tuple by a list)."""
    if isinstance(v, (tuple, list)):
        return isinstance(given, list) and len(v) == len(given) and all(map(_same_value, v, given))
    if type(v).__name__ == "Card":
        return False
    if type(given) is bool or type(v) is bool:
        return v is given
    return v == given or (isinstance(given, str) and str(v) == given)
