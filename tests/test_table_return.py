"""A table that never trips a player (issue 36): the host's own code shown; quitting a seat of a
server's table asks first and says how to come back and what the table does meanwhile (a finished
game, a spectator and a finished local game quit at once); the start screen rejoins the tables
hosted or joined (tui/known_tables.py), robust to a broken list, forgetting a code the server says is
bad; a remote table's caption names the tiles it really plays; seats read from 1 wherever a person
reads them. Real servers on loopback (tests/server_helpers.py), Textual pilots at 80x24."""
import asyncio
import json

import pytest

pytest.importorskip("textual")
pytest.importorskip("websockets")

from jux.tui import known_tables  # noqa: E402
from jux.tui.app import JuxApp  # noqa: E402
from jux.tui.joining import Hosted, join  # noqa: E402
from jux.tui.screens.dialogs import ConfirmScreen  # noqa: E402
from jux.tui.screens.game import GameScreen  # noqa: E402
from jux.tui.screens.leaving import LeaveScreen  # noqa: E402
from jux.tui.screens.start import StartScreen  # noqa: E402
from server_helpers import JUX, Raw, running_server, start_serve, stop_serve  # noqa: E402
from tui_helpers import settle  # noqa: E402


async def make(url, seats, **fields):
    host = await Raw.open(url)
    created = await host.request("create", "created", ruleset="capital_jux", players=len(seats), seats=seats,
                                 **fields)
    await host.close()
    return created


def text_of(screen) -> str:
    """The words of a screen's Static widgets (what a person reads there)."""
    from textual.widgets import Static

    return "\n".join(str(w.render()) for w in screen.query(Static))


async def until(pilot, check, tries=300):
    for _ in range(tries):
        if check():
            return True
        await pilot.pause(0.02)
    return False


# ---------------------------------------------------------------- (a) the host's own code

def test_the_codes_screen_shows_the_hosts_own_code_beside_the_others():
    from jux.tui.screens.invitation import invitation_text

    class Seat:
        seat = 0

    hosted = Hosted("t1", {0: "MINE-code", 2: "THEIRS-code"}, "WATCH-code", ["Ann", "Bot", "Cy"],
                    "ws://127.0.0.1:1", Seat())
    text = invitation_text(hosted).plain
    assert "Ann (seat 1): you" in text and "  MINE-code\n" in text
    assert "Cy (seat 3):\n  THEIRS-code" in text and "WATCH-code" in text
    assert hosted.own_code == "MINE-code"


# ---------------------------------------------------------------- (b) quitting a network game

@pytest.mark.parametrize("options,meanwhile", [
    ({"away": 90, "stand_in": "random"}, "once you have been away 1 minute 30 seconds, a bot (random) plays your seat"),
    ({"timer": 45}, "the table waits up to 45 seconds for each of your decisions; then a bot (greedy)"),
    ({}, "the table waits for you: it has no away rule and no turn timer"),
])
def test_quitting_a_seat_asks_and_says_how_to_come_back_and_what_happens_meanwhile(tmp_path, options, meanwhile):
    async def main():
        async with running_server(tmp_path) as (url, _server, _store):
            created = await make(url, ["human", "random"], **options)
            code = created["codes"]["0"]
            session = await asyncio.to_thread(join, url, code)
            app = JuxApp(session=session, bot_delay=0)
            async with app.run_test(size=(80, 24)) as pilot:
                await settle(pilot, app, GameScreen, 300)
                await pilot.press("q")
                ask = await settle(pilot, app, LeaveScreen)
                words = " ".join(text_of(ask).split())
                assert f"jux join {code} --server {url}" in words, words
                assert "Rejoin on the start screen" in words and "Player 1, seat 1" in words
                assert meanwhile in words, words
                await pilot.press("n")  # stay
                await settle(pilot, app, GameScreen)
                assert app.is_running
                await pilot.press("ctrl+q")
                await settle(pilot, app, LeaveScreen)
                await pilot.press("y")
                await pilot.pause()
            assert app.return_code == 0
            await session.close()

    asyncio.run(main())


