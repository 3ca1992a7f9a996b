"""The terminal UI keeps secret numbers and lines for some seats (issue 27): a game of
docs/examples/secret_bids with a human seat (Ann) and two bots, played by keys. Ann's table shows
her chips and "?" for the others' and for the sizes she may not see; her log holds her own look
at the deck and the others' lines about theirs, never what they saw."""
import asyncio
from pathlib import Path

import pytest

pytest.importorskip("textual")

from jux.tui.app import JuxApp  # noqa: E402
from jux.tui.screens.game import GameScreen  # noqa: E402
from jux.tui.widgets.table import TableView  # noqa: E402
from tui_helpers import settle  # noqa: E402

EXAMPLE = Path(__file__).resolve().parent.parent / "docs" / "examples" / "secret_bids"


def log_text(screen) -> str:
    log = screen.query_one("#log")
    return " ".join(" ".join("".join(seg.text for seg in strip) for strip in log.lines).split())


def test_a_human_seat_sees_its_secrets_and_no_one_elses():
    async def main():
        app = JuxApp(ruleset=str(EXAMPLE), seats=[("Ann", "human"), ("Bo", "random"), ("Cy", "random")],
                     seed=3, bot_delay=0)
        async with app.run_test(size=(100, 40)) as pilot:
            gs = await settle(pilot, app, GameScreen)
            await pilot.pause()
            g = app.session.game
            assert g.pending[0].player == 0 and g.pending[0].prompt.startswith("Pay a chip")
            await pilot.press("home", "enter")  # peek
            for _ in range(20):
                await pilot.pause()
                if g.pending and g.pending[0].player == 0 and g.pending[0].prompt.startswith("Your sealed bid"):
                    break
            table = gs.query_one(TableView).text
            assert "chips: 7" in table, table
            assert "Bo  ·  chips: ?" in table and "Cy  ·  chips: ?" in table, table
            top = g.rules.card_labels[g.state.z[g.rules.layout.zone_index["deck"]][-1]]
            assert f"deck: {top} + ? more" in table, table  # the card she saw, not how many
            log = log_text(gs)
            ref = g.log_lines(None)
            looks = sum(line.startswith("(to Ann) You pay a chip and see") for line in ref)
            assert looks == 1 and log.count("You pay a chip and see") == looks, (log, ref)
            assert log.count("pays a chip to peek at the deck.") == sum(
                line.startswith("(to the others)") and "Ann " not in line for line in ref), (log, ref)
            assert "(to " not in log
    asyncio.run(main())
