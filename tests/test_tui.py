"""The terminal UI (tui/): Pilot tests with App.run_test, and one end-to-end run of `jux play` in tmux.

Every decision is answered by pressing keys, as a person would; bots answer at once (bot_delay=0).
"""
import asyncio
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytest.importorskip("textual")

from jux.interpreter.bots import bot_names  # noqa: E402
from jux.tui.app import JuxApp  # noqa: E402
from jux.tui.screens.dialogs import ConfirmScreen, PathScreen  # noqa: E402
from jux.tui.screens.game import GameScreen  # noqa: E402
from jux.tui.screens.gameover import GameOverScreen  # noqa: E402
from jux.tui.screens.help import HelpScreen  # noqa: E402
from jux.tui.screens.passing import PassScreen  # noqa: E402
from jux.tui.screens.start import StartScreen  # noqa: E402
from jux.tui.screens.tables import TableScreen  # noqa: E402
from jux.tui.widgets.decision import DecisionPanel  # noqa: E402
from jux.tui.widgets.table import TableView  # noqa: E402
from tui_helpers import notes, screen_text, settle  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent


async def answer_by_keys(pilot, app):
    """Answer the decision on screen with keys: the first option for one pick (Enter, and Enter
    again when the first line is a group of options); for several, the first options, none alike
    another, each toggled on its line with Home, Down... and space, then Enter."""
    panel = app.screen.query_one(DecisionPanel)
    d = panel.decision
    assert d is not None, "no decision on screen"
    if d.many:  # the first options, none alike another (a `distinct` choice)
        picks, taken = [], set()
        for i in range(len(d.options)):
            if len(picks) < d.min and (d.keys is None or d.keys[i] not in taken):
                picks.append(i)
                taken.add(None if d.keys is None else d.keys[i])
        for i in picks:
            line = next(k for k, row in enumerate(panel.rows) if i in row.members)
            await pilot.press("home", *["down"] * line, "space")
        await pilot.press("enter")
    else:
        before = len(app.session.game.answers)
        for _ in range(2):
            await pilot.press("home", "enter")
            await pilot.pause()
            if len(app.session.game.answers) != before or app.screen.query_one(DecisionPanel).decision is not d:
                break
    await pilot.pause()


def labels(view, zone, owner):
    return [c["label"] for z in view["zones"] if z["name"] == zone and z["owner"] == owner
            for c in z["cards"] if "label" in c]


def test_keyboard_game_against_a_bot_to_the_final_scores():
    async def main():
        app = JuxApp(ruleset="capital_jux", seats=[("Ann", "human"), ("Robo", "greedy" if "greedy" in bot_names() else "random")], seed=11, bot_delay=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot, app, GameScreen)
            answered = tables = 0
            while not isinstance(app.screen, GameOverScreen):
                if isinstance(app.screen, TableScreen):  # a round's end table: any key goes on
                    tables += 1
                    assert app.session.game.tables(0)[tables - 1]["title"] in screen_text(app)
                    await pilot.press("enter")
                    await pilot.pause()
                    continue
                assert isinstance(app.screen, GameScreen), type(app.screen)
                # the table shows Ann's view only: the bot's hand is face down
                table = app.screen.query_one(TableView).text
                assert "Ann (you)" in table
                before = len(app.session.game.answers)
                await answer_by_keys(pilot, app)
                assert len(app.session.game.answers) > before
                answered += 1
                assert answered < 400
            game = app.session.game
            assert game.over and answered > 10
            # every table but the last opened over the game; the last shows under the final scores
            assert tables == max(0, len(game.tables(0)) - 1) or tables == len(game.tables(0))
            text = screen_text(app)
            assert "Final scores" in text and "Ann" in text and "Robo" in text
            for s in game.scores:
                assert str(s) in text
            assert "wins with" in text or "Complete tie" in text
            # tie-break values are shown, each in a column headed by its label (screen_text leaves
            # out the padding between cells: compared without spaces)
            compact = text.replace(" ", "")
            assert "seatplayerscore" + "".join(game.tiebreak_labels()) + "winner" in compact
            for p, values in enumerate(game.tiebreaks()):
                assert f"{p + 1}{game.names[p]}{game.scores[p]}" + "".join(map(str, values)) in compact
    asyncio.run(main())


def test_keyboard_game_of_guildhall_to_the_final_scores():
    """The second game, whole, at 80x24 from the keyboard: the UI knows neither game."""
    async def main():
        app = JuxApp(ruleset="guildhall", seats=[("Ann", "human"), ("Robo", "random")], seed=4, bot_delay=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot, app, GameScreen)
            answered = 0
            while not isinstance(app.screen, GameOverScreen):
                assert isinstance(app.screen, GameScreen), type(app.screen)
                table = app.screen.query_one(TableView).text
                # every VP total is on the table, in each player's standing
                assert "Ann (you)" in table and table.count(": VP cards ") == 2
                await answer_by_keys(pilot, app)
                answered += 1
                assert answered < 600
            game = app.session.game
            assert game.over and max(game.scores) >= 20
            text = screen_text(app)
            assert "Final scores" in text and "wins with" in text
    asyncio.run(main())


