"""Errors before a game starts: the types validate infers (wrong types, attributes of what is not
a card), slot keys, hook points, variant clashes, routines never used, and where each is told."""
import textwrap
from pathlib import Path

import pytest

from jux.interpreter.engine.game import Game
from jux.interpreter.engine.ruleset import load_ruleset, RuleRuntimeError
from jux.interpreter.errors import RuleErrors

GAME = """\
game: {name: typed, players: {min: 2, max: 3}, language: 2}  # (the checks tightened since 1 are errors)
constants:
  colours: [blue, pink]
cards:
  c: {label: "{colour} {value}", attributes: {colour: [blue, pink], value: [1, 2, 3]}}
zones:
  deck: {visible: none, start: [c]}
  pile: {visible: all}
  hand: {per: player, visible: owner}
counters:
  gold: {per: player, start: 0}
  stock: {per: colours, start: 0}
  leader: {start: 0, seat: true}
marks:
  tapped: {default: false}
slots:
  power: {blue: gain, pink: gain}
functions:
  score(p): gold[p]
procedures:
  gain(p): |
    gold[p] += 1
flow: |
  shuffle deck
  for p in players {
    CODE
  }
"""


def ruleset(tmp_path, code="log \"ok\"", game=GAME, **replace):
    text = game.replace("CODE", textwrap.indent(textwrap.dedent(code).strip(), "    ").lstrip())
    for old, new in replace.items():
        text = text.replace(old, new)
    folder = tmp_path / "typed"
    folder.mkdir(exist_ok=True)
    (folder / "game.yaml").write_text(text)
    return folder, text


def at(text, needle, nth=0):
    """(line, col) of the nth needle in text, 1-based (of the place marked '^' in the needle)."""
    mark = max(needle.find("^"), 0)
    needle = needle.replace("^", "")
    i = -1
    for _ in range(nth + 1):
        i = text.index(needle, i + 1)
    i += mark
    line = text.count("\n", 0, i) + 1
    return line, i - (text.rfind("\n", 0, i) + 1) + 1


def errors_of(folder, variants=()):
    with pytest.raises(RuleErrors) as e:
        load_ruleset(folder, variants)
    return e.value.errors


def one_error(tmp_path, code, **kw):
    folder, text = ruleset(tmp_path, code, **kw)
    errs = errors_of(folder)
    assert len(errs) == 1, [str(x) for x in errs]
    return errs[0], text


@pytest.mark.parametrize("code, needle, message", [
    ('gold[p] += "one"', '"one"', "'+=' cannot add a text to counter 'gold', which holds a number"),
    ('gold[p] = "one"', '"one"', "counter 'gold' holds a number, not a text"),
    ('draw "one" from deck to hand[p]', '"one"', "'draw' takes a number of cards, not a text"),
    ("log \"{top(deck).colour == 3}\"", "top(deck).colour ==", "'==' compares a text with a number: they are never equal"),
    ('if "a" < 3 { log "x" }', '"a" <', "'<' cannot compare a text with a number"),
    ('log "{p.colour}"', "colour}", "a seat has no attribute 'colour' (only cards have attributes)"),
    ("let q = p\nlog \"{q.colour}\"", "colour}", "a seat has no attribute 'colour' (only cards have attributes)"),
    ("let v = top([]).value", "top([]).^value", "this is always none: it has no attribute 'value'"),
    ("let v = 1 + \"a\"", "1 +", "'+' adds two numbers, joins two texts or two lists, not a number and a text"),
    ("let v = p + 1", "p +", "'+' adds two numbers, joins two texts or two lists, not a seat and a number"),
    ("let v = -\"a\"", "-\"a\"", "'-' needs a number, not a text"),
    ("move 3 to pile", "3 to", "'move' moves a card or a list of cards, not a number"),
    ("reveal top(deck) to \"x\"", '"x"', "'reveal ... to' names a player (a seat), not a text"),
    ('choose c from hand[p] by "x"', '"x"', "'by' names the player who decides (a seat), not a text"),
    ("choose c from 3 by p", "3 by", "'choose ... from' needs a list, not a number"),
    ('choose c from hand[p] by p pick "two"', '"two"', "'pick' takes a number, not a text"),
    ("for x in 5 { log \"x\" }", "5 {", "'for' needs a list, not a number"),
    ("let (a, b) = (1, 2, 3)", "(1, 2, 3)", "(a, b) takes apart a tuple of 2 values, not a tuple (number, number, number)"),
    ("let s = sum(c.colour for c in deck)", "c.colour for", "'sum' takes a list of numbers, not a list of texts"),
    ("let s = len(3)", "3)", "'len' takes a list of values, not a number"),
    ("let s = next_seat(\"x\")", '"x"', "'next_seat' takes a seat, not a text"),
    ("let m = max_by(deck, c -> c.value + \"x\")", "c.value +", "'+' adds two numbers, joins two texts or two lists, not a number and a text"),
    ("stock[p] += 1", "stock[^p]", "counter 'stock' is indexed by an item of 'colours' (a text), not a seat"),
    ('let h = hand["blue"]', '"blue"', "zone 'hand' is indexed by a seat, not a text"),
    ("let v = [1, 2][\"a\"]", '"a"', "a list is indexed by a number (or a seat), not a text"),
    ("let v = 3[0]", "3[0]", "a number cannot be indexed"),
    ('let v = "x" in 3', '"x" in', "'in' looks in a list (or a text), not in a number"),
    ('let v = "x" in [1, 2]', '"x" in', "'in' looks for a text among numbers: it is never there"),
    ("set p.tapped = true", "tapped =", "'set' puts a mark on a card, not on a seat"),
    ('power[3](p)', "3](", "the keys of slot 'power' are texts, not numbers"),
    ("leader = \"x\"", '"x"', "counter 'leader' holds a seat, not a text"),
])
def test_wrong_types_are_told_where_they_are(tmp_path, code, needle, message):
    e, text = one_error(tmp_path, code)
    assert e.message == message
    assert (e.pos.line, e.pos.col) == at(text, needle, nth=1 if needle.startswith("colour") else 0)
    assert e.pos.file.endswith("typed/game.yaml")


