"""A decision's stable name (issue 38): every `choose` is ROUTINE.VARIABLE (or ROUTINE.NAME with
`named NAME`), read as `Decision.name`; a scenario's answer checks it with `decision:`, and
survives any rewording of the prompts that `prompt:` would not (docs/testing.md, "Names that no
rewording changes")."""
import re
from pathlib import Path

import pytest

from jux import Game, load_ruleset
from jux.interpreter.authoring.scenario_run import run_file
from jux.interpreter.bots.random_bot import RandomBot
from jux.interpreter.cli.main import main

ROOT = Path(__file__).resolve().parent.parent

# The names docs/testing.md lists for jux's own games, in the order of their chooses.
BUILT_IN = {
    "capital_jux": ("draft.picked", "player_turn.play", "agent.d", "cleric.d", "resolve_district.spend"),
    "guildhall": ("setup.out", "setup.placed", "take_action.what+x", "take_action.out", "choose_level.l",
                  "assassin.q", "assassin.gone", "assassin.g", "assassin.gone.2", "historian.f", "historian.found",
                  "trader.q", "trader.k+j", "swap_one.a", "swap_one.b", "weaver.one", "weaver.placed", "weaver.g",
                  "weaver.back", "weaver.placed.2", "complete_chapters.k", "buy.k", "buy.paid", "buy.use",
                  "steal_chapter.q+k", "one_for_two.q", "one_for_two.a", "one_for_two.got", "one_for_two.other",
                  "place_any.placed", "take_one.c"),
    "bruges": ("draw_phase.sixth_card", "draw_phase.k", "draw_card.k", "reputation_steps.go", "receive_threats.d",
               "plague.c", "fire.what+x", "turn.what+a+c", "play_one.a+c", "do_action.s", "recruit.d",
               "troublemaker.s", "beggar.d", "smuggler.d", "farmhand.d", "mathematician.out", "artist.a", "acrobat.s",
               "return_threat.d", "scribe.out"),
}


@pytest.mark.parametrize("name", sorted(BUILT_IN))
def test_the_built_in_games_decisions_are_named_as_documented(name):
    rules = load_ruleset(name)
    assert set(rules.decision_names) == set(BUILT_IN[name])
    assert len(rules.decision_names) == len(BUILT_IN[name])  # (one per choose, none twice)
    row = next(line for line in (ROOT / "docs" / "testing.md").read_text().splitlines()
               if line.startswith(f"| {name} | "))
    assert set(re.findall(r"`([^`]+)`", row)) == set(BUILT_IN[name])  # (docs/testing.md's table)


def _names_met(rules, players: int, seeds, direct: bool) -> set:
    met = set()
    for seed in seeds:
        bot = RandomBot(seed)
        if direct:  # the procedures run as plain functions: the decision is named all the same
            g = Game.new(rules, players, seed=seed, start=False)

            def answer(d, g=g):
                met.add(d.name)
                return bot.choose(g.view(d.player), d)
            g.autoplay(answer, direct=True)
        else:
            g = Game.new(rules, players, seed=seed)
            while not g.over:
                d = g.pending[0]
                met.add(d.name)
                g.apply(bot.choose(g.view(d.player), d), player=d.player)
    return met


@pytest.mark.parametrize("direct", [False, True], ids=["pending", "direct"])
def test_every_decision_met_in_play_has_a_name_of_its_ruleset(direct):
    rules = load_ruleset("capital_jux")
    met = _names_met(rules, 3, range(2), direct)
    assert {"draft.picked", "player_turn.play", "resolve_district.spend"} <= met <= set(BUILT_IN["capital_jux"])
    assert None not in _names_met(load_ruleset("guildhall"), 2, [0], direct)


def test_a_tile_that_replaces_the_turn_keeps_its_decision_name():
    """power_tiles.yaml replaces player_turn with a choose of other locals, (x, action, d): both
    are `named play`, so player_turn.play names the turn's decision with tiles and without."""
    rules = load_ruleset("capital_jux", ["mentalist"])
    assert "player_turn.play" in rules.decision_names and "mentalist_use.c+d" in rules.decision_names
    g = Game.new(rules, 2, seed=1)
    while g.pending[0].name == "draft.picked":
        d = g.pending[0]
        g.apply(list(range(d.min)), player=d.player)
    assert g.pending[0].name == "player_turn.play"
    assert "home base" in g.pending[0].prompt  # (the tiles' words: "into your home base")


# ---------------------------------------------------------------- scenarios

