"""What tripped a player at the table (issue 36), each shown gone: a crash on quit, a final table that
called scored groups "over", the log and the other seats out of reach at 80x24, Enter that did
nothing with the focus on the table, the footer losing Quit, the final scores' key, undo after
the end, a save named as the load list names it, a log that did not rewrap."""
import asyncio
from pathlib import Path

from textual.events import Key

from jux.interpreter.engine.ruleset import load_ruleset
from jux.tui.app import JuxApp
from jux.tui.screens.game import GameScreen
from jux.tui.screens.gameover import GameOverScreen
from jux.tui.screens.log import LogScreen, log_parts
from jux.tui.session import Session
from jux.tui.widgets.decision import DecisionPanel
from jux.tui.widgets.table import TableView, render_table

from tui_helpers import notes, screen_text, settle, shown


def _finished(ruleset: str, players: int, seed: int) -> Session:
    rules = load_ruleset(ruleset)
    s = Session(rules, [(f"P{i + 1}", "random") for i in range(players)], seed)
    while not s.over:
        s.play_bot(s.bot_decision())
    return s


def _human_finished(ruleset: str, players: int, seed: int) -> Session:
    s = _finished(ruleset, players, seed)
    s.seats[0].kind = "human"
    return Session(s.rules, s.seats, game=s.game)


def _ann_against_a_bot() -> JuxApp:
    return JuxApp(ruleset="capital_jux", seats=[("Ann", "human"), ("Robo", "random")], seed=3, bot_delay=0)


def test_q_y_s_typed_fast_quit_without_a_traceback():
    """Seen: q, then y and s typed quickly: the save dialog opened on an app that was closing and
    crashed it (NoMatches: No nodes match 'Input' on PathScreen())."""
    async def main():
        app = _ann_against_a_bot()
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot, app, GameScreen)
            await pilot.press("1", "enter")  # a move: the game is not saved, so q asks
            for k in ("q", "y", "s"):
                app.post_message(Key(k, k))
            for _ in range(5):
                await pilot.pause()
        assert app._exception is None and app.return_code == 0

    asyncio.run(main())


def test_the_final_table_holds_no_group_to_a_limit_any_more():
    """Capital Jux, seed 2: at the end P1's yellow and blue totals are above what is left in the
    capital (its bonus cards left it after the last check). The table must not call them over."""
    s = _finished("capital_jux", 2, 2)
    text = render_table(s.view(0), s.rules.spec, 0, 60).plain
    assert " over" not in text.replace("The game is over", "")
    assert "(MAX" not in text and "limit" in text  # the note says limits are no longer checked
    assert "The game is over: totals are final, no limit is checked any more." in text
    # during the game the limit is shown as before
    mid = Session(s.rules, s.seats, 2)
    assert "The game is over" not in render_table(mid.view(0), s.rules.spec, 0, 60).plain


def test_enter_confirms_with_the_focus_on_the_table_and_the_footer_keeps_quit_and_help():
    async def main():
        app = _ann_against_a_bot()
        async with app.run_test(size=(80, 24)) as pilot:
            gs = await settle(pilot, app, GameScreen)
            await pilot.pause()
            gs.query_one("#table-scroll").focus()
            await pilot.press("1", "2")
            panel = gs.query_one(DecisionPanel)
            assert len(panel.selected) == 2
            before = len(app.session.game.answers)
            await pilot.press("enter")
            await pilot.pause()
            assert len(app.session.game.answers) > before  # (it did nothing before)

    asyncio.run(main())


def test_quit_and_help_stay_in_the_footer_when_undo_shows():
    """Seen: the footer dropped "q Quit" at 80 columns when "u Undo" came (tests/data/undo_probe:
    undo is offered after the first answer)."""
    async def main():
        app = JuxApp(ruleset=str(Path(__file__).parent / "data" / "undo_probe"),
                     seats=[("Ann", "human"), ("Robo", "random")], seed=1, bot_delay=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot, app, GameScreen)
            await pilot.pause()
            await pilot.press("1")
            for _ in range(5):
                await pilot.pause()
            assert app.session.undo_refusal() is None
            footer = [line for line in screen_text(app).splitlines() if line.strip()][-1]
            assert "u Undo" in footer and "q Quit" in footer and "? Help" in footer

    asyncio.run(main())


def test_the_whole_log_opens_at_its_latest_line_and_finds_each_table():
    async def main():
        app = JuxApp(session=_human_finished("capital_jux", 2, 2), bot_delay=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot, app, GameOverScreen)
            await pilot.press("f")
            gs = await settle(pilot, app, GameScreen)
            await pilot.press("g")
            log = await settle(pilot, app, LogScreen)
            await pilot.pause()
            scroll = log.query_one("#whole-log")
            assert scroll.max_scroll_y > 0 and scroll.scroll_y == scroll.max_scroll_y
            last_line = app.session.log_lines(0)[-1]
            assert last_line[:30] in screen_text(app)
            tables = app.session.tables(0)
            assert len(tables) == 3 and f"{len(tables)} tables (p, n)" in screen_text(app)
            await pilot.press("home")
            seen = []
            for _ in tables:
                await pilot.press("n")
                await pilot.pause()
                seen.append(next(t["title"] for t in tables if t["title"] in screen_text(app)))
            assert seen == [t["title"] for t in tables]  # each round's end, in order
            await pilot.press("p")
            await pilot.pause()
            assert tables[1]["title"] in screen_text(app)
            await pilot.press("escape")
            assert await settle(pilot, app, GameScreen) is gs

    asyncio.run(main())