@pytest.mark.parametrize("code", [
    "let v = top(deck).value + 1",  # the deck may hold a card: known when the game runs
    "let c = top(deck)\nif c != none and c.value > 1 { move c to pile }",
    "let best = none\nfor c in deck { if best == none or c.value > best { best = c.value } }",
    "draw 2 from deck to hand[0]\nlet h = hand[0]",  # a number names a seat
    "let xs = [(1, \"a\")] + [(2, none)]\nfor (n, t) in xs { log \"{n} {t}\" }",
    "let xs = []\nxs = xs + [p]\nlet q = first(xs)\nif q != none { gold[q] += 1 }",
    "let n = max(c.value for c in deck)\nif n != none and n > 2 { log \"{n}\" }",
    "choose cs from hand[p] by p pick 2\nmove cs to pile",
    "power[top(deck).colour](p)",
    "stock[\"blue\"] += gold[p]",
    "let t = sort_by(deck, c -> c.value)\nlet v = top(t).value",
    "let k = if leader == p then 1 else 0",
])
def test_what_is_right_passes(tmp_path, code):
    folder, _ = ruleset(tmp_path, code)
    load_ruleset(folder)


def test_a_parameter_holds_what_its_calls_pass(tmp_path):
    folder, text = ruleset(tmp_path, "log twice(\"a\")",
                           **{"  score(p): gold[p]\n": "  score(p): gold[p]\n  twice(x): x - 1\n"})
    errs = errors_of(folder)
    assert [str(e) for e in errs] == [f"{errs[0].pos.file}:{':'.join(map(str, at(text, 'x - 1')))}: "
                                      "'-' subtracts numbers, not a text and a number"]


def test_reading_an_attribute_of_an_empty_lists_top_in_score(tmp_path):
    folder, text = ruleset(tmp_path, **{"score(p): gold[p]": "score(p): top([]).value"})
    (e,) = errors_of(folder)
    assert e.message == "this is always none: it has no attribute 'value'"
    assert (e.pos.line, e.pos.col) == at(text, "value\n")


def test_an_attribute_no_card_kind_has(tmp_path):
    e, text = one_error(tmp_path, 'log "{top(deck).color}"')
    assert e.message == "unknown card attribute 'color' (did you mean 'colour'?)"
    assert (e.pos.line, e.pos.col) == at(text, "color}")


def test_a_stray_word_is_told_on_its_own_line(tmp_path):
    e, text = one_error(tmp_path, "shuffle deck now\nlog \"x\"")
    assert e.message == ("syntax error: unexpected 'now' (a statement that starts with a name is a call, "
                         "now(...), or an assignment, now = ...)")
    assert (e.pos.line, e.pos.col) == at(text, "now")
    e, text = one_error(tmp_path, "log \"x\"\nshuffle deck now")  # the last word of the block
    assert (e.pos.line, e.pos.col) == at(text, "now")


def test_a_type_error_known_only_when_the_game_runs_names_the_rule(tmp_path):
    # top(pile) may be a card: validate lets it pass; the game finds the pile empty
    folder, text = ruleset(tmp_path, "log \"{top(pile).value}\"")
    rules = load_ruleset(folder)
    with pytest.raises(RuleRuntimeError) as e:
        Game.new(rules, players=2, seed=1)
    line, col = at(text, "log \"{top(pile)")
    assert str(e.value).startswith(f"{rules.spec.where[('flow', '')].file}:{line}:{col}: a value is none where "
                                   "a card or number is needed")


