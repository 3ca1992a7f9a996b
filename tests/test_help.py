"""The help a first-time player opens with `?`: the ruleset's own how-to-play sections (goal, a
round or a turn, its end, scoring and ties), then every power and rule with a text."""
from __future__ import annotations

import pytest

from jux.interpreter.engine.ruleset import load_ruleset
from jux.tui.screens.help import help_text


@pytest.mark.parametrize("name, sections", [
    ("capital_jux", ["Goal", "A round", "The end of a round", "Scoring and ties"]),
    ("guildhall", ["Goal", "A turn", "Abilities", "The end of a turn", "Winning"]),
    ("bruges", ["Goal", "A round", "The six actions", "Persons", "Disasters", "Majorities", "The end"]),
])
def test_help_gives_the_rulesets_sections_in_order_before_the_powers(name, sections):
    text = help_text(load_ruleset(name)).plain
    at = [text.index(f"\n{s}\n") for s in sections]
    assert at == sorted(at)
    assert at[-1] < text.index("\nPowers and rules\n")


def test_capital_jux_help_says_how_points_are_made():
    flat = " ".join(help_text(load_ruleset("capital_jux")).plain.split())
    for words in ("Points come from the cards in your hometown", "bonus card", "1 point each",
                  "Cards still in a hand are then laid face up in their owner's hometown",
                  "most 6s", "AGENT (blue)", "CLERIC (pink)", "MERCHANT (yellow)", "SCHOLAR (green)"):
        assert words in flat, words
