"""Saves in the user's data folder (issue 17): `s` writes into $JUX_DATA_DIR/saves (never the folder
jux was started in), the load dialog lists that folder's saves newest first (ruleset, tiles, players,
round), a broken file there does not break it, loading over unsaved moves asks first, and the
footer offers undo only when undo is offered. Pilot tests (App.run_test), keys pressed as a person
would; bots answer at once."""
import asyncio
import json
import os
import time

import pytest

pytest.importorskip("textual")

from textual.widgets import Input, OptionList  # noqa: E402

from jux.interpreter.engine.ruleset import load_ruleset  # noqa: E402
from jux.tui.app import JuxApp  # noqa: E402
from jux.tui.screens.dialogs import ConfirmScreen, LoadScreen, PathScreen  # noqa: E402
from jux.tui.screens.game import GameScreen  # noqa: E402
from jux.tui.screens.passing import PassScreen  # noqa: E402
from jux.tui.screens.start import StartScreen  # noqa: E402
from jux.tui.session import SeatSpec, Session  # noqa: E402
from jux.tui.saves import list_saves, new_save_path  # noqa: E402
from jux.tui.tiles import parse_tiles  # noqa: E402
from jux.tui.widgets.decision import DecisionPanel  # noqa: E402
from tui_helpers import notes, screen_text, settle  # noqa: E402


@pytest.fixture
def folders(tmp_path, monkeypatch):
    """(the data folder, the current folder): JUX_DATA_DIR set, and jux started in an empty folder."""
    data, cwd = tmp_path / "data", tmp_path / "cwd"
    cwd.mkdir()
    monkeypatch.setenv("JUX_DATA_DIR", str(data))
    monkeypatch.chdir(cwd)
    return data, cwd


async def answer(pilot, app):
    """Answer the decision on screen with keys (the first options)."""
    d = app.screen.query_one(DecisionPanel).decision
    assert d is not None, "no decision on screen"
    if d.many:
        picks, taken = [], set()
        for i in range(min(9, len(d.options))):
            if len(picks) < d.min and (d.keys is None or d.keys[i] not in taken):
                picks.append(i)
                taken.add(None if d.keys is None else d.keys[i])
        await pilot.press(*[str(i + 1) for i in picks], "enter")
    else:
        await pilot.press("1")
    await pilot.pause()


def play(session: Session, answers: int) -> None:
    """Answer the first legal options (bots play their own) until `answers` answers were given and
    the bots have played on to a human's decision (as the UI would after loading it)."""
    while not session.game.over:
        d = session.bot_decision()
        if d is not None:
            session.play_bot(d)
            continue
        if len(session.game.answers) >= answers:
            return
        d = session.human_decision()
        n = 0
        while True:  # the first pick the rules accept (a `distinct` choice refuses alike options)
            choice = list(range(n, n + d.min)) if d.many else n
            try:
                session.answer(d, choice)
                break
            except Exception:
                n += 1


def option_texts(dialog) -> list:
    ol = dialog.query_one(OptionList)
    return [str(ol.get_option_at_index(i).prompt) for i in range(ol.option_count)]


def footer_keys(screen) -> dict:
    """The keys the footer shows: key -> (action, enabled)."""
    return {k: (b.binding.action, b.enabled) for k, b in screen.active_bindings.items() if b.binding.show}


# ---------------------------------------------------------------- saving


