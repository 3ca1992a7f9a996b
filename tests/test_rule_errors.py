"""Every kind of bad rule input gets a clear one-line error `path:line:column: message`, all of
a ruleset's errors at once, and never a traceback. Each test writes a small valid ruleset to
tmp_path with one thing changed, and computes the expected position from the file's text."""
from __future__ import annotations

import pytest

from jux.interpreter.engine.ruleset import load_ruleset
from jux.interpreter.errors import RuleError, RuleErrors

BASE = """\
game:
  name: tiny
  players: {min: 1, max: 3}
constants:
  colours: [red, blue]
  limit: 3
cards:
  num:
    label: "{colour} {value}"
    attributes:
      colour: [red, blue]
      value: [1, 2, 3]
zones:
  deck: {visible: none, start: [num]}
  table: {visible: all}
  hand: {per: player, visible: owner}
  piles: {per: colours, visible: all}
counters:
  round: 0
  gold: {per: player, start: 0}
marks:
  tapped: {default: false}
slots:
  power: {red: gain, blue: gain}
functions:
  score(p): gold[p] + len(hand[p])
procedures:
  gain(p): |
    gold[p] += 1
  main: |
    shuffle deck
    draw 2 from deck to hand[0]
flow: |
  main()
"""
BODY = "    draw 2 from deck to hand[0]\n"  # the last line of procedure main


def edit(old: str, new: str, text: str = BASE) -> str:
    assert text.count(old) == 1, f"{old!r} is not once in the text"
    return text.replace(old, new)


def with_code(code: str) -> str:
    """BASE with lines of effect code added at the end of procedure main."""
    return edit(BODY, BODY + "".join(f"    {line}\n" for line in code.split("\n")))


def write(tmp_path, files) -> object:
    d = tmp_path / "rules"
    d.mkdir(exist_ok=True)
    for name, text in files.items():
        (d / name).write_bytes(text.encode("utf-8"))
    return d


def errors(tmp_path, text) -> list:
    """Load the ruleset; it must fail with RuleErrors (and nothing else): returns its errors."""
    d = write(tmp_path, text if isinstance(text, dict) else {"game.yaml": text})
    with pytest.raises(RuleErrors) as e:
        load_ruleset(d)
    errs = e.value.errors
    for err in errs:  # each is one line: path:line:col: message
        assert isinstance(err, RuleError) and err.pos is not None and "\n" not in str(err)
        assert str(err) == f"{err.pos.file}:{err.pos.line}:{err.pos.col}: {err.message}"
    assert str(e.value) == "\n".join(str(x) for x in errs)
    return errs


def error(tmp_path, text) -> RuleError:
    errs = errors(tmp_path, text)
    assert len(errs) == 1, [str(e) for e in errs]
    return errs[0]


def at(text: str, needle: str, nth: int = 1, shift: int = 0, after: str | None = None) -> tuple:
    """(line, col) of the nth occurrence of needle in text (after the text `after`, if given),
    moved right by shift characters."""
    i = text.index(after) + len(after) - 1 if after else -1
    for _ in range(nth):
        i = text.index(needle, i + 1)
    i += shift
    return text.count("\n", 0, i) + 1, i - (text.rfind("\n", 0, i) + 1) + 1


def where(e: RuleError) -> tuple:
    return e.pos.line, e.pos.col


def test_the_base_ruleset_is_valid(tmp_path):
    rules = load_ruleset(write(tmp_path, {"game.yaml": BASE}))
    assert rules.name == "tiny"


# ---------------------------------------------------------------- YAML


@pytest.mark.parametrize("old, new, needle, message", [
    ("  table: {visible: all}\n", "  table: {visible: all}\n bad: 1\n", "bad: 1", "bad indentation"),
    ('label: "{colour} {value}"', 'label: "{colour} {value}', '"{colour}', "quoted text is never closed"),
    ("colours: [red, blue]", "colours: [red, blue", "[red", "'[' is never closed by ']'"),
    ("players: {min: 1, max: 3}", "players: {min: 1, max: 3", "{min", "'{' is never closed by '}'"),
    ("  limit: 3", "\tlimit: 3", "\tlimit", "a tab character; indent with spaces"),
    ("  limit: 3", "  limit: 3: 4", ": 4", "':' is not allowed here"),
])
def test_yaml_syntax_errors(tmp_path, old, new, needle, message):
    text = edit(old, new)
    e = error(tmp_path, text)
    assert e.message.startswith("YAML syntax error: ") and message in e.message
    assert where(e) == at(text, needle)
    assert e.pos.file.endswith("game.yaml")


