"""Snapshots of the table a player sees mid-game, for every game (Capital Jux with tiles,
Guildhall, Bruges), at 80x24 and 120x40, and of the help: fixed positions reached by fixed
pseudo-random answers (no bot involved), loaded as saves."""
from __future__ import annotations

import json
import random

import pytest

from jux.interpreter.engine.game import Game
from jux.interpreter.engine.ruleset import load_ruleset
from test_tui import _until
from jux.tui.app import JuxApp
from jux.tui.screens.game import GameScreen
from jux.tui.screens.help import HelpScreen
from jux.tui.widgets.decision import DecisionPanel

GAMES = [("capital_jux", ("infiltrator", "doomsayer", "aristocrat", "convertor"), 3, 30),
         ("guildhall", (), 2, 40), ("bruges", (), 3, 80)]


@pytest.fixture(autouse=True)
def _data_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("JUX_DATA_DIR", str(tmp_path / "data"))


def save_file(tmp_path, name, tiles, players, answers):
    """A save of `name` with seat 0 (human) deciding after about `answers` answers."""
    rng = random.Random(7)
    g = Game.new(load_ruleset(name, tiles), players, 5, names=["Ann", "Bob", "Cy", "Di"][:players])
    while not g.over and (len(g.answers) < answers or any(d.player != 0 for d in g.pending)):
        d = g.pending[0]
        n = len(d.values)
        g.apply(sorted(rng.sample(range(n), d.min or 1)) if d.many else rng.randrange(n), decision=d.id)
    data = g.save()
    data["tui"] = {"seats": ["human"] + ["random"] * (players - 1)}
    path = tmp_path / f"{name}.json"
    path.write_text(json.dumps(data))
    return path


async def _deciding(pilot):
    await _until(pilot, lambda: isinstance(pilot.app.screen, GameScreen)
                 and pilot.app.screen.query_one(DecisionPanel).decision is not None)


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
@pytest.mark.parametrize("name, tiles, players, answers", GAMES)
def test_snapshot_table_of_every_game(snap_compare, tmp_path, name, tiles, players, answers, size):
    path = save_file(tmp_path, name, tiles, players, answers)
    assert snap_compare(JuxApp(load=str(path), bot_delay=0), terminal_size=size, run_before=_deciding)


def test_snapshot_help_of_capital_jux(snap_compare, tmp_path):
    async def ready(pilot):
        await _deciding(pilot)
        await pilot.press("question_mark")
        await _until(pilot, lambda: isinstance(pilot.app.screen, HelpScreen))

    path = save_file(tmp_path, "capital_jux", (), 2, 12)
    assert snap_compare(JuxApp(load=str(path), bot_delay=0), terminal_size=(80, 24), run_before=ready)
