"""A crowd at one table of `jux serve` stalls nobody (issue 39): joining and leaving tell only the
newcomer, spectators share one state made once per change and get the latest in place of the ones
they did not take, and the server's caps (connections per table, per seat's code, per address;
spectators joining a table a second) refuse the rest with a clear error. Clients that stop reading
past the kernel's buffers, or do not answer pings, are dropped by the rules docs/protocol.md gives;
every test speaks to a real server with raw clients."""
import asyncio
import random
import socket

from jux.interpreter.engine.views import PUBLIC

from server_helpers import (Raw, create, eventually, play_random, random_choice, raw_read_all, raw_send, raw_socket,
                            running_server)


async def _hello(url, code) -> Raw:
    c = await Raw.open(url)
    await c.send({"v": 1, "type": "hello", "code": code})
    return c


async def _seats(url, created, read: bool = True) -> dict:
    """A connection per seat, each told the game started (read: False, the states left unread for
    play_random)."""
    clients = {int(s): await _hello(url, code) for s, code in created["codes"].items()}
    for c in clients.values():
        await (c.until_state(lambda s: s["started"]) if read else c.until("welcome"))
    return clients


def _small_send_buffer(conn) -> None:
    """The server's kernel buffer for this connection made small (what it cannot send waits sooner)."""
    conn.ws.transport.get_extra_info("socket").setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4096)


def test_spectators_joining_and_leaving_tell_only_themselves(tmp_path):
    async def main():
        async with running_server(tmp_path) as (url, server, store):
            created = await create(url, "guildhall", ["human", "human"])
            seats = await _seats(url, created)
            table = server.tables[created["table"]]
            sent = {s: len(c.frames) for s, c in seats.items()}
            crowd = [await _hello(url, created["spectate"]) for _ in range(20)]
            for w in crowd:
                assert (await w.until("welcome"))["seat"] is None
                first = await w.until("state")
                assert first["decisions"] == [] and first["log"] == table.game.log_lines(PUBLIC)
            for w in crowd[:10]:
                await w.close()
            await eventually(lambda: len(table.clients) == 12, "ten spectators left")
            # nobody else was sent a frame for the twenty who came and the ten who left
            for s, c in seats.items():
                assert await c.read_for(0.3) == [] and len(c.frames) == sent[s]
            for w in crowd[10:]:
                assert await w.read_for(0.1) == []
            # a seat's answer: one state to each (its log lines in it)
            deciding = next(c for c in seats.values() if c.states()[-1]["decisions"])
            d = deciding.states()[-1]["decisions"][0]
            await deciding.answer(d["id"], random_choice(d, random.Random(1)))
            for w in crowd[10:]:
                st = await w.until("state")
                assert st["log"] and st["decisions"] == []
            # a seat's own second connection changes nothing the others see: only it is sent a state
            other = next(c for c in seats.values() if c is not deciding)
            await other.until("state")
            seat = next(s for s, c in seats.items() if c is other)
            again = await _hello(url, created["codes"][str(seat)])
            assert (await again.until("state"))["seats"][seat]["connected"]
            assert await other.read_for(0.3) == []

    asyncio.run(main())


def test_a_spectator_behind_gets_the_latest_state_and_every_log_line(tmp_path):
    async def main():
        async with running_server(tmp_path, send_timeout=120, ping=120) as (url, server, store):
            created = await create(url, "guildhall", ["human", "human"])
            seats = await _seats(url, created, read=False)
            table = server.tables[created["table"]]
            slow = await asyncio.to_thread(raw_socket, url, 4096)  # reads nothing while the game is played
            raw_send(slow, {"v": 1, "type": "hello", "code": created["spectate"]})
            await eventually(lambda: len(table.clients) == 3, "the spectator joined")
            conn = table.clients[-1]
            _small_send_buffer(conn)
            await asyncio.gather(*(play_random(c, random.Random(s)) for s, c in seats.items()))
            assert table.game.over and conn in table.clients  # (slow, not dropped: its frames are few)
            states = await asyncio.to_thread(lambda: [m for m in raw_read_all(slow) if m["type"] == "state"])
            slow.close()
            assert len(states) < len(table.rows)  # positions it did not take were replaced by later ones
            assert states[-1]["over"] and states[-1]["scores"] == table.game.scores
            assert [line for st in states for line in st["log"]] == table.game.log_lines(PUBLIC)

    asyncio.run(main())