def test_duplicate_key(tmp_path):
    text = edit("players: {min: 1, max: 3}", "players: {min: 1, max: 3, min: 2}")
    e = error(tmp_path, text)
    assert e.message == "duplicate key 'min'" and where(e) == at(text, "min: 2")


def test_a_file_must_be_a_mapping(tmp_path):
    e = error(tmp_path, "- just\n- a list\n")
    assert "must be a mapping of sections" in e.message and where(e) == (1, 1)


def test_control_characters_are_refused(tmp_path):
    text = edit("limit: 3", "limit: \x07")
    e = error(tmp_path, text)
    assert "#x0007" in e.message and where(e) == at(text, "\x07")


@pytest.mark.parametrize("tagged", [
    '!!python/object/apply:os.system ["touch {marker}"]',
    "!!python/object/apply:builtins.exec ['open(r\"{marker}\", \"w\")']",
    "!!python/name:os.system",
    "!!python/object:argparse.Namespace {{x: 1}}",
])
def test_no_rule_file_can_run_python(tmp_path, tagged):
    marker = tmp_path / "ran"
    value = tagged.format(marker=marker)
    text = edit("limit: 3", f"limit: {value}")
    e = error(tmp_path, text)
    assert e.message.startswith("YAML tag '!!python/") and "not allowed" in e.message
    assert where(e) == at(text, "!!python")
    assert not marker.exists()


def test_custom_and_unusual_tags_are_refused(tmp_path):
    text = edit("limit: 3", "limit: !roll 3").replace("colours: [red, blue]", "colours: !!set {red, blue}")
    errs = errors(tmp_path, text)
    assert [(where(e), e.message.split(" is not")[0]) for e in errs] == [
        (at(text, "!!set"), "YAML tag '!!set'"), (at(text, "!roll"), "YAML tag '!roll'")]


def test_plain_yaml_tags_and_anchors_still_work(tmp_path):
    text = edit("limit: 3", "limit: !!int '3'").replace(
        "  table: {visible: all}", "  table: &shown {visible: all}\n  shown_too: *shown")
    rules = load_ruleset(write(tmp_path, {"game.yaml": text}))
    assert rules.spec.constants["limit"] == 3 and rules.spec.zones["shown_too"] == {"visible": "all"}


# ---------------------------------------------------------------- schema


def test_unknown_section(tmp_path):
    text = edit("flow: |", "rules: 1\nflow: |")
    e = error(tmp_path, text)
    assert e.message.startswith("unknown section 'rules' (allowed: game, constants, cards, zones")
    assert where(e) == at(text, "rules:")
    text = edit("zones:", "zone:")
    e = errors(tmp_path, text)[0]
    assert e.message == "unknown section 'zone' (did you mean 'zones'?)"


@pytest.mark.parametrize("old, new, key", [
    ("table: {visible: all}", "table: {visible: all, height: 3}", "height"),
    ("table: {visible: all}", "table:\n    visible: all\n    height: 3", "height"),
    ("table: {visible: all}", "table: {visible: all, visibel: all}", "visibel"),
])
def test_unknown_key_in_a_zone_points_at_the_key(tmp_path, old, new, key):
    text = edit(old, new)
    e = error(tmp_path, text)
    assert where(e) == at(text, f"{key}:")
    assert e.message.startswith(f"zones.table: unknown key '{key}'")
    if key == "height":
        assert e.message.endswith("(allowed: per, most, visible, start, group, text, title, total, adds, limit, limit_title, size, sort, played_by)")
    else:
        assert e.message.endswith("(did you mean 'visible'?)")


def test_missing_required_keys(tmp_path):
    text = edit("  name: tiny\n", "")
    e = error(tmp_path, text)
    assert e.message == "game: 'name' is missing (required)" and where(e) == at(text, "game:")
    text = edit("table: {visible: all}", "table: {text: The table}")
    e = error(tmp_path, text)
    assert e.message == "zones.table: 'visible' is missing (required)" and where(e) == at(text, "table:")