def test_a_spectator_and_a_finished_network_game_quit_without_asking(tmp_path):
    async def main():
        async with running_server(tmp_path) as (url, _server, _store):
            created = await make(url, ["human", "random"])
            for code, finish in ((created["spectate"], False), (created["codes"]["0"], True)):
                session = await asyncio.to_thread(join, url, code)
                app = JuxApp(session=session, bot_delay=0)
                async with app.run_test(size=(80, 24)) as pilot:
                    await settle(pilot, app, GameScreen, 300)
                    assert await until(pilot, lambda: session.state is not None)
                    if finish:  # (as the server's last state of a game over says)
                        session.state = dict(session.state, over=True)
                    await pilot.press("q")
                    await pilot.pause()
                    assert not isinstance(app.screen, ConfirmScreen)
                assert app.return_code == 0
                await session.close()

    asyncio.run(main())


def test_a_finished_local_game_quits_without_asking_an_unfinished_one_asks():
    from jux.interpreter.engine.ruleset import load_ruleset
    from jux.tui.session import SeatSpec, Session

    async def main():
        rules = load_ruleset("capital_jux")
        for finish in (True, False):
            session = Session(rules, [SeatSpec("Ann", "human"), SeatSpec("Bo", "random")], seed=3)
            session.game.autoplay(lambda d: list(range(d.min)) if d.many else 0, None if finish else 3)
            assert session.dirty and session.over == finish
            app = JuxApp(session=session, bot_delay=0)
            async with app.run_test(size=(80, 24)) as pilot:
                await pilot.pause(0.2)
                await pilot.press("ctrl+q")
                await pilot.pause()
                if not finish:  # (today's question: the game is not saved)
                    await settle(pilot, app, ConfirmScreen)
                    await pilot.press("y")
                    await pilot.pause()
            assert app.return_code == 0

    asyncio.run(main())


# ---------------------------------------------------------------- (c) rejoin from the start screen

async def start_ready(pilot, app):
    start = await settle(pilot, app, StartScreen, 300)
    assert await until(pilot, lambda: start.rules is not None)
    return start


def test_the_start_screen_rejoins_a_table_and_forgets_one_whose_code_is_bad(tmp_path):
    async def main():
        async with running_server(tmp_path) as (url, server, _store):
            created = await make(url, ["human", "human"])
            mine = created["codes"]["1"]
            first = await asyncio.to_thread(join, url, mine)  # (jux join: the table is kept)
            await first.close()
            known_tables.remember(known_tables.KnownTable(url=url, code="no-such-code", ruleset="Gone Game",
                                                          seat=0, when=1.0))
            kept, note = known_tables.read()
            assert note is None and [t.code for t in kept] == [mine, "no-such-code"]
            assert kept[0].seat == 1 and kept[0].names == ["Player 1", "Player 2"] and not kept[0].hosted

            app = JuxApp(bot_delay=0)  # (no --server: the entry knows its own)
            async with app.run_test(size=(80, 24)) as pilot:
                start = await start_ready(pilot, app)
                words = text_of(start)
                assert "Rejoin a table you hosted or joined" in words
                assert "Capital Jux, Player 2 (seat 2), joined" in str(start.query_one("#rejoin-0").label)
                start.query_one("#rejoin-1").press()  # the bad code: one line, taken off the list
                assert await until(pilot, lambda: "That table is gone" in text_of(start))
                assert "no table has this code" in text_of(start) and "Traceback" not in text_of(start)
                assert [t.code for t in known_tables.read()[0]] == [mine]
                assert not start.query_one("#rejoin-1").display
                start.query_one("#rejoin-0").press()
                gs = await settle(pilot, app, GameScreen, 300)
                assert gs.session.seat == 1 and gs.session.client.code == mine
                assert await until(pilot, lambda: gs.session.connected)
                await gs.session.close()

    asyncio.run(main())


def test_a_host_who_quit_rejoins_from_the_start_screen_with_the_codes_again(tmp_path):
    from jux.tui.screens.invitation import InvitationScreen

    async def main():
        async with running_server(tmp_path) as (url, server, _store):
            app = JuxApp(server=url, bot_delay=0)
            async with app.run_test(size=(80, 24)) as pilot:
                await start_ready(pilot, app)
                await pilot.press("ctrl+s")
                inv = await settle(pilot, app, InvitationScreen, 300)
                own = inv.hosted.own_code
                assert own in " ".join(text_of(inv).split())
                await pilot.press("enter")
                gs = await settle(pilot, app, GameScreen, 300)
                await pilot.press("q")
                ask = await settle(pilot, app, LeaveScreen)
                assert f"jux join {own}" in " ".join(text_of(ask).split())
                await pilot.press("y")
                await pilot.pause()
            (entry,), _ = known_tables.read()
            assert entry.hosted and entry.code == own and entry.seat == 0 and entry.spectate

            again = JuxApp(bot_delay=0)
            async with again.run_test(size=(80, 24)) as pilot:
                await start_ready(pilot, again)
                await pilot.press("ctrl+o")  # (the newest table)
                gs = await settle(pilot, again, GameScreen, 300)
                assert gs.session.seat == 0
                await pilot.press("i")  # the codes again, the host's own among them
                inv = await settle(pilot, again, InvitationScreen)
                assert own in " ".join(text_of(inv).split())
                await gs.session.close()

    asyncio.run(main())


