"""The view of no seat (views.PUBLIC, what a spectator sees, issue 29): it knows only what every
seat knows. Whole random games of each game (Capital Jux with and without tiles, Guildhall, Bruges,
and the example secret_bids with its secret counters, hidden sizes and lines `to` some seats): at
every position the public view names no card some seat does not know then, and it is the
intersection of the seats' views (a card shows when every seat's view shows it, a counter or a
zone's size when no seat's view hides it, a log line as every seat reads it); the referee's view
(None) and the seats' views are as before."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

from jux.interpreter.bots.random_bot import random_answer
from jux.interpreter.engine.game import Game
from jux.interpreter.engine.ruleset import load_ruleset
from jux.interpreter.engine.views import PUBLIC
from jux.interpreter.reading.cards import FACE_DOWN
from jux.interpreter.runtime import events

from view_helpers import strings

EXAMPLE = Path(__file__).resolve().parent.parent / "docs" / "examples" / "secret_bids"
TILES = ("merchant", "cleric", "agent", "scholar")
GAMES = [
    ("capital_jux", TILES, 4, 3),
    ("capital_jux", (), 3, 5),
    ("guildhall", (), 2, 1),
    ("bruges", (), 4, 2),
    ("bruges", (), 2, 8),
    (str(EXAMPLE), (), 3, 4),
]


def _ids(cards) -> set:
    return {c["id"] for c in cards if "id" in c}


def _all_know(g, c) -> bool:
    full = (1 << g.state.n) - 1
    return g.state.k[c] & full == full


def check_public(g, pub: dict, seats: list) -> None:
    """The public view pub of game g now, against each seat's view (seats)."""
    rules = g.rules
    n = g.state.n
    assert pub["player"] is None and pub["decisions"] == []
    assert pub["waiting_for"] == seats[0]["waiting_for"] and pub["over"] == g.over
    known_ids = {c for c in range(len(rules.card_labels)) if _all_know(g, c)}
    for zi, z in enumerate(pub["zones"]):
        theirs = [s["zones"][zi] for s in seats]
        assert all((z["name"], z["key"], z["owner"]) == (t["name"], t["key"], t["owner"]) for t in theirs)
        shown = _ids(z["cards"])
        # a card shows when every seat's view shows it, and only then
        assert shown == set.intersection(*(_ids(t["cards"]) for t in theirs)), z["name"]
        assert shown <= known_ids
        assert bool(z.get("size_hidden")) == any(t.get("size_hidden") for t in theirs), z["name"]
        if not z.get("size_hidden"):
            assert len(z["cards"]) == len(g.state.z[zi])
        for info in z["cards"]:  # a known card reads as the seats read it (marks holding cards aside)
            if "id" in info:
                seat_info = next(c for c in theirs[0]["cards"] if c.get("id") == info["id"])
                assert {k: v for k, v in info.items() if k != "marks"} == \
                    {k: v for k, v in seat_info.items() if k != "marks"}
            else:
                assert info.get("hidden")
    for name, v in pub["counters"].items():
        theirs = [s["counters"][name] for s in seats]
        for path, value in _leaves(v, ()):
            seen = [_at(t, path) for t in theirs]
            if value == {"hidden": True}:
                assert any(s == {"hidden": True} for s in seen), (name, path)
            else:
                assert all(s == value for s in seen), (name, path)
    # no text of the view (its log and tables aside) names a card some seat does not know now
    labels = set(rules.card_labels)
    allowed = {rules.card_labels[c] for c in known_ids} | set(rules.hidden_labels) | {FACE_DOWN}
    body = {k: v for k, v in pub.items() if k not in ("log", "tables")}
    leaked = {s for s in strings(body, []) if s in labels} - allowed
    assert not leaked, f"the public view names cards some seat does not know: {sorted(leaked)[:5]}"
    assert n == len(seats)


def _leaves(v, path):
    if isinstance(v, list):
        for i, x in enumerate(v):
            yield from _leaves(x, path + (i,))
    elif isinstance(v, dict) and v != {"hidden": True}:
        for k, x in v.items():
            yield from _leaves(x, path + (k,))
    else:
        yield path, v


def _at(v, path):
    for p in path:
        v = v[p]
    return v


def check_log(g) -> None:
    """The public log: each line as every seat that reads a line there reads it; a line `to` some
    seats shows its `else` line (or nothing), a line to every seat shows."""
    n = g.state.n
    full = (1 << n) - 1
    expected = []
    for e in g.state.log or ():
        if e and e[0] == events.TO:
            _, mask, theirs, others = e
            line = theirs if mask & full == full else others
            readers = [p for p in range(n) if ((mask >> p) & 1) == (line is theirs)]
            if line is None:
                continue
            seen = {g.render_event(line, p) for p in readers}
        else:
            line = e
            seen = {g.render_event(e, p) for p in range(n)}
        public = g.render_event(line, PUBLIC)
        if len(seen) == 1:  # every reader reads it alike: so does the public
            assert public == next(iter(seen))
        expected.append(public)
    assert g.log_lines(PUBLIC) == expected


def _play(ruleset, tiles, n, seed, every=1):
    rules = load_ruleset(ruleset, tiles)
    g = Game.new(rules, n, seed)
    rnd = random.Random(seed)
    i = 0
    while not g.over:
        if i % every == 0:
            yield g
        d = g.pending[0]
        g.apply(random_answer(d, rnd.random), player=d.player, decision=d.id)
        i += 1
    yield g


@pytest.mark.parametrize("ruleset,tiles,n,seed", GAMES)
def test_the_public_view_is_what_every_seat_knows_through_a_whole_game(ruleset, tiles, n, seed):
    positions = 0
    for g in _play(ruleset, tiles, n, seed):
        seats = [g.view(p) for p in range(n)]
        pub = g.view(PUBLIC)
        check_public(g, pub, seats)
        positions += 1
    assert g.over and positions > 10
    check_log(g)
    assert g.view(PUBLIC)["scores"] == g.scores


def _known_parts(x, out: list) -> list:
    """Every card of a log entry, as it was known when the line was written (events.Known)."""
    if type(x) is events.Known:
        out.append(x)
    elif isinstance(x, (list, tuple)):
        for v in x:
            _known_parts(v, out)
    return out


@pytest.mark.parametrize("ruleset,tiles,n,seed", GAMES)
def test_the_public_log_names_a_card_only_where_every_seat_knew_it_when_it_was_written(ruleset, tiles, n, seed):
    g = list(_play(ruleset, tiles, n, seed, every=10 ** 9))[-1]
    full = (1 << n) - 1
    labels = g.rules.card_labels
    named = hidden = 0
    for e in g.state.log or ():
        for k in _known_parts(e, []):
            text = g._render_value(k, PUBLIC)
            if k[1] & full == full:
                assert text == labels[k[0]]
                named += 1
            else:
                assert text != labels[k[0]] and text in (FACE_DOWN, g.rules.hidden_labels[k[0]])
                hidden += 1
    assert named  # (the games log cards every seat sees)
