"""Remote play in the terminal UI (issue 29): a real `jux serve` on a loopback port, a table of
Capital Jux with two human seats and a bot made with the protocol, and two apps (Textual pilots) in
one test, each joined with its seat's code through RemoteSession: the same GameScreen as local play.
A few turns are answered from the keyboard; each screen shows its seat's hand and never a card of
the other seat's hand that it may not know; the status line says who is connected; a dropped
connection says "reconnecting…" and comes back by itself."""
import asyncio

import pytest

pytest.importorskip("textual")
pytest.importorskip("websockets")

from jux.interpreter.engine.ruleset import load_ruleset  # noqa: E402
from jux.tui.app import JuxApp  # noqa: E402
from jux.tui.remote import RemoteSession  # noqa: E402
from jux.tui.screens.game import GameScreen  # noqa: E402
from jux.tui.widgets.decision import DecisionPanel  # noqa: E402
from jux.tui.widgets.table import TableView  # noqa: E402
from server_helpers import Raw, running_server  # noqa: E402
from tui_helpers import settle  # noqa: E402


async def make_table(url, ruleset, seats, tiles=()):
    host = await Raw.open(url)
    await host.send({"v": 1, "type": "create", "ruleset": ruleset, "players": len(seats), "seats": seats,
                     "tiles": list(tiles)})
    created = await host.until("created")
    await host.ws.close()
    return created


async def welcome_of(url, code):
    raw = await Raw.open(url)
    await raw.send({"v": 1, "type": "hello", "code": code})
    msg = await raw.until("welcome")
    await raw.ws.close()
    return msg


def secret_labels(game, rules, seat, other):
    """Labels of the cards in seat's own zones that seat knows and that appear nowhere in other's view."""
    def labels(view, owner=None):
        return {c["label"] for z in view["zones"] if owner is None or z["owner"] == owner
                for c in z["cards"] if not c.get("hidden")}
    return labels(game.view(seat), seat) - labels(game.view(other))


async def wait_for(pilot_a, pilot_b, check, tries=200):
    for _ in range(tries):
        if check():
            return True
        await pilot_a.pause(0.02)
        await pilot_b.pause(0.02)
    return False


async def answer_from_keyboard(pilot, screen) -> bool:
    """Answer the decision the panel shows with number keys (the first options); False: none shown."""
    d = screen.query_one(DecisionPanel).decision
    if d is None:
        return False
    if d.many:
        for k in range(1, d.min + 1):
            await pilot.press(str(k))
        await pilot.press("enter")
    else:
        await pilot.press("1")
        await pilot.pause()
        if screen.query_one(DecisionPanel).group is not None:  # (options in two steps: the group's first)
            await pilot.press("1")
    return True


def first_answer(d):
    """The first legal answer of a decision: the first options, no two of one group (keys)."""
    if not d.many:
        return 0
    out, groups = [], set()
    for o in d.options:
        if len(out) >= d.min:
            break
        key = d.keys[o.id] if d.keys is not None else o.id
        if key not in groups:
            groups.add(key)
            out.append(o.id)
    return out


