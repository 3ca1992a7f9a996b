"""A choice whose options are lists of lists of cards (how to lay a hand down in melds,
docs/games/deadwood): the groups read in a text made inside the rules as in a log line; the
bots answer it (ismcts also when the cards are ones it cannot see); a scenario answers it by the
option's label or by a YAML list of lists of card labels; the terminal UI wraps such an option
without ever splitting a card across lines."""
import asyncio
import shutil
from pathlib import Path

import pytest

from jux import Game, load_ruleset
from jux.interpreter.cli.main import main
from jux.interpreter.study.simulate import play_game

DEADWOOD = Path(__file__).resolve().parent.parent / "docs" / "games" / "deadwood"


def test_a_text_made_in_the_rules_reads_a_list_of_lists_with_its_groups(tmp_path):
    f = tmp_path / "t.yaml"
    f.write_text("""\
game: {name: t, players: {min: 2, max: 2}}
cards: {n: {label: "n{v}", attributes: {v: [1, 2, 3, 4]}}}
zones: {deck: {visible: all, start: [n]}}
counters: {out: {start: 0}}
functions:
  score(p): out
flow: |
  choose x from [1, 2] by 0
  let a = [[deck[0], deck[1]], [deck[2]]]
  log "{if x == 1 then \\"laid {a}\\" else \\"none\\"}, {if x == 1 then \\"{[[1, 2], [3]]}\\" else \\"\\"}"
""")
    g = Game.new(load_ruleset(f), players=2, seed=1)
    g.apply("1", player=0)
    assert g.log_lines()[-1] == "laid n1, n2; n3, 1, 2; 3"


@pytest.mark.parametrize("bot", ["random", "greedy", "ismcts"])
def test_the_bots_answer_a_choice_of_arrangements(bot):
    """Each bot answers the choice of how to lay a hand down, and the searching bots take the
    least deadwood: greedy always (it reads the position's value one answer ahead), ismcts in most
    lay-downs. A statistical test for ismcts: in 2 players its reward is the win (the margin's share
    goes whole to the winner), so between two lay-downs that both win in nearly every sample, say
    12 points of deadwood against the opponent's 43 or 9, it tells them apart only by the few samples
    where the opponent lands between the two, and which it takes leans on the stream of random
    numbers. Over games of seeds 0-299 (600 lay-downs) it kept more than the least in 43 on main at
    9e2dec5 and 38 once samples were shuffled by random keys (42f3063), so one game or two cannot
    tell (seed 10 kept 12 where 9 could be kept after that change). Over seeds 0-19 (40 lay-downs)
    at most 8 (a fifth; 2.7 expected at its 6.7%, more than 8 about 1 time in 1,000): it kept 1
    (main and after). The random bot kept more in 239 of 600 (40%; 13 of the 40 here) and ismcts
    with 1 iteration in 222 (14 here): both fail it (at their rates 8 or fewer about 1 time in 150
    and in 60)."""
    rules = load_ruleset(DEADWOOD)
    more = 0
    for seed in range(2 if bot == "random" else 20):
        result = play_game(rules, 2, seed, [bot, bot], record=True)
        assert result.winners and len(result.record["answers"]) == 2
        game = Game.from_record(result.record, rules)
        assert game.over
        lines = game.log_lines()
        if bot == "greedy":  # the least deadwood is its to take, and the position values say so
            assert not any("could have" in line for line in lines), lines
        more += sum("could have" in line for line in lines)
    if bot == "ismcts":
        assert more <= 8, more


