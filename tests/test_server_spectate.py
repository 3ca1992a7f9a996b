"""Spectators over a real `jux serve` (issue 29: "Spectators join with a table's public code and see
only what no seat keeps secret"). Raw websocket spectators watch whole games of each game: every
`state` they are sent is the engine's view for no seat (views.PUBLIC) at some position of the game,
in order, with the public log lines not sent yet; no frame names a card that not every seat knows
at that moment, none holds a decision, the seed or another connection's log; a spectator who comes
late is sent the public log so far."""
import asyncio
import json
import random

import pytest

from jux.interpreter.engine.game import Game
from jux.interpreter.engine.views import PUBLIC

from server_helpers import Raw, create, play_random, running_server
from view_helpers import card_ids, strings

GAMES = [
    ("capital_jux", ["human", "greedy", "human", "human"], ["merchant", "cleric", "agent", "scholar"]),
    ("capital_jux", ["human", "human", "random"], None),
    ("guildhall", ["human", "human"], None),
    ("bruges", ["human", "random", "human"], None),
]


def _positions(table, seed) -> list:
    """The game replayed from its answers: at each position (before the first answer, after each),
    (the public view as a client gets it, the public log's length, the cards every seat knows), and
    the final game."""
    g = Game.new(table.rules, len(table.seats), seed, names=[s["name"] for s in table.seats])
    full = (1 << g.state.n) - 1

    def now():
        view = json.loads(json.dumps(g.view(PUBLIC)))
        log = view.pop("log")
        view.pop("decisions")
        return view, len(log), {c for c, k in enumerate(g.state.k) if k & full == full}

    out = [now()]
    for seat, choice in [list(a) for a in table.game.answers]:
        g.apply(choice, player=seat)
        out.append(now())
    return out, g


def _check_spectator(watcher: Raw, positions: list, game, seed) -> int:
    """Every frame the spectator got, against the game's public positions; the number of states."""
    rules = game.rules
    labels = set(rules.card_labels)
    public_log = game.log_lines(PUBLIC)
    j, got_log, states = 0, None, 0
    for text, msg in watcher.frames:
        assert str(seed) not in text, "the seed left the server"
        assert msg["type"] in ("welcome", "state"), msg
        if msg["type"] == "welcome":
            assert msg["seat"] is None and msg["seq"] is None
            continue
        states += 1
        assert msg["decisions"] == []
        if got_log is None:
            got_log = []
        got_log += msg["log"]
        # the state is the engine's public view at some position at or after the last one's
        while j < len(positions) and (positions[j][0] != msg["view"] or positions[j][1] != len(got_log)):
            j += 1
        assert j < len(positions), f"state {states} is no public view of the game's positions (in order)"
        view, _, known = positions[j]
        assert got_log == public_log[:len(got_log)]
        # no card in it that some seat does not know at that moment
        allowed = {rules.card_labels[c] for c in known} | set(rules.hidden_labels)
        body = dict(msg, log=[], view=dict(msg["view"], tables=[]))
        leaked = {s for s in strings(body, []) if s in labels} - allowed
        assert not leaked, f"a spectator was sent cards some seat did not know: {sorted(leaked)[:5]}"
        assert set(card_ids(msg["view"], [])) <= known
    assert got_log == public_log  # every public line, each once, in order
    return states


@pytest.mark.parametrize("ruleset,seats,tiles", GAMES)
def test_spectators_see_a_whole_game_as_no_seat_knows_it(tmp_path, ruleset, seats, tiles):
    async def main():
        async with running_server(tmp_path) as (url, server, store):
            created = await create(url, ruleset, seats, tiles)
            watcher = await Raw.open(url)  # comes before the players
            await watcher.send({"v": 1, "type": "hello", "code": created["spectate"]})
            first = await watcher.until("state")
            assert first["started"] is False and first["view"]["zones"]
            clients = {}
            for seat, code in created["codes"].items():
                clients[int(seat)] = c = await Raw.open(url)
                await c.send({"v": 1, "type": "hello", "code": code})
                await c.until("welcome")

            async def late():  # a second spectator comes in the middle of the game, and watches to its end
                await asyncio.sleep(0.3)
                w = await Raw.open(url)
                await w.send({"v": 1, "type": "hello", "code": created["spectate"]})
                await w.until_state(lambda s: s["over"], timeout=600)
                return w

            # (the spectators read as the game goes: a client that does not read answers no keepalive ping)
            later, *_ = await asyncio.gather(late(), watcher.until_state(lambda s: s["over"], timeout=600),
                                             *(play_random(c, random.Random(s)) for s, c in clients.items()))
            table = server.tables[created["table"]]
            for c in [*clients.values(), watcher, later]:
                await c.close()
            return table, store.seed(table.id), watcher, later

    table, seed, watcher, later = asyncio.run(main())
    assert table.game.over
    positions, game = _positions(table, seed)
    assert _check_spectator(watcher, positions, game, seed) > 2
    _check_spectator(later, positions, game, seed)
    # the late spectator's first state holds the public log so far; both end on the game's end
    first = next(m for _, m in later.frames if m["type"] == "state")
    assert first["log"] and first["started"]
    for w in (watcher, later):
        last = w.states()[-1]
        assert last["over"] and last["scores"] == game.scores and last["view"] == positions[-1][0]
    # it hid cards (the seats' hands, the deck): it is not the referee's view
    assert any(c.get("hidden") for m in watcher.states() for z in m["view"]["zones"] for c in z["cards"])
