"""A key storm: no key sequence, however fast, ends in a traceback.

Pilot drives every screen of the terminal UI (the start screen, a game against bots, a table at one
keyboard for two, the dialogs, the card reader, the help, the rules' tables, the game over screen,
hosting and joining a server's table) with thousands of random keys from fixed seeds: letters,
digits, Enter, Escape, Tab, arrows, PageUp/Down, Home/End, ctrl keys. Keys are sent in bursts
straight to the driver, as a terminal delivers keys typed faster than the app answers them. Any
exception the app raises fails the test, with the seed and the last keys sent. When a key ends the
app (q then y, ctrl+q, Escape on the start screen), the same start is opened again until the
storm's keys are spent.
"""
import asyncio
import random
import string

import pytest
from textual import events

from jux.tui.app import JuxApp
from jux.tui.session import Session

KEYS = (list(string.ascii_lowercase) + list(string.digits) + list("?+- ")
        + ["enter"] * 6 + ["escape"] * 3 + ["tab", "shift+tab"] * 2
        + ["up", "down", "left", "right"] * 2 + ["pageup", "pagedown", "home", "end", "backspace", "f1"]
        + [f"ctrl+{c}" for c in "abdefghijklnoprstuvwxy"])
# Keys that end the app (after a question or not): rarer, so a storm spends most keys on a screen.
RARE = {"ctrl+q": 0.02, "q": 0.15, "escape": 0.3}


def _key(rng: random.Random) -> str:
    while True:
        k = rng.choice(KEYS)
        if rng.random() < RARE.get(k, 1.0):
            return k


def _event(key: str) -> events.Key:
    char = key if len(key) == 1 else None
    names = {"?": "question_mark", "+": "plus", "-": "minus", " ": "space"}
    return events.Key(names.get(key, key), char)


async def _storm(app: JuxApp, rng: random.Random, keys: int, first=()) -> int:
    """Send keys to app in bursts until they are spent or the app ends; the keys sent."""
    sent = 0
    last: list = []
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        for _ in range(20):  # the first screen up
            await pilot.pause()
        for k in first:
            await pilot.press(k)
        while sent < keys and not app.leaving:
            burst = [_key(rng) for _ in range(rng.randint(1, 12))]
            for k in burst:
                event = _event(k)
                event.set_sender(app)
                app._driver.send_message(event)
            last = (last + burst)[-40:]
            sent += len(burst)
            await pilot.pause()
            if app._exception is not None:
                raise AssertionError(f"keys {last} raised {app._exception!r}") from app._exception
    return sent


GAMES = ["capital_jux", "guildhall", "bruges"]


def _finished(ruleset: str, seed: int) -> Session:
    """A game played to its end by bots, then shown with a human in seat 1."""
    from jux.interpreter.engine.ruleset import load_ruleset

    rules = load_ruleset(ruleset)
    s = Session(rules, [("Bot", "random"), ("Ann", "random")], seed)
    while not s.over:
        s.play_bot(s.bot_decision())
    s.seats[0].kind = "human"
    return Session(rules, s.seats, game=s.game)


STARTS = {
    # name: (how the app opens, the keys that bring the screen up first)
    "start screen": (lambda g: JuxApp(), ()),
    "game against bots": (lambda g: JuxApp(ruleset=g, seats=[("Ann", "human"), ("B", "random"), ("C", "greedy")],
                                          seed=5, bot_delay=0), ()),
    "bots with a delay": (lambda g: JuxApp(ruleset=g, seats=[("Ann", "human"), ("B", "random")], seed=6,
                                          bot_delay=0.01), ()),
    "two at one keyboard": (lambda g: JuxApp(ruleset=g, seats=[("Ann", "human"), ("Bob", "human")], seed=7,
                                            bot_delay=0), ()),
    "save dialog": (lambda g: JuxApp(ruleset=g, seats=[("Ann", "human"), ("B", "random")], seed=8, bot_delay=0),
                    ("s",)),
    "load dialog": (lambda g: JuxApp(ruleset=g, seats=[("Ann", "human"), ("B", "random")], seed=9, bot_delay=0),
                    ("l",)),
    "quit question": (lambda g: JuxApp(ruleset=g, seats=[("Ann", "human"), ("B", "random")], seed=10, bot_delay=0),
                      ("1", "enter", "q")),
    "card reader": (lambda g: JuxApp(ruleset=g, seats=[("Ann", "human"), ("B", "random")], seed=11, bot_delay=0),
                    ("c",)),
    "help": (lambda g: JuxApp(ruleset=g, seats=[("Ann", "human"), ("B", "random")], seed=12, bot_delay=0),
             ("question_mark",)),
    "game over": (lambda g: JuxApp(session=_finished(g, 13), bot_delay=0), ()),
}


@pytest.fixture
def quiet_home(tmp_path, monkeypatch):
    """Saves, screenshots and the data folder go to a temporary folder."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("JUX_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("HOME", str(tmp_path))
    return tmp_path


KEYS_PER_START = 250


@pytest.mark.parametrize("start", list(STARTS))
def test_a_storm_of_keys_never_ends_in_a_traceback(start, quiet_home):
    """Each start in one of the three games (in turn), 250 keys: 2,750 keys in all, with the server's."""
    make, first = STARTS[start]
    game = GAMES[list(STARTS).index(start) % len(GAMES)]
    rng = random.Random(f"{start}/{game}")
    spent = opened = 0

    async def main():
        nonlocal spent, opened
        while spent < KEYS_PER_START:  # opened again when a key ended it
            spent += await _storm(make(game), rng, KEYS_PER_START - spent, first)
            opened += 1

    asyncio.run(main())
    assert spent >= KEYS_PER_START and opened >= 1


def test_a_storm_of_keys_while_hosting_joining_and_playing_at_a_server(quiet_home):
    """The start screen of `jux play --server URL` (hosting with ctrl+s, the codes screen, a game
    at a server's table, leaving it; joining with a code typed): a real server on loopback."""
    from server_helpers import running_server

    rng = random.Random("server")
    spent = opened = 0

    async def main():
        nonlocal spent, opened
        async with running_server(quiet_home / "server") as (url, _server, _store):
            firsts = [("ctrl+s",), ("ctrl+s", "enter"), ()]
            while spent < KEYS_PER_START:  # opened again when a key ended it
                app = JuxApp(server=url, bot_delay=0)
                spent += await _storm(app, rng, KEYS_PER_START - spent, firsts[opened % len(firsts)])
                opened += 1
                session = app.session
                if session is not None and hasattr(session, "close"):
                    await session.close()

    asyncio.run(main())
    assert spent >= KEYS_PER_START and opened >= 1
