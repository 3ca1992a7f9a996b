"""Snapshots at 80x24 of every table the rules show at a round's end (opened over the game with r)
and of the final screen (final scores with labelled tie-break values, the winner, the last table):
Capital Jux (base, with the sentinel tile, with the outsider tile), Bruges, Guildhall; a few at
120x40. Fixed positions reached by fixed pseudo-random answers (no bot involved), loaded as saves."""
from __future__ import annotations

import json
import random

import pytest

from jux.interpreter.engine.game import Game
from jux.interpreter.errors import IllegalAnswer
from jux.interpreter.engine.ruleset import load_ruleset
from jux.tui.app import JuxApp
from jux.tui.screens.game import GameScreen
from jux.tui.screens.gameover import GameOverScreen
from jux.tui.screens.tables import TableScreen
from jux.tui.widgets.decision import DecisionPanel
from test_tui import _until

CAPITAL = [("capital_jux", ()), ("capital_jux", ("sentinel",)), ("capital_jux", ("outsider",))]


def ids(case) -> str:
    return "+".join([case[0], *case[1]])


@pytest.fixture(autouse=True)
def _data_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("JUX_DATA_DIR", str(tmp_path / "data"))


def save_file(tmp_path, name, tiles, tables=None, players=4):
    """A save of `name` (seed 5, Ann at the keyboard, bots in the other seats) once seat 0 may
    read `tables` tables and decides alone; None: at the game's end."""
    rng = random.Random(7)
    g = Game.new(load_ruleset(name, tiles), players, 5, names=["Ann", "Bob", "Cy", "Di"][:players])
    while not g.over and (tables is None or len(g.tables(0)) < tables or any(d.player != 0 for d in g.pending)):
        d = g.pending[0]
        n = len(d.values)
        try:
            g.apply(sorted(rng.sample(range(n), d.min or 1)) if d.many else rng.randrange(n), decision=d.id)
        except IllegalAnswer:  # two alike options: pick again
            pass
    assert tables is None or len(g.tables(0)) == tables
    data = g.save()
    data["tui"] = {"seats": ["human"] + ["random"] * (players - 1)}
    path = tmp_path / f"{name}.json"
    path.write_text(json.dumps(data))
    return path


async def _last_table(pilot):
    await _until(pilot, lambda: isinstance(pilot.app.screen, GameScreen)
                 and pilot.app.screen.query_one(DecisionPanel).decision is not None)
    await pilot.press("r")
    await _until(pilot, lambda: isinstance(pilot.app.screen, TableScreen))


async def _game_over(pilot):
    await _until(pilot, lambda: isinstance(pilot.app.screen, GameOverScreen))


async def _game_over_end(pilot):
    await _game_over(pilot)
    await pilot.press("end")
    await pilot.pause()


@pytest.mark.parametrize("round_", [1, 2])
@pytest.mark.parametrize("name, tiles", CAPITAL, ids=map(ids, CAPITAL))
def test_snapshot_round_end_table(snap_compare, tmp_path, name, tiles, round_):
    path = save_file(tmp_path, name, tiles, tables=round_)
    assert snap_compare(JuxApp(load=str(path), bot_delay=0), terminal_size=(80, 24), run_before=_last_table)


@pytest.mark.parametrize("name, tiles", CAPITAL + [("bruges", ()), ("guildhall", ())],
                         ids=map(ids, CAPITAL + [("bruges", ()), ("guildhall", ())]))
def test_snapshot_final_screen(snap_compare, tmp_path, name, tiles):
    path = save_file(tmp_path, name, tiles)
    assert snap_compare(JuxApp(load=str(path), bot_delay=0), terminal_size=(80, 24), run_before=_game_over)


@pytest.mark.parametrize("name, tiles", [("capital_jux", ("outsider",)), ("bruges", ())],
                         ids=["capital_jux+outsider", "bruges"])
def test_snapshot_final_screen_scrolled_to_the_last_table(snap_compare, tmp_path, name, tiles):
    path = save_file(tmp_path, name, tiles)
    assert snap_compare(JuxApp(load=str(path), bot_delay=0), terminal_size=(80, 24), run_before=_game_over_end)


def test_snapshot_final_screen_of_bruges_at_120x40(snap_compare, tmp_path):
    path = save_file(tmp_path, "bruges", ())
    assert snap_compare(JuxApp(load=str(path), bot_delay=0), terminal_size=(120, 40), run_before=_game_over)


def test_snapshot_round_end_table_with_the_outsider_at_120x40(snap_compare, tmp_path):
    path = save_file(tmp_path, "capital_jux", ("outsider",), tables=2)
    assert snap_compare(JuxApp(load=str(path), bot_delay=0), terminal_size=(120, 40), run_before=_last_table)
