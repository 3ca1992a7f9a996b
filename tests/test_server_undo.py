"""Undo at a server's table (docs/protocol.md, `undo`): a real `jux serve` on a loopback port and raw
clients. One human against a bot takes back its last answer and the bot's after it; the table is
the rewound game for every connection (its whole log again, `log_reset`), in the store too: a
restart replays the rewound game. Refused (`undo_refused`, in words) with two humans, for a
spectator, with nothing to take back, and across a shuffle or a card the seat came to see."""
import asyncio
from pathlib import Path

from server_helpers import Raw, create, running_server, start_serve, stop_serve

RULE_PATHS = [str(Path(__file__).parent / "data" / "undo_probe")]  # (its rules, shared with test_tui.py)


async def _join(url, code) -> tuple:
    c = await Raw.open(url)
    await c.send({"v": 1, "type": "hello", "code": code})
    welcome = await c.until("welcome")
    return c, welcome, await c.until("state")


async def _reply(c: Raw) -> dict:
    """The next state or error."""
    while True:
        msg = await c.recv()
        if msg["type"] in ("state", "error"):
            return msg


async def _remote_session(url, against: str) -> tuple:
    """A table of the undo probe, a human against the bot `against`, and the human seat's session
    (tui/remote.py) made with the welcome a first connection got: (the table as created, the session)."""
    from jux.interpreter.engine.ruleset import load_ruleset
    from jux.tui.remote import RemoteSession

    created = await create(url, "undo_probe", ["human", against])
    raw, welcome, _ = await _join(url, created["codes"]["0"])
    await raw.close()
    return created, RemoteSession(url, created["codes"]["0"], load_ruleset(RULE_PATHS[0]), welcome)


def _log(c: Raw) -> list:
    """The log the client holds: its lines, started again at each state with log_reset."""
    out = []
    for s in c.states():
        out = list(s["log"]) if s.get("log_reset") else out + s["log"]
    return out


def test_undo_rewinds_the_table_for_every_connection_and_in_the_store(tmp_path):
    paths = RULE_PATHS
    data = tmp_path / "data"

    async def first():
        async with running_server(data, rule_paths=paths) as (url, server, store):
            created = await create(url, "undo_probe", ["human", "random"])
            ann, _, start = await _join(url, created["codes"]["0"])
            watcher, _, _ = await _join(url, created["spectate"])
            await ann.drain(0.2)  # (the spectator's coming: a state)
            assert start["undo"] is False and "Nothing to undo" in start["undo_refusal"]
            await ann.send({"v": 1, "type": "undo", "seq": 1})
            refused = await _reply(ann)
            assert refused["code"] == "undo_refused" and "Nothing to undo" in refused["message"]
            await watcher.send({"v": 1, "type": "undo", "seq": 1})
            assert (await watcher.until("error"))["code"] == "undo_refused"

            d = start["decisions"][0]
            assert d["prompt"] == "Add before the shuffle"
            await ann.answer(d["id"], 2)
            after = await _reply(ann)
            assert after["type"] == "state" and after["undo"] is True and "undo_refusal" not in after
            assert after["view"]["counters"] != start["view"]["counters"]
            assert len(_log(ann)) == len(start["log"]) + 2  # Ann's line and the bot's
            table = server.tables[created["table"]]
            assert len(store.answers(table.id)) == 2  # Ann's and the bot's
            await watcher.drain(0.2)
            seen = len(watcher.states())

            ann.seq += 1
            await ann.send({"v": 1, "type": "undo", "seq": ann.seq})
            rewound = await _reply(ann)
            assert rewound["type"] == "state" and rewound.get("log_reset") is True
            assert (rewound["view"], rewound["decisions"]) == (start["view"], start["decisions"])
            assert rewound["log"] == start["log"] and _log(ann) == start["log"]
            assert rewound["undo"] is False
            assert store.answers(table.id) == []  # taken back in the store too
            spect = (await watcher.drain(0.3))[-1]
            assert len(watcher.states()) > seen and spect.get("log_reset") is True
            assert spect["decisions"] == [] and spect["undo"] is False
            assert len(_log(watcher)) == len(start["log"])  # (every line here is public)

            # the same undo again (a replayed message), and an answer at the undo's seq: stale
            await ann.send({"v": 1, "type": "undo", "seq": ann.seq})
            assert (await _reply(ann))["code"] == "stale_seq"
            await ann.answer(rewound["decisions"][0]["id"], 0, seq=ann.seq)
            assert (await _reply(ann))["code"] == "stale_seq"

            # on to the shuffle, then a card drawn to Ann: no undo across either
            for choice in (0, 1):
                now = ann.states()[-1]
                await ann.answer(now["decisions"][0]["id"], choice)
                assert (await _reply(ann))["type"] == "state"
            now = ann.states()[-1]
            assert now["decisions"][0]["prompt"] == "Add after the shuffle"
            assert now["undo"] is False and "drawn at random" in now["undo_refusal"]
            await ann.send({"v": 1, "type": "undo", "seq": ann.seq + 1})
            refused = await _reply(ann)
            assert refused["code"] == "undo_refused" and "drawn at random" in refused["message"]
            await ann.answer(now["decisions"][0]["id"], 0)
            now = await _reply(ann)
            assert now["undo"] is False and "seen a hidden card" in now["undo_refusal"]
            keep = (now["view"], now["decisions"], _log(ann))
            for c in (ann, watcher):
                await c.close()
            return created, keep, ann.seq, len(store.answers(table.id))

    created, keep, seq, stored = asyncio.run(first())
    assert stored == 6  # the answers of three rounds: the one taken back is not among them

    async def second():  # the server starts again on the same data: the rewound game comes back
        async with running_server(data, rule_paths=paths) as (url, server, store):
            ann, welcome, state = await _join(url, created["codes"]["0"])
            assert welcome["seq"] == seq
            ann.seq = seq
            assert (state["view"], state["decisions"], state["log"]) == keep
            await ann.answer(state["decisions"][0]["id"], 1)
            assert (await _reply(ann))["type"] == "state"
            await ann.close()

    asyncio.run(second())


