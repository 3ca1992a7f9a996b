"""What a client cannot do to a table of `jux serve`: each attempt is refused with an error and
the game is unchanged; one bad client harms no other."""
import asyncio
import json
import random
import sqlite3

from server_helpers import Raw, create, running_server


def _snapshot(table) -> tuple:
    return (json.dumps(table.game.state.to_json(), sort_keys=True), [list(a) for a in table.game.answers],
            list(table.rows))


async def _table(url, server, seats=("human", "human", "random")):
    created = await create(url, "guildhall", list(seats))
    clients = {}
    for seat, code in sorted(created["codes"].items()):
        clients[int(seat)] = c = await Raw.open(url)
        await c.send({"v": 1, "type": "hello", "code": code})
        await c.until("welcome")
    for c in clients.values():  # (the game started: nothing more comes before an answer)
        await c.until_state(lambda s: s["started"])
    return created, server.tables[created["table"]], clients


def _pending(client: Raw) -> list:
    return client.states()[-1]["decisions"]


def _one(d: dict):
    """The first option, as the decision takes it (a list for a choice of several)."""
    return [0] if d["many"] else 0


def test_answers_that_are_not_the_senders_to_give_are_refused(tmp_path):
    async def main():
        async with running_server(tmp_path) as (url, server, store):
            created, table, clients = await _table(url, server)
            a, b = clients[0], clients[1]
            mine = _pending(a) or _pending(b)
            owner, other = (a, b) if _pending(a) else (b, a)
            d = mine[0]
            before = _snapshot(table)

            async def refused(client, msg_or_args, code):
                if isinstance(msg_or_args, tuple):
                    await client.answer(*msg_or_args)
                else:
                    await client.send(msg_or_args)
                msg = await client.until("error")
                assert msg["code"] == code, msg
                assert _snapshot(table) == before

            await refused(other, (d["id"], 0), "not_your_decision")  # another seat's decision
            await refused(owner, (987654, 0), "decision_gone")  # a decision that never was
            await refused(owner, (d["id"], 10 ** 6), "illegal_answer")  # no such option
            await refused(owner, (d["id"], [0, 0] if d["many"] else "x"), "illegal_answer" if d["many"] else "bad_field")
            # a wrong code, and a spectator who answers
            stranger = await Raw.open(url)
            await refused(stranger, {"v": 1, "type": "hello", "code": "A" * 32}, "bad_code")
            await refused(stranger, (d["id"], 0), "not_joined")
            await stranger.send({"v": 1, "type": "hello", "code": created["spectate"]})
            await stranger.until("welcome")
            await refused(stranger, (d["id"], 0), "spectator")
            await refused(owner, {"v": 1, "type": "hello", "code": created["spectate"]}, "already_joined")

            # the right answer is taken once; the same again (or its seq again) is refused
            seen = len(other.states())
            await owner.answer(d["id"], _one(d), seq=5)
            while True:
                st = await owner.until("state")
                if all(x["id"] != d["id"] for x in st["decisions"]):
                    break
            await other.more_states(seen)  # (the answer's state, to the other seat too)
            before = _snapshot(table)
            await refused(owner, (d["id"], 0, 6), "decision_gone")  # answered twice
            seq5 = {owner}
            for _ in range(20):  # a replayed seq (or an older one) is refused, on the seat's next decision
                nxt = next(c for c in (a, b) if _pending(c))
                if nxt in seq5:
                    await refused(nxt, (_pending(nxt)[0]["id"], 0, 5), "stale_seq")
                    await refused(nxt, (_pending(nxt)[0]["id"], 0, 4), "stale_seq")
                    break
                seen = {c: len(c.states()) for c in (a, b)}
                await nxt.answer(_pending(nxt)[0]["id"], _one(_pending(nxt)[0]), seq=5)
                for c in (a, b):  # (the answer's state, to each seat)
                    await c.more_states(seen[c])
                seq5.add(nxt)
                before = _snapshot(table)
            else:
                raise AssertionError("no seat had a second decision")
            # a reconnecting client learns the last seq the server took from its seat
            again = await Raw.open(url)
            await again.send({"v": 1, "type": "hello", "code": created["codes"][str(owner_seat(clients, owner))]})
            assert (await again.until("welcome"))["seq"] == 5

    asyncio.run(main())


def owner_seat(clients, client) -> int:
    return next(s for s, c in clients.items() if c is client)