def test_s_saves_into_the_data_folder_never_the_current_folder(folders, tmp_path, monkeypatch):
    data, cwd = folders
    saves = data / "saves"

    async def main():
        app = JuxApp(ruleset="capital_jux", seats=[("Ann", "human"), ("Robo", "random")], seed=5, bot_delay=0)
        async with app.run_test(size=(100, 30), notifications=True) as pilot:
            await settle(pilot, app, GameScreen)
            await answer(pilot, app)
            assert app.session.dirty
            await pilot.press("s")
            dlg = await settle(pilot, app, PathScreen)
            offered = dlg.query_one(Input).value
            assert offered.startswith(str(saves) + os.sep) and offered.endswith(".save.json")
            assert "capital_jux-5-" in os.path.basename(offered)  # ruleset, seed, then the time
            await pilot.press("enter")
            await settle(pilot, app, GameScreen)
            files = sorted(saves.glob("*.json"))
            assert [str(f) for f in files] == [offered]
            saved = json.loads(files[0].read_text())
            assert saved["answers"] == app.session.game.save()["answers"]
            assert saved["tui"]["summary"]["players"] == 2
            assert not app.session.dirty
            assert list(cwd.iterdir()) == []  # nothing where jux was started
            # a second save, in the same second: another file, the first one kept
            await pilot.press("s")
            dlg = await settle(pilot, app, PathScreen)
            assert dlg.query_one(Input).value != offered
            await pilot.press("enter")
            await settle(pilot, app, GameScreen)
            assert len(list(saves.glob("*.json"))) == 2
            # a name without a folder goes into the saves folder too
            await pilot.press("s")
            dlg = await settle(pilot, app, PathScreen)
            dlg.query_one(Input).value = "mine"
            await pilot.press("enter")
            await settle(pilot, app, GameScreen)
            assert (saves / "mine.save.json").is_file() and list(cwd.iterdir()) == []
            # a save that fails (the data folder is a file): one line, and the game goes on unsaved
            blocker = tmp_path / "not-a-folder"
            blocker.write_text("x")
            monkeypatch.setenv("JUX_DATA_DIR", str(blocker))
            await answer(pilot, app)
            session, answers = app.session, list(app.session.game.answers)
            app.clear_notifications()
            await pilot.press("s")
            await settle(pilot, app, PathScreen)
            await pilot.press("enter")
            await settle(pilot, app, GameScreen)
            await pilot.pause()
            msg = notes(app)
            assert "Not saved" in msg and "\n" not in msg
            assert app.session is session and session.game.answers == answers and session.dirty
            assert isinstance(app.screen, GameScreen) and app.screen.query_one(DecisionPanel).decision
    asyncio.run(main())


def test_save_names_never_repeat(folders):
    data, _ = folders
    (data / "saves").mkdir(parents=True)
    first = new_save_path("capital_jux", 3)
    first.write_text("{}")
    second = new_save_path("capital_jux", 3)
    assert second != first and second.parent == first.parent and second.name.startswith("capital_jux-3-")


# ---------------------------------------------------------------- the load dialog


def _make_saves(data):
    """Two saves in the saves folder: Guildhall (2 players, no round counter) an hour ago, and
    Capital Jux with a tile (3 players) a minute ago. Returns (older, newer) sessions."""
    older = Session(load_ruleset("guildhall"), [SeatSpec("Ann"), SeatSpec("Bob", "random")], seed=7)
    play(older, 6)
    older.save("older")
    newer = Session(load_ruleset("capital_jux", parse_tiles("mentalist")),
                    [SeatSpec("Zoe"), SeatSpec("Robo", "random"), SeatSpec("Ria", "random")], seed=9)
    play(newer, 15)
    newer.save("newer")
    now = time.time()
    os.utime(data / "saves" / "older.save.json", (now - 3600, now - 3600))
    os.utime(data / "saves" / "newer.save.json", (now - 60, now - 60))
    return older, newer


def test_load_dialog_lists_the_saves_newest_first(folders):
    data, _ = folders
    older, newer = _make_saves(data)
    (data / "saves" / "broken.json").write_bytes(b'{"format": "jux-record/1", "rul')  # newest of all
    (data / "saves" / "notes.txt").write_text("not a save: not listed")
    round_ = newer.game.view(None)["counters"]["round"]
    assert isinstance(round_, int)

    async def main():
        app = JuxApp(bot_delay=0)
        async with app.run_test(size=(100, 30)) as pilot:
            start = await settle(pilot, app, StartScreen)
            start.query_one("#load-button").press()  # "Load a game" on the start screen
            dlg = await settle(pilot, app, LoadScreen)
            await pilot.pause()
            lines = option_texts(dlg)
            assert len(lines) == 3, lines
            assert lines[0].startswith("broken.json: unreadable")
            assert lines[1].startswith("Capital Jux") and "Mentalist" in lines[1]
            assert "3 players" in lines[1] and f"round {round_}" in lines[1] and "newer.save.json" in lines[1]
            assert lines[2].startswith("Guildhall") and "tiles" not in lines[2]
            assert "2 players" in lines[2] and f"{len(older.game.answers)} answers" in lines[2]
            saved_at = time.strftime("%Y-%m-%d %H:%M", time.localtime((data / "saves" / "newer.save.json").stat().st_mtime))
            assert f"saved {saved_at}" in lines[1]
            text = screen_text(app)
            assert "Capital Jux" in text and "Guildhall" in text and "round" in text
            # Enter with nothing typed loads the newest save that can be read
            assert dlg.query_one(OptionList).highlighted == 1
            await pilot.press("enter")
            await settle(pilot, app, GameScreen)
            await pilot.pause()
            g = app.session.game
            assert g.seed == 9 and g.answers == newer.game.answers and g.rules.title == "Capital Jux"
            # l in the game (nothing unsaved: no question), down, then Enter: the older one
            assert not app.session.dirty
            await pilot.press("l")
            dlg = await settle(pilot, app, LoadScreen)
            await pilot.press("down", "enter")
            await settle(pilot, app, GameScreen)
            await pilot.pause()
            assert app.session.game.seed == 7 and app.session.game.answers == older.game.answers
    asyncio.run(main())


