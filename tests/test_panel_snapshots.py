"""Snapshots at 80x24 of decisions with more lines than the panel has rows, one per game (issue 25):
Capital Jux with the dualist (a long prompt with what cannot be chosen, and 8 options that wrap),
Guildhall's setup (discard any of 9 cards, then confirm: now it fits) and a pick of one of 15 cards
or more, Bruges (a card's actions, one of them
recruiting a person with a long benefit text). Positions from panel_positions.py, loaded as saves.
After a deliberate change of the look: `pytest tests/test_panel_snapshots.py --snapshot-update`,
then check the new SVGs under tests/__snapshots__/test_panel_snapshots/."""
from __future__ import annotations

import pytest

pytest.importorskip("textual")

import panel_positions as positions  # noqa: E402
from jux.tui.app import JuxApp  # noqa: E402
from jux.tui.widgets.decision import DecisionPanel  # noqa: E402
from test_decision_panel import ready as shown  # noqa: E402


@pytest.fixture(autouse=True)
def _data_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("JUX_DATA_DIR", str(tmp_path / "data"))


async def ready(pilot):
    """The decision on screen, the toast that says the save was loaded gone."""
    await shown(pilot)
    pilot.app.clear_notifications()
    await pilot.pause()


def test_snapshot_capital_jux_dualist_turn(snap_compare, tmp_path):
    path = positions.save_at(tmp_path, "capital_jux", ("dualist",), 3, positions.dualist_turn)
    assert snap_compare(JuxApp(load=str(path), bot_delay=0), terminal_size=(80, 24), run_before=ready)


def test_snapshot_guildhall_setup_pick(snap_compare, tmp_path):
    async def last_card(pilot):
        await ready(pilot)
        await pilot.press("end", "up", "space")  # the last card chosen: the confirm line in sight
        await pilot.pause()

    path = positions.save_at(tmp_path, "guildhall", (), 2, positions.guildhall_setup)
    assert snap_compare(JuxApp(load=str(path), bot_delay=0), terminal_size=(80, 24), run_before=last_card)


def test_snapshot_guildhall_long_pick(snap_compare, tmp_path):
    """A card of another player's guildhall to discard: more than the panel has rows for."""
    async def down(pilot):
        await ready(pilot)
        await pilot.press(*["down"] * 14)
        await pilot.pause()

    path = positions.save_at(tmp_path, "guildhall", (), 2, positions.guildhall_long)
    assert snap_compare(JuxApp(load=str(path), bot_delay=0), terminal_size=(80, 24), run_before=down)


def test_snapshot_bruges_recruit(snap_compare, tmp_path):
    """The card whose options have the longest text, opened, its last option highlighted."""
    async def longest(pilot):
        await ready(pilot)
        panel = pilot.app.screen.query_one(DecisionPanel)
        d = panel.decision
        k = max(range(len(panel.rows)), key=lambda k: max(len(d.options[m].label) for m in panel.rows[k].members))
        await pilot.press(str(k + 1), "end", "up")
        await pilot.pause()

    path = positions.save_at(tmp_path, "bruges", (), 3, positions.bruges_recruit)
    assert snap_compare(JuxApp(load=str(path), bot_delay=0), terminal_size=(80, 24), run_before=longest)
