"""The table draws a family of zones made during play (`per: made`) as the zones made now, titled,
one line each, and nothing while none is made: docs/games/melds, in a terminal of 80 columns."""
import asyncio
from pathlib import Path

import pytest

pytest.importorskip("textual")

from jux import Game, load_ruleset  # noqa: E402
from jux.tui.app import JuxApp  # noqa: E402
from jux.tui.screens.game import GameScreen  # noqa: E402
from jux.tui.widgets.table import TableView, render_table  # noqa: E402
from tui_helpers import settle  # noqa: E402

EXAMPLE = Path(__file__).resolve().parent.parent / "docs" / "games" / "melds"


def test_the_table_shows_each_meld_made_on_its_own_line_and_none_before():
    rules = load_ruleset(EXAMPLE)
    g = Game.scenario(rules, 2, zones={"meld[1]": ["4♠", "4♥", "4♦"], "meld[3]": ["6♠", "6♥", "6♦", "6♣"],
                                       "hand[0]": ["1♠", "4♣"], "deck": ["2♠"]},
                      rest="out", names=["Ann", "Bob"], run="turn", args=[0])
    lines = render_table(g.view(1), rules.spec, you=1, width=80).plain.splitlines()
    at = lines.index("Melds")
    assert lines[at + 1:at + 3] == ["  1: 4♠, 4♥, 4♦", "  3: 6♠, 6♥, 6♦, 6♣"], lines
    assert not any(line.strip().startswith("2:") for line in lines)
    none = Game.scenario(rules, 2, zones={"hand[0]": ["1♠", "1♥", "1♦"], "deck": ["2♠"]}, rest="out",
                         run="turn", args=[0])
    assert none.made("meld") == [] and "Melds" not in render_table(none.view(0), rules.spec, you=0, width=80).plain


def test_a_meld_laid_down_by_keys_shows_at_the_table_in_80_columns():
    async def main():
        app = JuxApp(ruleset=str(EXAMPLE), seats=[("Ann", "human"), ("Bo", "random")], seed=0, bot_delay=0)
        async with app.run_test(size=(80, 30)) as pilot:
            gs = await settle(pilot, app, GameScreen)
            await pilot.pause()
            g = app.session.game
            assert g.pending[0].player == 0 and g.pending[0].prompt.startswith("Lay down"), g.pending
            table = gs.query_one(TableView).text
            assert "Melds" not in table, table
            await pilot.press("home", "enter")  # lay down the 2s
            for _ in range(20):
                await pilot.pause()
                if g.made("meld"):
                    break
            assert g.made("meld") == [1]
            await pilot.pause()
            table = gs.query_one(TableView).text
            meld = ", ".join(f"{c} (Ann)" for c in g.zone("meld[1]"))  # (played_by: who laid it)
            assert "Melds" in table and f"  1: {meld}" in table, table
            assert all(len(line) <= 80 for line in table.splitlines())
    asyncio.run(main())