def test_broken_and_foreign_files_in_the_saves_folder_do_not_break_the_dialog(folders):
    data, _ = folders
    saves = data / "saves"
    saves.mkdir(parents=True)
    (saves / "garbage.json").write_bytes(os.urandom(300) + b"\xff\xfe")
    (saves / "empty.json").write_bytes(b"")
    (saves / "list.json").write_text("[1, 2, 3]")
    (saves / "deep.json").write_text("[" * 5000 + "]" * 5000)
    (saves / "foreign.json").write_text(json.dumps({"hello": "world"}))
    (saves / "folder.json").mkdir()
    if hasattr(os, "mkfifo"):
        os.mkfifo(saves / "fifo.json")  # never opened (reading it would block)
    os.symlink(saves / "loop.json", saves / "loop.json")
    # a real save whose summary someone edited into nonsense: listed from its record
    s = Session(load_ruleset("guildhall"), [SeatSpec("Ann"), SeatSpec("Bob", "random")], seed=2)
    play(s, 3)
    answers = len(s.game.answers)
    data_ = s.save_data()
    data_["tui"]["summary"] = {"title": ["x"], "tiles": [1, 2], "round": "soon", "over": "yes"}
    (saves / "edited.json").write_text(json.dumps(data_))
    assert len(list_saves()) == 6  # the files, not the folder, the FIFO or the link loop

    async def main():
        app = JuxApp(bot_delay=0)
        async with app.run_test(size=(100, 30)) as pilot:
            start = await settle(pilot, app, StartScreen)
            start.query_one("#load-button").press()  # "Load a game" on the start screen
            dlg = await settle(pilot, app, LoadScreen)
            await pilot.pause()
            lines = option_texts(dlg)
            assert len(lines) == 6
            bad = [x for x in lines if ": unreadable (" in x]
            assert len(bad) == 5 and all("\n" not in x for x in bad)
            edited = [x for x in lines if x not in bad]
            assert edited[0].startswith("guildhall") and "2 players" in edited[0] and f"{answers} answers" in edited[0]
            await pilot.press("escape")
            await settle(pilot, app, StartScreen)
            # the data folder is a file: the dialog opens, empty, and a path can still be typed
            (data.parent / "afile").write_text("x")
            os.environ["JUX_DATA_DIR"] = str(data.parent / "afile")
            start.query_one("#load-button").press()
            dlg = await settle(pilot, app, LoadScreen)
            await pilot.pause()
            assert "No saved games yet" in screen_text(app)
            dlg.query_one(Input).value = str(saves / "edited.json")
            await pilot.press("enter")
            await settle(pilot, app, GameScreen)
            assert app.session.game.seed == 2
    asyncio.run(main())


# ---------------------------------------------------------------- loading over unsaved moves


def test_loading_over_unsaved_moves_asks_first_and_cancel_keeps_the_game(folders):
    data, _ = folders
    _, newer = _make_saves(data)

    async def main():
        app = JuxApp(ruleset="capital_jux", seats=[("Ann", "human"), ("Robo", "random")], seed=5, bot_delay=0)
        async with app.run_test(size=(100, 30)) as pilot:
            gs = await settle(pilot, app, GameScreen)
            await answer(pilot, app)
            session, answers = app.session, list(app.session.game.answers)
            assert session.dirty
            await pilot.press("l")
            await settle(pilot, app, LoadScreen)
            await pilot.press("enter")
            await settle(pilot, app, ConfirmScreen)
            assert "not saved" in screen_text(app)
            await pilot.press("n")  # cancel: the game as it was
            await settle(pilot, app, GameScreen)
            await pilot.pause()
            assert app.screen is gs and app.session is session
            assert session.game.answers == answers and session.dirty
            assert gs.query_one(DecisionPanel).decision is not None
            # again, and this time load
            await pilot.press("l")
            await settle(pilot, app, LoadScreen)
            await pilot.press("enter")
            await settle(pilot, app, ConfirmScreen)
            await pilot.press("y")
            await settle(pilot, app, GameScreen)
            await pilot.pause()
            assert app.session.game.seed == 9 and app.session.game.answers == newer.game.answers
            # a game with nothing unsaved is left without a question
            loaded = app.session
            assert not loaded.dirty
            await pilot.press("l")
            await settle(pilot, app, LoadScreen)
            await pilot.press("down", "enter")
            await pilot.pause()
            assert not isinstance(app.screen, ConfirmScreen)
            await settle(pilot, app, GameScreen)
            assert app.session is not loaded and app.session.game.seed == 7
    asyncio.run(main())