SHOP = """\
game: {{name: shop, players: {{min: 2, max: 2}}}}
cards:
  vp: {{label: "{{v}} VP", attributes: {{v: [2, 5, 9]}}}}
zones:
  market: {{visible: all, start: [vp]}}
  bought: {{visible: all, per: player}}
functions:
  score(p): sum(c.v for c in bought[p])
  buyable(p): "[c for c in market if c.v > 0]"
procedures:
  turn(p): |
    choose {what} from ["buy", "pass"] by p prompt "{ask}" label "{{{what}}}"
    if {what} == "buy" {{ buy(p) }}
  buy(p): |
    choose c from buyable(p) by p prompt "{buy}"
    move c to bought[p]
flow: |
  for p in players {{ turn(p) }}
{renamed}"""
BEFORE = dict(what="what", ask="Your turn: buy or pass?", buy="Buy which card?", renamed="")
REWORDED = dict(BEFORE, ask="Buy a card, or pass", buy="Take which card from the market?")
RENAMED = dict(REWORDED, what="action", renamed='renamed: {"turn.what": "turn.action"}\n')

BY_NAME = """\
title: shop, decisions by name
ruleset: ..
players: 2
run: turn
args: [0]
answers:
  - {player: 0, decision: turn.what, choose: buy}
  - {player: 0, decision: buy.c, choose: 9 VP}
expect:
  zones: {"bought[0]": [9 VP]}
"""
BY_PROMPT = BY_NAME.replace("decision: turn.what", "prompt: buy or pass").replace("decision: buy.c", "prompt: Buy which")


def shop(tmp_path, words: dict, scenario: str):
    (tmp_path / "game.yaml").write_text(SHOP.format(**words))
    (tmp_path / "scenarios").mkdir(exist_ok=True)
    sc = tmp_path / "scenarios" / "sc.yaml"
    sc.write_text(scenario)
    return run_file(sc)


@pytest.mark.parametrize("words", [BEFORE, REWORDED], ids=["before", "reworded"])
def test_a_scenario_by_decision_names_survives_a_rewording_of_the_prompts(tmp_path, words):
    out = shop(tmp_path, words, BY_NAME)
    assert out.status == "passed", out.report()
    assert not out.warnings


def test_the_same_scenario_by_prompts_breaks_on_that_rewording(tmp_path):
    assert shop(tmp_path, BEFORE, BY_PROMPT).status == "passed"
    out = shop(tmp_path, REWORDED, BY_PROMPT)
    assert out.status == "failed" and "the prompt (a substring)" in out.report()


def test_a_decision_other_than_the_one_pending_fails_at_its_place_with_the_name_it_has(tmp_path):
    out = shop(tmp_path, BEFORE, BY_NAME.replace("decision: buy.c", "decision: turn.what"))
    assert out.status == "failed"
    assert out.report().splitlines()[:3] == [
        f"{out.file}:8:17: answer 2: the decision (its name)",
        "  expected: 'turn.what'",
        "  actual:   'buy.c' (Buy which card?)"]


def test_a_name_of_no_decision_is_an_error_of_the_file_with_the_names_there_are(tmp_path, capsys):
    shop(tmp_path, BEFORE, BY_NAME.replace("decision: buy.c", "decision: buy.card"))
    assert main(["test", str(tmp_path / "scenarios" / "sc.yaml")]) == 1
    out = capsys.readouterr().out
    assert ("sc.yaml:8:27: answer 2: no decision 'buy.card' in these rules (did you mean 'buy.c'?); "
            "their decisions: buy.c, turn.what") in out
    assert "log:" not in out  # (nothing ran: the file names what the rules do not have)


def test_a_decision_the_rules_renamed_runs_with_a_warning_saying_which_name_to_write(tmp_path):
    out = shop(tmp_path, RENAMED, BY_NAME)
    assert out.status == "passed", out.report()
    assert [w.lines()[0] for w in out.warnings] == [
        f"{out.file}:7:27: warning: decision 'turn.what' is 'turn.action' in these rules now (they renamed it): "
        "write 'turn.action'"]
    # a template names a whole family: routine renamed, whatever its variables
    words = dict(REWORDED, renamed='renamed: {"old_turn.{x}": "turn.{x}"}\n')
    out = shop(tmp_path, words, BY_NAME.replace("decision: turn.what", "decision: old_turn.what"))
    assert out.status == "passed", out.report()
    assert "write 'turn.what'" in out.warnings[0].what


def test_an_answer_naming_another_decision_is_one_the_rules_no_longer_ask(tmp_path):
    """The rules ask turn.what only while the market is full: with a card gone, the scenario's
    answer to it is left out (with a warning), as the decision pending, buy.c, is the one the next
    answer names; an answer that names the decision pending is never left out."""
    words = dict(BEFORE)
    sc = BY_NAME.replace("run: turn", "zones: {\"bought[1]\": [2 VP]}\nrun: turn").replace(
        "[9 VP]}", "[9 VP], \"bought[1]\": [2 VP]}")
    game = SHOP.replace('    choose {what} from ["buy", "pass"] by p prompt "{ask}" label "{{{what}}}"\n',
                        '    let {what} = "buy"\n'
                        '    if len(market) == 3 {{ choose {what} from ["buy", "pass"] by p prompt "{ask}" }}\n')
    (tmp_path / "game.yaml").write_text(game.format(**words))
    (tmp_path / "scenarios").mkdir()
    f = tmp_path / "scenarios" / "sc.yaml"
    f.write_text(sc)
    out = run_file(f)
    assert out.status == "passed", out.report()
    assert [w.what for w in out.warnings] == [
        "warning: answer 1 answers a question these rules no longer ask (it has one answer, taken without asking): "
        "it is left out; remove it"]
    # answering the decision pending by its name: a wrong option fails, never left out
    f.write_text(sc.replace("{player: 0, decision: turn.what, choose: buy}",
                            "{player: 0, decision: buy.c, choose: 4 VP}"))
    out = run_file(f)
    assert out.status == "failed" and "'4 VP' is not one of the options" in out.report()
    assert not out.warnings


