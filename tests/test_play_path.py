"""`jux play PATH` and the start screen's rulesets (issue 25): a ruleset named by path is the one
played (not the built-in ruleset of the same game name); the start screen offers it, jux's own
rulesets and those in the user's rules folder ($JUX_DATA_DIR/rules), a broken one listed as broken
with its first error; the tile choice speaks the ruleset's words; a save of a ruleset from the
user's folder loads again."""
import asyncio
import shutil
import sys
from pathlib import Path

import pytest

pytest.importorskip("textual")

from jux.interpreter.paths import RULES_DIR  # noqa: E402
from jux.tui.app import JuxApp  # noqa: E402
from jux.tui.rulesets import BUILT_IN, NAMED, USER, check, offered, source_of  # noqa: E402
from jux.tui.screens.game import GameScreen  # noqa: E402
from jux.tui.screens.start import StartScreen  # noqa: E402
from jux.tui.session import Session  # noqa: E402
from jux.tui.widgets.choice import Choice  # noqa: E402
from tui_helpers import screen_text, settle  # noqa: E402


def copy_ruleset(name, where: Path, title=None) -> Path:
    """rules/NAME copied to `where`, its title changed (so that a game of it is told apart)."""
    shutil.copytree(RULES_DIR / name, where)
    if title:
        game = where / "game.yaml"
        text = game.read_text()
        old = {"guildhall": "title: Guildhall", "capital_jux": "title: Capital Jux"}[name]
        assert old in text
        game.write_text(text.replace(old, f"title: {title}", 1))
    return where


@pytest.fixture
def data(tmp_path, monkeypatch):
    """$JUX_DATA_DIR with a rules folder holding a good ruleset (mine) and a broken one (bad)."""
    folder = tmp_path / "data"
    rules = folder / "rules"
    rules.mkdir(parents=True)
    copy_ruleset("guildhall", rules / "mine", title="My Own Hall")
    (rules / "bad").mkdir()
    (rules / "bad" / "game.yaml").write_text("game:\n  name: bad\n  title: [\n")
    (rules / ".hidden").mkdir()
    (rules / ".hidden" / "game.yaml").write_text("game: {}\n")
    monkeypatch.setenv("JUX_DATA_DIR", str(folder))
    return folder


def test_offered_lists_the_named_then_the_built_in_then_the_users_rulesets(data, tmp_path):
    named = copy_ruleset("guildhall", tmp_path / "elsewhere" / "hall", title="Hall Elsewhere")
    entries, note = offered([str(named / "game.yaml"), "capital_jux"])
    assert note is None
    got = [(e.name, e.where) for e in entries]
    built_in = sorted(d.name for d in RULES_DIR.iterdir() if (d / "game.yaml").is_file())
    assert got == [("hall", NAMED)] + [(n, BUILT_IN) for n in built_in] + [("bad", USER), ("mine", USER)]
    assert entries[0].source == str((named / "game.yaml").absolute())
    bad = check(entries[-2])
    assert bad.error.startswith("game.yaml:4:1: YAML syntax error"), bad.error  # (the folder's own path)
    assert bad.label.startswith("bad (broken: game.yaml:4:1:")
    assert check(entries[-1]).error is None and entries[-1].label == "mine"


def test_an_unreadable_rules_folder_is_a_note_not_a_crash(tmp_path, monkeypatch):
    monkeypatch.setenv("JUX_DATA_DIR", str(tmp_path))
    (tmp_path / "rules").write_text("a file where the folder should be")
    entries, note = offered()
    assert [e.where for e in entries] == [BUILT_IN] * len(entries) and entries
    assert note and note.startswith("your rules folder cannot be read")


def test_jux_play_path_hands_the_path_to_the_terminal_ui(tmp_path, monkeypatch):
    """The command passes the ruleset's path, not its game's name (which is a built-in one's)."""
    import jux.tui
    from jux.interpreter.cli.main import main

    mine = copy_ruleset("capital_jux", tmp_path / "mine", title="My Capital")
    got = []
    monkeypatch.setattr(jux.tui, "run", lambda **kw: got.append(kw) or 0)  # (run gives the exit status)
    monkeypatch.setattr(sys.stdin, "isatty", lambda: True, raising=False)
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True, raising=False)
    monkeypatch.chdir(tmp_path)
    assert main(["play", "mine"]) == 0
    assert main(["play", "mine/game.yaml", "--tiles", "mentalist"]) == 0
    assert main(["play", "capital_jux"]) == 0
    assert got[0]["ruleset"] == str(mine.absolute())
    assert got[1]["ruleset"] == str((mine / "game.yaml").absolute()) and "mentalist" in got[1]["tiles"]
    assert got[2]["ruleset"] == "capital_jux"


def test_jux_play_path_prints_a_game_of_that_ruleset(tmp_path, run):
    mine = copy_ruleset("guildhall", tmp_path / "mine", title="My Own Hall")
    r = run("play", mine, "--print", "--seed", 3)
    assert r.returncode == 0, r.stderr
    assert "My Own Hall" in r.stdout