def test_undo_takes_back_the_last_decision_but_never_across_chance_or_a_reveal(tmp_path):
    """A tiny ruleset (seat 1 a bot): two plain rounds, a shuffle, a round, a draw to seat 0, a round."""
    rules = Path(__file__).parent / "data" / "undo_probe"

    async def main():
        app = JuxApp(ruleset=str(rules), seats=[("Ann", "human"), ("Robo", "random")], seed=1, bot_delay=0)
        async with app.run_test(size=(80, 24), notifications=True) as pilot:
            gs = await settle(pilot, app, GameScreen)
            await pilot.pause()

            async def press_u():
                app.clear_notifications()
                await pilot.press("u")
                await pilot.pause()
                return notes(app)

            assert "Nothing to undo" in await press_u()
            before = app.session.game.save()
            await answer_by_keys(pilot, app)  # Ann, then the bot answers at once
            assert len(app.session.game.answers) == 2
            msg = await press_u()
            assert "taken back (and 1 answer of the bots after it)" in msg
            assert app.session.game.save() == before and not app.session.dirty
            assert gs.query_one(DecisionPanel).decision.prompt == "Add before the shuffle"
            await answer_by_keys(pilot, app)
            await answer_by_keys(pilot, app)  # the deck is shuffled after this round
            after = app.session.game.save()
            assert "drawn at random" in await press_u()
            assert app.session.game.save() == after
            await answer_by_keys(pilot, app)  # then a card is drawn to Ann's hand: she sees it
            after = app.session.game.save()
            assert "seen a hidden card" in await press_u()
            assert app.session.game.save() == after
            before = app.session.game.save()
            await answer_by_keys(pilot, app)  # the last round: the game ends
            await settle(pilot, app, GameOverScreen)
            await pilot.press("f")  # back to the final table: a finished game is not taken back
            await settle(pilot, app, GameScreen)
            assert "u Undo" not in screen_text(app)
            assert "The game is over" in await press_u()
            assert app.session.game.over and app.session.game.save() != before
            await pilot.press("f")  # and f brings the final scores again
            await settle(pilot, app, GameOverScreen)
    asyncio.run(main())


def test_pass_screen_hides_the_table_between_two_humans():
    async def main():
        app = JuxApp(ruleset="capital_jux", seats=[("Ann", "human"), ("Bob", "human")], seed=3, bot_delay=0)
        async with app.run_test(size=(100, 30), notifications=True) as pilot:
            ps = await settle(pilot, app, PassScreen)
            await pilot.pause()
            game = app.session.game
            ann_cards = labels(game.view(0), "dealt", 0)
            assert ann_cards
            text = screen_text(app)
            assert "Pass the keyboard to Ann" in text
            assert not any(c in text for c in ann_cards)
            await pilot.press("enter")
            gs = await settle(pilot, app, GameScreen)
            assert all(c in gs.query_one(TableView).text for c in ann_cards)
            assert "Ann (you)" in gs.query_one(TableView).text
            # Ann drafts; the keyboard must go to Bob: the pass screen covers Ann's table
            await answer_by_keys(pilot, app)
            ps = await settle(pilot, app, PassScreen)
            await pilot.pause()
            ann_now = labels(game.view(0), "dealt", 0) + labels(game.view(0), "chosen", 0)
            text = screen_text(app)
            assert "Pass the keyboard to Bob" in text
            for c in ann_now:
                assert c not in text, c
            assert gs.query_one(TableView).text == "(the table is hidden)"
            assert ps.target == 1
            await pilot.press("enter")
            gs = await settle(pilot, app, GameScreen)
            table = gs.query_one(TableView).text
            assert "Bob (you)" in table
            bob_view = game.view(1)
            assert all(c in table for c in labels(bob_view, "dealt", 1))
            # Ann's chosen cards are face down for Bob
            assert not labels(bob_view, "chosen", 0)
            assert "face down" in table
            # no undo with two humans at one keyboard: it says so and changes nothing
            answers = list(game.answers)
            await pilot.press("u")
            await pilot.pause()
            assert "not offered with two or more human" in notes(app)
            assert app.session.game.answers == answers
    asyncio.run(main())


def test_start_screen_starts_a_game():
    async def main():
        app = JuxApp(bot_delay=0)
        async with app.run_test(size=(80, 24)) as pilot:
            start = await settle(pilot, app, StartScreen)
            for _ in range(200):  # the ruleset loads in a thread after the screen is drawn
                if start.rules is not None:
                    break
                await pilot.pause(0.02)
            assert start.rules is not None
            text = screen_text(app)
            assert "capital_jux" in text and "Seat 1" in text and "Players" in text
            from textual.widgets import Input

            from jux.tui.widgets.choice import Choice

            assert start.query_one("#players", Choice).value == 2
            start.query_one("#players", Choice).value = 3
            await pilot.pause()
            assert start.query_one("#seat-2").display
            assert all(not row.display for row in start.query("#seat-3"))  # not made yet, or hidden
            start.query_one("#name-0", Input).value = "Zoe"
            start.query_one("#kind-1", Choice).value = "random"
            start.query_one("#kind-2", Choice).value = "random"
            start.query_one("#seed", Input).value = "42"
            await pilot.press("ctrl+s")
            gs = await settle(pilot, app, GameScreen)
            s = app.session
            assert [x.kind for x in s.seats] == ["human", "random", "random"]
            assert s.game.names[0] == "Zoe" and s.game.seed == 42 and s.game.state.n == 3
            await pilot.pause()
            assert "Zoe (you)" in gs.query_one(TableView).text
            assert gs.query_one(DecisionPanel).decision is not None
            # help: the game's text and the rule text of every procedure that has one
            await pilot.press("question_mark")
            await settle(pilot, app, HelpScreen)
            help_text = screen_text(app)
            assert s.rules.title in help_text
            await pilot.press("escape")
            await settle(pilot, app, GameScreen)
    asyncio.run(main())