def test_two_terminal_uis_play_one_server_table(tmp_path):
    async def main():
        async with running_server(tmp_path) as (url, server, _store):
            created = await make_table(url, "capital_jux", ["human", "human", "random"])
            codes = created["codes"]
            rules = load_ruleset("capital_jux", [])
            sessions = [RemoteSession(url, codes[str(s)], rules, await welcome_of(url, codes[str(s)]))
                        for s in (0, 1)]
            apps = [JuxApp(session=s, bot_delay=0) for s in sessions]
            async with apps[0].run_test(size=(80, 24)) as p0, apps[1].run_test(size=(80, 24)) as p1:
                pilots = [p0, p1]
                screens = [await settle(p0, apps[0], GameScreen), await settle(p1, apps[1], GameScreen)]
                table = server.tables[created["table"]]
                assert await wait_for(p0, p1, lambda: all(s.state and s.state["started"] for s in sessions))
                assert await wait_for(p0, p1, lambda: "all connected" in screens[0].query_one("#status").render().plain)
                assert sessions[0].seat == 0 and sessions[1].seat == 1

                def both_hold_secrets():  # (a card in each seat's zones that the other seat cannot know)
                    return all(secret_labels(table.game, rules, seat, 1 - seat) for seat in (0, 1))

                # answer at least 6 decisions, and on until each seat holds a card the other cannot know:
                # right after a pass, every card a seat holds may be one the other passed it
                answered = 0
                for _ in range(120):
                    if answered >= 6 and both_hold_secrets():
                        break
                    before = len(table.rows)
                    moved = False
                    for p, s in zip(pilots, screens):
                        if await answer_from_keyboard(p, s):
                            moved = True
                            break
                    if moved:
                        assert await wait_for(p0, p1, lambda: len(table.rows) > before), "the answer reached the server"
                        answered += 1
                    await p0.pause(0.05)
                    await p1.pause(0.05)
                assert answered >= 6, f"only {answered} answers from the keyboard"
                assert both_hold_secrets(), "no moment found where each seat held a card the other cannot know"
                humans = {r[0] for r in table.rows if r[3] is not None}
                assert humans == {0, 1}, humans  # both keyboards answered

                # each screen shows its own hand, and no card of the other's that it may not know
                assert await wait_for(p0, p1, lambda: all(len(s.log_lines(None)) == len(table.game.log_lines(i))
                                                          for i, s in enumerate(sessions)))
                await p0.pause(0.1)
                await p1.pause(0.1)
                for seat in (0, 1):
                    other = 1 - seat
                    mine = secret_labels(table.game, rules, seat, other)
                    theirs = secret_labels(table.game, rules, other, seat)
                    assert mine and theirs
                    shown = screens[seat].query_one(TableView).text
                    assert any(label in shown for label in mine), (mine, shown)
                    assert not any(label in shown for label in theirs), (theirs, shown)
                    assert screens[seat].query_one("#log").lines  # the seat's log came

                # a dropped connection: "reconnecting…", then back by itself
                sessions[1].client.url = url.rsplit(":", 1)[0] + ":1"  # (nobody listens there: it keeps trying)
                await sessions[1].client.ws.close()
                assert await wait_for(p0, p1, lambda: "reconnecting…" in screens[1].query_one("#status").render().plain)
                assert await wait_for(p0, p1, lambda: "away: Player 2" in screens[0].query_one("#status").render().plain)
                sessions[1].client.url = url
                assert await wait_for(p0, p1, lambda: sessions[1].connected and
                                      "all connected" in screens[1].query_one("#status").render().plain)
                assert len(sessions[1].log_lines(1)) == len(table.game.log_lines(1))
                for s in sessions:
                    await s.close()
    asyncio.run(main())


def test_a_remote_game_to_its_end_shows_the_cards_and_the_final_scores(tmp_path):
    """One human seat against a bot, from the keyboard to the end: the cards screen reads the seat's
    own cards from its view, and the final scores come from the server's results."""
    from jux.tui.screens.cards import CardsScreen
    from tui_helpers import screen_text

    async def main():
        async with running_server(tmp_path) as (url, server, _store):
            created = await make_table(url, "capital_jux", ["human", "random"])
            code = created["codes"]["0"]
            rules = load_ruleset("capital_jux", [])
            session = RemoteSession(url, code, rules, await welcome_of(url, code))
            app = JuxApp(session=session, bot_delay=0)
            async with app.run_test(size=(80, 24)) as pilot:
                screen = await settle(pilot, app, GameScreen)
                table = server.tables[created["table"]]
                assert await wait_for(pilot, pilot, lambda: screen.query_one(DecisionPanel).decision is not None)
                await pilot.press("c")
                cards = await settle(pilot, app, CardsScreen)
                mine = {c["label"] for z in table.game.view(0)["zones"] if z["owner"] == 0 for c in z["cards"]
                        if not c.get("hidden")}
                listed = screen_text(app)
                assert mine and all(label in listed for label in mine), (mine, listed)
                assert not any(e.hidden is None and e.reading.get("id") is None for e in cards.entries)
                named = session.human_decision().options[0].cards  # (the server's `cards`: the panel's first line)
                assert named, "the first option names a card the seat knows"
                assert cards.query_one("#cards-list").get_option_at_index(0).prompt.plain == "the highlighted option"
                assert cards.entries[0].reading.get("id") in named
                await pilot.press("escape")
                await settle(pilot, app, GameScreen)
                for _ in range(3):  # a few turns from the keyboard, then (faster) the panel's first legal answers
                    before = len(table.rows)
                    assert await answer_from_keyboard(pilot, screen)
                    assert await wait_for(pilot, pilot, lambda: len(table.rows) > before)
                    await wait_for(pilot, pilot, lambda: screen.query_one(DecisionPanel).decision is not None)
                for _ in range(3000):
                    if table.game.over:
                        break
                    d = session.human_decision()
                    if d is None:
                        await pilot.pause(0.01)
                        continue
                    before = len(table.rows)
                    screen.query_one(DecisionPanel).post_message(DecisionPanel.Answered(d, first_answer(d)))
                    assert await wait_for(pilot, pilot, lambda: len(table.rows) > before)
                assert table.game.over
                await to_game_over(pilot, app)
                await pilot.pause()
                await pilot.pause()
                shown = screen_text(app)
                winner = table.game.names[table.game.winners[0]]
                assert "Final scores" in shown and f"{winner} wins with" in shown or "Complete tie" in shown, shown
                assert session.scores == table.game.scores and session.ranking() == table.game.ranking()
            await session.close()
    asyncio.run(main())