# ---------------------------------------------------------------- variants of capital_jux


def tile(tmp_path, body, name="spy"):
    path = tmp_path / f"{name}.yaml"
    text = (f"variant:\n  name: {name}\n  game: capital_jux\n  language: 2\n  requires: [power_tiles]\n"
            + textwrap.dedent(body))  # (language 2: the checks tightened since language 1 are errors)
    path.write_text(text)
    return path, text


def tile_errors(path):
    errs = errors_of("capital_jux", [str(path)])
    return [(e.pos.file.split("/")[-1], e.pos.line, e.pos.col, e.message) for e in errs]


def test_a_slot_key_the_slot_does_not_have(tmp_path):
    path, text = tile(tmp_path, """\
        slots:
          power: {blue: spy, yelow: spy}
        procedures:
          spy(p, card): |
            log "{p} spies."
        """)
    assert tile_errors(path) == [("spy.yaml", *at(text, "yelow"),
                                  "slot 'power' has no key 'yelow' (did you mean 'yellow'?); its keys: blue, pink, "
                                  "yellow, green")]


def test_a_slot_naming_a_misspelt_procedure_is_told_in_the_tile(tmp_path):
    path, text = tile(tmp_path, """\
        slots:
          power: {blue: spyy}
        procedures:
          spy(p, card): |
            log "{p} spies."
        """)
    assert tile_errors(path) == [("spy.yaml", *at(text, "spyy"),
                                  "slot 'power' key 'blue' names unknown procedure 'spyy' (did you mean 'spy'?)")]


def test_previous_with_the_wrong_number_of_arguments_names_the_authors_routine(tmp_path):
    path, text = tile(tmp_path, """\
          overrides: [max_of]
        slots:
          power: {blue: spy}
        functions:
          max_of(d): previous(d, 1) + 1
        procedures:
          spy(p, card): |
            log "{p} spies."
        """)
    assert tile_errors(path) == [("spy.yaml", *at(text, "previous("),
                                  "'previous(...)' (the 'max_of' this overrides) takes 1 argument, not 2")]


def test_overriding_what_is_not_a_hook_point(tmp_path):
    path, text = tile(tmp_path, """\
          overrides: [town_valu, town_value]
        functions:
          town_valu(p): "1"
          town_value(p): "0"
        """)
    assert tile_errors(path) == [("spy.yaml", *at(text, "town_value]"), "variant 'spy' overrides 'town_value', which is not a hook point "
            "of power_tiles; its hook points: setup, prepare_next_round, card_places, lay_down_district, play_home, "
            "play_capital, turn_options, turn_unavailable, take_action, resolve, resolve_district, resolve_home, "
            "score_bonus_all, gain_gold, max_of, val, home_districts, kept, standing, score, value, gold_supply, "
            "power_possible, power_hint, district_max, end_of_round"), ("spy.yaml", *at(text, "town_valu(p)"), "variant 'spy' overrides 'town_valu', but the "
            "rules define no function 'town_valu' (did you mean 'town_value'?)")]


def test_a_hook_point_that_does_not_exist(tmp_path):
    path = tmp_path / "edition.yaml"
    text = "variant:\n  name: edition\n  game: capital_jux\n  hooks: [setup, prepare_next_rond]\n"
    path.write_text(text)
    assert tile_errors(path) == [("edition.yaml", *at(text, "prepare_next_rond"),
                                  "variant 'edition' offers the hook point 'prepare_next_rond', but no function or "
                                  "procedure is called 'prepare_next_rond' (did you mean 'prepare_next_round'?)")]


def test_two_variants_on_one_slot_key_through_requires(tmp_path):
    path, text = tile(tmp_path, """\
        slots:
          power: {blue: spy}
        procedures:
          spy(p, card): |
            log "{p} spies."
        """)
    text = text.replace("requires: [power_tiles]", "requires: [power_tiles, agent]")
    path.write_text(text)
    (err,) = tile_errors(path)
    assert err[:3] == ("spy.yaml", *at(text, "blue"))
    assert err[3].startswith("variants 'agent' (at variants/capital_jux/rebels/agent.yaml:")
    assert err[3].endswith(") and 'spy' both fill slot 'power' key 'blue': a game takes one of them")