# ------------------------------------------------ where a choose is written names it

ROUTINES = """\
game: {name: where, players: {min: 2, max: 2}}
cards:
  n: {label: "n{v}", attributes: {v: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]}}
zones:
  deck: {visible: all, start: [n]}
  kept: {visible: all, per: player}
functions:
  score(p): len(kept[p])
  small(c): c.v < 5
procedures:
  take(p): |
    choose c from [c for c in deck if small(c)] by p prompt "A small card"
    move c to kept[p]
  draft: |
    simultaneously for p in players {
      choose (a, b) from [(x, y) for x in deck for y in ["left", "right"] if x.v > 8] by p prompt "A big card"
      move a to kept[p]
    }
  again(p): |
    choose c from deck by p
    move c to kept[p]
    choose c from deck by p named second
    move c to kept[p]
    choose c from deck by p
    move c to kept[p]
flow: |
  for r in range(2) { for p in players { take(p) } }
  draft()
  choose x from [1, 2] by 0
  again(1)
"""


@pytest.fixture
def where(tmp_path):
    (tmp_path / "game.yaml").write_text(ROUTINES)
    return load_ruleset(str(tmp_path))


def test_a_choose_is_named_by_the_routine_it_is_written_in_wherever_it_runs(where):
    """take.c in a loop of the flow (its options by a function compiled in place), draft.a+b in a
    `simultaneously` block (both seats' decisions pending at once), flow.x in the flow, and three
    chooses of one local told apart by their order, one `named`."""
    assert sorted(where.decision_names) == ["again.c", "again.c.2", "again.second", "draft.a+b", "flow.x", "take.c"]
    g = Game.new(where, 2, seed=0)
    seen = []
    while not g.over:
        ds = g.pending
        seen.append(sorted(d.name for d in ds))
        g.apply(0, player=ds[0].player)
    assert seen == [["take.c"]] * 4 + [["draft.a+b", "draft.a+b"], ["draft.a+b"], ["flow.x"],
                                       ["again.c"], ["again.second"], ["again.c.2"]]
    # the same in direct play (the procedures as plain functions, the draft's threads as generators)
    g = Game.new(where, 2, seed=0, start=False)
    names = []
    g.autoplay(lambda d: names.append(d.name) or 0, direct=True)
    assert names == ["take.c"] * 4 + ["draft.a+b"] * 2 + ["flow.x", "again.c", "again.second", "again.c.2"]


def test_an_override_keeps_the_names_of_the_definition_it_replaces(tmp_path):
    """A tile's override that calls previous(...) asks its own choose after the routine's: the
    routine's keeps take.c, the override's binding the same local is numbered after it."""
    (tmp_path / "where").mkdir()
    (tmp_path / "where" / "game.yaml").write_text(ROUTINES)
    (tmp_path / "more.yaml").write_text("""\
variant: {name: more, game: where, overrides: [take]}
procedures:
  take(p): |
    previous(p)
    choose c from deck by p prompt "Another card"
    move c to kept[p]
""")
    rules = load_ruleset(str(tmp_path / "where"), [str(tmp_path / "more.yaml")])
    assert "take.c" in rules.decision_names and "take.c.2" in rules.decision_names
    g = Game.new(rules, 2, seed=0)
    assert g.pending[0].name == "take.c"
    g.apply(0, player=g.pending[0].player)
    assert g.pending[0].name == "take.c.2" and g.pending[0].prompt == "Another card"


def test_simultaneous_decisions_answered_by_name_in_a_scenario(tmp_path):
    (tmp_path / "game.yaml").write_text(ROUTINES)
    (tmp_path / "scenarios").mkdir()
    f = tmp_path / "scenarios" / "draft.yaml"
    f.write_text("""\
title: the draft, by decision names
ruleset: ..
players: 2
run: draft
answers:
  - {player: 1, decision: draft.a+b, choose: 0}
  - {player: 0, decision: draft.a+b, choose: 2}
expect:
  sizes: {"kept[0]": 1, "kept[1]": 1}
""")
    out = run_file(f)
    assert out.status == "passed", out.report()


def test_a_decision_without_a_prompt_still_reads_choose(where):
    g = Game.new(where, 2, seed=0)
    while g.pending[0].name != "flow.x":
        g.apply(0, player=g.pending[0].player)
    assert g.pending[0].prompt == "Choose"
