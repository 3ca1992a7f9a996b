"""Every option of a decision reachable from the keyboard, and visibly so, at 80x24 (issue 25).

The panel (tui/widgets/decision.py) takes the rows the side column can spare and shares them
between the prompt and the list (decision_layout.fit); the list scrolls with the highlight, says
what is out of sight, and never wraps from the last line to the first; 0 declines; Up on the first
option reads a prompt cut short. Probe rulesets and real games (Capital Jux with the dualist,
Guildhall's setup, Bruges) in the whole app.
"""
import asyncio
import re

import pytest

pytest.importorskip("textual")

from jux.tui.app import JuxApp  # noqa: E402
from jux.tui.screens.game import GameScreen  # noqa: E402
from jux.tui.widgets.choice_list import ChoiceList  # noqa: E402
from jux.tui.widgets.decision import DecisionPanel  # noqa: E402
from jux.tui.widgets.decision_layout import LIST_MIN, Fit, fit  # noqa: E402
from jux.tui.widgets.prompt_box import PromptBox  # noqa: E402
import panel_positions as positions  # noqa: E402
from test_decision_panel import PanelApp, lines, probe, probe_decision, ready  # noqa: E402
from tui_helpers import notes, screen_text  # noqa: E402

TWELVE = ('choose y from [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12] by p prompt "Pick a number" '
          'label "number {y} of the twelve options on offer"')  # two rows a line at 80x24
OPTIONAL = 'choose y from [5, 7] by p prompt "Pay guilders for a step?" label "pay {y} guilders" optional'
LONG_PROMPT = ('choose y from [1, 2, 3, 4, 5, 6, 7, 8] by p prompt "' + "A prompt of many words " * 12 +
               'ends here" label "number {y}"')


@pytest.fixture(autouse=True)
def _data_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("JUX_DATA_DIR", str(tmp_path / "data"))


def run(coro):
    asyncio.run(coro)


def more(app) -> str:
    """The row under the list that says what is out of sight ('' when the list is whole)."""
    static = app.screen.query_one("#more")
    return str(static.render().plain) if static.display else ""


def visible(app, text) -> bool:
    """text is on screen, on one row (a wrapped line is looked for by its first 18 characters)."""
    return text[:18] in screen_text(app)


def highlighted(app) -> int:
    return app.screen.query_one(ChoiceList).highlighted


# ---------------------------------------------------------------- sharing the rows


def test_fit_shares_the_rows_and_says_what_is_cut():
    assert fit(15, 3, 1, 8) == Fit(3, False, 8, False)  # all fits
    assert fit(15, 2, 1, 20) == Fit(2, False, 11, True)  # the list cut: a row says so
    cut = fit(15, 13, 0, 16)  # a long prompt and a long list: the list keeps more than half
    assert cut.prompt_cut and cut.options_cut and cut.options >= 15 * 3 // 5 - 1
    assert cut.prompt + cut.prompt_cut + cut.options + cut.options_cut == 15
    tiny = fit(6, 40, 1, 3)  # the list is never eaten by the prompt
    assert tiny.options == 3 and not tiny.options_cut and tiny.prompt == 1 and tiny.prompt_cut
    assert fit(20, 30, 0, 40).options >= LIST_MIN


# ---------------------------------------------------------------- twelve options, in the app