def test_wrong_types(tmp_path):
    text = edit("name: tiny", "name: [tiny]")
    e = error(tmp_path, text)
    assert e.message == "game.name: expected a string, found a list" and where(e) == at(text, "[tiny]")
    text = edit("players: {min: 1, max: 3}", "players: {min: 0, max: three}")
    errs = errors(tmp_path, text)
    assert [e.message for e in errs] == ["game.players.min: must be at least 1, found 0",
                                         "game.players.max: expected an integer, found 'three'"]
    text = edit("value: [1, 2, 3]", "value: []")
    assert error(tmp_path, text).message == "cards.num.attributes.value: the list must not be empty"


def test_enum_lists_the_allowed_values(tmp_path):
    text = edit("table: {visible: all}", "table: {visible: sometimes}")
    e = error(tmp_path, text)
    assert e.message == "zones.table.visible: 'sometimes' is not one of all, owner, none, top"
    assert where(e) == at(text, "sometimes")


def test_bad_names_and_signatures_point_at_the_key(tmp_path):
    text = edit("score(p):", "score(p q):")
    e = error(tmp_path, text)
    assert e.message == ("functions: 'score(p q)' is not a valid signature: write 'name' or 'name(a, b)' "
                         "with names for the parameters")
    assert where(e) == at(text, "score(p q)")
    text = edit("  table:", "  the-table:")
    e = error(tmp_path, text)
    assert e.message.startswith("zones: 'the-table' is not a valid name") and where(e) == at(text, "the-table")
    text = edit("  gain(p): |", "  gain(p, p): |")
    e = error(tmp_path, text)
    assert "repeats a parameter name" in e.message and where(e) == at(text, "gain(p, p)")


@pytest.mark.parametrize("new, message, needle", [
    ("round: [1]", "counters.round: expected a string, an integer, true/false, nothing or a mapping "
                   "(keys: start, per, text, seat, show, track, visible), found a list", "[1]"),
    ("round: {start: 0, step: 1}", "counters.round: unknown key 'step' (allowed: start, per, text, seat, show, track, visible)", "step"),
    ("round: {start: [0]}", "counters.round.start: expected an integer, a string, true/false or nothing, "
                            "found a list", "[0]"),
])
def test_counter_messages_for_scalar_or_mapping(tmp_path, new, message, needle):
    text = edit("round: 0", new)
    e = error(tmp_path, text)
    assert e.message == message and where(e) == at(text, needle)


@pytest.mark.parametrize("new, message, needle", [
    ("  main: 3\n  other: |", "procedures.main: expected a string or a mapping (keys: do, text), found 3 "
                            "(effect code is text: write it in quotes, '3')", "3\n  other"),
    ("  main: {text: Hi}\n  other: |", "procedures.main: 'do' is missing (required)", "main:"),
    ("  main: {do: main2(), txt: Hi}\n  other: |", "procedures.main: unknown key 'txt' (did you mean 'text'?)", "txt"),
])
def test_procedure_messages_for_code_or_mapping(tmp_path, new, message, needle):
    text = edit("  main: |", new)
    e = errors(tmp_path, text)[0]
    assert e.message == message and where(e) == at(text, needle)


@pytest.mark.parametrize("body, word", [("0", "0"), ("true", "true"), ("2.5", "2.5")])
def test_a_function_body_yaml_reads_as_a_number_or_yes_no_is_told_to_be_quoted(tmp_path, body, word):
    text = edit("score(p): gold[p] + len(hand[p])", f"score(p): {body}")
    e = error(tmp_path, text)
    assert e.message.endswith(f"(effect code is text: write it in quotes, '{word}')"), e.message
    assert e.message.startswith("functions.score(p): expected a string")
    assert where(e) == at(text, f"score(p): {body}", shift=len("score(p): "))


# ---------------------------------------------------------------- effect code syntax


def test_syntax_error_in_a_block_procedure_body(tmp_path):
    text = with_code("let x = 3\nif x > 1 { move }")
    e = error(tmp_path, text)
    assert e.message == "syntax error: unexpected '}'; expected an expression"
    assert where(e) == at(text, "}", after=BODY)