def test_malformed_frames_get_an_error_and_the_connection_goes_on(tmp_path):
    cases = [
        ("{", "bad_json"), ("not json", "bad_json"), ("[1, 2]", "not_object"), ('"hello"', "not_object"),
        ("[" * 5000 + "]" * 5000, "bad_json"),
        (json.dumps({"type": "ping"}), "bad_version"), (json.dumps({"v": 2, "type": "ping"}), "bad_version"),
        (json.dumps({"v": True, "type": "ping"}), "bad_version"),
        (json.dumps({"v": 1, "type": "shout"}), "unknown_type"), (json.dumps({"v": 1}), "unknown_type"),
        (json.dumps({"v": 1, "type": "hello"}), "bad_field"), (json.dumps({"v": 1, "type": "hello", "code": 7}), "bad_field"),
        (json.dumps({"v": 1, "type": "ping", "extra": 1}), "bad_field"),
        (json.dumps({"v": 1, "type": "answer", "decision": "1", "choice": 0, "seq": 1}), "bad_field"),
        (json.dumps({"v": 1, "type": "answer", "decision": 1, "choice": True, "seq": 1}), "bad_field"),
        (json.dumps({"v": 1, "type": "answer", "decision": 1, "choice": 0, "seq": 1.5}), "bad_field"),
        ('{"v": 1, "type": "answer", "decision": 1, "choice": NaN, "seq": 1}', "bad_json"),
        (json.dumps({"v": 1, "type": "create", "ruleset": "guildhall", "players": 2, "seats": "human"}), "bad_field"),
        (json.dumps({"v": 1, "type": "create", "ruleset": "../../etc", "players": 2, "seats": ["human", "human"]}),
         "bad_table"),
        (json.dumps({"v": 1, "type": "create", "ruleset": "guildhall", "players": 2, "seats": ["human", "nobot"]}),
         "bad_table"),
        (json.dumps({"v": 1, "type": "create", "ruleset": "guildhall", "players": 2, "seats": ["random", "random"]}),
         "bad_table"),
        (json.dumps({"v": 1, "type": "create", "ruleset": "guildhall", "players": 2, "seats": ["human", "human"],
                     "timer": 0}), "bad_field"),
        (json.dumps({"v": 1, "type": "create", "ruleset": "guildhall", "players": 2, "seats": ["human", "human"],
                     "away": 10 ** 6}), "bad_field"),
        (json.dumps({"v": 1, "type": "create", "ruleset": "guildhall", "players": 2, "seats": ["human", "human"],
                     "timer": 5, "stand_in": "nobot"}), "bad_table"),
        (json.dumps({"v": 1, "type": "create", "ruleset": "capital_jux", "players": 2, "seats": ["human", "human"],
                     "tiles": ["/etc/passwd"]}), "bad_table"),
        ("x" * 70_000, "too_large"),
        (b"\x00\x01binary", "binary"),
    ]

    async def main():
        async with running_server(tmp_path) as (url, server, store):
            c = await Raw.open(url)
            for frame, code in cases:
                await c.send(frame)
                msg = await c.until("error")
                assert msg["code"] == code, (frame[:60], msg)
                assert msg["v"] == 1 and isinstance(msg["message"], str) and msg["message"]
            assert (await c.request("ping", "pong"))["type"] == "pong"  # still served
            assert server.tables == {}
            # a frame over what websockets reads at all closes this connection (1009), nobody else's
            other = await Raw.open(url)
            big = await Raw.open(url)
            await big.send("x" * 300_000)
            try:
                await big.recv(5)
                closed = False
            except Exception as e:
                closed = getattr(e, "rcvd", None) is not None and e.rcvd.code == 1009
            assert closed
            assert (await other.request("ping", "pong"))["type"] == "pong"

    asyncio.run(main())


def test_a_flood_is_refused_and_closed_and_other_tables_go_on(tmp_path):
    async def main():
        async with running_server(tmp_path) as (url, server, store):
            created, table, clients = await _table(url, server)
            before = _snapshot(table)
            flood = await Raw.open(url)
            for _ in range(3000):
                try:
                    await flood.send({"v": 1, "type": "ping"})
                except Exception:
                    break
            codes = []
            try:
                while True:
                    msg = await flood.recv(5)
                    codes.append(msg.get("code"))
            except Exception:
                pass
            assert "rate_limited" in codes and codes.count("rate_limited") == 1
            assert flood.ws.close_code == 1008
            assert _snapshot(table) == before
            seat, c = next((s, c) for s, c in clients.items() if _pending(c))
            await c.answer(_pending(c)[0]["id"], _one(_pending(c)[0]))
            await c.until("state")
            assert len(table.rows) > len(before[2])

    asyncio.run(main())