# ------------------------------------------------------------ jux play --server: host, join, watch

async def wait_one(pilot, check, tries=300):
    for _ in range(tries):
        if check():
            return True
        await pilot.pause(0.02)
    return False


async def to_game_over(pilot, app):
    """From a game that is over to its final scores: each round's end table first, a key goes on."""
    from jux.tui.screens.gameover import GameOverScreen
    from jux.tui.screens.tables import TableScreen

    for _ in range(600):
        if isinstance(app.screen, GameOverScreen):
            return
        if isinstance(app.screen, TableScreen):
            await pilot.press("enter")
        await pilot.pause(0.05)
    assert isinstance(app.screen, GameOverScreen), type(app.screen)


async def type_in(pilot, app, widget_id, text):
    """Focus a field of the screen and type text into it, key by key."""
    app.screen.query_one(widget_id).focus()
    await pilot.pause()
    for ch in text:
        await pilot.press(ch)


async def start_screen_ready(pilot, app):
    from jux.tui.screens.start import StartScreen
    from textual.widgets import Button

    screen = await settle(pilot, app, StartScreen)
    assert await wait_one(pilot, lambda: not screen.query_one("#start-button", Button).disabled, 500)
    return screen


def status_of(screen) -> str:
    return screen.query_one("#status").render().plain


def shown_left(screen):
    """The seconds of the status line's 'time left m:ss', or None."""
    import re

    m = re.search(r"time left (\d+):(\d\d)", status_of(screen))
    return int(m[1]) * 60 + int(m[2]) if m else None