def test_undo_is_refused_at_a_table_of_two_humans(tmp_path):
    async def main():
        async with running_server(tmp_path, rule_paths=RULE_PATHS) as (url, server, store):
            created = await create(url, "undo_probe", ["human", "human", "random"])
            ann, _, _ = await _join(url, created["codes"]["0"])
            bob, _, _ = await _join(url, created["codes"]["1"])
            state = ann.states()[-1] if len(ann.states()) > 1 else await ann.until("state")
            assert state["started"] and state["decisions"]
            await ann.answer(state["decisions"][0]["id"], 0)
            answered = await _reply(ann)
            assert answered["type"] == "state" and answered["undo"] is False
            assert "one human" in answered["undo_refusal"]
            await ann.send({"v": 1, "type": "undo", "seq": 5})
            refused = await _reply(ann)
            assert refused["code"] == "undo_refused" and "one human plays against bots" in refused["message"]
            assert len(store.answers(created["table"])) == 1
            for c in (ann, bob):
                await c.close()

    asyncio.run(main())


def test_a_remote_session_offers_undo_as_the_server_says(tmp_path):
    """tui/remote.py: undo_refusal() is the state's, undo() sends `undo`, the rewound game replaces
    the session's log (no Textual: the session's own loop)."""
    from jux.tui.session import UndoRefused

    paths = RULE_PATHS

    async def main():
        async with running_server(tmp_path / "data", rule_paths=paths) as (url, server, store):
            created, s = await _remote_session(url, "greedy")
            changed = asyncio.Event()
            s.listen(lambda note: changed.set())

            async def until(check):
                for _ in range(300):
                    if check():
                        return True
                    changed.clear()
                    try:
                        await asyncio.wait_for(changed.wait(), 0.1)
                    except asyncio.TimeoutError:
                        pass
                return False

            assert await until(lambda: s.human_decision() is not None)
            assert "Nothing to undo" in s.undo_refusal()
            try:
                s.undo()
                raise AssertionError("undo with nothing to undo")
            except UndoRefused as e:
                assert "Nothing to undo" in str(e)
            start_log, start_view = s.log_lines(0), s.view(0)
            s.answer(s.human_decision(), 2)
            assert await until(lambda: s.undo_refusal() is None)
            assert s.view(0) != start_view and len(s.log_lines(0)) == len(start_log) + 2
            assert s.undo() == 1 and s.undo_refusal() is not None  # (until the server's state comes)
            assert s.human_decision() is None  # (the decisions shown wait for the rewound game)
            assert await until(lambda: (s.state or {}).get("log_reset"))
            assert s.log_lines(0) == start_log and s.view(0) == start_view
            assert s.human_decision().prompt == "Add before the shuffle"
            assert store.answers(created["table"]) == []
            s.listen(None)
            await s.close()

    asyncio.run(main())


