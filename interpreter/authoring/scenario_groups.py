"""A scenario's answer naming an option that is a list by its items (docs/testing.md): a choice of
how to lay a hand down, each option a list of melds, answered by a YAML list of lists of card
labels, `choose: [[4♠, 5♠, 6♠], [7♣, 7♥, 7♦]]`, as well as by the option's label."""
from __future__ import annotations


def answer_of(choose, decision, game):
    """choose as the decision's option label(s) when it names an option that is a list by its items
    (a list of lists, or a list of labels when one option is picked from lists), else unchanged."""
    if not isinstance(choose, list):
        return choose
    if not choose:  # [] picks nothing, or is the option that is an empty list (no meld laid down)
        return _label(choose, decision, game) if not decision.many and [] in decision.values else choose
    if decision.many:  # several options picked: each given as a list is one option
        if not any(isinstance(x, list) for x in choose):
            return choose
        return [_label(x, decision, game) if isinstance(x, list) else x for x in choose]
    if any(isinstance(x, list) for x in choose):
        return _label(choose, decision, game)
    if all(isinstance(x, str) for x in choose) and any(type(v) is list for v in decision.values):
        return _found(choose, decision, game) or choose  # (else as before: labels of several options)
    return choose


def _label(given: list, decision, game) -> str:
    """The label of the option whose items read as given, or the text of what was given, which no
    option reads: the game refuses it, saying so."""
    return _found(given, decision, game) or _text(_written(given))


def _found(given: list, decision, game) -> str | None:
    """The label of the option whose items read as given (in that order, else as the same items in
    any order), or None."""
    want = _written(given)
    shapes = [_read(v, decision.player, game) for v in decision.values]
    for match in (lambda s: s == want, lambda s: _loose(s) == _loose(want)):
        for i, shape in enumerate(shapes):
            if match(shape):
                return decision.options[i].label
    return None


def _read(v, player: int, game):
    """An option's value as labels: each item as the deciding player reads it, lists kept."""
    if isinstance(v, (list, tuple)):
        return [_read(x, player, game) for x in v]
    return game._render_value(v, player)


def _written(x):
    if isinstance(x, list):
        return [_written(y) for y in x]
    if isinstance(x, bool):
        return "yes" if x else "no"
    return "none" if x is None else str(x)


def _loose(x):
    """x with the order of each list's items left out (a meld's cards, an arrangement's melds)."""
    return sorted((_loose(y) for y in x), key=repr) if isinstance(x, list) else x


def _text(x) -> str:
    if isinstance(x, list):
        return ("; " if x and isinstance(x[0], list) else ", ").join(map(_text, x)) if x else "none"
    return x