def test_ismcts_answers_arrangements_of_cards_it_cannot_see(tmp_path):
    """Seat 0 picks which pairs of seat 1's hidden hand to set aside: each option a list of lists of
    cards seat 0 does not know (they read face down); ismcts samples them and still answers."""
    f = tmp_path / "blind.yaml"
    f.write_text("""\
game: {name: blind, players: {min: 2, max: 2}}
cards: {n: {label: "n{v}", attributes: {v: [1, 2, 3, 4, 5, 6]}}}
zones:
  deck: {visible: none, start: [n]}
  hand: {visible: owner, per: player}
  aside: {visible: all}
functions:
  score(p): 'if p == 0 then sum(c.v for c in aside) else 0'
flow: |
  shuffle deck
  draw 4 from deck to hand[1]
  choose a from [[[x[0], x[1]], [x[2]]] for x in combinations(hand[1], 3)] by 0 prompt "Set aside"
  for c in flatten(a) { move c to aside }
""")
    rules = load_ruleset(f)
    game = Game.new(rules, players=2, seed=3)
    d = game.pending[0]
    assert len(d.options) == 4 and "; " in d.options[0].label
    for seed in range(2):
        result = play_game(rules, 2, seed, ["ismcts", "ismcts"], record=True)
        assert result.record["answers"] and len(result.scores) == 2


def _copy(tmp_path) -> Path:
    folder = tmp_path / "deadwood"
    shutil.copytree(DEADWOOD, folder)
    return folder


SCENARIO = """\
title: {title}
players: 2
zones:
  "hand[0]": [A♠, A♣, A♦, 2♣, 3♣, 2♥, 2♦, 6♠]
rest: out
run: lay_down
args: [0]
answers:
  - player: 0
    choose: {choose}
expect:
  zones: {{"laid[0]": {laid}}}
"""


def test_a_scenario_answers_an_arrangement_by_its_cards_in_any_order(tmp_path, capsys):
    folder = _copy(tmp_path)
    (folder / "scenarios" / "loose.yaml").write_text(SCENARIO.format(
        title="in another order", choose="[[2♦, 2♣, 2♥], [A♠, A♣, A♦]]", laid="[A♠, A♣, A♦, 2♣, 2♥, 2♦]"))
    (folder / "scenarios" / "one.yaml").write_text(SCENARIO.format(
        title="one meld, as a list of one list", choose="[[A♣, 2♣, 3♣]]", laid="[A♣, 2♣, 3♣]"))
    (folder / "scenarios" / "flat.yaml").write_text(SCENARIO.format(
        title="no meld", choose="[]", laid="[]"))
    assert main(["test", str(folder / "scenarios")]) == 0, capsys.readouterr().out
    assert "5 passed, 0 failed" in capsys.readouterr().out


def test_an_arrangement_no_option_is_refused_saying_what_was_given_and_the_options(tmp_path, capsys):
    folder = _copy(tmp_path)
    for f in (folder / "scenarios").iterdir():
        f.unlink()
    (folder / "scenarios" / "wrong.yaml").write_text(SCENARIO.format(
        title="no such arrangement", choose="[[A♠, A♣, A♦], [2♣, 3♣, 6♠]]", laid="[]"))
    assert main(["test", str(folder)]) == 1
    out = capsys.readouterr().out
    assert ("wrong.yaml:10:13: answer 1 (player 0, [[A♠, A♣, A♦], [2♣, 3♣, 6♠]]) refused: 'A♠, A♣, A♦; 2♣, 3♣, "
            "6♠' is not one of the options: A♠, A♣, A♦; 2♣, 2♥, 2♦ | 2♣, 2♥, 2♦ | A♣, 2♣, 3♣ | A♠, A♣, A♦ | none "
            "(did you mean 'A♠, A♣, A♦; 2♣, 2♥, 2♦'?)") in out, out


