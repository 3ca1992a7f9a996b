"""A table's turn timer and away limit: past them a stand-in bot answers for a human seat, the
table says so to everyone, the answers are stored like any other; a player who comes back plays
again."""
import asyncio
import random

from server_helpers import Raw, eventually, random_choice, running_server


async def _join(url, created) -> dict:
    clients = {}
    for seat, code in sorted(created["codes"].items()):
        clients[int(seat)] = c = await Raw.open(url)
        await c.send({"v": 1, "type": "hello", "code": code})
        await c.until("welcome")
    return clients


def _notices(c: Raw) -> list:
    return [n for s in c.states() for n in s.get("notices", [])]


def test_past_the_turn_timer_a_bot_answers_for_the_seat(tmp_path):
    async def main():
        async with running_server(tmp_path) as (url, server, store):
            host = await Raw.open(url)
            created = await host.request("create", "created", ruleset="guildhall", players=2,
                                         seats=["human", "human"], timer=0.5, stand_in="random")
            clients = await _join(url, created)
            table = server.tables[created["table"]]
            # nobody answers: the timer does (twice; a loaded machine may take longer than the timer's 0.5 s a time)
            await eventually(lambda: len(store.answers(table.id)) >= 2, "a stand-in answered twice")
            rows = store.answers(table.id)
            assert len(rows) >= 2 and all(r[4] is None for r in rows)  # (no seq: a stand-in's answers)
            assert {r[1] for r in rows} <= {0, 1}
            told = list(table.notices)  # (what the table said so far: each seat is told it, in its states)
            for c in clients.values():
                await c.until_state(lambda s, c=c: len(_notices(c)) >= len(told))
            said = _notices(clients[0])
            assert said and all("time ran out: a bot answered for them" in n for n in said)
            assert said[:len(told)] == told == _notices(clients[1])[:len(told)]
            # an answer in time is the player's own (to a decision just come; a loaded machine may take
            # the timer's 0.5 s on the way, the stand-in answering first: then to the next one just come)
            c = clients[0]
            n = len(store.answers(table.id))
            for seq in range(1, 11):
                seen = {d["id"] for st in c.states() for d in st["decisions"]}
                while True:  # a decision just come
                    st = await c.until("state", 10)
                    fresh = [d for d in st["decisions"] if d["id"] not in seen]
                    if fresh:
                        d = fresh[0]
                        break
                await c.answer(d["id"], random_choice(d, random.Random(1)), seq=seq)
                while not any(r[4] == seq for r in store.answers(table.id)):
                    msg = await c.recv(10)
                    if msg["type"] == "error":
                        assert msg["code"] == "decision_gone", msg  # (the stand-in was first)
                        break
                else:
                    break
            assert any(r[4] == seq for r in store.answers(table.id)[n:])

    asyncio.run(main())


def test_a_seat_away_longer_than_the_table_allows_is_played_by_a_bot_until_it_comes_back(tmp_path):
    async def main():
        async with running_server(tmp_path) as (url, server, store):
            host = await Raw.open(url)
            created = await host.request("create", "created", ruleset="guildhall", players=2,
                                         seats=["human", "human"], away=0.4)
            clients = await _join(url, created)
            table = server.tables[created["table"]]
            await clients[1].close()  # seat 1 goes away
            rnd = random.Random(2)
            a = clients[0]
            answered = set()
            for _ in range(30):  # seat 0 plays on; seat 1's decisions are the stand-in's
                await a.drain(0.6)  # (quiet while seat 1's stand-in is yet to play: waited for, up to 30 times)
                for d in a.states()[-1]["decisions"]:
                    if d["id"] not in answered:
                        answered.add(d["id"])
                        await a.answer(d["id"], random_choice(d, rnd))
                if any(r[1] == 1 for r in store.answers(table.id)) and len(answered) >= 2:
                    break
            rows = store.answers(table.id)
            assert [r for r in rows if r[1] == 1] and all(r[4] is None for r in rows if r[1] == 1)
            assert any("Player 2 is away: a bot plays for them until they come back" == n for n in _notices(a))
            assert a.states()[-1]["seats"][1]["connected"] is False
            # seat 1 comes back: its decisions wait for it again
            back = await Raw.open(url)
            await back.send({"v": 1, "type": "hello", "code": created["codes"]["1"]})
            await back.until("welcome")
            await back.drain(0.2)
            await a.drain(0.2)
            before = len(store.answers(table.id))
            mine = back.states()[-1]["decisions"]
            theirs = a.states()[-1]["decisions"]
            await asyncio.sleep(1.0)
            if mine and not theirs:  # (only seat 1 may answer now: nothing moves without it)
                assert len(store.answers(table.id)) == before

    asyncio.run(main())


def test_each_state_says_the_seconds_left_on_the_turn_timer(tmp_path):
    """`timer_left`: the seconds left for the receiving seat's oldest pending decision when the table
    has a turn timer; null with no decision, for a spectator, and at a table without a timer."""
    async def main():
        async with running_server(tmp_path) as (url, server, store):
            host = await Raw.open(url)
            created = await host.request("create", "created", ruleset="guildhall", players=2,
                                         seats=["human", "human"], timer=60)
            plain = await host.request("create", "created", ruleset="guildhall", players=2, seats=["human", "greedy"])
            clients = await _join(url, created)
            await asyncio.gather(*(c.until_state(lambda s: s["started"]) for c in clients.values()))
            first = {s: c.states()[-1] for s, c in clients.items()}
            assert all(st["started"] for st in first.values())
            for st in first.values():
                if st["decisions"]:
                    assert type(st["timer_left"]) in (int, float) and 0 < st["timer_left"] <= 60
                else:
                    assert st["timer_left"] is None
            deciding = next(s for s, st in first.items() if st["decisions"])
            await asyncio.sleep(0.5)
            watcher = await Raw.open(url)  # a spectator comes: its own state (nobody else is sent one)
            await watcher.send({"v": 1, "type": "hello", "code": created["spectate"]})
            await watcher.until("welcome")
            assert (await watcher.until("state"))["timer_left"] is None
            again = await Raw.open(url)  # a second connection of the deciding seat: its own state
            await again.send({"v": 1, "type": "hello", "code": created["codes"][str(deciding)]})
            later = await again.until("state")
            assert later["decisions"] == first[deciding]["decisions"]
            assert 0 < later["timer_left"] < first[deciding]["timer_left"]  # (the same decision's clock runs)
            d = later["decisions"][0]
            await clients[deciding].answer(d["id"], random_choice(d, random.Random(3)))
            after = await clients[deciding].until("state")
            assert after["timer_left"] is None or after["decisions"]
            solo = await Raw.open(url)
            await solo.send({"v": 1, "type": "hello", "code": plain["codes"]["0"]})
            await solo.until("welcome")
            st = await solo.until("state")
            assert st["decisions"] and st["timer_left"] is None  # no turn timer at that table

    asyncio.run(main())
