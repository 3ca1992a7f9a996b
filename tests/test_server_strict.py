"""What `jux serve` reads strictly and keeps (issue 39), over a real server with raw clients: a
seat's `seq` is bounded (from 1, at most 1,000,000 above its last: no message locks a seat out),
a JSON object with a key given twice is refused, a bare number does not answer a choice of several;
the decision ids stored with the answers are the ids a replay of them gives; a finished game's
codes still show its end for `keep_over` seconds, also after a restart, and then are refused with
words that say why."""
import asyncio
import random

from jux.interpreter.server.tables import SEQ_STEP, Table

from server_helpers import Raw, create, eventually, play_random, random_choice, running_server


async def _seat(url, code) -> Raw:
    c = await Raw.open(url)
    await c.send({"v": 1, "type": "hello", "code": code})
    await c.until_state(lambda s: s["decisions"])
    return c


def test_seq_is_bounded_and_a_huge_one_locks_no_seat_out(tmp_path):
    async def main():
        async with running_server(tmp_path) as (url, server, store):
            created = await create(url, "guildhall", ["human", "random"])
            c = await _seat(url, created["codes"]["0"])
            table = server.tables[created["table"]]
            d = c.states()[-1]["decisions"][0]
            rows = list(table.rows)  # (the bot's first answers)
            for seq, code in [(2 ** 53, "bad_seq"), (SEQ_STEP + 1, "bad_seq"), (2 ** 53 + 1, "bad_field"),
                              (0, "bad_field"), (-1, "bad_field")]:
                await c.answer(d["id"], random_choice(d, random.Random(1)), seq=seq)
                err = await c.until("error")
                assert err["code"] == code, (seq, err)
                assert table.rows == rows and table.last_seq[0] is None
            assert "1,000,000" in (await _refused(c, d, 2 ** 53))["message"]
            await c.answer(d["id"], random_choice(d, random.Random(1)), seq=SEQ_STEP)  # the first may be up to 1,000,000
            st = await c.until_state(lambda s: all(x["id"] != d["id"] for x in s["decisions"]))
            assert table.last_seq[0] == SEQ_STEP
            d = st["decisions"][0]
            assert (await _refused(c, d, 2 * SEQ_STEP + 1))["code"] == "bad_seq"
            await c.answer(d["id"], random_choice(d, random.Random(2)), seq=2 * SEQ_STEP)
            await c.until_state(lambda s: all(x["id"] != d["id"] for x in s["decisions"]))
            again = await Raw.open(url)
            await again.send({"v": 1, "type": "hello", "code": created["codes"]["0"]})
            assert (await again.until("welcome"))["seq"] == 2 * SEQ_STEP
            # an undo's seq is bounded the same way
            await c.send({"v": 1, "type": "undo", "seq": 2 ** 53})
            assert (await c.until("error"))["code"] == "bad_seq"

    asyncio.run(main())


async def _refused(c: Raw, d: dict, seq: int) -> dict:
    await c.answer(d["id"], random_choice(d, random.Random(1)), seq=seq)
    return await c.until("error")


def test_a_key_given_twice_and_a_bare_number_for_several_are_refused(tmp_path):
    async def main():
        async with running_server(tmp_path) as (url, server, store):
            created = await create(url, "guildhall", ["human", "random"])
            c = await _seat(url, created["codes"]["0"])
            table = server.tables[created["table"]]
            d = c.states()[-1]["decisions"][0]
            rows = list(table.rows)  # (the bot's first answers)
            assert d["many"] and d["min"] <= 1 <= d["max"]  # (guildhall's first: discard any cards)
            twice = '{"v": 1, "type": "answer", "decision": %d, "choice": [], "seq": 1, "seq": 2}' % d["id"]
            await c.send(twice)
            err = await c.until("error")
            assert err["code"] == "bad_field" and "'seq' is given twice" in err["message"]
            await c.send('{"v": 1, "type": "ping", "v": 1}')
            assert (await c.until("error"))["code"] == "bad_field"
            await c.answer(d["id"], 0, seq=1)  # a bare number for a choice of several
            err = await c.until("error")
            assert err["code"] == "illegal_answer" and "list of option ids" in err["message"]
            assert table.rows == rows and table.last_seq[0] is None
            await c.answer(d["id"], [0], seq=1)  # the same as a list is taken
            await c.until_state(lambda s: all(x["id"] != d["id"] for x in s["decisions"]))
            assert table.rows[len(rows)] == (0, d["id"], [0], 1)

    asyncio.run(main())


