"""What the server tells a seat: its `state` (its view, its decisions, its new log lines), each
decision, and a game's end (tables.py sends each seat's connection its state; the spectators' is
public.py's). Nothing here knows a game."""
from __future__ import annotations

import time

from ..engine.option_groups import cards_in, option_groups
from .protocol import message
from .store import OPEN, PLAYING


def seat_state(table, client) -> dict:
    """What this seat's connection may see now, with the log lines it was not sent yet."""
    game = table.game
    over = game.over
    notices = table.notices[client.sent_notices:]
    client.sent_notices = len(table.notices)
    seat = client.seat
    view = game.view(seat, log=False)
    view.pop("decisions")
    new, client.sent_log = game.log_since(seat, client.sent_log)
    known = known_cards(view)
    mine = game.pending_for(seat) if table.state != OPEN else []
    decisions = [decision_message(table.decision_id(d), d, known) for d in mine]
    why = table.undo_refusal(seat)
    reset = client.log_reset
    client.log_reset = False
    return message("state", view=view, decisions=decisions, log=new, seats=table.seat_list(), over=over,
                   started=table.state != OPEN, notices=notices, undo=why is None,
                   **({"undo_refusal": why} if why else {}), timer_left=_timer_left(table, mine),
                   **({"log_reset": True} if reset else {}), **(results(game) if over else {}))


def _timer_left(table, decisions: list):
    """Seconds left on the turn timer for the oldest of these decisions (None: no timer, or none)."""
    timer = table.options.get("timer")
    since = [table.since[table.decision_id(d)] for d in decisions if table.decision_id(d) in table.since]
    if not timer or not since or table.state != PLAYING:
        return None
    return round(max(0.0, timer - (time.monotonic() - min(since))), 1)


def known_cards(view: dict) -> set:
    """The ids of the cards a view shows with their id (the cards its seat knows now)."""
    return {c["id"] for z in view.get("zones") or () for c in z.get("cards") or ()
            if "id" in c and not c.get("hidden")}


def decision_message(did: int, d, known: set) -> dict:
    """A pending decision as its own seat is sent it: the server's id, the prompt, how many to pick,
    the options (id, label, hint); `keys` when no two options of one group may be picked together
    (a `distinct` choose: each option's group) and `unavailable` ([{option, reason}]: what cannot
    be chosen now, and why, as the rules word it for this seat) when the rules give them.

    The options' values never leave the server; what the terminal UI reads of them comes worked
    out: each option's `group` (its name, when more than nine options group by a card or a name
    they share: engine/option_groups.py) and `cards`, the ids of the cards it names that are
    among known (the cards the seat's view shows with their id), never another card's."""
    groups = option_groups(d)
    group_of = {i: name for name, members in groups or () for i in members}
    options = []
    for o in d.options:
        out = {"id": o.id, "label": o.label}
        if o.hint:
            out["hint"] = o.hint
        if o.id in group_of:
            out["group"] = group_of[o.id]
        cards = [c for c in dict.fromkeys(cards_in(o.value)) if c in known]
        if cards:
            out["cards"] = cards
        options.append(out)
    msg = {"id": did, "prompt": d.prompt, "min": d.min, "max": d.max, "many": d.many, "options": options}
    if d.keys is not None:
        msg["keys"] = list(d.keys)
    unavailable = d.unavailable
    if unavailable:
        msg["unavailable"] = [{"option": str(u["option"]), "reason": str(u["reason"])} for u in unavailable]
    return msg


def results(game) -> dict:
    """The end of the game, for everyone: the scores, each seat's tie-break values and their
    labels, the winners and the seats from the best to the worst."""
    return {"scores": game.scores, "tiebreaks": [list(t) for t in game.tiebreaks()],
            "tiebreak_labels": list(game.tiebreak_labels()), "tiebreak_lowest": list(game.tiebreak_lowest()),
            "winners": list(game.winners),
            "ranking": list(game.ranking())}


__all__ = ["seat_state", "known_cards", "decision_message", "results"]