def test_syntax_error_in_a_do_block_and_the_flow(tmp_path):
    text = edit("  main: |\n    shuffle deck\n    draw 2 from deck to hand[0]\n",
                "  main:\n    text: Shuffle.\n    do: |\n      shuffle deck @\n      draw 2 from deck to hand[0]\n")
    e = error(tmp_path, text)
    assert e.message == "syntax error: unexpected character '@'" and where(e) == at(text, "@")
    text = edit("  main()\n", "  main()\n  main(\n")
    e = error(tmp_path, text)
    assert e.message.startswith("syntax error: the code ends too early; expected ")
    assert where(e) == at(text, "main(\n", shift=5)


@pytest.mark.parametrize("function", [
    'score(p): "gold[p] + + len(hand[p])"',
    "score(p): 'gold[p] + + len(hand[p])'",
    "score(p): gold[p] + + len(hand[p])",
    "score(p): >-\n    gold[p] +\n    + len(hand[p])",
    "score(p): gold[p]\n    + + len(hand[p])",
    'score(p): "gold[p] \\\n    + + len(hand[p])"',
])
def test_syntax_error_in_a_one_line_function(tmp_path, function):
    text = edit("score(p): gold[p] + len(hand[p])", function)
    e = error(tmp_path, text)
    assert e.message == "syntax error: unexpected '+'; expected an expression"
    assert where(e) == at(text, "+ len")


def test_positions_survive_yaml_escapes(tmp_path):
    text = edit("score(p): gold[p] + len(hand[p])",
                "score(p): \"len([c for c in hand[p] if c.colour == \\\"r\\u00e9d\\\"]) ? 1\"")
    e = error(tmp_path, text)
    assert e.message == "syntax error: unexpected character '?'" and where(e) == at(text, "?")
    text = edit("score(p): gold[p] + len(hand[p])", "score(p): 'len(hand[p]) + ''x'''")
    e = error(tmp_path, text)
    assert e.message == "syntax error: unexpected character \"'\" (strings are written in double quotes)"
    assert where(e) == at(text, "''x")


def test_positions_with_windows_line_ends(tmp_path):
    text = with_code("let x = 3 +")
    e = error(tmp_path, text.replace("\n", "\r\n"))
    assert where(e) == at(text, "3 +", shift=3)


@pytest.mark.parametrize("log, needle, message", [
    ('log "a {1 +} b"', "} b", "syntax error: unexpected '}'; expected an expression"),
    ('log "a {x} b {y z}"', "z}", "syntax error: unexpected 'z'; expected '}'"),
    ('log "a {x b"', "{x", "'{' in a string is not closed by '}' (write '{{' for a brace)"),
    ('log "a {} b"', "{}", "'{}' in a string needs an expression inside (write '{{' for a brace)"),
])
def test_syntax_error_inside_a_string_interpolation(tmp_path, log, needle, message):
    text = with_code(f"let x = 1\n{log}")
    e = error(tmp_path, text)
    assert e.message == message and where(e) == at(text, needle, after=BODY)


def test_syntax_error_inside_an_interpolation_in_a_quoted_function(tmp_path):
    text = edit("score(p): gold[p] + len(hand[p])", "score(p): gold[p]\n  name(p): '\"Player {p +}\"'")
    e = error(tmp_path, text)
    assert e.message == "syntax error: unexpected '}'; expected an expression"
    assert where(e) == at(text, "}\"'")


@pytest.mark.parametrize("code, needle, message", [
    ("let x = 1 == 2 == 3", "== 3", "(comparisons cannot be chained: write 'a < b and b < c')"),
    ("if round = 1 { }", "= 1", "(compare with '==')"),
    ("let f = c -> c.value", "-> c", "syntax error: a key 'x -> ...' is only allowed as the last argument"),
    ("let x = 1\n}", "}\n", "syntax error: unexpected '}'; expected a statement or the end of the code"),
    ("let x = 3 4", "4\n", "syntax error: unexpected '4'; expected an operator, a statement or the end of the code"),
    ("move top(deck) too table", "too", "syntax error: unexpected 'too'; expected"),
    ("let s = 'x'", "'x'", "(strings are written in double quotes)"),
    ("if a && b { }", "&&", "(write 'and')"),
    # an expression left unfinished at a line's end: told at the operator, not where the next line stumbles
    ("let x = 1 +\nif x > 0 { }", "+\n", "syntax error: '+' ends the line, so the next line is read as "
                                          "what it applies to: finish the expression on this line"),
    ("let x = 1 and  # a comment\nshuffle deck", "and ", "syntax error: 'and' ends the line"),
])
def test_readable_syntax_errors(tmp_path, code, needle, message):
    text = with_code(code)
    e = error(tmp_path, text)
    assert message in e.message and where(e) == at(text, needle, after=BODY)
    assert "__ANON" not in e.message and "$END" not in e.message