# ---------------------------------------------------------------- the footer's undo


PLAIN_RULES = """\
game:
  name: undo_footer
  title: Undo footer
  players: {min: 2, max: 2}
cards:
  num:
    label: "card {value}"
    attributes:
      value: [1, 2]
zones:
  deck: {visible: none, start: [num]}
counters:
  total: {per: player, start: 0}
functions:
  score(p): total[p]
flow: |
  for r in [1, 2, 3] {
    for p in players {
      choose x from [1, 2] by p prompt "Add"
      total[p] += x
    }
  }
"""


def test_the_footer_offers_undo_only_when_undo_is_offered(folders, tmp_path):
    """A tiny ruleset with neither chance nor hidden cards after the start, so that undo works
    after any decision (Session.undo refuses across a shuffle or a card seen)."""
    rules = tmp_path / "undo_footer"
    rules.mkdir()
    (rules / "game.yaml").write_text(PLAIN_RULES)

    async def undo_shown(pilot, app) -> bool:
        await pilot.pause()
        keys = footer_keys(app.screen)
        shown = keys.get("u") == ("undo", True)
        footer = screen_text(app).rstrip().splitlines()[-1]
        assert shown == ("Undo" in footer), footer  # what the bindings say is what the footer draws
        return shown

    async def main():
        # one human against a bot: not before the first decision, then yes, and not after an undo
        app = JuxApp(ruleset=str(rules), seats=[("Ann", "human"), ("Robo", "random")], seed=5, bot_delay=0)
        async with app.run_test(size=(120, 30), notifications=True) as pilot:
            await settle(pilot, app, GameScreen)
            assert not await undo_shown(pilot, app)
            await pilot.press("u")  # not shown, but the key says why
            await pilot.pause()
            assert "Nothing to undo" in notes(app)
            await answer(pilot, app)
            assert app.session.undo_refusal() is None
            assert await undo_shown(pilot, app)
            await pilot.press("u")
            await pilot.pause()
            assert "taken back" in notes(app) and not app.session.game.answers
            assert not await undo_shown(pilot, app)
            # undo refused (a card seen since): not shown either
            app.exit()
        app = JuxApp(ruleset="capital_jux", seats=[("Ann", "human"), ("Robo", "random")], seed=5, bot_delay=0)
        async with app.run_test(size=(120, 30), notifications=True) as pilot:
            await settle(pilot, app, GameScreen)
            await answer(pilot, app)  # the draft passes hands: Ann sees new cards
            assert "seen a hidden card" in app.session.undo_refusal()
            assert not await undo_shown(pilot, app)
        # two humans at one keyboard (hot seat): never
        app = JuxApp(ruleset="capital_jux", seats=[("Ann", "human"), ("Bob", "human")], seed=3, bot_delay=0)
        async with app.run_test(size=(120, 30), notifications=True) as pilot:
            await settle(pilot, app, PassScreen)
            await pilot.press("enter")
            await settle(pilot, app, GameScreen)
            assert not await undo_shown(pilot, app)
            await answer(pilot, app)
            await settle(pilot, app, PassScreen)
            await pilot.press("enter")
            await settle(pilot, app, GameScreen)
            assert not await undo_shown(pilot, app)
            answers = list(app.session.game.answers)
            await pilot.press("u")
            await pilot.pause()
            assert "not offered" in notes(app) and app.session.game.answers == answers
        # bots only: never
        app = JuxApp(ruleset="capital_jux", seats=[("R1", "random"), ("R2", "random")], seed=3, bot_delay=30)
        async with app.run_test(size=(120, 30)) as pilot:
            await settle(pilot, app, GameScreen)
            assert not await undo_shown(pilot, app)
    asyncio.run(main())
