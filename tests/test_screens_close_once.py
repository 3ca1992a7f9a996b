"""A screen closes once: keys typed fast are queued for the screen on top when they were typed, and
the first that closes it must not let the next close the screen under it (seen in a real terminal:
'1', '2', Enter typed at a round's table closed the table, then the game, then crashed the app)."""
import asyncio

import pytest
from textual.app import App
from textual.events import Key
from textual.screen import Screen
from textual.widgets import Static

from jux.tui.screens.dialogs import ConfirmScreen
from jux.tui.screens.passing import PassScreen
from jux.tui.screens.tables import TableScreen


class Under(Screen):
    def compose(self):
        yield Static("the game")


def _table():
    return TableScreen({"title": "Round 1", "columns": ["player", "score"], "rows": [["Ann", "3"]]})


def _pass():
    s = PassScreen()
    s.set_target(1, "Bob")
    return s


@pytest.mark.parametrize("make, close", [
    (_table, lambda s: s.action_close()),
    (lambda: ConfirmScreen("Quit?"), lambda s: s.action_answer(False)),
    (_pass, lambda s: s.action_ready()),
])
def test_a_second_close_leaves_the_screen_under_it(make, close):
    results = []

    async def main():
        app = App()
        async with app.run_test(size=(80, 24)) as pilot:
            under = Under()
            app.push_screen(under)
            top = make()
            app.push_screen(top, results.append)
            await pilot.pause()
            assert app.screen is top
            close(top)
            close(top)  # a second key, queued before the screen left
            close(top)
            await pilot.pause()
            assert app.screen is under
            assert len(results) == 1  # its result went to its caller once

    asyncio.run(main())


def test_keys_typed_fast_at_a_table_close_it_and_nothing_more():
    async def main():
        app = App()
        async with app.run_test(size=(80, 24)) as pilot:
            under = Under()
            app.push_screen(under)
            app.push_screen(_table())
            await pilot.pause()
            for key in ("1", "2", "enter"):  # queued at once, as a player types them
                app.screen.post_message(Key(key, key if len(key) == 1 else None))
            await pilot.pause()
            await pilot.pause()
            assert app.screen is under

    asyncio.run(main())
