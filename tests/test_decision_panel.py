"""The decision panel (tui/widgets/decision.py): options that fit.

More than nine options reached from the keyboard (two digits typed quickly), identical options as
one line with a count, a filter typed after '/', (card, place) pairs in two steps, an option's hint.
Decisions come from real games (Capital Jux, Bruges) and from a small probe ruleset; the panel is
tried alone (PanelApp: the game screen's layout and stylesheet around it) and in the whole app.
"""
import asyncio
import random
import re
from dataclasses import dataclass, field
from pathlib import Path

import pytest

pytest.importorskip("textual")

from textual.app import App  # noqa: E402
from textual.containers import Horizontal, Vertical  # noqa: E402
from textual.widgets import Static  # noqa: E402

from jux.interpreter.engine.game import Game  # noqa: E402
from jux.interpreter.engine.ruleset import load_ruleset  # noqa: E402
from jux.tui.widgets.choice_list import ChoiceList  # noqa: E402
from jux.tui.widgets.decision import DecisionPanel  # noqa: E402
from jux.tui.widgets.option_rows import groups_of  # noqa: E402
from tui_helpers import screen_text  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent

PROBE = """\
game:
  name: options_probe
  title: Options probe
  players: {{min: 2, max: 2}}
cards:
  num:
    label: "card {{value}}"
    attributes:
      value: [1, 2]
zones:
  deck: {{visible: none, start: [num]}}
counters:
  total: {{per: player, start: 0}}
functions:
  score(p): total[p]
flow: |
  for p in players {{
    {choose}
  }}
"""

ELEVEN = 'choose y from [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11] by p prompt "Pick a number" label "number {y}"'
ALIKE = 'choose x from ["blue 3", "red 4", "blue 3", "blue 3"] by p prompt "Pick a colour"'
ALIKE_TWO = 'choose xs from ["blue 3", "red 4", "blue 3", "blue 3"] by p prompt "Pick two" pick 2'
LONG = ('choose x from ["red 1", "red 2", "blue 3", "green 4", "blue 3", "yellow 5", "red 6", "green 7", '
        '"blue 8", "yellow 9", "red 10", "green 11", "blue 12", "yellow 13"] by p prompt "Discard a card"')
PAIRS = ('choose (c, w) from [(c, w) for c in ["red 1", "blue 2", "green 3", "red 1", "yellow 4"] '
         'for w in ["home", "capital", "market"]] by p prompt "Play a card" label "{c} into the {w}"')


def probe(tmp_path, choose: str) -> Path:
    rules = tmp_path / "options_probe"
    rules.mkdir(exist_ok=True)
    (rules / "game.yaml").write_text(PROBE.format(choose=choose))
    return rules


def probe_decision(tmp_path, choose: str):
    return Game.new(load_ruleset(str(probe(tmp_path, choose))), 2, 1).pending[0]


def game_decision(ruleset: str, seed: int, want):
    """The first decision of seat 0 for which want(decision) holds, the answers before it random."""
    g = Game.new(load_ruleset(ruleset), 2, seed)
    rng = random.Random(seed)
    for _ in range(500):
        d = g.pending[0]
        if d.player == 0 and want(d):
            return d
        n = len(d.values)
        g.apply(sorted(rng.sample(range(n), d.min)) if d.many else rng.randrange(n), decision=d.id)
    raise AssertionError("no such decision")


def turn_pairs(d) -> bool:
    """A decision of more than nine options, all (card, place) pairs."""
    return not d.many and len(d.options) > 9 and all(isinstance(o.value, tuple) and len(o.value) == 2
                                                     for o in d.options)


class PanelApp(App):
    """The decision panel where the game screen has it (the same stylesheet), and nothing else."""

    CSS_PATH = str(ROOT / "tui" / "jux.tcss")

    def __init__(self, decision=None) -> None:
        super().__init__()
        self.decision = decision
        self.answers: list = []

    def compose(self):
        with Horizontal(id="main"):
            yield Static("(the table)", id="table-scroll")
            with Vertical(id="side"):
                yield DecisionPanel(id="decision")
                yield Static("(the log)", id="log")

    def on_ready(self) -> None:
        if self.decision is not None:
            self.query_one(DecisionPanel).show(self.decision, "Ann")

    def on_decision_panel_answered(self, event: DecisionPanel.Answered) -> None:
        self.answers.append(event.choice)