def test_the_start_screen_hosts_a_table_and_joins_it_with_the_codes(tmp_path):
    """jux play --server: the start screen makes the table it chooses (two human seats, a bot, a turn
    timer) at a real server, shows the codes (the host's own too), and plays the host's seat; a second
    app types the other seat's code on its start screen and plays it; a third types the spectator code
    and watches, read-only. All from the keyboard, at 80x24."""
    from jux.interpreter.engine.views import PUBLIC
    from jux.tui.screens.invitation import InvitationScreen
    from tui_helpers import screen_text

    async def main():
        async with running_server(tmp_path) as (url, server, _store):
            host = JuxApp(server=url, bot_delay=0)
            async with host.run_test(size=(80, 24)) as ph:
                start = await start_screen_ready(ph, host)
                assert f"a new table at {url}" in screen_text(host)
                start.query_one("#players").focus()
                await ph.press("right")  # 3 players
                assert await wait_one(ph, lambda: start.query_one("#seat-2").display)
                start.query_one("#kind-1").focus()
                await ph.press("left", "left")  # seat 2: from the medium bot, past the easy one, to human
                await type_in(ph, host, "#timer", "120")
                await ph.press("ctrl+s")
                inv = await settle(ph, host, InvitationScreen, 300)
                assert len(server.tables) == 1
                table = next(iter(server.tables.values()))
                assert [s["kind"] for s in table.seats][:2] == ["human", "human"] and table.seats[2]["kind"] != "human"
                assert table.options.get("timer") == 120
                hosted = inv.hosted
                shown = screen_text(host)
                assert hosted.codes[1] in shown and hosted.spectate in shown
                assert hosted.codes[0] in shown  # (the host's own seat: "you", with its code to come back)
                assert "(seat 1): you" in shown
                await ph.press("enter")
                hs = await settle(ph, host, GameScreen, 300)
                assert hs.session is hosted.session and hs.session.seat == 0
                await ph.press("i")  # the codes again, from the game
                await settle(ph, host, InvitationScreen)
                assert hosted.codes[1] in screen_text(host)
                await ph.press("escape")
                assert await settle(ph, host, GameScreen) is hs

                guest, watcher = JuxApp(server=url, bot_delay=0), JuxApp(server=url, bot_delay=0)
                async with guest.run_test(size=(80, 24)) as pg, watcher.run_test(size=(80, 24)) as pw:
                    await start_screen_ready(pg, guest)
                    await type_in(pg, guest, "#join-code", hosted.codes[1])
                    await pg.press("enter")
                    gs = await settle(pg, guest, GameScreen, 300)
                    assert gs.session.seat == 1
                    await start_screen_ready(pw, watcher)
                    await type_in(pw, watcher, "#join-code", hosted.spectate)
                    await pw.press("enter")
                    ws = await settle(pw, watcher, GameScreen, 300)
                    assert ws.session.seat is None and ws.watching

                    assert await wait_for(ph, pg, lambda: "all connected" in status_of(hs))
                    # the turn timer's line: the time left the server gives this seat (timer_left)
                    assert await wait_for(ph, pg, lambda: hs.session.human_decision() is not None)
                    assert (hs.session.state or {}).get("timer_left") is not None
                    assert await wait_for(ph, pg, lambda: shown_left(hs) is not None), status_of(hs)
                    first = shown_left(hs)
                    assert 0 < first <= 120 and abs(first - hs.session.time_left()) <= 2, status_of(hs)
                    assert await wait_for(ph, pg, lambda: shown_left(hs) < first)  # (redrawn each second)
                    answered = 0
                    for _ in range(80):
                        if answered >= 4:
                            break
                        before = len(table.rows)
                        for p, s in ((ph, hs), (pg, gs)):
                            if await answer_from_keyboard(p, s):
                                assert await wait_for(ph, pg, lambda: len(table.rows) > before)
                                answered += 1
                                break
                        await ph.pause(0.05)
                        await pg.pause(0.05)
                    assert answered >= 4
                    assert {r[0] for r in table.rows if r[3] is not None} == {0, 1}

                    # the spectator: the public view and log, who is deciding, nothing to answer
                    assert await wait_for(pw, pg, lambda: ws.session.log_lines(None) ==
                                          table.game.log_lines(PUBLIC))
                    await pw.pause(0.2)
                    st = status_of(ws)
                    assert "you are watching" in st
                    deciding = sorted({table.game.names[d.player] for d in table.game.pending})
                    assert all(n in st for n in deciding), (deciding, st)
                    panel = ws.query_one(DecisionPanel)
                    assert panel.decision is None and "You are watching" in screen_text(watcher)
                    shown = ws.query_one(TableView).text
                    for seat in (0, 1):
                        secret = secret_labels(table.game, table.rules, seat, 1 - seat)
                        assert not any(label in shown for label in secret), (secret, shown)
                    rows = len(table.rows)
                    await pw.press("1")
                    await pw.press("enter")
                    await pw.pause(0.3)
                    assert len(table.rows) == rows and not ws.session.human_decision()
                    for s in (hs, gs, ws):
                        await s.session.close()
    asyncio.run(main())