def test_the_last_of_twelve_options_is_reached_by_arrows_and_down_does_not_wrap(tmp_path):
    async def main():
        app = JuxApp(ruleset=str(probe(tmp_path, TWELVE)), seats=[("Ann", "human"), ("Robo", "random")],
                     seed=1, bot_delay=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await ready(pilot)
            assert visible(app, "1. number 1 of the twelve") and not visible(app, "12. number 12 of")
            assert re.fullmatch(r"↓ \d+ more.*", more(app))  # the rest is said to be there
            for k in range(11):
                await pilot.press("down")
                await pilot.pause()
                assert highlighted(app) == k + 1
                assert visible(app, f"{k + 2}. number {k + 2} of")  # the highlight is always in sight
            assert more(app).startswith("↑ ") and "↓" not in more(app)  # nothing below any more
            await pilot.press("down", "down")  # the last line: Down stays there
            await pilot.pause()
            assert highlighted(app) == 11 and visible(app, "12. number 12 of")
            await pilot.press("enter")
            await pilot.pause()
            assert app.session.game.answers[0] == [0, 11]
    run(main())


def test_the_last_of_twelve_options_is_reached_by_its_number(tmp_path):
    async def main():
        app = JuxApp(ruleset=str(probe(tmp_path, TWELVE)), seats=[("Ann", "human"), ("Robo", "random")],
                     seed=1, bot_delay=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await ready(pilot)
            await pilot.press("1", "2")
            await pilot.pause()
            assert app.session.game.answers[0] == [0, 11]
    run(main())


def test_up_on_the_first_option_does_not_wrap_to_the_last(tmp_path):
    async def main():
        app = PanelApp(probe_decision(tmp_path, TWELVE))
        async with app.run_test(size=(80, 24)) as pilot:
            await ready(pilot)
            await pilot.press("up", "up")
            await pilot.pause()
            assert highlighted(app) == 0 and app.answers == []
    run(main())


# ---------------------------------------------------------------- declining


def test_zero_declines_and_its_line_says_so(tmp_path):
    async def main():
        app = JuxApp(ruleset=str(probe(tmp_path, OPTIONAL)), seats=[("Ann", "human"), ("Robo", "random")],
                     seed=1, bot_delay=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await ready(pilot)
            assert lines(app) == ["1. pay 5 guilders", "2. pay 7 guilders", "0. (none: decline)"]
            assert "0. (none: decline)" in screen_text(app)
            await pilot.press("0")
            await pilot.pause()
            assert app.session.game.answers[0] == [0, None]
    run(main())


def test_down_past_the_decline_line_stays_on_it_and_escape_does_not_decline(tmp_path):
    """The player of issue 25 pressed Down past `(none: decline)` and paid: now Down stays there."""
    async def main():
        app = PanelApp(probe_decision(tmp_path, OPTIONAL))
        async with app.run_test(size=(80, 24), notifications=True) as pilot:
            await ready(pilot)
            await pilot.press("escape")  # Esc only clears a filter or goes back: it says what declines
            await pilot.pause()
            assert app.answers == [] and "press 0" in notes(app)
            await pilot.press("down", "down", "down", "down", "enter")
            await pilot.pause()
            assert app.answers == [None]
    run(main())


def test_zero_does_nothing_where_none_may_be_declined(tmp_path):
    async def main():
        app = PanelApp(probe_decision(tmp_path, TWELVE))
        async with app.run_test(size=(80, 24)) as pilot:
            await ready(pilot)
            await pilot.press("0")
            await pilot.pause()
            assert app.answers == [] and app.screen.query_one(DecisionPanel).decision is not None
    run(main())


# ---------------------------------------------------------------- a long prompt


def test_a_long_prompt_leaves_the_list_room_and_up_reads_the_rest(tmp_path):
    async def main():
        app = PanelApp(probe_decision(tmp_path, LONG_PROMPT))
        async with app.run_test(size=(80, 24)) as pilot:
            await ready(pilot)
            box = app.screen.query_one(PromptBox)
            assert "ends here" not in screen_text(app)  # cut short
            cut = str(app.screen.query_one("#prompt-more").render().plain)
            assert re.fullmatch(r"… \d+ lines more: ↑ reads", cut)
            assert all(visible(app, f"{k}. number {k}") for k in range(1, 9))  # the list is whole
            await pilot.press("up")  # on the first option: the prompt takes the keys
            await pilot.pause()
            assert box.has_focus
            for _ in range(int(cut.split()[1])):
                await pilot.press("down")
            await pilot.pause()
            assert box.lines_after() == 0 and "ends" in screen_text(app)
            await pilot.press("escape")  # back to the options (it declines nothing)
            await pilot.pause()
            assert "lines above: ↑ reads" in str(app.screen.query_one("#prompt-more").render().plain)
            assert app.screen.query_one(ChoiceList).has_focus and app.answers == []
            await pilot.press("3")
            await pilot.pause()
            assert app.answers == [2]
    run(main())


# ---------------------------------------------------------------- real games at 80x24


GAMES = [("capital_jux", ("dualist",), 3, positions.dualist_turn),
         ("guildhall", (), 2, positions.guildhall_setup),
         ("bruges", (), 3, positions.bruges_recruit)]


@pytest.mark.parametrize("name, tiles, players, want", GAMES, ids=[g[0] for g in GAMES])
def test_every_line_of_a_real_decision_comes_into_sight_by_arrows(tmp_path, name, tiles, players, want):
    """Down from the first line to the last: each line is on screen when highlighted (in every
    group of a two-step choice too); the last line is the confirm, decline or back line."""
    path = positions.save_at(tmp_path, name, tiles, players, want)

    async def main():
        app = JuxApp(load=str(path), bot_delay=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await ready(pilot)
            assert isinstance(app.screen, GameScreen)
            panel = app.screen.query_one(DecisionPanel)
            ol = app.screen.query_one(ChoiceList)
            groups = [k for k, row in enumerate(panel.rows) if row.group] or [None]
            for g in groups:
                if g is not None:  # open the group, walk its lines, come back
                    await pilot.press("home", *["down"] * g, "enter")
                    await pilot.pause()
                await pilot.press("home")
                for k in range(ol.option_count):
                    await pilot.pause()
                    assert ol.highlighted == k
                    first = lines(app)[k].split()
                    assert visible(app, " ".join(first[:3])), (k, lines(app)[k], screen_text(app))
                    await pilot.press("down")
                await pilot.pause()
                assert ol.highlighted == ol.option_count - 1  # no wrap
                if g is not None:
                    await pilot.press("escape")
                    await pilot.pause()
            assert panel.decision is not None  # nothing was answered
    run(main())


OPTIONAL_LONG = ('choose y from [5, 7] by p prompt "' + "Pay guilders for a step, or keep them? " * 14 +
                 'The end." label "pay {y} guilders" optional')


def test_escape_while_reading_a_long_prompt_goes_back_to_the_options_and_declines_nothing(tmp_path):
    async def main():
        app = PanelApp(probe_decision(tmp_path, OPTIONAL_LONG))
        async with app.run_test(size=(80, 24), notifications=True) as pilot:
            await ready(pilot)
            assert app.screen.query_one(PromptBox).can_focus  # cut short
            await pilot.press("up")
            await pilot.pause()
            assert app.screen.query_one(PromptBox).has_focus
            await pilot.press("escape")
            await pilot.pause()
            assert app.screen.query_one(ChoiceList).has_focus and app.answers == [] and not notes(app)
            await pilot.press("0")
            await pilot.pause()
            assert app.answers == [None]
    run(main())
