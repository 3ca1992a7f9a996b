"""What docs/language.md says of a card's kind, counters of true/false, `move LIST to ZONE bottom`
and how values read in a log line, each statement checked against the engine."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from jux.interpreter.bots import make_bot
from jux.interpreter.bots.sample import bot_input
from jux.interpreter.engine.game import Game
from jux.interpreter.engine.ruleset import load_ruleset
from jux.interpreter.errors import RuleErrors
from jux.tui.widgets.counters import counter_value

GAME = """\
game: {name: noted, players: {min: 2, max: 2}}
cards:
  number: {label: "n{value}", attributes: {value: [1, 2, 3, 4, 5]}}
  joker: {label: "joker", attributes: {value: [0]}}
zones:
  deck: {visible: all, start: [number]}
  side: {visible: all, start: [joker]}
  pile: {visible: all}
  hand: {per: player, visible: owner}
counters:
  over: false
  ready: {per: player, start: false}
  gold: {per: player, start: 0}
functions:
  score(p): gold[p]
flow: |
  FLOW
"""


def game_of(tmp_path, flow: str, players: int = 2) -> Game:
    folder = tmp_path / "noted"
    folder.mkdir(exist_ok=True)
    (folder / "game.yaml").write_text(GAME.replace("FLOW", flow.replace("\n", "\n  ")))
    return Game.new(load_ruleset(folder), players, seed=1)



def test_a_cards_kind_is_the_name_of_its_kind(tmp_path):
    g = game_of(tmp_path, 'log "{top(deck).kind} {top(side).kind}"\n'
                          'gold[0] = count(c for c in deck + side if c.kind == "number")')
    assert g.log_lines(0) == ["number joker"]
    assert g.scores == [5, 0]


def test_a_counter_holds_true_or_false(tmp_path):
    g = game_of(tmp_path, 'ready[1] = true\nif ready[1] and not over { gold[1] = 1 }\nover = not over\n'
                          'log "{over} {ready[0]} {ready[1]}"')
    assert g.counter("over") is True and g.counter("ready") == [False, True] and g.scores == [0, 1]
    assert g.log_lines(0) == ["yes no yes"]  # true and false read yes and no in the log
    assert g.view(0)["counters"]["over"] is True  # a view holds true/false
    spec = g.rules.spec.counters
    assert counter_value(spec, "over", True, ["Ann", "Bob"]) == "yes"  # the table shows yes / no
    assert counter_value(spec, "ready", False, ["Ann", "Bob"]) == "no"


def test_a_counter_of_true_false_given_a_number_is_told(tmp_path):
    (tmp_path / "v2").mkdir()
    folder = tmp_path / "v2"
    (folder / "game.yaml").write_text(GAME.replace("noted, players", "noted, language: 2, players")
                                      .replace("FLOW", "over = 1"))
    with pytest.raises(RuleErrors) as e:
        load_ruleset(folder)
    assert [x.message for x in e.value.errors] == ["counter 'over' holds true or false, not a number"]


def test_no_in_the_yaml_is_a_text_not_false(tmp_path):
    folder = tmp_path / "noted"
    folder.mkdir()
    (folder / "game.yaml").write_text(GAME.replace("  over: false", "  over: no").replace("FLOW", 'log "{over}"'))
    g = Game.new(load_ruleset(folder), 2, seed=1)
    assert g.counter("over") == "no"


def test_move_list_to_zone_bottom_puts_each_under_in_turn(tmp_path):
    g = game_of(tmp_path, 'move side to pile\n'
                          'let xs = [c for c in deck if c.value <= 3]\n'
                          'log "{xs}"\n'
                          'move xs to pile bottom\n'
                          'log "{pile}"\n'
                          'move deck to pile bottom\n'
                          'log "{pile}"\n'
                          'move [top(pile)] to hand[0] bottom\n'
                          'log "{hand[0]}"')
    # a zone reads from bottom to top; the deck starts n1..n5, bottom to top
    assert g.log_lines(None) == [
        "n1, n2, n3",
        "n3, n2, n1, joker",  # the list's last card at the very bottom: its order reversed
        "n4, n5, n3, n2, n1, joker",  # a whole zone keeps its order
        "joker",
    ]


def test_empty_lists_true_false_and_none_in_a_log_line(tmp_path):
    g = game_of(tmp_path, 'log "[{[]}] [{hand[0]}] [{[1, 2]}] [{(1, \\"a\\")}] [{none}] [{true}] [{false}]"\n'
                          'let kept = "{[]}|{true}|{none}"\n'
                          'log "{kept}"\n'
                          'choose x from [1] by players[0] prompt "pick from {[]} ({false})"')
    assert g.log_lines(0)[0] == "[none] [none] [1, 2] [1 a] [none] [yes] [no]"
    # a text made and kept in a local is made once, not as a log line: there an empty list is
    # empty text and true and none read as the words True and None
    assert g.log_lines(0)[1] == "|True|None"
    assert g.pending[0].prompt == "pick from none (no)"  # a prompt reads as a log line does


# ---------------------------------------------------------------- docs/bots.md: value(p)

KEEP = Path(__file__).resolve().parent.parent / "docs" / "examples" / "keep" / "game.yaml"
# (bot, with value(p)) -> (its win rate, its mean score) as docs/bots.md gives them
BOTS_TABLE = {("greedy", False): (0.468, 15.0), ("greedy", True): (0.857, 21.0),
              ("ismcts:iterations=50:depth=1", False): (0.69, 18.1),
              ("ismcts:iterations=50:depth=1", True): (0.798, 19.9)}


@pytest.mark.parametrize("bot, with_value", sorted(BOTS_TABLE))
def test_the_bots_are_as_good_as_value_as_docs_bots_says(tmp_path, run, bot, with_value):
    folder = tmp_path / "keep"
    folder.mkdir()
    text = KEEP.read_text()
    if not with_value:
        text = "".join(line for line in text.splitlines(True) if not line.startswith("  value(p):"))
    (folder / "game.yaml").write_text(text)
    p = run("simulate", "keep", "--players", 2, "--bots", f"{bot},random", "-n", 300, "-s", 1, "--workers", 1,
            "-q", "--json", "out.json")
    assert p.returncode == 0, p.stderr
    seat = json.loads((tmp_path / "out.json").read_text())["summary"]["seats"][0]
    win_rate, mean = BOTS_TABLE[bot, with_value]
    assert seat["win_rate"] == pytest.approx(win_rate, abs=0.01) and seat["mean_score"] == pytest.approx(mean, abs=0.1)
    doc = (KEEP.parent.parent.parent / "bots.md").read_text()
    assert f"wins {win_rate * 100:g}%, scores {mean:g}" in doc


def test_the_banker_with_the_value_docs_authoring_shows(tmp_path):
    """The value(p) override of docs/authoring.md counts 3 per loan on top of the edition's value,
    in every position of a game (played in step with the banker without it)."""
    doc = (KEEP.parent.parent.parent / "authoring.md").read_text()
    block = doc.split("### The bots and your tile: `value(p)`", 1)[1].split("```yaml\n", 1)[1].split("```", 1)[0]
    line = next(x for x in block.splitlines() if x.startswith("  value(p):"))
    banker = (KEEP.parent.parent / "banker.yaml").read_text()
    assert "  overrides: [standing, gold_supply, power_possible]\n" in banker
    valued = banker.replace("power_possible]\n", "power_possible, value]\n", 1) + line + "\n"
    (tmp_path / "banker.yaml").write_text(valued)
    with_value = load_ruleset("capital_jux", (str(tmp_path / "banker.yaml"),))
    without = load_ruleset("capital_jux", (str(KEEP.parent.parent / "banker.yaml"),))
    loans_seen = 0
    for seed in range(6):
        a, b = Game.new(with_value, 3, seed=seed), Game.new(without, 3, seed=seed)
        bot = make_bot("random", seed=seed)
        while not a.over:
            loans = [sum(1 for _, marks in a.marks(f"hometown[{p}]") if marks.get("loan")) for p in range(3)]
            assert a.values == [v + 3 * n for v, n in zip(b.values, loans)]
            loans_seen += sum(loans)
            d = a.pending[0]
            answer = bot.choose(bot_input(bot, a, d.player), d)
            d.answer(answer)
            b.pending[0].answer(answer)
        assert a.scores == b.scores
    assert loans_seen > 0