# ---------------------------------------------------------------- static checks


@pytest.mark.parametrize("code, needle, message", [
    ("let total = 1\nround = totl", "totl", "unknown name 'totl' (did you mean 'total'?)"),
    ("rond = 2", "rond", "unknown name 'rond': declare a local with 'let' or a counter (did you mean 'round'?)"),
    ("let x = limt", "limt", "unknown name 'limt' (did you mean 'limit'?)"),
    ("move top(deck) to tabel", "tabel", "'move ... to' needs a zone here; 'tabel' is not one (did you mean 'table'?)"),
    ("shuffle limit", "limit\n", "'shuffle' needs a zone here; 'limit' is a constant"),
    ("mian()", "mian", "unknown procedure 'mian' (did you mean 'main'?)"),
    ("let s = scor(0)", "scor", "unknown function 'scor' (did you mean 'score'?)"),
    ("let v = top(deck).valeu", "valeu", "unknown card attribute 'valeu' (did you mean 'value'?)"),
    ("set top(deck).taped = true", "taped", "'taped' is not a declared mark (marks: section) (did you mean 'tapped'?)"),
    ("set top(deck).value = 3", "value =", "'value' is a card attribute, which cannot change"),
    ("powr[1](0)", "powr", "unknown slot 'powr' (did you mean 'power'?)"),
    ('log "{scor(0)}"', "scor", "unknown function 'scor' (did you mean 'score'?)"),
])
def test_unknown_names_with_did_you_mean(tmp_path, code, needle, message):
    text = with_code(code)
    e = error(tmp_path, text)
    assert e.message.startswith(message) and where(e) == at(text, needle, after=BODY)


@pytest.mark.parametrize("code, needle, message", [
    ("main(1)", "main(1)", "'main' takes 0 arguments, not 1"),
    ("gain()", "gain()", "'gain' takes 1 argument, not 0"),
    ("let s = score(0, 1)", "score(0, 1)", "'score' takes 1 argument, not 2"),
    ("let s = len(deck, 1)", "len(deck, 1)", "'len' takes 1 argument, not 2"),
    ("let s = range()", "range()", "'range' takes 1 to 2 arguments, not 0"),
    ("power[top(deck).colour](0, 1)", "power[", "slot 'power' runs 'gain', which takes 1 argument, not 2"),
])
def test_wrong_number_of_arguments(tmp_path, code, needle, message):
    text = with_code(code)
    e = error(tmp_path, text)
    assert e.message == message and where(e) == at(text, needle, after=BODY)


@pytest.mark.parametrize("code, needle, message", [
    ("move top(deck) to hand", "hand\n", "zone 'hand' is one per player: write hand[...]"),
    ("let n = len(piles)", "piles", "zone 'piles' is one per item of 'colours': write piles[...]"),
    ("gold += 1", "gold", "counter 'gold' is one per player: write gold[...]"),
    ("let g = gold", "gold", "counter 'gold' is one per player: write gold[...]"),
    ("move top(deck) to table[0]", "table[0]", "zone 'table' is a single zone: 'table[...]' is a card in it, not a zone"),
    ("let t = len(table[0])", "table[0]", "'len' takes a list of values, not a card"),
    ("let t = table[\"a\"]", "\"a\"", "zone 'table' is read by position, a number, not a text"),
    ("round[0] = 1", "round[0]", "counter 'round' is a single counter: it takes no index"),
])
def test_zones_and_counters_indexed_as_declared(tmp_path, code, needle, message):
    text = with_code(code)
    e = error(tmp_path, text)
    assert e.message == message and where(e) == at(text, needle, after=BODY)


