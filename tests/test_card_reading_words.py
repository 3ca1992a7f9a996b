"""Every card and tile reads in words in the card reader (key c), with its kind's rule text, never
a Python value (issue 36, item 8): for every card kind of every built-in game and of every tile,
the reader's text holds no None, True or False, no list or dict written as Python, and holds the
kind's `text`."""
from __future__ import annotations

import re

import pytest

from jux.interpreter.engine.card_reading import kind_text, reading
from jux.interpreter.engine.game import Game
from jux.interpreter.engine.ruleset import load_ruleset
from jux.interpreter.reading.spec import catalogue_rulesets
from jux.interpreter.reading.variants import catalogue
from jux.tui.screens.cards import Entry, reading_text

PYTHON = re.compile(r"\bNone\b|\bTrue\b|\bFalse\b|[\[\]{}]|'\w*'\s*:")


def _games() -> list:
    out = [(g, ()) for g in catalogue_rulesets() if g != "default"]
    for g in catalogue_rulesets():
        out += [(g, (name,)) for name in sorted(catalogue(g))]
    return out


def _one_card_of_each_kind(rules) -> dict:
    """kind -> the cards of that kind that read differently (each distinct set of attributes)."""
    out: dict = {}
    for c in rules.cards:
        a = rules.card_attrs[c]
        out.setdefault(a["kind"], {}).setdefault(repr(sorted(a.items(), key=repr)), c)
    return out


@pytest.mark.parametrize("game,tiles", _games(), ids=lambda x: ",".join(x) if isinstance(x, tuple) else x)
def test_every_card_reads_in_words_with_its_rule_text(game, tiles):
    rules = load_ruleset(game, tiles)
    g = Game.new(rules, rules.spec.game["players"]["min"], seed=0, start=False, log=False)
    for kind, cards in _one_card_of_each_kind(rules).items():
        own = kind_text(rules, kind)
        assert own, f"{game} {tiles}: card kind '{kind}' has no text"
        for c in cards.values():
            text = reading_text(Entry("somewhere", g.read_card(c))).plain
            assert own in " ".join(text.split()), text
            bad = PYTHON.search(text)
            assert bad is None, f"{game} {tiles} {kind}: {bad.group()!r} in:\n{text}"


def test_values_of_every_kind_read_in_words():
    rules = load_ruleset("capital_jux")
    info = {"label": "a thing", "kind": "profession", "id": 1, "flag": True, "off": False, "empty": "",
            "nothing": None, "some": ["red", "blue"], "table": {"red": 1}, "worth": None}
    r = reading(rules, info)
    assert r["attributes"] == [["flag", "yes"], ["off", "no"], ["some", "red, blue"], ["table", "red 1"]]
    assert "worth" not in r


def _read(game, tiles, pick) -> str:
    rules = load_ruleset(game, tiles)
    g = Game.new(rules, 2, seed=0, start=False, log=False)
    c = next(c for c in rules.cards if pick(rules.card_attrs[c]))
    return reading_text(Entry("somewhere", g.read_card(c))).plain


def test_a_home_base_mentalist_tile_reads_without_empty_attributes_or_a_worth_of_none():
    text = _read("capital_jux", ("mentalist",), lambda a: a.get("transformation") == "home")
    assert "mentalist home base" in text
    assert "first" not in text and "second" not in text and "counts for" not in text


def test_a_person_reads_what_its_label_does_not_say_and_its_own_text():
    text = _read("bruges", (), lambda a: a.get("name") == "alchemist")
    assert "Alchemist" in text.splitlines()[0]
    assert "name alchemist" not in text and "title" not in text  # the label says them
    assert "price 0 · icon arrow · group scholar" in text
    assert "\nWhen recruited: take 6 guilders." in text and "text:" not in text


@pytest.mark.parametrize("game", ["capital_jux", "guildhall", "bruges"])
def test_jux_rules_lists_zones_and_counters_in_words(game, run):
    r = run("rules", game)
    assert r.returncode == 0
    bad = re.search(r"\bNone\b|\bTrue\b|\bFalse\b|\['", r.stdout)
    assert bad is None, r.stdout[max(0, bad.start() - 200):bad.end() + 50]