def test_log_parts_put_each_table_where_it_came():
    lines = ["a", "b", "TABLE", "c"]
    table = {"title": "T", "columns": [], "rows": [], "at": 2}
    assert log_parts(lines, [table]) == [("lines", ["a", "b"]), ("table", table), ("lines", ["c"])]
    assert log_parts([], []) == []


def test_each_seat_s_area_is_one_key_away():
    async def main():
        app = JuxApp(ruleset="capital_jux", seats=[("Ann", "human"), ("Bob", "random"), ("Cy", "random"),
                                                   ("Di", "random")], seed=3, bot_delay=0)
        async with app.run_test(size=(80, 24), notifications=True) as pilot:
            gs = await settle(pilot, app, GameScreen)
            await pilot.pause()
            scroll = gs.query_one("#table-scroll")
            rows = gs.query_one(TableView).seat_rows()
            assert [p for p, _ in rows] == [0, 1, 2, 3]
            seen = []
            for _ in range(3):
                app.clear_notifications()
                await pilot.press("right_square_bracket")
                await pilot.pause()
                seen.append(notes(app))
                top = scroll.scroll_y
                # the named seat's head is on the screen
                name = seen[-1].split("'s area")[0]
                assert name in gs.query_one(TableView).text
                assert any(p == app.session.names.index(name) and top <= row < top + scroll.size.height
                           for p, row in rows)
            assert seen[0] == "Bob's area" and scroll.scroll_y > 0
            await pilot.press("left_square_bracket")
            await pilot.pause()
            assert "area" in notes(app)

    asyncio.run(main())


def test_f_is_the_final_scores_key_everywhere_and_undo_ends_with_the_game():
    async def main():
        app = JuxApp(session=_human_finished("capital_jux", 2, 2), bot_delay=0)
        async with app.run_test(size=(80, 24), notifications=True) as pilot:
            await settle(pilot, app, GameOverScreen)
            # (drawn: on a loaded machine the footer's keys come a frame after the scores)
            assert "Final scores" in await shown(pilot, app, "f Final table")
            await pilot.press("t")  # (t is no key here any more)
            await pilot.pause()
            assert isinstance(app.screen, GameOverScreen)
            await pilot.press("f")
            await settle(pilot, app, GameScreen)
            text = screen_text(app)
            assert "f Final scores" in text and "u Undo" not in text
            await pilot.press("u")
            await pilot.pause()
            assert "The game is over" in notes(app) and app.session.over
            await pilot.press("f")
            await settle(pilot, app, GameOverScreen)

    asyncio.run(main())


def test_a_save_is_loaded_by_the_name_the_load_list_shows(run, tmp_path, monkeypatch):
    monkeypatch.setenv("JUX_DATA_DIR", str(tmp_path / "data"))
    s = Session(load_ruleset("capital_jux"), [("Ann", "random"), ("Bob", "random")], 4)
    s.play_bot(s.bot_decision())
    path = s.save("mine")
    assert path.parent == tmp_path / "data" / "saves"
    r = run("play", "--load", path.name, "--print")
    assert r.returncode == 0 and "loaded from" in r.stdout
    r = run("play", "--load", "nothing.save.json", "--print")
    assert r.returncode != 0
    assert "nothing.save.json: No such file or directory" in r.stderr and str(tmp_path / "data" / "saves") in r.stderr


def test_the_log_is_wrapped_again_when_the_terminal_is_resized():
    async def main():
        app = _ann_against_a_bot()
        async with app.run_test(size=(80, 24)) as pilot:
            gs = await settle(pilot, app, GameScreen)
            await pilot.pause()
            log = gs.query_one("#log")
            narrow = max(len(strip.text.rstrip()) for strip in log.lines)
            await pilot.resize_terminal(160, 40)
            for _ in range(5):
                await pilot.pause()
            wide = max(len(strip.text.rstrip()) for strip in log.lines)
            assert wide > narrow + 10  # its lines use the new width
            await pilot.resize_terminal(80, 24)
            for _ in range(5):
                await pilot.pause()
            assert max(len(strip.text.rstrip()) for strip in log.lines) <= narrow

    asyncio.run(main())


def test_a_table_closed_before_it_is_drawn_does_not_crash():
    """A table the rules show, closed by a key before its screen was laid out (keys typed fast as
    a round ends): it used to look for its parts after they were gone, and the app ended in a
    traceback (NoMatches '#table-shown')."""
    from textual.app import App

    from jux.tui.screens.tables import TableScreen

    table = {"title": "Round 1", "columns": ["player", "score"], "rows": [["Ann", "3"], ["Bob", "4"]]}

    async def main():
        app = App()
        async with app.run_test(size=(80, 24)) as pilot:
            for i in range(6):
                app.push_screen(TableScreen(table))
                if i % 2:
                    await pilot.pause(0)
                app.pop_screen()
                await pilot.pause()
            app.push_screen(TableScreen(table))  # (and one left to be drawn, whole)
            await pilot.pause()
            assert app.screen.query_one("#table-shown").has_focus
        assert app.return_code in (None, 0)
    asyncio.run(main())