async def _loaded(pilot, start):
    for _ in range(400):  # the ruleset loads in a thread after the screen is drawn
        if start.rules is not None:
            return start.rules
        await pilot.pause(0.02)
    raise AssertionError(f"not loaded: {start.query_one('#start-error').render()}")


def test_the_start_screen_plays_the_ruleset_named_by_path(data, tmp_path):
    named = copy_ruleset("guildhall", tmp_path / "hall", title="Hall Elsewhere")

    async def main():
        app = JuxApp(ruleset=str(named), bot_delay=0)
        async with app.run_test(size=(80, 24)) as pilot:
            start = await settle(pilot, app, StartScreen)
            rules = await _loaded(pilot, start)
            assert rules.title == "Hall Elsewhere" and source_of(rules) == str(named)
            await pilot.pause()
            info = str(start.query_one("#ruleset-info").render())
            assert info.splitlines() == ["Hall Elsewhere: 2 to 4 players", f"from {named}"], info
            assert "hall" in screen_text(app)
            choice = start.query_one("#ruleset", Choice)
            for _ in range(400):  # the user's rulesets are checked in a thread once the first loaded
                labels = [label for label, _ in choice.options]
                if any(label.startswith("bad (broken: game.yaml:4:1") for label in labels):
                    break
                await pilot.pause(0.02)
            assert labels[0] == "hall" and "mine" in labels and "capital_jux" in labels, labels
            assert not any(".hidden" in label for label in labels)
            choice.value = str(data / "rules" / "bad")  # a broken one: its errors, no crash
            for _ in range(200):
                await pilot.pause(0.02)
                if "does not load" in screen_text(app):
                    break
            text = screen_text(app)
            assert "bad does not load:" in text and "YAML syntax error" in text
            assert start.query_one("#start-button").disabled
            choice.value = str(data / "rules" / "mine")
            rules = await _loaded(pilot, start)
            assert rules.title == "My Own Hall"
            await pilot.pause()
            info = str(start.query_one("#ruleset-info").render())
            assert f"from your rules folder: {data / 'rules' / 'mine'}" in info, info
            await pilot.press("ctrl+s")
            await settle(pilot, app, GameScreen)
            assert app.session.rules.title == "My Own Hall"
            saved = app.session.save(tmp_path / "mine.save.json")
        # the save names the ruleset's game (guildhall); it comes back from the user's folder
        again = Session.load(saved)
        assert again.rules.title == "My Own Hall"
    asyncio.run(main())


def test_the_tile_choice_uses_the_rulesets_word_for_its_keys(data):
    async def main():
        app = JuxApp(ruleset="capital_jux", tiles="mentalist", bot_delay=0)
        async with app.run_test(size=(80, 24)) as pilot:
            start = await settle(pilot, app, StartScreen)
            await _loaded(pilot, start)
            mode = start.query_one("#tiles-mode", Choice)
            labels = [label for label, _ in mode.options]
            assert labels[:2] == ["none (base game)", "by hand: one per colour"]
            assert labels[-1] == "random: one per colour"
            assert not any("key" in label for label in labels)
            assert "by hand: one per colour" in screen_text(app)
    asyncio.run(main())


def test_a_game_from_a_path_starts_again_from_that_path(data, tmp_path):
    """`n` after a game of rules named by path: the start screen shows those rules, not the built-in."""
    named = copy_ruleset("guildhall", tmp_path / "hall", title="Hall Elsewhere")

    async def main():
        app = JuxApp(ruleset=str(named), seats=[("Ann", "human"), ("Bot", "random")], seed=1, bot_delay=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot, app, GameScreen)
            assert app.session.rules.title == "Hall Elsewhere"
            app.new_game()
            start = await settle(pilot, app, StartScreen)
            rules = await _loaded(pilot, start)
            assert rules.title == "Hall Elsewhere" and start.ruleset == str(named)
    asyncio.run(main())


def test_a_tile_named_by_its_path_shows_with_the_others_in_use(tmp_path):
    """The table's caption, the help and a save's summary list a tile file named by path (an
    author's own) as they list jux's own tiles."""
    from jux.interpreter.engine.ruleset import load_ruleset

    tile = Path(__file__).resolve().parent.parent / "docs" / "examples" / "banker.yaml"
    rules = load_ruleset("capital_jux", [str(tile)])

    async def main():
        app = JuxApp(bot_delay=0, session=Session(rules, [("Ann", "human"), ("Robo", "random")], seed=3))
        async with app.run_test(size=(100, 30)) as pilot:
            gs = await settle(pilot, app, GameScreen)
            caption = str(gs.query_one("#table-scroll").border_subtitle)
            assert caption.startswith("tiles: ") and "Banker" in caption, caption
            await pilot.press("question_mark")
            from jux.tui.screens.help import HelpScreen

            await settle(pilot, app, HelpScreen)
            text = " ".join(app.screen.query_one("#help-text").render().plain.split())
            assert "Played with" in text and "Banker (nobles, tile X)" in text, text[-600:]
            # the keys the game screen offers now: no invitation codes at a table at one keyboard
            assert "s save" in text and "q quit" in text and "invitation" not in text.lower(), text
            assert "Banker" in app.session.summary()["tiles"]
    asyncio.run(main())