def test_save_then_load_restores_the_game(tmp_path):
    async def main():
        path = tmp_path / "game.json"
        app = JuxApp(ruleset="capital_jux", seats=[("Ann", "human"), ("Robo", "random")], seed=5, bot_delay=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot, app, GameScreen)
            for _ in range(3):
                await answer_by_keys(pilot, app)
            from textual.widgets import Input

            await pilot.press("s")
            dlg = await settle(pilot, app, PathScreen)
            dlg.query_one(Input).value = str(path)
            await pilot.press("enter")
            await settle(pilot, app, GameScreen)
            saved = app.session.game.save()
            assert json.loads(path.read_text())["answers"] == saved["answers"]
            assert not app.session.dirty
            await answer_by_keys(pilot, app)  # play on, then load the save
            assert app.session.game.save() != saved
            await pilot.press("l")
            dlg = await settle(pilot, app, PathScreen)
            dlg.query_one(Input).value = str(path)
            await pilot.press("enter")
            await settle(pilot, app, ConfirmScreen)  # the game on screen has an unsaved move: asked first
            await pilot.press("y")
            await settle(pilot, app, GameScreen)
            await pilot.pause()
            assert app.session.game.save() == saved
            assert [x.kind for x in app.session.seats] == ["human", "random"]
            # a failed load and a failed save keep the game
            session = app.session
            await pilot.press("l")
            dlg = await settle(pilot, app, PathScreen)
            dlg.query_one(Input).value = str(tmp_path / "missing.json")
            await pilot.press("enter")
            await settle(pilot, app, GameScreen)
            assert app.session is session
            await pilot.press("s")
            dlg = await settle(pilot, app, PathScreen)
            dlg.query_one(Input).value = str(tmp_path / "no" / "dir" / "x.json")
            await pilot.press("enter")
            await settle(pilot, app, GameScreen)
            assert app.session is session and not (tmp_path / "no").exists()
            # quitting an unsaved game asks first
            await answer_by_keys(pilot, app)
            assert app.session.dirty
            await pilot.press("q")
            await settle(pilot, app, ConfirmScreen)
            await pilot.press("n")
            await settle(pilot, app, GameScreen)
            await pilot.press("q")
            await settle(pilot, app, ConfirmScreen)
            await pilot.press("y")
            await pilot.pause()
        assert app.return_code == 0
    asyncio.run(main())


def _tmux(*args):
    return subprocess.run(["tmux", *args], capture_output=True, text=True, timeout=20)


@pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")
def test_jux_play_in_a_real_terminal(tmp_path):
    jux = Path(sys.executable).parent / "jux"
    cmd = [str(jux)] if jux.exists() else [sys.executable, "-m", "jux"]
    session = f"juxtest{os.getpid()}"
    line = " ".join(cmd + ["play", "capital_jux", "--players", "2", "--seat", "human", "--seat", "random",
                           "--name", "Ann", "--seed", "7", "--bot-delay", "0"])
    r = _tmux("new-session", "-d", "-s", session, "-x", "80", "-y", "24", "-c", str(tmp_path),
              f"{line}; echo JUX-EXIT-$?; sleep 20")
    if r.returncode != 0:
        pytest.skip(f"tmux cannot start a session: {r.stderr.strip()}")

    def screen():
        return _tmux("capture-pane", "-p", "-t", session).stdout

    def wait_for(text, timeout=15):
        end = time.time() + timeout
        while time.time() < end:
            s = screen()
            if text in s:
                return s
            time.sleep(0.1)
        raise AssertionError(f"{text!r} not on screen:\n{screen()}")

    try:
        s = wait_for("Choose 2 cards")
        assert "Ann (you)" in s and "1. [ ]" in s
        _tmux("send-keys", "-t", session, "1")
        s = wait_for("1. [x]")
        _tmux("send-keys", "-t", session, "2", "Enter")
        end = time.time() + 15
        while screen().count("chosen:") < 2 and time.time() < end:  # Ann's two cards are now chosen
            time.sleep(0.1)
        assert screen().count("chosen:") == 2, screen()
        _tmux("send-keys", "-t", session, "q")
        wait_for("Quit anyway?")
        _tmux("send-keys", "-t", session, "y")
        s = wait_for("JUX-EXIT-0")
        assert "Traceback" not in s
    finally:
        _tmux("kill-session", "-t", session)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="a pty hung up as on Linux")
def test_jux_play_ends_when_its_terminal_is_gone():
    """A terminal closed under `make play` leaves jux's input at its end with no hangup signal
    reaching jux (here: the pty is not its controlling terminal). jux ends instead of spinning on
    its dead input (Textual's input thread does, at full speed)."""
    import fcntl
    import pty
    import select
    import struct
    import termios

    jux = Path(sys.executable).parent / "jux"
    cmd = [str(jux)] if jux.exists() else [sys.executable, "-m", "jux"]
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    p = subprocess.Popen(cmd + ["play"], stdin=slave, stdout=slave, stderr=slave, start_new_session=True,
                         env=dict(os.environ, TERM="xterm-256color"))
    os.close(slave)
    try:
        seen, end = b"", time.time() + 20
        while b"new game" not in seen and time.time() < end and p.poll() is None:
            if select.select([master], [], [], 0.2)[0]:
                seen += os.read(master, 1 << 16)
        assert b"new game" in seen, seen[-500:]
        os.close(master)  # the terminal is gone
        master = None
        p.wait(timeout=15)
    finally:
        if master is not None:
            os.close(master)
        if p.poll() is None:
            p.kill()
            p.wait()
            pytest.fail("jux play went on running with its terminal gone")