def test_a_spectator_from_jux_join_watches_a_game_to_its_final_scores(tmp_path):
    """A spectator's code through RemoteSession (what `jux join` opens): the game screen is read-only
    while a raw client plays the human seat at random, and the final scores come at the end; n goes
    back to the start screen at the server (jux play --server)."""
    import random

    from jux.tui.joining import join
    from jux.tui.screens.gameover import GameOverScreen
    from jux.tui.screens.tables import TableScreen
    from server_helpers import play_random
    from tui_helpers import screen_text

    async def main():
        async with running_server(tmp_path) as (url, server, _store):
            created = await make_table(url, "capital_jux", ["human", "random"])
            session = await asyncio.to_thread(join, url, created["spectate"])
            assert session.seat is None and session.humans == []
            app = JuxApp(session=session, bot_delay=0, server=url)  # (as from jux play --server's Code field)
            async with app.run_test(size=(80, 24)) as pilot:
                screen = await settle(pilot, app, GameScreen)
                player = await Raw.open(url)
                await player.send({"v": 1, "type": "hello", "code": created["codes"]["0"]})
                game = asyncio.create_task(play_random(player, random.Random(5)))
                assert await wait_one(pilot, lambda: session.state and session.state["started"])
                assert await wait_one(pilot, lambda: "you are watching" in status_of(screen))
                for _ in range(3000):
                    if game.done() or isinstance(app.screen, GameOverScreen):
                        break
                    if isinstance(app.screen, TableScreen):  # (a round's end table: a key goes on)
                        await pilot.press("enter")
                    assert screen.query_one(DecisionPanel).decision is None
                    await pilot.pause(0.02)
                await game
                table = server.tables[created["table"]]
                assert table.game.over
                await to_game_over(pilot, app)
                await pilot.pause()
                assert "Final scores" in screen_text(app)
                assert session.scores == table.game.scores and session.winners == table.game.winners
                await pilot.press("n")  # a new game: the start screen at the same server
                from jux.tui.screens.start import StartScreen

                await settle(pilot, app, StartScreen, 300)
                assert f"a new table at {url}" in screen_text(app)
                await player.close()
            await session.close()
    asyncio.run(main())


def test_the_turn_timer_counts_down_from_the_state_that_brought_it(monkeypatch):
    """time_left: the state's timer_left less the time since it came (never below 0); None without a
    timer, once this seat's decision is answered, or while the connection is down."""
    import jux.tui.remote as remote
    from jux.tui.session import Session

    now = [1000.0]
    monkeypatch.setattr(remote.time, "monotonic", lambda: now[0])
    rules = load_ruleset("capital_jux", [])
    s = RemoteSession("ws://127.0.0.1:1", "code", rules, {"seat": 0, "names": ["A", "B"]})
    d = {"id": 7, "prompt": "pick", "min": 1, "max": 1, "many": False, "options": [{"id": 0, "label": "x"}]}

    def state(**fields):
        return {"type": "state", "view": {"waiting_for": [0]}, "decisions": [d], "log": [], "seats": [],
                "started": True, "notices": [], "over": False, **fields}

    assert s.time_left() is None  # (no state yet)
    s._take(state(timer_left=30))
    assert s.time_left() == 30
    now[0] += 12.5
    assert s.time_left() == 17.5
    now[0] += 60
    assert s.time_left() == 0.0
    s._take(state(timer_left=45.5))  # a new state: counted from its coming
    assert s.time_left() == 45.5
    s._sent.add(7)  # answered: nothing left to decide until the server says otherwise
    assert s.time_left() is None
    s._sent.clear()
    s._dropped()
    assert s.time_left() is None  # (the connection is down: the server's clock is not known)
    s._take(state(timer_left=None))
    assert s.time_left() is None
    s._take(state())  # (a server that sends no timer_left)
    assert s.time_left() is None
    assert Session.time_left(object()) is None  # a local game has no timer
    from jux.tui.screens.status_line import clock

    assert [clock(90), clock(17.5), clock(0.2), clock(0), clock(-3)] == ["1:30", "0:18", "0:01", "0:00", "0:00"]


def test_jux_play_server_refuses_bad_input_in_one_line(run):
    """--server takes a server's address, not with --load or --print, and needs a terminal."""
    r = run("play", "--server", "foo")
    assert r.returncode == 1 and "is not a server's address" in r.stderr and len(r.stderr.splitlines()) == 1
    r = run("play", "--server", "ws://127.0.0.1:1", "--print")
    assert r.returncode == 1 and "does not go with --load or --print" in r.stderr
    r = run("play", "--server", "ws://127.0.0.1:1")  # (pytest's stdin is no terminal)
    assert r.returncode == 1 and "needs a terminal" in r.stderr