def test_a_server_killed_after_an_undo_comes_back_with_the_rewound_game(tmp_path):
    """`jux serve --rules` killed with SIGKILL right after an undo: started again on the same data, it
    replays the rewound game exactly, and the undo's seq still stands (a replayed message is stale)."""
    import signal

    paths = RULE_PATHS

    async def before_kill(url):
        created = await create(url, "undo_probe", ["human", "random"])
        ann, _, start_state = await _join(url, created["codes"]["0"])
        await ann.answer(start_state["decisions"][0]["id"], 2)  # Ann answers, the bot too; then undo
        assert (await _reply(ann))["undo"] is True
        ann.seq += 1
        await ann.send({"v": 1, "type": "undo", "seq": ann.seq})
        rewound = await _reply(ann)
        assert rewound.get("log_reset") and rewound["view"] == start_state["view"]
        return created, (rewound["view"], rewound["decisions"], _log(ann)), ann.seq

    proc, url = start_serve(tmp_path / "data", "--rules", paths[0])
    try:
        created, keep, seq = asyncio.run(before_kill(url))
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait()
    proc, url = start_serve(tmp_path / "data", "--rules", paths[0])
    try:
        async def after(url):
            ann, welcome, state = await _join(url, created["codes"]["0"])
            assert welcome["seq"] == seq
            assert (state["view"], state["decisions"], state["log"]) == keep
            await ann.answer(state["decisions"][0]["id"], 0, seq=seq)  # the undo's seq: stale still
            assert (await _reply(ann))["code"] == "stale_seq"
            await ann.answer(state["decisions"][0]["id"], 0, seq=seq + 1)
            assert (await _reply(ann))["type"] == "state"
            await ann.close()

        asyncio.run(after(url))
    finally:
        assert "Traceback" not in stop_serve(proc)


def test_u_takes_back_a_decision_in_the_terminal_ui_at_a_server_table(tmp_path):
    """The game screen over RemoteSession: u is refused in words with nothing to undo, then takes
    back the seat's answer (the server's table and store are rewound; the panel asks again)."""
    import pytest

    pytest.importorskip("textual")
    from jux.tui.app import JuxApp
    from jux.tui.screens.game import GameScreen
    from jux.tui.widgets.decision import DecisionPanel
    from tui_helpers import notes, settle

    paths = RULE_PATHS

    async def main():
        async with running_server(tmp_path / "data", rule_paths=paths) as (url, server, store):
            created, session = await _remote_session(url, "random")
            app = JuxApp(session=session, bot_delay=0)
            async with app.run_test(size=(80, 24), notifications=True) as pilot:
                screen = await settle(pilot, app, GameScreen)
                table = server.tables[created["table"]]

                async def until(check):
                    for _ in range(300):
                        if check():
                            return True
                        await pilot.pause(0.02)
                    return False

                panel = screen.query_one(DecisionPanel)
                assert await until(lambda: panel.decision is not None)
                await pilot.press("u")
                await pilot.pause()
                assert "Nothing to undo" in notes(app)
                await pilot.press("2")
                assert await until(lambda: len(table.rows) == 2 and session.undo_refusal() is None)
                app.clear_notifications()
                await pilot.press("u")
                assert await until(lambda: not table.rows and panel.decision is not None)
                assert "taken back" in notes(app)
                assert panel.decision.prompt == "Add before the shuffle"
                assert store.answers(table.id) == []
            await session.close()

    asyncio.run(main())