# ---------------------------------------------------------------- snapshots (pytest-textual-snapshot)
#
# The screens at 80x24, compared with the SVGs under tests/__snapshots__/test_tui/. After a deliberate
# change of the look: `pytest tests/test_tui.py --snapshot-update`, then check the new SVGs (the
# report pytest writes shows old and new side by side).


def _record_file(tmp_path, answers: int | None, seats=("human", "random"), until=None) -> Path:
    """A capital_jux game (seed 11, Ann and Robo) where every decision is a fixed pseudo-random pick,
    stopped after `answers` answers (None: at the end; until(game) true: there) while Ann decides;
    no bot is involved, so the snapshot does not depend on any bot's play."""
    from jux.interpreter.engine.game import Game
    from jux.interpreter.engine.ruleset import load_ruleset

    import random

    rng = random.Random(4)
    g = Game.new(load_ruleset("capital_jux"), 2, 11, names=["Ann", "Robo"])
    while not g.over and (answers is None or len(g.answers) < answers or
                          any(d.player != 0 for d in g.pending)) and not (
            until is not None and until(g) and all(d.player == 0 for d in g.pending)):
        d = g.pending[0]
        n = len(d.values)
        g.apply(sorted(rng.sample(range(n), d.max)) if d.many else rng.randrange(n), decision=d.id)
    data = g.save()
    data["tui"] = {"seats": list(seats)}
    path = tmp_path / "game.json"
    path.write_text(json.dumps(data))
    return path


async def _until(pilot, test, tries=200):
    for _ in range(tries):
        if test():
            pilot.app.clear_notifications()  # no toast ("Loaded ...") over the snapshot
            await pilot.pause()
            return
        await pilot.pause(0.02)
    raise AssertionError("the screen did not get ready")


def test_snapshot_start_screen(snap_compare):
    async def ready(pilot):
        await _until(pilot, lambda: isinstance(pilot.app.screen, StartScreen) and pilot.app.screen.rules)
        from jux.tui.widgets.choice import Choice

        pilot.app.screen.query_one("#kind-1", Choice).value = "random"  # not whichever bot is listed first
        await pilot.pause()

    assert snap_compare(JuxApp(bot_delay=0), terminal_size=(80, 24), run_before=ready)


def test_snapshot_table_mid_game(snap_compare, tmp_path):
    async def ready(pilot):
        await _until(pilot, lambda: isinstance(pilot.app.screen, GameScreen)
                     and pilot.app.screen.query_one(DecisionPanel).decision is not None)

    path = _record_file(tmp_path, 12)
    assert snap_compare(JuxApp(load=str(path), bot_delay=0), terminal_size=(80, 24), run_before=ready)


def test_snapshot_final_scores(snap_compare, tmp_path):
    async def ready(pilot):
        await _until(pilot, lambda: isinstance(pilot.app.screen, GameOverScreen))

    path = _record_file(tmp_path, None)
    assert snap_compare(JuxApp(load=str(path), bot_delay=0), terminal_size=(80, 24), run_before=ready)


def test_snapshot_round_end_table(snap_compare, tmp_path):
    """The first round's end table over the game (shown again with r, as it showed when it came)."""
    from jux.tui.screens.tables import TableScreen, tables_of

    async def ready(pilot):
        await _until(pilot, lambda: isinstance(pilot.app.screen, GameScreen)
                     and pilot.app.screen.query_one(DecisionPanel).decision is not None)
        await pilot.press("r")
        await _until(pilot, lambda: isinstance(pilot.app.screen, TableScreen))

    path = _record_file(tmp_path, None, until=lambda g: tables_of(g, 0))
    assert snap_compare(JuxApp(load=str(path), bot_delay=0), terminal_size=(80, 24), run_before=ready)


# ---------------------------------------------------------------- tiles (variants that fill a slot key) and marks


def _a_tile():
    """A tile of capital_jux (a variant that fills a slot key) and the key it fills."""
    from jux.interpreter.reading.variants import catalogue

    cat = catalogue("capital_jux")
    tiles = sorted((i for i in cat.values() if i.fills and i.default), key=lambda i: i.name)
    assert tiles, "capital_jux has no tiles"
    return cat, tiles[0]


async def _start_ready(pilot, app, variants=None):
    """The start screen, once its ruleset (with `variants`, when given, among its variants) is loaded."""
    start = await settle(pilot, app, StartScreen)
    for _ in range(300):
        r = start.rules
        if r is not None and (variants is None or set(variants) <= set(r.variants)):
            return start
        await pilot.pause(0.02)
    raise AssertionError(f"the start screen did not load; error: {start.query_one('#start-error').render()}")


