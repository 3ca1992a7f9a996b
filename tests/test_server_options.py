"""What a seat is told of its options besides their labels (docs/protocol.md: an option's `group`
and `cards`), over a real `jux serve`: whole games with a raw client, every frame checked. A remote
decision of more than nine options groups exactly as the local one of the same position (one
function, interpreter/engine/option_groups.py), and an option's `cards` are exactly the cards of its
value that the seat's view shows with their id, never a card it may not know; the cards screen
lists a remote option's cards first as it does a local one's."""
import asyncio
import random

import pytest

from jux.interpreter.engine.option_groups import cards_in
from jux.tui.remote import RemoteDecision
from jux.tui.widgets.option_rows import groups_of, rows_of

from server_helpers import Raw, create, random_choice, running_server
from view_helpers import card_ids

GAMES = [
    ("capital_jux", ["human", "random", "random"], None),
    ("bruges", ["human", "greedy"], None),
]


@pytest.mark.parametrize("ruleset,seats,tiles", GAMES)
def test_options_group_as_local_ones_and_name_only_cards_the_seat_knows(tmp_path, ruleset, seats, tiles):
    async def main():
        async with running_server(tmp_path) as (url, server, store):
            created = await create(url, ruleset, seats, tiles)
            c = await Raw.open(url)
            await c.send({"v": 1, "type": "hello", "code": created["codes"]["0"]})
            await c.until("welcome")
            table = server.tables[created["table"]]
            rnd = random.Random(7)
            grouped = with_cards = frames = 0
            while True:
                msg = await c.recv(60)
                if msg["type"] == "error":
                    assert msg["code"] == "illegal_answer", msg
                    continue
                if msg["type"] != "state":
                    continue
                frames += 1
                known = set(card_ids(msg["view"], []))  # the cards its view shows face up
                for d in msg["decisions"]:
                    for o in d["options"]:
                        assert set(o.get("cards", ())) <= known, (o, known)  # never a card it may not know
                if msg["over"]:
                    break
                # one human: the game waits for this seat, so the server's game is this frame's position
                local = table.game.pending_for(0)
                knows = table.game.state.k  # (each card's knowers, a bit per seat)
                assert all(knows[x] & 1 for d in msg["decisions"] for o in d["options"] for x in o.get("cards", ()))
                assert [x["id"] for x in msg["decisions"]] == [table.decision_id(x) for x in local]
                for d, ld in zip(msg["decisions"], local):
                    remote = RemoteDecision(d, 0)
                    assert groups_of(remote) == groups_of(ld)
                    if groups_of(ld) is not None:
                        grouped += 1
                        name = groups_of(ld)[0][0]
                        assert [r.members for r in rows_of(remote, groups_of(remote), name)[0]] == \
                            [r.members for r in rows_of(ld, groups_of(ld), name)[0]]
                    for o, lo in zip(remote.options, ld.options):
                        assert list(o.cards) == [x for x in dict.fromkeys(cards_in(lo.value)) if x in known]
                        with_cards += bool(o.cards)
                if not msg["decisions"]:
                    continue
                d = msg["decisions"][0]
                await c.answer(d["id"], random_choice(d, rnd))
            await c.close()
            return grouped, with_cards, frames

    grouped, with_cards, frames = asyncio.run(main())
    assert frames > 20 and with_cards > 0
    assert grouped > 0  # (these games offer more than nine options sharing a card)