def test_the_terminal_ui_wraps_an_arrangement_between_cards_never_inside_one(tmp_path):
    from textual.widgets import OptionList

    from jux.tui.app import JuxApp
    from jux.tui.screens.game import GameScreen
    from jux.tui.session import Session
    from jux.tui.widgets.decision import DecisionPanel
    from tui_helpers import settle

    f = tmp_path / "arrange.yaml"
    f.write_text("""\
game: {name: arrange, players: {min: 2, max: 2}}
cards:
  card: {label: "{colour} {rank}", attributes: {colour: [red, blue, green, yellow], rank: [1, 2, 3, 4, 5, 6, 7]}}
zones: {deck: {visible: all, start: [card]}}
counters: {out: {start: 0}}
functions:
  score(p): out
  of(c, r): '[x for x in deck if x.colour == c and x.rank == r][0]'
  run(c, a, b): '[of(c, r) for r in range(a, b + 1)]'
  set(r): '[of(c, r) for c in ["red", "blue", "green", "yellow"]]'
flow: |
  choose a from [[run("red", 1, 4), set(7), run("blue", 2, 5), run("green", 3, 6)], [set(7)], []] by 0 prompt "Lay down your melds" hint "{plural(len(a), \\"meld\\")}"
  out = len(a)
""")
    rules = load_ruleset(f)
    labels = [o.label for o in Game.new(rules, players=2, seed=1).pending[0].options]
    assert labels == ["red 1, red 2, red 3, red 4; red 7, blue 7, green 7, yellow 7; blue 2, blue 3, blue 4, "
                      "blue 5; green 3, green 4, green 5, green 6", "red 7, blue 7, green 7, yellow 7", "none"]
    async def run():
        app = JuxApp(bot_delay=0, session=Session(rules, [("Ann", "human"), ("Bob", "random")], seed=1))
        async with app.run_test(size=(80, 30)) as pilot:
            screen = await settle(pilot, app, GameScreen)
            await pilot.pause()
            shown = screen.query_one(DecisionPanel).query_one(OptionList)
            return [str(shown.get_option_at_index(i).prompt) for i in range(shown.option_count)]

    prompts = asyncio.run(run())
    assert len(prompts) == 3 and prompts[1].count("\n") >= 1 and prompts[0].count("\n") >= 4  # wrapped
    for k, (prompt, label) in enumerate(zip(prompts, labels)):
        lines = prompt.split("\n")
        assert " ".join(x.strip() for x in lines).startswith(f"{k + 1}. {label} — "), prompt
        for line in lines:  # a line ends between two cards (or two melds) until the hint
            if " — " in line:
                break
            assert line.rstrip().endswith((",", ";")), prompt


def test_the_table_reads_a_counter_holding_lists_of_lists_with_its_groups():
    from jux.tui.widgets.counters import counter_value

    assert counter_value({}, "kept", [[1, 2], [3]], ["Ann", "Bob"]) == "1, 2; 3"
    assert counter_value({}, "kept", [1, 2, 3], ["Ann", "Bob"]) == "1, 2, 3"
    assert counter_value({}, "kept", [], ["Ann", "Bob"]) == "none"


def test_a_scenario_answers_an_option_that_is_a_plain_list_by_its_cards(tmp_path, capsys):
    folder = tmp_path / "pairs"
    (folder / "scenarios").mkdir(parents=True)
    (folder / "game.yaml").write_text("""\
game: {name: pairs, players: {min: 2, max: 2}}
cards: {card: {label: "red {v}", attributes: {v: [1, 2, 3]}}}
zones: {hand: {visible: all, start: [card]}, kept: {visible: all}}
functions:
  score(p): len(kept)
flow: |
  choose pair from combinations(hand, 2) by 0 prompt "Keep two"
  for c in pair { move c to kept }
""")
    (folder / "scenarios" / "pair.yaml").write_text("""\
title: a pair by its cards
players: 2
run: null
answers:
  - {player: 0, options: ["red 1, red 2", "red 1, red 3", "red 2, red 3"], choose: [red 3, red 1]}
expect: {zones: {kept: [red 1, red 3]}}
""")
    (folder / "scenarios" / "number.yaml").write_text("""\
title: a pair by its number, in a list, as before
players: 2
run: null
answers:
  - {player: 0, choose: [2]}
expect: {zones: {kept: [red 2, red 3]}}
""")
    assert main(["test", str(folder)]) == 0, capsys.readouterr().out
