"""When the rules' code fails while a game is played in the terminal UI (a rule error at run time,
a loop that never stops), the UI says where, in one line, and never crashes: a human's failing
answer is taken back (the player chooses again); a bot's stops the game, which can still be
saved as it was before that answer; jux then ends with that line and exit status 1."""
import asyncio
import os
import pty
import re
import select
import subprocess
import sys
import time

from jux.interpreter.engine.ruleset import load_ruleset
from jux.tui.app import JuxApp
from jux.tui.screens.game import GameScreen
from jux.tui.session import Session
from jux.tui.widgets.decision import DecisionPanel

from tui_helpers import notes, screen_text, settle

# Seat 1 answers from [1, 2], seat 2 from SECOND; the answer 2 reads past the end of a list.
RULES = """\
game:
  name: fails
  title: Fails on two
  players: {min: 2, max: 2}
cards:
  num:
    label: "card {value}"
    attributes:
      value: [1, 2, 3]
zones:
  deck: {visible: none, start: [num]}
counters:
  total: {per: player, start: 0}
functions:
  score(p): total[p]
flow: |
  PRELUDE
  for r in [1, 2, 3] {
    for p in players {
      choose x from (if p == players[0] then [1, 2] else SECOND) by p prompt "Add one or two"
      total[p] += [1][x - 1]
      log "{p} adds {x}."
    }
  }
"""
WHERE = "game.yaml:21:7: no such item: a position past the end of the list"


def ruleset(tmp_path, second="[1]", prelude="") -> str:
    folder = tmp_path / "fails"
    folder.mkdir()
    (folder / "game.yaml").write_text(RULES.replace("SECOND", second).replace("PRELUDE", prelude))
    return str(folder)


def test_a_humans_answer_the_rules_fail_on_is_taken_back_and_said(tmp_path):
    rules = load_ruleset(ruleset(tmp_path))

    async def main():
        app = JuxApp(bot_delay=0, session=Session(rules, [("Ann", "human"), ("Bot", "random")], seed=1))
        async with app.run_test(size=(80, 24), notifications=True) as pilot:
            screen = await settle(pilot, app, GameScreen)
            await pilot.pause()
            assert app.session.game.answers == []
            await pilot.press("2")
            await pilot.pause()
            said = notes(app)
            assert "The rules failed on Ann's answer:" in said and WHERE in said, said
            assert "back to before that answer: choose again" in said
            assert app.failure and WHERE in app.failure and "choose again" not in app.failure
            assert app.screen is screen and not screen.failed
            assert app.session.game.answers == []  # taken back
            panel = screen.query_one(DecisionPanel)
            assert panel.decision is not None and panel.decision.player == 0
            assert "Add one or two" in screen_text(app)
            await pilot.press("1")  # another answer: the game goes on, the bot answers after it
            for _ in range(50):
                await pilot.pause()
                if len(app.session.game.answers) == 2:
                    break
            assert app.session.game.answers == [[0, 0], [1, 0]]
            assert "Ann adds 1." in "\n".join(app.session.log_lines(0))
    asyncio.run(main())


def test_a_bots_answer_the_rules_fail_on_stops_the_game_which_can_be_saved(tmp_path):
    rules = load_ruleset(ruleset(tmp_path, second="[2]"))

    async def main():
        app = JuxApp(bot_delay=0, session=Session(rules, [("Ann", "human"), ("Bot", "random")], seed=1))
        async with app.run_test(size=(80, 24), notifications=True) as pilot:
            screen = await settle(pilot, app, GameScreen)
            await pilot.pause()
            await pilot.press("1")  # Ann's answer is good; the bot's (2, its only option) fails
            for _ in range(50):
                await pilot.pause()
                if screen.failed:
                    break
            assert screen.failed
            text = screen_text(app)
            assert "The rules failed on Bot's" in text and "The game cannot go on" in text, text
            assert app.failure.startswith("the rules failed on Bot's answer:") and WHERE in app.failure
            assert app.session.game.answers == [[0, 0]]  # back to before the bot's answer
            assert not screen.check_action("undo", ())
            await pilot.press("u")  # undo is refused, and says why
            await pilot.pause()
            assert "the rules failed on a bot's answer" in notes(app)
            saved = app.session.save(tmp_path / "stopped.save.json")
        again = Session.load(saved, paths=[str(tmp_path / "fails")])
        assert again.game.answers == [[0, 0]]
    asyncio.run(main())


def _jux_in_a_terminal(*args, timeout=60.0):
    """Run jux in a pseudo-terminal until it ends: (exit status, everything it wrote)."""
    main, side = pty.openpty()
    env = dict(os.environ, TERM="xterm-256color", COLUMNS="80", LINES="24")
    proc = subprocess.Popen([sys.executable, "-m", "jux", *args], stdin=side, stdout=side, stderr=side,
                            env=env, close_fds=True)
    os.close(side)
    out = b""
    end = time.monotonic() + timeout
    try:
        while time.monotonic() < end:
            ready, _, _ = select.select([main], [], [], 0.2)
            if ready:
                try:
                    chunk = os.read(main, 65536)
                except OSError:  # (the terminal's other side closed: jux ended)
                    break
                if not chunk:
                    break
                out += chunk
            elif proc.poll() is not None:
                break
        return proc.wait(timeout=10), out.decode(errors="replace")
    finally:
        if proc.poll() is None:
            proc.kill()
        os.close(main)


def test_rules_that_fail_before_the_first_decision_end_jux_with_one_line(tmp_path):
    folder = ruleset(tmp_path, prelude="total[players[0]] += [1][3]")
    code, out = _jux_in_a_terminal("play", folder, "--players", "2", "--seat", "human", "--seat", "random")
    assert code == 1, out[-2000:]
    text = re.sub(r"\x1b(\[[0-9;?<>=$]*[a-zA-Z~]|\][^\x07\x1b]*(\x07|\x1b\\))", "", out)  # (the screen's own codes)
    last = [line for line in text.replace("\r", "").splitlines() if line.strip()][-1]
    assert last.startswith("jux: ") and "fails/game.yaml:17:3: no such item" in last, out[-2000:]
    assert "Traceback" not in out