def test_the_start_screen_says_why_a_code_or_a_timer_is_refused(tmp_path):
    """A code no table has, or a timer that is no number of seconds: one line on the start screen,
    which stays (and no table is made)."""
    from jux.tui.screens.start import StartScreen

    async def main():
        async with running_server(tmp_path) as (url, server, _store):
            app = JuxApp(server=url, bot_delay=0)
            async with app.run_test(size=(80, 24)) as pilot:
                start = await start_screen_ready(pilot, app)
                await type_in(pilot, app, "#join-code", "nosuchcode")
                await pilot.press("enter")
                err = start.query_one("#start-error")
                assert await wait_one(pilot, lambda: "bad_code" in err.render().plain)
                assert isinstance(app.screen, StartScreen)
                await type_in(pilot, app, "#timer", "soon")
                await pilot.press("ctrl+s")
                await pilot.pause()
                assert "The turn timer is a number of seconds" in err.render().plain
                assert not server.tables and isinstance(app.screen, StartScreen)
    asyncio.run(main())


def test_a_table_made_whose_seat_cannot_be_joined_keeps_its_codes(tmp_path, monkeypatch):
    """The table is made at the server, then joining the host's seat fails (the connection lost in
    between): the codes are shown all the same, the host's too, and the start screen says why with the
    host's code typed in; Join then takes the host to their seat."""
    from jux.interpreter.errors import JuxError
    from jux.tui import joining
    from jux.tui.screens.invitation import InvitationScreen
    from tui_helpers import screen_text

    real_join, calls = joining.join, []

    def join_once_lost(url, code, rules=None, rules_path=None, keep=True):
        calls.append(code)
        if len(calls) == 1:
            raise JuxError(f"{url}: cannot talk to the server (connection lost)")
        return real_join(url, code, rules=rules, rules_path=rules_path, keep=keep)

    monkeypatch.setattr(joining, "join", join_once_lost)

    async def main():
        async with running_server(tmp_path) as (url, server, _store):
            app = JuxApp(server=url, bot_delay=0)
            async with app.run_test(size=(80, 24)) as pilot:
                start = await start_screen_ready(pilot, app)
                await pilot.press("ctrl+s")
                inv = await settle(pilot, app, InvitationScreen, 300)
                hosted = inv.hosted
                assert len(server.tables) == 1 and hosted.session is None
                shown = screen_text(app)
                assert "could not be joined" in shown and hosted.codes[0] in shown and hosted.spectate in shown
                await pilot.press("enter")
                await settle(pilot, app, type(start))
                assert start.query_one("#join-code").value == hosted.codes[0]
                assert f"The table {hosted.table} is made" in screen_text(app)
                start.query_one("#join-button").press()
                gs = await settle(pilot, app, GameScreen, 300)
                assert gs.session.seat == 0 and calls == [hosted.codes[0]] * 2

    asyncio.run(main())


def test_enter_pressed_again_while_joining_joins_once(tmp_path, monkeypatch):
    """Enter in the Code field, then Enter and ctrl+s again while the server is still being asked: one
    join, one game screen (a second answer used to pop the first game screen as it was mounting)."""
    import time

    from jux.tui import joining

    real_join, calls = joining.join, []

    def slow_join(url, code, rules=None, rules_path=None):
        calls.append(code)
        time.sleep(0.5)  # (the network, slow)
        return real_join(url, code, rules=rules, rules_path=rules_path)

    monkeypatch.setattr(joining, "join", slow_join)

    async def main():
        async with running_server(tmp_path) as (url, server, _store):
            created = await make_table(url, "capital_jux", ["human", "random"])
            code = created["codes"]["0"]
            app = JuxApp(server=url, bot_delay=0)
            async with app.run_test(size=(80, 24)) as pilot:
                start = await start_screen_ready(pilot, app)
                field = start.query_one("#join-code")
                field.value = code
                field.focus()
                await pilot.pause()
                await pilot.press("enter", "enter", "ctrl+s", "enter")
                gs = await settle(pilot, app, GameScreen, 300)
                await pilot.pause(0.8)
                assert calls == [code]
                assert [type(s) for s in app.screen_stack].count(GameScreen) == 1 and app.screen is gs
                assert gs.session.seat == 0
                await gs.session.close()

    asyncio.run(main())