def lines(app) -> list:
    """The lines of the decision's list as shown (the numbered ones and the others), each in one
    piece (a line wrapped with a hanging indent is joined again)."""
    ol = app.screen.query_one(ChoiceList)
    return [re.sub(r"\n +", "", str(ol.get_option_at_index(i).prompt.plain)) for i in range(ol.option_count)]


def numbered(app) -> list:
    return [x for x in lines(app) if re.match(r"\s*\d+\. ", x)]


def hint(app) -> str:
    """The line above the list: the filter, the group, a number being typed, the keys."""
    static = app.screen.query_one("#hint", Static)
    content = static.content
    return (content.plain if hasattr(content, "plain") else str(content)) if static.display else ""


async def ready(pilot):
    from textual.css.query import NoMatches

    for _ in range(200):
        try:
            shown = pilot.app.screen.query_one(DecisionPanel).decision is not None
        except NoMatches:  # the app's game screen is not up yet
            shown = False
        if shown:
            await pilot.pause()
            return
        await pilot.pause(0.01)
    raise AssertionError("no decision on screen")


def run(coro):
    asyncio.run(coro)


# ---------------------------------------------------------------- more than nine: two digits


@pytest.mark.parametrize("keys, answer", [
    (("1", "1"), 10),          # option 11
    (("1", "0"), 9),           # option 10
    (("1", "enter"), 0),       # Enter picks the 1 typed, without waiting
    (("down", "down", "enter"), 2),
    (("end", "enter"), 10),
    (("9",), 8),               # no option 90 or more: 9 is picked at once
])
def test_eleven_options_answered_from_the_keyboard_in_the_app(tmp_path, keys, answer):
    """The whole app (its screen's keys around the panel): Ann picks among 11 options by keys."""
    from jux.tui.app import JuxApp

    async def main():
        app = JuxApp(ruleset=str(probe(tmp_path, ELEVEN)), seats=[("Ann", "human"), ("Robo", "random")],
                     seed=1, bot_delay=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await ready(pilot)
            assert len(numbered(app)) == 11
            assert "12: type 1 2" in hint(app)  # how to reach the lines past nine
            await pilot.press(*keys)
            await pilot.pause()
            assert app.session.game.answers[0] == [0, answer]
    run(main())


def test_a_lone_first_digit_waits_for_a_second_then_is_picked(tmp_path):
    async def main():
        app = PanelApp(probe_decision(tmp_path, ELEVEN))
        async with app.run_test(size=(80, 24)) as pilot:
            await ready(pilot)
            await pilot.press("1")
            panel = app.screen.query_one(DecisionPanel)
            assert panel.digits == "1" and app.answers == [] and "number: 1" in hint(app)
            assert app.screen.query_one(ChoiceList).highlighted == 0
            for _ in range(100):  # the second passes: option 1 it is
                if app.answers:
                    break
                await pilot.pause(0.05)
            assert app.answers == [0]
    run(main())


def test_a_number_no_line_has_picks_nothing(tmp_path):
    async def main():
        app = PanelApp(probe_decision(tmp_path, ELEVEN))
        async with app.run_test(size=(80, 24)) as pilot:
            await ready(pilot)
            await pilot.press("1", "5", "0")
            await pilot.pause()
            assert app.answers == [] and app.screen.query_one(DecisionPanel).digits == ""
            await pilot.press("1", "1")
            await pilot.pause()
            assert app.answers == [10]
    run(main())


# ---------------------------------------------------------------- identical options


def test_identical_options_are_one_line_and_picked(tmp_path):
    d = probe_decision(tmp_path, ALIKE)
    assert [o.label for o in d.options] == ["blue 3", "red 4", "blue 3", "blue 3"]

    async def main():
        app = PanelApp(d)
        async with app.run_test(size=(80, 24)) as pilot:
            await ready(pilot)
            assert numbered(app) == ["1. blue 3  (x3)", "2. red 4"]
            assert "blue 3  (x3)" in screen_text(app)
            await pilot.press("1")
            await pilot.pause()
            assert app.answers == [0]  # the first of the three
            app.screen.query_one(DecisionPanel).show(d, "Ann")
            await pilot.pause()
            await pilot.press("2")
            await pilot.pause()
            assert app.answers == [0, 1]
    run(main())


def test_a_multi_pick_chooses_two_of_three_identical_options(tmp_path):
    d = probe_decision(tmp_path, ALIKE_TWO)
    assert d.many and d.min == d.max == 2

    async def main():
        app = PanelApp(d)
        async with app.run_test(size=(80, 24)) as pilot:
            await ready(pilot)
            assert numbered(app)[0] == "1. [ ] blue 3  (x3)"
            await pilot.press("1")
            await pilot.pause()
            assert numbered(app)[0] == "1. [x] blue 3  (1 of 3 chosen)"
            await pilot.press("space")  # the same line again: one more of them
            await pilot.pause()
            assert numbered(app)[0] == "1. [x] blue 3  (2 of 3 chosen)"
            assert "confirm (2 chosen)" in lines(app)[-1]
            await pilot.press("1")  # no more may be chosen: the line is cleared
            await pilot.pause()
            assert numbered(app)[0] == "1. [ ] blue 3  (x3)"
            await pilot.press("1", "1", "enter")
            await pilot.pause()
            assert app.answers == [[0, 2]]
    run(main())


# ---------------------------------------------------------------- the filter


def test_filter_narrows_the_list_and_numbers_refer_to_it(tmp_path):
    d = probe_decision(tmp_path, LONG)

    async def main():
        app = PanelApp(d)
        async with app.run_test(size=(80, 24)) as pilot:
            await ready(pilot)
            assert "/: filter" in hint(app)
            assert len(numbered(app)) == 13  # the two "blue 3" are one line
            await pilot.press("slash", "B", "l", "u")
            await pilot.pause()
            assert numbered(app) == ["1. blue 3  (x2)", "2. blue 8", "3. blue 12"]
            assert "filter: Blu" in hint(app) and "3 of 13" in hint(app)
            await pilot.press("backspace", "backspace", "backspace", "r", "e", "d")
            await pilot.pause()
            assert [x.split(". ")[1] for x in numbered(app)] == ["red 1", "red 2", "red 6", "red 10"]
            await pilot.press("escape")  # cleared: the whole list again
            await pilot.pause()
            assert len(numbered(app)) == 13 and not hint(app).startswith("filter:")
            await pilot.press("slash", "1", "enter")  # digits typed after / filter; Enter ends typing
            await pilot.pause()
            assert [x.split(". ")[1] for x in numbered(app)] == ["red 1", "red 10", "green 11", "blue 12", "yellow 13"]
            await pilot.press("3")  # the third of the filtered list
            await pilot.pause()
            assert app.answers == [11] and d.options[11].label == "green 11"
    run(main())


def test_letters_typed_into_the_filter_are_not_the_screens_keys(tmp_path):
    """In the app, s, u, r, q, ? and the like save, undo, quit, help: after '/' they are text."""
    from jux.tui.app import JuxApp
    from jux.tui.screens.game import GameScreen

    async def main():
        app = JuxApp(ruleset=str(probe(tmp_path, ELEVEN)), seats=[("Ann", "human"), ("Robo", "random")],
                     seed=1, bot_delay=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await ready(pilot)
            from jux.tui.screens.help import HelpScreen

            await pilot.press("question_mark")  # not typing: the screen's keys work as ever
            for _ in range(50):
                if isinstance(app.screen, HelpScreen):
                    break
                await pilot.pause(0.02)
            assert isinstance(app.screen, HelpScreen)
            await pilot.press("escape")
            await ready(pilot)
            await pilot.press("slash", *"numbers? ", "escape", "slash", *"number 1", "0", "enter")
            await pilot.pause()
            assert isinstance(app.screen, GameScreen) and not app.session.game.answers
            assert numbered(app) == ["1. number 10"]
            await pilot.press("enter")
            await pilot.pause()
            assert app.session.game.answers[0] == [0, 9]
    run(main())


# ---------------------------------------------------------------- two steps


def test_card_place_pairs_in_two_steps_and_escape_goes_back():
    d = game_decision("capital_jux", 3, turn_pairs)
    groups = groups_of(d)
    assert groups is not None and 1 < len(groups) < len(d.options)
    name, members = groups[1]
    assert len(members) >= 2 and len({d.options[m].value[0] for m in members}) == 1

    async def main():
        app = PanelApp(d)
        async with app.run_test(size=(80, 24)) as pilot:
            await ready(pilot)
            first = numbered(app)
            assert len(first) == len(groups) and name in first[1] and "choices" in first[1]
            await pilot.press("2")  # the second card: its places
            await pilot.pause()
            assert len(numbered(app)) == len(members) and name in hint(app)
            assert lines(app)[-1].strip() == "‹ back (Esc)"
            await pilot.press("escape")
            await pilot.pause()
            assert numbered(app) == first and app.screen.query_one(ChoiceList).highlighted == 1
            await pilot.press("enter", "down", "enter")  # the card highlighted, then its second option
            await pilot.pause()
            assert app.answers == [members[1]]
            assert d.options[members[1]].value[0] == d.options[members[0]].value[0]
    run(main())


def test_bruges_groups_by_the_card_its_options_share():
    """Bruges's options are (what, action, card): the card, last, is what they share."""
    d = game_decision("bruges", 1, lambda d: not d.many and len(d.options) > 9)
    groups = groups_of(d)
    assert groups is not None
    for name, members in groups:
        assert len({d.options[m].value[-1] for m in members}) == 1  # one card each

    async def main():
        app = PanelApp(d)
        async with app.run_test(size=(80, 24)) as pilot:
            await ready(pilot)
            name, members = groups[-1]
            await pilot.press(str(len(groups)), "backspace", str(len(groups)), "1")
            await pilot.pause()
            assert app.answers == [members[0]]
    run(main())


def test_identical_cards_are_one_group_and_pairs_with_nothing_shared_are_flat(tmp_path):
    d = probe_decision(tmp_path, PAIRS)
    groups = groups_of(d)
    assert [name for name, _ in groups] == ["red 1", "blue 2", "green 3", "yellow 4"]
    assert len(groups[0][1]) == 6

    async def main():
        app = PanelApp(d)
        async with app.run_test(size=(80, 24)) as pilot:
            await ready(pilot)
            await pilot.press("1")
            await pilot.pause()
            # the name the options start with is left out under the group's own line
            assert numbered(app) == ["1. into the home  (x2)", "2. into the capital  (x2)", "3. into the market  (x2)"]
            await pilot.press("3")
            await pilot.pause()
            assert app.answers == [2]
    run(main())

    flat = FakeDecision([FakeOption(i, f"card {i} into the home", (i, "home")) for i in range(12)])
    assert groups_of(flat) is None  # every card distinct, one place: nothing to group
    few = FakeDecision([FakeOption(i, f"card {i % 3}", (i % 3, "home")) for i in range(9)])
    assert groups_of(few) is None  # nine options: one step


# ---------------------------------------------------------------- hints


@dataclass
class FakeOption:
    id: int
    label: str
    value: object


@dataclass
class HintedOption(FakeOption):
    hint: object = None


@dataclass
class FakeDecision:
    options: list
    prompt: str = "Play a card"
    player: int = 0
    many: bool = False
    min: int = 1
    max: int = 1
    keys: object = None
    unavailable: list = field(default_factory=list)


def test_an_options_hint_is_shown_after_its_label():
    d = FakeDecision([HintedOption(0, "play red 4", 0, "draws a card"), FakeOption(1, "play blue 2", 1),
                      HintedOption(2, "play green 5", 2, ""), HintedOption(3, "play pink 1", 3, None)])

    async def main():
        app = PanelApp(d)
        async with app.run_test(size=(80, 24)) as pilot:
            await ready(pilot)
            assert numbered(app) == ["1. play red 4 — draws a card", "2. play blue 2", "3. play green 5",
                                     "4. play pink 1"]
            ol = app.screen.query_one(ChoiceList)
            prompt = ol.get_option_at_index(0).prompt
            dim = "".join(prompt.plain[span.start:span.end] for span in prompt.spans if span.style == "dim")
            assert re.sub(r"\n +", "", dim) == " — draws a card"  # (the line may wrap: a span a row)
            await pilot.press("2")
            await pilot.pause()
            assert app.answers == [1]
    run(main())


# ---------------------------------------------------------------- snapshots (pytest-textual-snapshot)
#
# The panel at 80x24 beside the game screen's other parts, compared with the SVGs under
# tests/__snapshots__/test_decision_panel/. After a deliberate change of the look:
# `pytest tests/test_decision_panel.py --snapshot-update`, then check the new SVGs.


def test_snapshot_long_option_list(snap_compare, tmp_path):
    d = probe_decision(tmp_path, LONG)
    assert snap_compare(PanelApp(d), terminal_size=(80, 24), run_before=ready)


def test_snapshot_pairs_first_step(snap_compare, tmp_path):
    """15 (card, place) pairs: the first step lists the 4 cards (the two "red 1" are one)."""
    d = probe_decision(tmp_path, PAIRS)
    assert snap_compare(PanelApp(d), terminal_size=(80, 24), run_before=ready)