def test_tiles_from_the_app_option_show_in_help_and_survive_save_and_load(tmp_path):
    cat, tile = _a_tile()
    path = tmp_path / "tiles.json"

    async def main():
        app = JuxApp(ruleset="capital_jux", tiles=tile.name, seats=[("Ann", "human"), ("Robo", "random")],
                     seed=3, bot_delay=0)
        async with app.run_test(size=(100, 30)) as pilot:
            gs = await settle(pilot, app, GameScreen)
            rules = app.session.rules
            assert tile.name in rules.variants and all(r in rules.variants for r in tile.requires)
            assert tile.title in str(gs.query_one("#table-scroll").border_subtitle)
            # help lists every variant in use with its own text
            await pilot.press("question_mark")
            await settle(pilot, app, HelpScreen)
            text = " ".join(app.screen.query_one("#help-text").render().plain.split())
            assert "Played with" in text
            for name in rules.variants:
                info = cat[name]
                assert (info.title or name) in text and " ".join(info.text.split())[:60] in text
            await pilot.press("escape")
            await settle(pilot, app, GameScreen)
            await answer_by_keys(pilot, app)
            assert app.save_session(app.session, path)
            saved = app.session.game.save()
            # a new game offers the same tiles first
            app.new_game()
            start = await _start_ready(pilot, app, [tile.name])
            assert tile.name in start.chosen_tiles()
        assert json.loads(path.read_text())["variants"] == list(rules.variants)

        app = JuxApp(load=str(path), bot_delay=0)
        async with app.run_test(size=(100, 30)) as pilot:
            await settle(pilot, app, GameScreen)
            assert app.session.rules.variants == rules.variants
            assert app.session.game.save() == saved
    asyncio.run(main())


def test_start_screen_picks_tiles_and_shows_a_wrong_choice_in_one_line():
    from textual.widgets import Static

    from jux.tui.tiles import RANDOM
    from jux.tui.widgets.choice import Choice

    cat, tile = _a_tile()

    async def main():
        app = JuxApp(bot_delay=0, tiles=[tile.name, "no_such_tile"])
        async with app.run_test(size=(100, 40)) as pilot:
            start = await settle(pilot, app, StartScreen)
            err = start.query_one("#start-error", Static)
            for _ in range(300):
                if "no_such_tile" in str(err.render()):
                    break
                await pilot.pause(0.02)
            message = str(err.render())
            assert "unknown variant 'no_such_tile'" in message and "Traceback" not in message
            assert "\n" not in message.strip()
            assert start.rules is None and start.query_one("#start-button").disabled
            assert start.query_one("#tiles-mode", Choice).value not in (False, RANDOM)  # by hand, or a preset
            # one Choice per slot key, each listing that key's tiles; the asked-for tile is picked
            keys = start.keys
            assert keys and all(k.tiles for k in keys)
            i = next(i for i, k in enumerate(keys) if any(t.name == tile.name for t in k.tiles))
            assert start.query_one(f"#tile-{i}", Choice).value == tile.name
            # pick another tile for another key: the unknown name goes, the ruleset loads
            j, other = next(((j, k.tiles[-1]) for j, k in enumerate(keys) if j != i and len(k.tiles) > 1),
                            (i, tile))
            if j == i:  # no key has a second tile yet: the base game then tiles again drops it too
                start.query_one("#tiles-mode", Choice).value = False
                await pilot.pause()
                start.query_one("#tiles-mode", Choice).value = True
            else:
                start.query_one(f"#tile-{j}", Choice).value = other.name
            start = await _start_ready(pilot, app, [tile.name, other.name])
            assert str(err.render()).strip() == ""
            shown = " ".join(str(start.query_one("#tile-text", Static).render()).split())
            if j != i:  # the text shown is that of the tile just picked
                assert other.title in shown and " ".join(other.text.split())[:40] in shown
            else:
                assert shown
            # the base game: no tiles at all
            start.query_one("#tiles-mode", Choice).value = False
            for _ in range(300):
                if start.rules is not None and not start.rules.variants:
                    break
                await pilot.pause(0.02)
            assert start.rules.variants == ()
            assert not start.query_one("#tile-rows").display
            # tiles again, then start: the game plays with them
            start.query_one("#tiles-mode", Choice).value = True
            start = await _start_ready(pilot, app, [tile.name, other.name])
            await pilot.press("ctrl+s")
            await settle(pilot, app, GameScreen)
            assert {tile.name, other.name} <= set(app.session.rules.variants)
    asyncio.run(main())


MARK_RULES = """\
game:
  name: mark_probe
  title: Mark probe
  players: {min: 2, max: 2}
cards:
  num:
    label: "card {value}"
    attributes:
      value: [1, 2, 3, 4]
zones:
  deck: {visible: none, start: [num]}
  table: {visible: all}
marks:
  token: {default: 0, text: "Tokens on a card"}
  flag: {default: false}
functions:
  score(p): "0"
flow: |
  draw 3 from deck to table
  let i = 0
  for c in table {
    if i == 0 { set c.token = 7 } elif i == 1 { set c.token = 0 } else { set c.flag = true }
    i += 1
  }
  for p in players {
    choose x from [1, 2] by p prompt "Go on"
  }
"""