def test_a_locked_database_refuses_the_answer_and_keeps_the_game(tmp_path):
    async def main():
        async with running_server(tmp_path, busy_timeout=0.2) as (url, server, store):
            created, table, clients = await _table(url, server)
            seat, c = next((s, c) for s, c in clients.items() if _pending(c))
            d = _pending(c)[0]
            before = _snapshot(table)
            other = sqlite3.connect(str(store.path))
            other.execute("BEGIN EXCLUSIVE")  # another program holds the file
            await c.answer(d["id"], _one(d))
            msg = await c.until("error")
            assert msg["code"] == "storage" and "locked" in msg["message"]
            assert _snapshot(table) == before
            assert not [m for m in await clients[1 - seat].drain(0.2) if m["type"] == "state" and m["log"]]
            other.rollback()
            other.close()
            await c.answer(d["id"], _one(d))  # the same answer, once the file is free
            st = await c.until("state")
            assert all(x["id"] != d["id"] for x in st["decisions"]) or st["log"]
            assert len(table.rows) > len(before[2]) and store.answers(table.id)[-1][1:3] == tuple(table.rows[-1][:2])

    asyncio.run(main())


def test_a_connection_makes_at_most_ten_tables_a_minute_and_the_server_holds_at_most_its_cap(tmp_path, monkeypatch):
    from jux.interpreter.server import making

    async def main():
        async with running_server(tmp_path) as (url, server, store):
            maker = await Raw.open(url)
            fields = {"ruleset": "guildhall", "players": 2, "seats": ["human", "random"]}
            for _ in range(making.TABLES_PER_MINUTE):
                assert (await maker.request("create", "created", **fields))["table"]
            await maker.send({"v": 1, "type": "create", **fields})
            refused = await maker.until("error")
            assert refused["code"] == "too_many_tables" and "10 tables a minute" in refused["message"]
            assert len(server.tables) == 10
            await maker.send({"v": 1, "type": "ping"})  # the connection goes on
            assert (await maker.recv())["type"] == "pong"
            other = await Raw.open(url)  # the limit is the connection's
            assert (await other.request("create", "created", **fields))["table"]
            monkeypatch.setattr(making, "MAX_TABLES", 11)  # the server's cap, whoever asks
            await other.send({"v": 1, "type": "create", **fields})
            assert (await other.until("error"))["code"] == "full"
            assert len(server.tables) == 11

    asyncio.run(main())


def _fill(db) -> None:
    """Fill a SQLite connection's database to its last page: max_page_count at the pages it has, then
    rows of a table that is no table's (big, then the smallest there are) until "database or disk is
    full"."""
    pages = db.execute("PRAGMA page_count").fetchone()[0]
    db.execute(f"PRAGMA max_page_count = {pages}")
    n = 0
    for size in (500, 1):
        while True:
            n += 1
            try:
                db.execute("INSERT INTO answers VALUES (?,?,?,?,?,?)", ("filler", n, 0, 0, "0" * size, None))
            except sqlite3.OperationalError as e:
                assert "full" in str(e), e
                break


def test_a_full_disk_refuses_the_answer_and_keeps_the_last_stored_game(tmp_path):
    async def main():
        async with running_server(tmp_path) as (url, server, store):
            created, table, clients = await _table(url, server)
            seat, c = next((s, c) for s, c in clients.items() if _pending(c))
            d = _pending(c)[0]
            before = _snapshot(table)
            stored = store.answers(table.id)
            _fill(store.db)  # (the server's own connection: the disk is full for its writes)
            await c.answer(d["id"], _one(d))
            msg = await c.until("error")
            assert msg["code"] == "storage" and "the disk is full" in msg["message"], msg
            assert _snapshot(table) == before and store.answers(table.id) == stored
            assert not [m for m in await clients[1 - seat].drain(0.2) if m["type"] == "state" and m["log"]]
            store.db.execute("DELETE FROM answers WHERE table_id = 'filler'")
            store.db.execute("PRAGMA max_page_count = 1073741823")  # room again: the same answer is taken
            await c.answer(d["id"], _one(d))
            st = await c.until("state")
            assert all(x["id"] != d["id"] for x in st["decisions"]) or st["log"]
            assert len(table.rows) > len(before[2])
            assert [r[1:] for r in store.answers(table.id)] == [(s, did, a, q) for s, did, a, q in table.rows]

    asyncio.run(main())