def test_a_routine_never_used_is_a_warning_with_the_hook_point_meant(tmp_path, run):
    path, text = tile(tmp_path, """\
        slots:
          power: {blue: spy}
        procedures:
          spy(p, card): |
            log "{p} spies."
          prepare_next_rond: |
            log "x"
        """)
    p = run("validate", path)
    assert p.returncode == 0
    line, col = at(text, "prepare_next_rond")
    assert p.stderr == (f"spy.yaml:{line}:{col}: warning: procedure 'prepare_next_rond' is never used: nothing that "
                        "runs calls it (did you mean 'prepare_next_round', a hook point? list it under "
                        "variant.overrides)\n")
    assert p.stdout.startswith("ok: spy.yaml (") and p.stdout.endswith(", 1 warning)\n")


def test_a_function_nothing_calls(tmp_path):
    folder, text = ruleset(tmp_path, **{"  score(p): gold[p]\n": "  score(p): gold[p]\n  helper(p): \"1\"\n"})
    spec = load_ruleset(folder).spec
    assert [(w.pos.line, w.pos.col, w.message) for w in spec.warnings] == [
        (*at(text, "helper"), "function 'helper' is never used: nothing that runs calls it")]


# ---------------------------------------------------------------- the games


@pytest.mark.parametrize("game", ["capital_jux", "guildhall", "bruges"])
def test_the_games_validate_clean(game):
    assert load_ruleset(game).spec.warnings == []


TILES = ["agent", "infiltrator", "recruiter", "outsider", "cleric", "doomsayer", "missionary", "mentalist",
         "merchant", "follower", "aristocrat", "sentinel", "scholar", "convertor", "discoverer", "dualist"]


@pytest.mark.parametrize("i", range(4))
def test_every_tile_validates_clean(i):
    tiles = [TILES[4 * k + (i + k) % 4] for k in range(4)]  # one per colour, each tile once in all
    assert load_ruleset("capital_jux", tiles).spec.warnings == []


def test_the_example_of_the_docs_is_real(tmp_path, run):
    (tmp_path / "banker.yaml").write_text(textwrap.dedent("""\
        variant:
          name: banker
          game: capital_jux
          language: 2
          requires: [power_tiles]
        slots:
          power: {yelow: banker}
        procedures:
          banker(p, card): |
            gold[p] += "one"
            draw "one" from deck to hand[p]
            for q in players { log "{q} has {q.colour}" }
        """))
    doc = (Path(__file__).resolve().parent.parent / "docs" / "language.md").read_text()
    shown = doc.split("$ jux validate banker.yaml\n", 1)[1].split("```", 1)[0]
    p = run("validate", "banker.yaml")
    assert p.returncode == 1 and p.stdout == "" and p.stderr == shown


@pytest.mark.parametrize("code, needle, message", [
    ("set top(deck).tapped = 3", "3", "mark 'tapped' holds true or false, not a number"),
    ('choose c from hand[p] by p unavailable [1, 2]', "[1, 2]", "'unavailable' lists (thing, reason) pairs, not numbers"),
])
def test_marks_and_unavailable_pairs(tmp_path, code, needle, message):
    e, text = one_error(tmp_path, code)
    assert (e.pos.line, e.pos.col, e.message) == (*at(text, needle, nth=text.count(needle) - 1), message)


def test_a_mark_may_be_set_to_what_its_default_is_or_none(tmp_path):
    folder, _ = ruleset(tmp_path, "set top(deck).tapped = true\nset top(deck).tapped = none")
    load_ruleset(folder)


@pytest.mark.parametrize("code, needle, message", [
    ('let m = min(1, "a")', '"a"', "'min' compares its arguments, and a number and a text cannot be compared"),
    ("let v = (1, 2)[5]", "5]", "a tuple (number, number) has no item 5 (its items are 0 to 1)"),
    ("let s = slot_name(power, 3)", "3)", "the keys of slot 'power' are texts, not numbers"),
])
def test_built_ins_and_tuples(tmp_path, code, needle, message):
    e, text = one_error(tmp_path, code)
    assert (e.pos.line, e.pos.col, e.message) == (*at(text, needle, nth=text.count(needle) - 1), message)


def test_a_counter_of_numbers_given_a_seat_is_told_to_say_seat_true(tmp_path):
    folder, text = ruleset(tmp_path, "round = p\nround = none", **{"  leader:": "  round: 0\n  leader:"})
    (e,) = errors_of(folder)
    assert (e.pos.line, e.pos.col) == at(text, "round = ^p")
    assert e.message == "counter 'round' holds a number, not a seat (a counter that holds a seat says seat: true)"


def test_a_built_in_with_several_signatures_takes_any_of_them(tmp_path):
    folder, _ = ruleset(tmp_path, 'let n = len("abc") + len(deck) + max(1, 2) + max([1, 2]) + len(range(2, 5))')
    load_ruleset(folder)