def test_marks_show_after_the_card_in_brackets(tmp_path):
    from jux.tui.widgets.card_text import marks_text

    assert marks_text({"token": 10, "flag": True, "gone": None, "off": False}) == "token 10, flag"
    assert marks_text({"token": 0}, {"token": 0}) == "" and marks_text({"token": 0}) == "token 0"
    rules = tmp_path / "mark_probe"
    rules.mkdir()
    (rules / "game.yaml").write_text(MARK_RULES)

    async def main():
        app = JuxApp(ruleset=str(rules), seats=[("Ann", "human"), ("Robo", "random")], seed=1, bot_delay=0)
        async with app.run_test(size=(100, 30)) as pilot:
            gs = await settle(pilot, app, GameScreen)
            await pilot.pause()
            cards = [z for z in app.session.game.view(0)["zones"] if z["name"] == "table"][0]["cards"]
            table = gs.query_one(TableView).text
            a, b, c = (x["label"] for x in cards)
            assert f"{a} [token 7]" in table
            assert f"{b} [" not in table  # a mark at its default is not shown
            assert f"{c} [flag]" in table
            assert "[" in screen_text(app) and "token 7" in screen_text(app)
            await pilot.press("question_mark")
            await settle(pilot, app, HelpScreen)
            assert "Tokens on a card" in app.screen.query_one("#help-text").render().plain
    asyncio.run(main())


def test_two_tiles_for_one_key_open_the_start_screen_with_the_error():
    from textual.widgets import Static

    cat, _ = _a_tile()
    by_key: dict = {}
    for info in cat.values():
        for sk in info.fill_keys:
            by_key.setdefault(sk, []).append(info.name)
    pair = next((sorted(names)[:2] for names in by_key.values() if len(names) > 1), None)
    if pair is None:
        pytest.skip("no slot key has two tiles yet")

    async def main():
        app = JuxApp(ruleset="capital_jux", tiles=",".join(pair), seats=[("Ann", "human"), ("Robo", "random")],
                     bot_delay=0)
        async with app.run_test(size=(100, 40)) as pilot:
            start = await settle(pilot, app, StartScreen)
            err = start.query_one("#start-error", Static)
            for _ in range(300):
                if str(err.render()).strip():
                    break
                await pilot.pause(0.02)
            message = str(err.render()).strip()
            assert message.startswith("These tiles do not go together") and "\n" not in message
            assert all(name in message for name in pair)
            assert [s.name for s in start.seats] == ["Ann", "Robo"]
    asyncio.run(main())


def test_totals_add_what_a_card_is_worth_when_the_ruleset_says():
    from jux.tui.widgets.table import total

    cards = [{"value": 5, "worth": 10}, {"value": 3}, {"hidden": True}]
    assert total(cards) == 13


# ---------------------------------------------------------------- tables the rules show (`show`), presets, bot delay

SHOW_RULES = """\
game:
  name: show_probe
  title: Show probe
  players: {min: 2, max: 2}
cards:
  num:
    label: "card {value}"
    attributes:
      value: [1, 2, 3, 4]
zones:
  deck: {visible: none, start: [num]}
counters:
  total: {per: player, start: 0}
functions:
  score(p): total[p]
flow: |
  for r in [1, 2] {
    for p in players {
      choose x from [1, 2, 3] by p prompt "Add a number"
      total[p] += x
    }
    show "Round {r} ends" columns ["player", "total"] rows [[p, total[p]] for p in players]
    for p in players {
      if p != players[0] {
        choose x from [1, 2] by p prompt "After the table"
      }
    }
  }
"""


def _show_rules(tmp_path) -> str:
    rules = tmp_path / "show_probe"
    rules.mkdir()
    (rules / "game.yaml").write_text(SHOW_RULES)
    return str(rules)


def test_a_table_the_rules_show_opens_over_the_game_and_the_bots_wait(tmp_path):
    from jux.tui.screens.tables import TableScreen

    async def main():
        app = JuxApp(ruleset=_show_rules(tmp_path), seats=[("Ann", "human"), ("Robo", "random")], seed=1,
                     bot_delay=0)
        async with app.run_test(size=(80, 24), notifications=True) as pilot:
            gs = await settle(pilot, app, GameScreen)
            await pilot.pause()
            await answer_by_keys(pilot, app)  # Ann, then Robo: the round ends with a table
            await settle(pilot, app, TableScreen)
            for _ in range(5):
                await pilot.pause()
            game = app.session.game
            assert len(game.answers) == 2  # the bot's "After the table" waits while it is open
            assert [d.prompt for d in game.pending] == ["After the table"]
            text = screen_text(app)
            assert "Round 1 ends" in text and "player" in text and "total" in text
            assert "Ann" in text and "Robo" in text and "Press any key" in text
            await pilot.press("x")  # any key goes on
            await settle(pilot, app, GameScreen)
            await pilot.pause()
            assert len(game.answers) == 3 and gs.query_one(DecisionPanel).decision.player == 0
            log = "\n".join(str(line.text) for line in gs.query_one("#log").lines)
            assert "Round 1 ends" in log and "Ann: total" in log
            # r shows it again; it opens no second time by itself
            await pilot.press("r")
            await settle(pilot, app, TableScreen)
            await pilot.press("escape")
            await settle(pilot, app, GameScreen)
            assert len(game.answers) == 3
            await answer_by_keys(pilot, app)  # round 2 ends; the bot's last answer ends the game
            await settle(pilot, app, TableScreen)
            assert "Round 2 ends" in screen_text(app) and not game.over
            await pilot.press("enter")
            over = await settle(pilot, app, GameOverScreen)
            text = screen_text(app)
            assert "Final scores" in text and "Round 2 ends" in text  # the last table, under the scores
            assert over.query_one("#last-table")
            await pilot.press("f")  # back to the final table
            await settle(pilot, app, GameScreen)
    asyncio.run(main())


