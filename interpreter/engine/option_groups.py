"""What a decision's options have in common, worked out from their values (for the terminal UI's
decision panel and for a server, which sends the result with each option instead of the values):

- option_groups: more than nine options whose values are tuples sharing an item at one place (a
  card, preferably; else a name) group by that item, the panel's first of two steps;
- cards_in: the cards an option's value names (a card, or tuples and lists holding cards).

General: no knowledge of any game."""
from __future__ import annotations

from ..runtime.state import Card

MANY = 9  # more options than this: two steps (the groups, then one group's options)


def _hashable(x):
    try:
        hash(x)
        return x
    except TypeError:
        return repr(x)


def item_label(decision, item) -> str:
    """A part of an option's value (a card, a name) as text for the deciding player: the
    decision's text(value) where it has one, else the raw value."""
    text = getattr(decision, "text", None)
    if text is not None:
        try:
            out = text(item)
            if isinstance(out, str) and out:
                return out
        except Exception:  # noqa: BLE001 - a label is a nicety; the raw value will do
            pass
    return str(item)


def option_groups(decision) -> list | None:
    """[(name, [option index, ...]), ...] in the order of the options when more than nine options
    are tuples whose item at one place (a card, preferably; else a name) is shared by several;
    None when they do not group usefully (every item distinct, or all one)."""
    opts = decision.options
    values = [o.value for o in opts]
    if len(opts) <= MANY or not all(isinstance(v, tuple) and len(v) >= 2 for v in values):
        return None
    best = None
    for at in range(min(len(v) for v in values)):
        items = [v[at] for v in values]
        if len({_hashable(x) for x in items}) < 2:
            continue
        names: dict = {}
        for i, x in enumerate(items):
            names.setdefault(item_label(decision, x), []).append(i)
        if not 1 < len(names) < len(values):
            continue
        found = list(names.items())
        if all(type(x) is Card for x in items):
            return found
        if best is None:
            best = found
    return best


def cards_in(value) -> list:
    """The cards in an option's value (a card, or tuples and lists holding cards), in order, as
    card ids."""
    if type(value) is Card:
        return [int(value)]
    if isinstance(value, (tuple, list)):
        return [c for v in value for c in cards_in(v)]
    return []


__all__ = ["MANY", "item_label", "option_groups", "cards_in"]