def test_the_stored_decision_ids_are_a_replays(tmp_path):
    """Answers and undos: each stored answer's decision id is the id a replay
    of the stored answers before it gives that decision (Table.replay finds each by its id)."""
    async def main():
        async with running_server(tmp_path) as (url, server, store):
            created = await create(url, "bruges", ["human", "random"])
            c = await _seat(url, created["codes"]["0"])
            table = server.tables[created["table"]]
            rnd = random.Random(5)
            seq = undos = 0
            while not c.states()[-1]["over"] and len(table.rows) < 60:
                st = c.states()[-1]
                seq += 1
                if st["undo"] and rnd.random() < 0.3:
                    await c.send({"v": 1, "type": "undo", "seq": seq})
                    undos += 1
                else:
                    d = st["decisions"][0]
                    await c.answer(d["id"], random_choice(d, rnd), seq=seq)
                n = len(c.states())
                msg = await c.more_states(n)
                while not msg["decisions"] and not msg["over"]:
                    msg = await c.more_states(len(c.states()))
            stored = [(r[1], r[2], r[3], r[4]) for r in store.answers(table.id)]
            assert undos and stored == table.rows
            again = Table("again", table.rules, table.source, table.tiles, table.seats, store.seed(table.id),
                          table.options, "playing")
            again.replay(stored)  # (JuxError if an id were not the one a replay gives)
            assert [again.decision_id(d) for d in again.game.pending] == \
                [table.decision_id(d) for d in table.game.pending]

    asyncio.run(main())


def test_a_finished_games_codes_show_its_end_for_keep_over_seconds_also_after_a_restart(tmp_path):
    async def finish():
        async with running_server(tmp_path, keep_over=3600) as (url, server, store):
            created = await create(url, "guildhall", ["human", "random"])
            c = await Raw.open(url)
            await c.send({"v": 1, "type": "hello", "code": created["codes"]["0"]})
            await play_random(c, random.Random(3))
            await c.close()
            table = server.tables[created["table"]]
            await eventually(lambda: not table.clients, "the seat left")
            await asyncio.sleep(0.6)  # (two ticks: a table over is held all the same)
            back = await Raw.open(url)
            await back.send({"v": 1, "type": "hello", "code": created["codes"]["0"]})
            end = await back.until_state()
            assert end["over"] and end["scores"] == table.game.scores
            return created, table.game.scores

    created, scores = asyncio.run(finish())

    async def restarted(keep_over):
        async with running_server(tmp_path, keep_over=keep_over) as (url, server, store):
            await asyncio.sleep(0.6)  # (two ticks)
            c = await Raw.open(url)
            await c.send({"v": 1, "type": "hello", "code": created["codes"]["0"]})
            msg = await c.recv()
            if msg["type"] == "error":
                return msg
            return await c.until_state()

    end = asyncio.run(restarted(3600))  # brought back with the tables not over
    assert end["over"] and end["scores"] == scores
    gone = asyncio.run(restarted(0.2))
    assert gone["code"] == "bad_code" and "ended over 0.2 s ago" in gone["message"]


def test_every_error_code_and_every_limit_of_jux_serve_is_documented():
    from pathlib import Path

    from jux.interpreter.server.limits import Limits
    from jux.interpreter.server.protocol import ERROR_CODES

    doc = (Path(__file__).resolve().parent.parent / "docs" / "protocol.md").read_text()
    errors = doc[doc.index("## Errors"):]
    assert [c for c in ERROR_CODES if f"| `{c}` |" not in errors] == []
    d = Limits()
    for option, default in [("--max-per-table N", d.per_table), ("--max-per-code N", d.per_code),
                            ("--max-per-address N", d.per_address), ("--joins-per-second N", d.joins),
                            ("--ping-timeout SECONDS", d.ping), ("--keep-over SECONDS", d.keep_over)]:
        assert f"| `{option}` | {default:g} |" in doc, option
    assert f"{d.outbox:,} characters" in doc and f"not left in {d.send_timeout:g} seconds" in doc