def test_each_human_at_one_keyboard_sees_a_new_table_once(tmp_path):
    from jux.tui.screens.tables import TableScreen

    async def main():
        app = JuxApp(ruleset=_show_rules(tmp_path), seats=[("Ann", "human"), ("Bob", "human")], seed=1,
                     bot_delay=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot, app, PassScreen)
            await pilot.pause()
            await pilot.press("enter")
            await settle(pilot, app, GameScreen)
            await answer_by_keys(pilot, app)  # Ann; the keyboard goes to Bob
            await settle(pilot, app, PassScreen)
            await pilot.pause()
            assert "Round 1 ends" not in screen_text(app)
            await pilot.press("enter")
            await settle(pilot, app, GameScreen)
            await answer_by_keys(pilot, app)  # Bob ends the round and decides next: he sees the table
            await settle(pilot, app, TableScreen)
            await pilot.press("enter")
            gs = await settle(pilot, app, GameScreen)
            assert gs.viewer == 1
            await answer_by_keys(pilot, app)  # Bob's "After the table"; then Ann, who sees it too
            await settle(pilot, app, PassScreen)
            await pilot.pause()
            await pilot.press("enter")
            await settle(pilot, app, TableScreen)
            assert "Round 1 ends" in screen_text(app)
            await pilot.press("enter")
            gs = await settle(pilot, app, GameScreen)
            assert gs.viewer == 0 and gs.query_one(DecisionPanel).decision.player == 0
    asyncio.run(main())


def test_the_bot_delay_key_turns_the_delay_off_and_on(tmp_path):
    async def main():
        app = JuxApp(ruleset=_show_rules(tmp_path), seats=[("Ann", "human"), ("Robo", "random")], seed=1,
                     bot_delay=0.05)
        async with app.run_test(size=(80, 24), notifications=True) as pilot:
            gs = await settle(pilot, app, GameScreen)
            await pilot.pause()
            await pilot.press("d")
            assert gs.bot_delay == 0 and app.bot_delay == 0 and "off" in notes(app)
            await pilot.press("d")
            assert gs.bot_delay == 0.05 and app.bot_delay == 0.05
    asyncio.run(main())


def test_start_screen_tiles_from_a_preset_or_at_random_and_the_bot_delay():
    from jux.tui.tiles import RANDOM, presets
    from jux.tui.widgets.choice import Choice

    async def main():
        app = JuxApp(bot_delay=0.4)
        async with app.run_test(size=(100, 40)) as pilot:
            start = await _start_ready(pilot, app)
            keys = start.keys
            assert keys
            mode = start.query_one("#tiles-mode", Choice)
            offered = [v for _, v in presets(keys)]
            assert offered[-1] == RANDOM
            # a preset made of letters: every key gets its tile with that letter
            letter = next((v for v in offered if v.startswith("letter:") and
                           [next(t.name for t in k.tiles if t.letter == v[7:]) for k in keys]
                           != [k.default for k in keys]), None)
            if letter is not None:
                mode.value = letter
                want = [next(t.name for t in k.tiles if t.letter == letter[7:]) for k in keys]
                start = await _start_ready(pilot, app, want)
                assert [start.query_one(f"#tile-{i}", Choice).value for i in range(len(keys))] == want
                assert set(want) <= set(start.chosen_tiles())
                assert not start.query_one("#reroll").display
            # random: one tile per key, and ctrl+r draws again
            mode.value = RANDOM
            await pilot.pause()
            assert start.mode == RANDOM and start.query_one("#reroll").display
            assert all(p in [t.name for t in k.tiles] for p, k in zip(start.picks, keys))
            await pilot.press("ctrl+r")
            await pilot.pause()
            assert start.mode == RANDOM
            picks = list(start.picks)
            start = await _start_ready(pilot, app, picks)
            assert [start.query_one(f"#tile-{i}", Choice).value for i in range(len(keys))] == picks
            # a tile picked by hand: the choice says so (unless the picks make a preset)
            other = next((t.name for t in keys[0].tiles if t.name != picks[0]), None)
            if other is not None:
                start.query_one("#tile-0", Choice).value = other
                await pilot.pause()
                assert start.mode != RANDOM and start.picks[0] == other
                assert mode.value == start.mode
            # the bot delay: off, then the game plays bots at once
            start.query_one("#bot-delay", Choice).value = 0.0
            await pilot.pause()
            assert app.bot_delay == 0
            start = await _start_ready(pilot, app, [other or picks[0]])
            await pilot.press("ctrl+s")
            gs = await settle(pilot, app, GameScreen)
            assert gs.bot_delay == 0
    asyncio.run(main())