@pytest.mark.parametrize("code, needle, message", [
    ("limit = 4", "limit =", "'limit' is a constant and cannot be changed"),
    ("deck = 4", "deck =", "'deck' is a zone: change it with move, draw or shuffle"),
    ("players = 4", "players =", "'players' is built in and cannot be changed"),
    ("break", "break", "'break' outside a loop"),
    ("if true { break }", "break", "'break' outside a loop"),
    ("for p in players { simultaneously for q in players { break } }", "break", "'break' outside a loop"),
    ("choose x from [1, 2]", "choose", "'choose' needs 'by PLAYER': who decides"),
    ("let s = sum([1], c -> c)", "c -> c", "'x -> ...' is only allowed as the key of max_by, min_by or sort_by"),
    ("let s = max_by(deck, 3)", "3)", "the second argument of 'max_by' is a key, like 'c -> c.value'"),
    ("let s = main()", "main()", "'main' gives no value (it has no 'return EXPR'): call it as a statement"),
    ("score(0)", "score(0)", "'score' is a function: use its value in an expression"),
    ("let x = score", "score\n", "'score' is a function: call it with ()"),
    ("let y = count(c for c in deck) + len(c for c in deck)", "len(", "'len' does not take a 'for' form"),
])
def test_misplaced_statements_and_expressions(tmp_path, code, needle, message):
    text = with_code(code)
    e = error(tmp_path, text)
    assert e.message.startswith(message) and where(e) == at(text, needle, after=BODY)


@pytest.mark.parametrize("code, needle, kind", [
    ("let deck = 3", "deck = 3", "zone"),
    ("for round in range(3) { }", "round in", "counter"),
    ("choose limit from [1] by 0", "limit from", "constant"),
    ("let xs = [table for table in [1]]", "table in", "zone"),
    ("let b = max_by([1], round -> round)", "round ->", "counter"),
])
def test_locals_may_not_shadow_global_names(tmp_path, code, needle, kind):
    text = with_code(code)
    e = error(tmp_path, text)
    assert f"is already a {kind}" in e.message and where(e) == at(text, needle, after=BODY)


def test_parameters_may_not_shadow_global_names(tmp_path):
    text = edit("  gain(p): |\n    gold[p] += 1", "  gain(p): |\n    gold[p] += 1\n  give(deck): |\n    round = 1")
    e = error(tmp_path, text)
    assert e.message == "the parameter 'deck' of 'give' is already a zone; choose another name"
    assert where(e) == at(text, "give(deck)")


def test_a_local_of_an_ended_block(tmp_path):
    text = with_code("for p in players { let k = 1 }\nround = k")
    e = error(tmp_path, text)
    assert e.message.startswith("'k' is a local of a block that has ended")
    assert where(e) == at(text, "k\n", after=BODY)


def test_card_kinds_need_exactly_one_starting_zone(tmp_path):
    text = edit("  deck: {visible: none, start: [num]}", "  deck: {visible: none}")
    e = error(tmp_path, text)
    assert e.message == "card kind 'num' starts in no zone: list it in the 'start' of exactly one zone"
    assert where(e) == at(text, "num:")
    text = edit("table: {visible: all}", "table: {visible: all, start: [num]}")
    e = error(tmp_path, text)
    assert e.message == ("card kind 'num' starts in two zones, 'deck' and 'table': every card needs exactly "
                         "one starting place")
    assert where(e) == at(text, "table:")


def test_per_zones_cannot_have_start(tmp_path):
    text = edit("  deck: {visible: none, start: [num]}\n", "  deck: {visible: none}\n").replace(
        "hand: {per: player, visible: owner}", "hand: {per: player, visible: owner, start: [num]}")
    e = error(tmp_path, text)
    assert e.message.startswith("zone 'hand' is one per player: 'start' is not supported on it")
    assert where(e) == at(text, "hand:")


