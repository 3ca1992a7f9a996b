"""Telling cards apart in a decision's options: two cards that read alike (the same label for the
deciding seat) but differ in something that seat may know (an attribute the label leaves out, a
mark such as a token on one of them, the zone each lies in) each read with what tells them apart:
"card 3 (token 1)" and "card 3 (no token)", "a card (in your hand)" and "a card (in deck)". Cards alike in everything the seat may know read as before, and a panel may offer
them as one line. General: the words come from the rules' own names (marks, attributes, zones and
their `title`)."""
from __future__ import annotations

from ..runtime.played import PLAYED
from ..runtime.state import Card
from .option_groups import cards_in


def _key(x):
    try:
        hash(x)
        return x
    except TypeError:
        return repr(x)


def _words(name) -> str:
    return str(name).replace("_", " ")


def _knows(game, c, viewer) -> bool:
    k = game.state.k[c]
    if viewer is None:
        return True
    n = game.state.n
    return bool((k >> viewer) & 1) or (viewer >= n and k & ((1 << n) - 1) == (1 << n) - 1)


def _marks(game, c) -> dict:
    """The marks on card c that differ from their default (who played it left out: no mark)."""
    defaults = {m: (d or {}).get("default") for m, d in (game.rules.spec.marks or {}).items()}
    out = {}
    for m, v in (game.state.m.get(c) or {}).items():
        if m != PLAYED and v is not None and v != defaults.get(m):
            out[m] = v
    return out


def facts(game, c, viewer) -> dict:
    """What the viewer may know of card c, by what it is: {("zone",): zone index, ("attribute",
    name): value, ("mark", name): value}; of a card the viewer does not know, only its zone."""
    out: dict = {("zone",): game.state.loc[c]}
    if _knows(game, c, viewer):
        for k, v in game.rules.card_attrs[c].items():
            out[("attribute", k)] = _key(v)
        for k, v in _marks(game, c).items():
            out[("mark", k)] = _key(v)
    return out


def _zone_words(game, zi, viewer) -> str:
    name, key, owner = game.rules.layout.zone_of(zi)
    zdef = game.rules.layout.zone_def.get(name) or {}
    words = str(zdef.get("title") or _words(name))
    if owner is not None:
        return f"your {words}" if owner == viewer else f"{game.names[owner]}'s {words}"
    return words if key is None else f"{words} ({key})"


def _fact_words(game, what, value, viewer) -> str:
    if what[0] == "zone":
        return "in " + _zone_words(game, value, viewer)
    name = _words(what[1])
    if value is None or value is False or value == 0 or value == "":
        return f"no {name}"
    if value is True:
        return name
    if type(value) is Card:
        return f"{name} {game._render_value(value, viewer)}"
    return f"{name} {value}"


def apart(game, viewer, cards) -> dict:
    """{card: its label with what tells it apart}, for the cards among `cards` that read alike to
    the viewer but differ in what the viewer may know of them; {} when no two such differ."""
    by_label: dict = {}
    for c in dict.fromkeys(map(Card, cards)):
        by_label.setdefault(game._render_value(c, viewer), []).append(c)
    out = {}
    for label, same in by_label.items():
        if len(same) < 2:
            continue
        known = {c: facts(game, c, viewer) for c in same}
        if len({tuple(sorted(f.items(), key=repr)) for f in known.values()}) < 2:
            continue
        keys = list(dict.fromkeys(k for f in known.values() for k in f))
        differ = [k for k in keys if len({known[c].get(k) for c in same}) > 1]
        # the zone last: what lies on a card before where it lies
        differ.sort(key=lambda k: (k[0] == "zone", k[0] == "attribute"))
        for c in same:
            parts = [_fact_words(game, k, known[c].get(k), viewer) for k in differ]
            out[c] = f"{label} ({', '.join(parts)})"
    return out


def say(game, v, viewer, names: dict) -> str:
    """v as the viewer reads it (views._render_value), a card of names as names gives it."""
    t = type(v)
    if t is Card:
        return names.get(v) or game._render_value(v, viewer)
    if t is list:
        sep = "; " if any(type(x) is list for x in v) else ", "
        return sep.join(say(game, x, viewer, names) for x in v) if v else "none"
    if t is tuple:
        return " ".join(say(game, x, viewer, names) for x in v)
    return game._render_value(v, viewer)


def say_all(game, parts, viewer, names: dict) -> str:
    return "".join(say(game, p, viewer, names) for p in parts)


def told_apart(game, viewer, values: list, labels: list, hints: list, names: dict) -> list:
    """The labels, each option that reads like another (the same label and hint) but holds cards
    the viewer can tell apart from that one's, with its cards named after it ("take it (card 3
    (token 1))"): for a label that does not name its cards."""
    seen: dict = {}
    for i, (label, hint) in enumerate(zip(labels, hints)):
        seen.setdefault((label, hint), []).append(i)
    out = list(labels)
    for members in seen.values():
        if len(members) < 2:
            continue
        sigs = {i: tuple(tuple(sorted(facts(game, c, viewer).items(), key=repr)) for c in cards_in(values[i]))
                for i in members}
        if len(set(sigs.values())) < 2:
            continue
        for i in members:
            cards = [Card(c) for c in cards_in(values[i])]
            if cards:
                out[i] = f"{labels[i]} ({', '.join(say(game, c, viewer, names) for c in cards)})"
    return out


__all__ = ["apart", "facts", "say", "say_all", "told_apart"]
