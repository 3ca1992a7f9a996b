"""What a view or a message shows, for the tests that no seat or spectator learns too much
(test_server, test_server_spectate, test_views_public)."""
from __future__ import annotations


def strings(x, out: list) -> list:
    """Every text in a view or a message (keys left out), added to out."""
    if isinstance(x, str):
        out.append(x)
    elif isinstance(x, list):
        for v in x:
            strings(v, out)
    elif isinstance(x, dict):
        for v in x.values():
            strings(v, out)
    return out


def card_ids(x, out: list) -> list:
    """The ids of the cards shown face up in a view (a card shows as a dict with an id and a label)."""
    if isinstance(x, list):
        for v in x:
            card_ids(v, out)
    elif isinstance(x, dict):
        if "label" in x and type(x.get("id")) is int and "kind" in x:
            out.append(x["id"])
        for v in x.values():
            card_ids(v, out)
    return out