def test_start_screen_choices_by_keyboard_and_mouse():
    """A choice on the start screen (one line, its list made only when opened): Enter opens the
    list, arrows and Enter pick, Escape closes it; left/right step; a click opens, a click on an
    option picks it, a click outside closes the list."""
    from textual.widgets import OptionList

    from jux.tui.widgets.choice import Choice, ChoiceMenu

    async def main():
        app = JuxApp(bot_delay=0.4)
        async with app.run_test(size=(80, 24)) as pilot:
            start = await _start_ready(pilot, app)
            players = start.query_one("#players", Choice)
            assert app.focused is players and players.value == 2
            assert [v for _, v in players.options] == list(range(start.rules.min_players,
                                                                 start.rules.max_players + 1))
            await pilot.press("enter")
            assert isinstance(app.screen, ChoiceMenu)
            assert app.screen.query_one(OptionList).highlighted == 0
            await pilot.press("down", "enter")
            await pilot.pause()
            assert app.screen is start and app.focused is players and players.value == 3
            assert start.query_one("#seat-2").display
            await pilot.press("enter", "down", "escape")
            await pilot.pause()
            assert app.screen is start and players.value == 3
            await pilot.press("left")
            await pilot.pause()
            assert players.value == 2 and not start.query_one("#seat-2").display
            await pilot.press("left")  # the first option: stays
            assert players.value == 2
            # the mouse: the bot delay's list, then its first option ("off")
            assert await pilot.click("#bot-delay")
            await pilot.pause()
            assert isinstance(app.screen, ChoiceMenu)
            assert await pilot.click(OptionList, offset=(3, 1))
            await pilot.pause()
            assert app.screen is start and start.query_one("#bot-delay", Choice).value == 0.0
            assert app.bot_delay == 0
            assert "off" in str(start.query_one("#bot-delay", Choice).render())
            assert await pilot.click("#kind-1")
            await pilot.pause()
            assert isinstance(app.screen, ChoiceMenu)
            kind = start.query_one("#kind-1", Choice).value
            assert await pilot.click(offset=(78, 0))  # outside the list
            await pilot.pause()
            assert app.screen is start and start.query_one("#kind-1", Choice).value == kind
            with pytest.raises(ValueError):
                players.value = 99
    asyncio.run(main())


UNAVAILABLE_RULES = """\
game:
  name: unavailable_probe
  title: Unavailable probe
  players: {min: 2, max: 2}
cards:
  num:
    label: "card {value}"
    attributes:
      value: [1, 2, 3, 4]
zones:
  deck: {visible: none, start: [num]}
  hand: {per: player, visible: owner}
  table: {visible: all}
functions:
  score(p): "sum(c.value for c in table)"
flow: |
  for p in players { draw 2 from deck to hand[p] }
  for p in players {
    choose c from [c for c in hand[p] if c.value % 2 == 0] by p prompt "Play an even card"
      unavailable [(c, "only even cards may be played") for c in hand[p] if c.value % 2 == 1]
    move c to table
  }
"""


def test_the_decision_panel_says_why_an_option_cannot_be_chosen(tmp_path):
    rules = tmp_path / "unavailable_probe"
    rules.mkdir()
    (rules / "game.yaml").write_text(UNAVAILABLE_RULES)

    async def main():
        # seed 3 deals seat 0 one even and one odd card (checked below)
        app = JuxApp(ruleset=str(rules), seats=[("Ann", "human"), ("Robo", "random")], seed=3, bot_delay=0)
        async with app.run_test(size=(100, 30)) as pilot:
            gs = await settle(pilot, app, GameScreen)
            await pilot.pause()
            d = gs.query_one(DecisionPanel).decision
            hand = labels(app.session.game.view(0), "hand", 0)
            odd = [x for x in hand if int(x.split()[1]) % 2]
            assert len(odd) == 1 and [o.label for o in d.options] == [x for x in hand if x not in odd]
            assert d.unavailable == [{"option": odd[0], "reason": "only even cards may be played"}]
            from textual.widgets import Static
            prompt = gs.query_one("#decision #prompt", Static).render().plain
            assert prompt.endswith(f"Play an even card\n✗ {odd[0]}: only even cards may be played")
            assert f"✗ {odd[0]}: only even cards may be" in screen_text(app)  # (the line wraps)
            await pilot.press("down", "down", "enter")
            await pilot.pause()
            assert labels(app.session.game.view(0), "table", None)[0] == d.options[0].label  # Ann played it
    asyncio.run(main())


# ---------------------------------------------------------------- the saves folder (issue 17; tests: test_saves_folder.py)


@pytest.fixture(autouse=True)
def _saves_in_tmp(tmp_path_factory, monkeypatch):
    """Saves made or listed by these tests go to a folder of their own, never the user's data folder."""
    monkeypatch.setenv("JUX_DATA_DIR", str(tmp_path_factory.mktemp("jux-data")))


def test_the_start_screen_names_the_bots_by_what_they_do():
    """Issue 40: each level reads with what it does, and a seat given as a built-in bot's plain
    name (`ismcts`) shows as that bot's level."""
    from jux.interpreter.bots import LEVEL_BOTS, bot_choices, level_spec
    from jux.tui.widgets.choice import Choice

    labels = dict(bot_choices())
    assert labels == {"bot: easy, plays at random": "random", "bot: medium, best next move": "greedy",
                      "bot: hard, thinks 1 s a move": "ismcts:seconds=1"}
    assert [spec for _, spec, _ in LEVEL_BOTS] == list(labels.values())
    assert level_spec("ismcts") == "ismcts:seconds=1" and level_spec("greedy") == "greedy"
    assert level_spec("ismcts:iterations=50") == "ismcts:seconds=1" and level_spec("mine") == "mine"

    async def main():
        app = JuxApp(bot_delay=0)
        async with app.run_test(size=(80, 24)) as pilot:
            start = await settle(pilot, app, StartScreen)
            await _until(pilot, lambda: start.rules is not None)
            kind = start.query_one("#kind-1", Choice)
            assert kind.value == "greedy" and "bot: medium, best next move" in str(kind.render())
            kind.value = "ismcts:seconds=1"
            await pilot.pause()
            assert "bot: hard, thinks 1 s a move" in screen_text(app)
    asyncio.run(main())