def test_the_caps_refuse_with_a_clear_error(tmp_path):
    async def main():
        async with running_server(tmp_path, per_table=4, per_code=2, per_address=10, joins=2) as (url, server, store):
            created = await create(url, "guildhall", ["human", "human"])
            a1, a2, a3 = [await _hello(url, created["codes"]["0"]) for _ in range(3)]
            await a1.until("welcome")
            await a2.until("welcome")
            busy = await a3.until("error")
            assert busy["code"] == "code_busy" and "2 connections" in busy["message"]
            assert (await a3.request("ping", "pong"))["type"] == "pong"  # (the connection goes on)
            w1, w2, w3 = [await _hello(url, created["spectate"]) for _ in range(3)]
            await w1.until("welcome")
            await w2.until("welcome")  # (2 at once, the join bucket's size) and 4 on the table
            third = await w3.until("error")
            assert third["code"] in ("busy", "table_full")
            b = await _hello(url, created["codes"]["1"])
            full = await b.until("error")
            assert full["code"] == "table_full" and "4 connections" in full["message"]
            await w1.close()  # room again: seat 1 comes
            await eventually(lambda: len(server.tables[created["table"]].clients) == 3, "a spectator left")
            await b.send({"v": 1, "type": "hello", "code": created["codes"]["1"]})
            assert (await b.until("welcome"))["seat"] == 1
            # spectators joining one table: 2 a second
            other = await create(url, "guildhall", ["human", "human"])
            x, y, z = [await _hello(url, other["spectate"]) for _ in range(3)]
            codes = [(await c.until("welcome" if c is not z else "error")).get("code") for c in (x, y, z)]
            assert codes[2] == "busy"
            # connections from one address: 10, the next closed with an error
            more = [await Raw.open(url) for _ in range(10 - sum(server.addresses.values()))]
            assert sum(server.addresses.values()) == 10
            for m in more:
                assert (await m.request("ping", "pong"))["type"] == "pong"
            extra = await Raw.open(url)
            refused = await extra.recv()
            assert refused["code"] == "too_many_connections"
            await asyncio.sleep(0.1)
            assert extra.ws.close_code == 1008

    asyncio.run(main())


def test_a_seat_that_stops_reading_past_the_kernel_buffers_is_dropped_by_size(tmp_path, capfd):
    async def main():
        async with running_server(tmp_path, outbox=32 * 1024, send_timeout=120, ping=120) as (url, server, store):
            created = await create(url, "guildhall", ["human", "human"])
            seats = await _seats(url, created, read=False)
            table = server.tables[created["table"]]
            deaf = await asyncio.to_thread(raw_socket, url, 4096)  # a second connection of seat 0 that never reads
            raw_send(deaf, {"v": 1, "type": "hello", "code": created["codes"]["0"]})
            await eventually(lambda: len(table.clients) == 3, "the deaf connection joined")
            _small_send_buffer(table.clients[-1])
            await asyncio.gather(*(play_random(c, random.Random(s)) for s, c in seats.items()))
            assert table.game.over and len(table.clients) == 2  # it is gone; the players played to the end
            deaf.close()

    asyncio.run(main())
    assert "a client dropped: does not read its messages" in capfd.readouterr().err


def test_a_spectator_that_stops_reading_is_dropped_when_a_frame_does_not_leave_in_time(tmp_path, capfd):
    async def main():
        async with running_server(tmp_path, send_timeout=0.5, ping=120) as (url, server, store):
            created = await create(url, "guildhall", ["human", "human"])
            seats = await _seats(url, created, read=False)
            table = server.tables[created["table"]]
            deaf = await asyncio.to_thread(raw_socket, url, 4096)
            raw_send(deaf, {"v": 1, "type": "hello", "code": created["spectate"]})
            await eventually(lambda: len(table.clients) == 3, "the deaf spectator joined")
            _small_send_buffer(table.clients[-1])
            await asyncio.gather(*(play_random(c, random.Random(s)) for s, c in seats.items()))
            await eventually(lambda: len(table.clients) == 2, "the deaf spectator was dropped")
            deaf.close()

    asyncio.run(main())
    assert "a client dropped: a frame took more than 0.5 s to leave" in capfd.readouterr().err


def test_a_connection_that_answers_no_ping_is_dropped_and_one_that_does_stays(tmp_path, capfd):
    async def main():
        async with running_server(tmp_path, ping=0.5) as (url, server, store):
            created = await create(url, "guildhall", ["human", "human"])
            alive = await _hello(url, created["codes"]["0"])  # (websockets answers pings by itself)
            await alive.until("welcome")
            mute = await asyncio.to_thread(raw_socket, url)  # answers no ping
            raw_send(mute, {"v": 1, "type": "hello", "code": created["codes"]["1"]})
            table = server.tables[created["table"]]
            await eventually(lambda: table.connected(1), "the mute seat joined")
            await eventually(lambda: not table.connected(1), "the mute seat was dropped")
            await asyncio.to_thread(raw_read_all, mute)  # (the server closed it: reading ends)
            mute.close()
            await asyncio.sleep(1.5)  # three more pings: the one that answers them stays
            assert table.connected(0)
            assert (await alive.request("ping", "pong"))["type"] == "pong"

    asyncio.run(main())
    assert "a client dropped: it did not answer a ping in 0.5 s" in capfd.readouterr().err


def test_the_terminal_uis_client_tries_again_when_a_crowd_is_joining(tmp_path):
    from jux.interpreter.server.client import TableClient

    async def main():
        async with running_server(tmp_path, joins=1) as (url, server, store):
            created = await create(url, "guildhall", ["human", "human"])
            first = await _hello(url, created["spectate"])
            await first.until("welcome")  # (the table's one join this second)
            watcher = TableClient(url, created["spectate"], patience=30)
            state = await watcher.next()  # refused `busy` at first, then let in
            assert state["type"] == "state" and watcher.seat is None
            await watcher.close()

    asyncio.run(main())
