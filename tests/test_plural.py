"""plural(n, noun): a number with the noun that agrees with it ("1 card", "5 cards"), typed, and
written inside a string's braces with escaped quotes: "{plural(n, \"card\")}"."""
from __future__ import annotations

import pytest

from jux.interpreter.runtime.plurals import plural, regular_plural

from test_language import run
from test_validate_types import at, one_error


def test_plural_agrees_with_its_number_in_the_log_and_in_labels(tmp_path):
    g = run(tmp_path, r"""
        for k in [0, 1, 2] { log "{1 + k} draws {plural(k, \"card\")}." }
        log "It costs " + plural(len(deck), "guilder") + "."
        log "{plural(1, \"person\", \"people\")} and {plural(3, \"person\", \"people\")}"
        log "{plural(2, \"VP token\")}, {plural(1, \"VP token\")}, {plural(2, \"bonus\")}"
        choose x from [1, 2] by 0 prompt "Take {plural(2, \"die\", \"dice\")}" label "{plural(x, \"card\")}"
    """)
    assert g.log_lines() == ["1 draws 0 cards.", "2 draws 1 card.", "3 draws 2 cards.", "It costs 6 guilders.",
                             "1 person and 3 people", "2 VP tokens, 1 VP token, 2 bonuses"]
    d = g.pending[0]
    assert d.prompt == "Take 2 dice"
    assert [o.label for o in d.options] == ["1 card", "2 cards"]


@pytest.mark.parametrize("noun, nouns", [("card", "cards"), ("guilder", "guilders"), ("bonus", "bonuses"),
                                         ("box", "boxes"), ("match", "matches"), ("city", "cities"),
                                         ("day", "days"), ("VP token", "VP tokens")])
def test_the_regular_plural(noun, nouns):
    assert regular_plural(noun) == nouns
    assert plural(2, noun) == f"2 {nouns}" and plural(1, noun) == f"1 {noun}" and plural(0, noun) == f"0 {nouns}"


def test_plural_takes_a_number_and_a_noun_before_the_game_starts(tmp_path):
    err, text = one_error(tmp_path, 'log plural("two", "card")')
    assert "'plural' takes a number, not a text" in str(err)
    assert (err.pos.line, err.pos.col) == at(text, '"two"')
    err, text = one_error(tmp_path, r'log "{plural(2, \"card\", 3)}"')
    assert "'plural' takes a text, not a number" in str(err)
    assert (err.pos.line, err.pos.col) == at(text, '3)}')  # columns stay true after escaped quotes
    err, _ = one_error(tmp_path, 'log plural(2)')
    assert "plural" in str(err) and "argument" in str(err)


def test_a_string_inside_braces_may_have_braces_of_its_own(tmp_path):
    """"{if n > 1 then \"{n} cards\" else \"one card\"}": the inner string's braces are its own,
    not the end of the outer braces."""
    g = run(tmp_path, r"""
        for k in [1, 3] { log "Left: {if k > 1 then \"{k} cards\" else \"one card\"}." }
    """)
    assert g.log_lines() == ["Left: one card.", "Left: 3 cards."]
    err, text = one_error(tmp_path, r'log "{if 2 > 1 then \"{nn} cards\" else \"one\"}"')
    assert "unknown name 'nn'" in str(err) and (err.pos.line, err.pos.col) == at(text, "nn}")