def test_zone_declarations(tmp_path):
    text = edit("table: {visible: all}", "table: {visible: all, group: colr}")
    e = error(tmp_path, text)
    assert e.message == "zone 'table' groups by unknown card attribute 'colr' (did you mean 'colour'?)"
    text = edit("table: {visible: all}", "table: {visible: owner}")
    assert "visible to its owner but has no owner" in error(tmp_path, text).message
    text = edit("deck: {visible: none, start: [num]}", "deck: {visible: none, start: [nums]}")
    errs = errors(tmp_path, text)
    assert "zone 'deck' starts with unknown card kind 'nums' (did you mean 'num'?)" in [e.message for e in errs]
    text = edit("piles: {per: colours, visible: all}", "piles: {per: colors, visible: all}")
    assert error(tmp_path, text).message == ("zone 'piles': per 'colors' is neither 'player' nor a list "
                                             "constant (did you mean 'colours'?)")


def test_card_and_game_declarations(tmp_path):
    text = edit('label: "{colour} {value}"', 'label: "{colour} {valu}"')
    assert "card label of 'num' names unknown attribute 'valu' (did you mean 'value'?)" == error(tmp_path, text).message
    text = edit("score(p): gold[p] + len(hand[p])", "points(p): gold[p]")
    e = error(tmp_path, text)  # (one error: a call of score() elsewhere adds none)
    assert "has no function 'score(p)'" in e.message and where(e) == at(text, "functions:")
    text = edit("players: {min: 1, max: 3}", "players: {min: 3, max: 2}")
    assert error(tmp_path, text).message == "players: min is more than max"
    text = edit("      value: [1, 2, 3]", "      value: [1, 2, 3]\n      kind: big")
    assert "the attribute 'kind' is built in" in error(tmp_path, text).message


# ---------------------------------------------------------------- all errors at once


def test_all_errors_of_a_file_sorted_by_position(tmp_path):
    # the flow is checked after the procedures but written before them: order is by position
    text = edit("flow: |\n  main()\n", "").replace("procedures:", "flow: |\n  mian()\nprocedures:")
    text = edit("draw 2 from deck to hand[0]", "draw 2 from deck to hand", text)
    errs = errors(tmp_path, text)
    assert [(where(e), e.message.split(" (")[0]) for e in errs] == [
        (at(text, "mian"), "unknown procedure 'mian'"),
        (at(text, "hand\n"), "zone 'hand' is one per player: write hand[...]"),
    ]


def test_syntax_errors_and_check_errors_together(tmp_path):
    text = with_code("let x = 1 +").replace("gold[p] += 1", "gold[p] += 1\n    mian()")
    text = edit("score(p): gold[p] + len(hand[p])", "score(p): gold[p] +* 2", text)
    errs = errors(tmp_path, text)
    assert [(where(e), e.message.split(";")[0].split(" (")[0]) for e in errs] == [
        (at(text, "* 2"), "syntax error: unexpected '*'"),
        (at(text, "mian"), "unknown procedure 'mian'"),
        (at(text, "1 +", shift=3), "syntax error: the code ends too early"),
    ]


def test_errors_in_two_files_of_a_ruleset(tmp_path):
    split = BASE.index("functions:")
    first, second = BASE[:split], BASE[split:]
    first = edit("table: {visible: all}", "table: {visible: al}", first)
    second = second + "extra: [1, 2\n"
    errs = errors(tmp_path, {"a.yaml": first, "b.yaml": second})
    assert [(e.pos.file.rsplit("/", 1)[-1], where(e)) for e in errs] == [
        ("a.yaml", at(first, "al}")), ("b.yaml", at(second, "[1, 2"))]
    assert errs[0].message == "zones.table.visible: 'al' is not one of all, owner, none, top"


def test_check_errors_in_two_files_of_a_ruleset(tmp_path):
    split = BASE.index("functions:")
    first, second = BASE[:split], with_code("round = lmit")[split:]
    first = edit("table: {visible: all}", "table: {visible: all, group: colr}", first)
    errs = errors(tmp_path, {"a.yaml": first, "b.yaml": second})
    assert [(e.pos.file.rsplit("/", 1)[-1], where(e)) for e in errs] == [
        ("a.yaml", at(first, "table:")), ("b.yaml", at(second, "lmit"))]


def test_definitions_given_twice_across_files(tmp_path):
    extra = "zones:\n  table: {visible: none}\nflow: |\n  main()\n"
    errs = errors(tmp_path, {"a.yaml": BASE, "b.yaml": extra})
    assert [(e.pos.file.rsplit("/", 1)[-1], where(e), e.message) for e in errs] == [
        ("b.yaml", (2, 3), "zones 'table' is defined twice"),
        ("b.yaml", (3, 1), "'flow' is given in two files"),
    ]


