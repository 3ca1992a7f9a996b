"""A ruleset's card table: the cards its kinds make, their labels, and how they read face down."""
from __future__ import annotations

import itertools
import string


def _copies(d: dict) -> list:
    """How many cards each item of a kind's `list` makes (one item, {}, for a kind without one)."""
    items = d.get("list") or ({},)
    each = d.get("list_copies") or [None] * len(items)
    base = int(d.get("copies", 1))
    return [c if type(c) is int and c >= 1 else base for c in each]


def card_counts(spec) -> dict:
    """kind -> how many cards it makes (worked out without making them)."""
    out = {}
    for kind, d in spec.cards.items():
        n = 1
        for v in d["attributes"].values():
            n *= len(v) if isinstance(v, list) else 1
        out[kind] = n * sum(_copies(d))
    return out


def make_cards(spec):
    """The card table: (attrs per card, kind per card, label template per kind)."""
    table, kinds = [], []
    for kind, d in spec.cards.items():
        attrs = d["attributes"]
        names = list(attrs)
        lists = [v if isinstance(v, list) else [v] for v in attrs.values()]
        for combo in itertools.product(*lists):
            for own, copies in zip(d.get("list") or ({},), _copies(d)):
                for _ in range(copies):
                    a = dict(zip(names, combo))
                    a.update(own)
                    a["kind"] = kind
                    table.append(a)
                    kinds.append(kind)
    return table, kinds


def card_label_fn(templates: dict):
    """kind -> format template; returns label(attrs) using only the card's own attributes."""
    fmt = string.Formatter()

    def label(attrs: dict) -> str:
        t = templates.get(attrs["kind"])
        if not t:
            return attrs["kind"]
        try:
            return fmt.vformat(t, (), attrs)
        except (KeyError, ValueError, IndexError, AttributeError):
            return attrs["kind"]

    return label


FACE_DOWN = "a face-down card"  # how a hidden card reads (a card whose kind has no back, or under a pile)


def card_backs(spec, cards: list):
    """Per card: its back ({attribute: value} of the kind's `back`, as printed: marks never show)
    or None; how it reads when hidden (`back_label`, else "a face-down card (red)"); and the key
    of its back for the bots' samples ((kind,) or (kind, values...))."""
    fmt = string.Formatter()
    backs, hidden, keys = [], [], []
    for a in cards:
        d = spec.cards[a["kind"]]
        names = d.get("back")
        if not names:
            backs.append(None)
            hidden.append(FACE_DOWN)
            keys.append((a["kind"],))
            continue
        b = {n: a.get(n) for n in names}
        text = None
        if d.get("back_label"):
            try:
                text = fmt.vformat(d["back_label"], (), b)
            except (KeyError, ValueError, IndexError, AttributeError, TypeError):
                text = None
        if text is None:
            shown = ("yes" if v is True else "no" if v is False else str(v) for v in b.values())
            text = f"{FACE_DOWN} ({', '.join(shown)})"
        backs.append(b)
        hidden.append(text)
        keys.append((a["kind"], *b.values()))
    return tuple(backs), tuple(hidden), tuple(keys)