@pytest.mark.parametrize("content", [b"{not json", b"\xff\xfe garbage", b'{"tables": 7}', b"[1, 2]", None])
def test_a_broken_list_of_tables_is_one_line_never_a_traceback(tmp_path, monkeypatch, content):
    data = tmp_path / "data"
    data.mkdir()
    if content is None:  # (a folder where the file should be: unreadable)
        (data / "tables.json").mkdir()
    else:
        (data / "tables.json").write_bytes(content)
    monkeypatch.setenv("JUX_DATA_DIR", str(data))
    kept, note = known_tables.read()
    assert kept == [] and note and "\n" not in note
    assert known_tables.remember(known_tables.KnownTable(url="ws://127.0.0.1:1", code="c")) is None or content is None

    async def main():
        app = JuxApp(bot_delay=0)
        async with app.run_test(size=(80, 24)) as pilot:
            start = await start_ready(pilot, app)
            assert "Traceback" not in text_of(start)

    asyncio.run(main())


def test_entries_not_of_jux_are_skipped_and_the_list_is_kept_short(tmp_path, monkeypatch):
    monkeypatch.setenv("JUX_DATA_DIR", str(tmp_path))
    (tmp_path / "tables.json").write_text(json.dumps({"tables": [
        {"url": "ws://a:1", "code": "x", "seat": "one", "codes": {"zero": 5}, "when": "soon"}, 3, {"url": 1}]}))
    kept, note = known_tables.read()
    assert note is None and [(t.url, t.code, t.seat, t.codes, t.when) for t in kept] == [("ws://a:1", "x", None, {}, 0.0)]
    for i in range(known_tables.MAX_KEPT + 5):
        known_tables.remember(known_tables.KnownTable(url="ws://a:1", code=f"c{i}", when=float(i + 1)))
    kept, _ = known_tables.read()
    assert len(kept) == known_tables.MAX_KEPT and kept[0].code == f"c{known_tables.MAX_KEPT + 4}"


# ---------------------------------------------------------------- 10: a remote table's own tiles

def test_a_remote_table_shows_the_tiles_it_really_plays_to_seats_and_spectators(tmp_path):
    async def main():
        async with running_server(tmp_path) as (url, _server, _store):
            created = await make(url, ["human", "random"], tiles=["infiltrator"])
            raw = await Raw.open(url)
            welcome = await raw.request("hello", "welcome", code=created["spectate"])
            await raw.close()
            assert welcome["tiles"] == ["power_tiles", "infiltrator", "cleric", "merchant", "scholar"]
            for code in (created["codes"]["0"], created["spectate"]):
                session = await asyncio.to_thread(join, url, code)
                app = JuxApp(session=session, bot_delay=0)
                async with app.run_test(size=(80, 24)) as pilot:
                    gs = await settle(pilot, app, GameScreen, 300)
                    caption = str(gs.query_one("#table-scroll").border_subtitle)
                    assert caption == "tiles: Infiltrator, Cleric, Merchant, Scholar", caption
                await session.close()

    asyncio.run(main())


# ---------------------------------------------------------------- 9c: seats from 1 for people

def test_jux_host_prints_seats_from_1_as_the_terminal_ui_shows_them(tmp_path):
    import subprocess

    proc, url = start_serve(tmp_path)
    try:
        out = subprocess.run([JUX, "host", "capital_jux", "--server", url, "--seat", "human", "--seat", "random",
                              "--seat", "human", "--name", "Ann", "--name", "Bo", "--name", "Cy"],
                             capture_output=True, text=True, timeout=60)
        assert out.returncode == 0, out.stderr
        assert "  seat 1 (Ann): " in out.stdout and "  seat 3 (Cy): " in out.stdout, out.stdout
        assert "seat 0" not in out.stdout and "seat 2" not in out.stdout
    finally:
        assert "Traceback" not in stop_serve(proc)