# ---------------------------------------------------------------- the command


def test_jux_validate_prints_every_error_and_exits_1(tmp_path):
    import subprocess
    import sys

    text = with_code("mian()\nlet x = limt").replace("visible: all}", "visible: sometimes}", 1)
    write(tmp_path, {"game.yaml": text})
    p = subprocess.run([sys.executable, "-m", "jux", "validate", "rules"], cwd=tmp_path,
                       capture_output=True, text=True, timeout=120)
    assert p.returncode == 1 and "Traceback" not in p.stdout + p.stderr
    lines = [ln for ln in (p.stdout + p.stderr).splitlines() if ln.startswith("rules/game.yaml:")]
    assert lines == [f"rules/game.yaml:{at(text, 'sometimes')[0]}:{at(text, 'sometimes')[1]}: "
                     "zones.table.visible: 'sometimes' is not one of all, owner, none, top"]
    text = with_code("mian()\nlet x = limt")
    write(tmp_path, {"game.yaml": text})
    p = subprocess.run([sys.executable, "-m", "jux", "validate", "rules"], cwd=tmp_path,
                       capture_output=True, text=True, timeout=120)
    assert p.returncode == 1 and "Traceback" not in p.stdout + p.stderr
    lines = [ln for ln in (p.stdout + p.stderr).splitlines() if ln.startswith("rules/game.yaml:")]
    assert [ln.split(": ", 1)[0] for ln in lines] == [
        "rules/game.yaml:%d:%d" % at(text, "mian", after=BODY), "rules/game.yaml:%d:%d" % at(text, "limt")]


def test_a_file_that_is_not_utf8(tmp_path):
    d = write(tmp_path, {"game.yaml": BASE})
    (d / "game.yaml").write_bytes(BASE.encode().replace(b"limit: 3", b"limit: \xff3"))
    with pytest.raises(RuleErrors) as e:
        load_ruleset(d)
    (err,) = e.value.errors
    assert err.message == "the file is not UTF-8 text (byte 0xff)" and where(err) == at(BASE, "3\n", after="limit: ")


def test_an_unclosed_string_in_effect_code(tmp_path):
    text = with_code('log "abc')
    e = error(tmp_path, text)
    assert e.message == "syntax error: a string is not closed by '\"' on the same line"
    assert where(e) == at(text, '"abc')


def test_reserved_routine_names(tmp_path):
    text = edit("  gain(p): |", "  __flow__: |\n    round = 1\n  gain(p): |")
    e = error(tmp_path, text)
    assert e.message == "'__flow__': names that start with '__' are reserved for jux"
    assert where(e) == at(text, "__flow__")


@pytest.mark.parametrize("code, needle, message", [
    ("let v = 3.value", "value", "a number has no attribute 'value' (only cards have attributes)"),
    ('let v = "x".colour', "colour\n", "a text has no attribute 'colour' (only cards have attributes)"),
    ("let v = [1][0].value", "value", "a number has no attribute 'value' (only cards have attributes)"),
    ("let v = [top(deck)][0].value", "value", None),  # a card or none: known when the game runs
    ("let v = none[0]", "none", "none cannot be indexed"),
])
def test_values_that_are_plainly_not_cards(tmp_path, code, needle, message):
    text = edit("  name: tiny\n", "  name: tiny\n  language: 2\n", with_code(code))  # (a number's attribute: tightened)
    if message is None:
        load_ruleset(write(tmp_path, {"game.yaml": text}))
        return
    e = error(tmp_path, text)
    assert e.message == message and where(e) == at(text, needle, after=BODY)


def test_a_choose_from_an_empty_list_is_a_warning(tmp_path):
    text = with_code('choose x from [] by 0 prompt "Never"')
    spec = load_ruleset(write(tmp_path, {"game.yaml": text})).spec
    found = [(w.pos.line, w.pos.col, w.message) for w in spec.warnings if "empty list" in w.message]
    assert found == [(*at(text, "[] by"), "'choose' from an empty list: it never has an option, so the choice "
                                          "is never asked")]
