"""What a Capital Jux player reads at the table: a play into the capital names the power it
triggers and what it would do; the table says who still takes a last turn; the help reads in the
words and rules of the edition played (a variant's help sections replace the game's)."""
from __future__ import annotations

import random

import pytest

from jux import Game, load_ruleset
from jux.interpreter.reading.variants import catalogue
from jux.tui.screens.help import help_text

TILES = {i.name: key for i in catalogue("capital_jux").values() for (slot, key) in i.fill_keys}


def _play_options(game):
    """Plays the game at random up to a turn's decision; its options (label, hint) as the
    deciding player sees them, and that player."""
    rng = random.Random(len(game.answers))
    while True:
        d = game.next_decision()
        if d.prompt.startswith("Play a card"):
            return [(o["label"], o.get("hint", "")) for o in game.view(d.player)["decisions"][0]["options"]], d
        ids = [o.id for o in d.options]
        game.apply(rng.sample(ids, rng.randint(d.min, d.max)) if d.max > 1 or d.min == 0 else rng.choice(ids),
                   player=d.player, decision=d.id)


def test_a_base_game_play_into_the_capital_names_its_power():
    powers = {"blue": "agent", "pink": "cleric", "yellow": "merchant", "green": "scholar"}
    g = Game.new(load_ruleset("capital_jux"), 3, seed=4)
    options, _ = _play_options(g)
    for label, hint in options:
        colour = label.split()[0]
        if label.endswith("into the capital"):
            assert hint.startswith(f"the {colour} power, the {powers[colour]}: ")
        else:
            assert hint.startswith(f"your {colour} would be ")


@pytest.mark.parametrize("tile", sorted(TILES))
def test_an_edition_play_into_the_capital_names_the_tile_and_what_it_does(tile):
    colour = TILES[tile]
    g = Game.new(load_ruleset("capital_jux", (tile,)), 3, seed=7)
    for _ in range(12):  # turns until one offers a card of the tile's colour into the capital
        options, d = _play_options(g)
        hints = [h for label, h in options if label.endswith(f"into the {colour} capital district")]
        if hints:
            break
        g.apply(0, player=d.player, decision=d.id)
    assert hints, f"no {colour} card offered into the capital"
    for h in hints:
        assert h.startswith(f"the {colour} power, the {tile}: ") and len(h) > len(f"the {colour} power, the {tile}: ")
    for label, h in options:
        if "home base district" in label:
            assert h.startswith("your ") and " district would be worth " in h


def test_the_table_shows_who_still_takes_a_last_turn():
    g = Game.new(load_ruleset("capital_jux"), 3, seed=2)
    rng = random.Random(1)
    seen = []
    while not g.over and len(seen) < 12:
        d = g.next_decision()
        shown = dict(g.view(d.player)["shown"])["last turns"]
        if not seen or seen[-1][1] != shown:
            seen.append((d.prompt.split()[0], shown, g.names[d.player]))
        ids = [o.id for o in d.options]
        g.apply(rng.sample(ids, rng.randint(d.min, d.max)) if d.max > 1 or d.min == 0 else rng.choice(ids),
                player=d.player, decision=d.id)
    assert seen[0][:2] == ("Choose", "not yet")
    # the round's end triggered: the players still to take their last turn, from the one deciding
    first_last = next(s for s in seen if s[1] != "not yet")
    assert first_last[0] == "Play" and first_last[1].startswith(first_last[2] + ", ")
    assert first_last[1].endswith(", then the round ends") and first_last[1].count("Player") == 2
    # one fewer with each last turn, then the next round starts with none again
    i = seen.index(first_last)
    assert seen[i + 1][1].count("Player") == 1 and seen[i + 2][:2] == ("Choose", "not yet")


def test_the_edition_help_reads_in_its_words():
    base = help_text(load_ruleset("capital_jux")).plain
    edition = help_text(load_ruleset("capital_jux", ("sentinel",))).plain
    assert "your gold discs (1 point each)" in base
    goal = edition.split("\nGoal\n")[1].split("\nA round\n")[0]
    assert "home base" in goal and "2 points each" in goal and "hometown" not in goal.lower()
    for title in ("A round", "The end of a round", "Scoring and ties"):
        assert edition.count(f"\n{title}\n") == 1  # replaced where it stood, not added again
        section = edition.split(f"\n{title}\n")[1].split("\n\n")[0]
        assert "hometown" not in section.lower() and "gold disc" not in section
    assert "2 per gold token" in edition and "each tied player gains a gold token" in edition
    summary = edition.split("\n")[1]  # the game's text, under its title
    assert "HOME BASE" in summary and "HOMETOWN" not in summary and "HOMETOWN" in base.split("\n")[1]


HELP_VARIANT = """
variant:
  name: house
  game: capital_jux
  summary: The house rule's summary.
  help:
    Goal: The house rule's goal.
    House rule: Something added.
"""


def test_a_variants_help_sections_replace_the_games_and_add_new_ones(tmp_path):
    path = tmp_path / "house.yaml"
    path.write_text(HELP_VARIANT)
    rules = load_ruleset("capital_jux", (str(path),))
    help_ = rules.spec.game["help"]
    assert list(help_) == ["Goal", "A round", "The end of a round", "Scoring and ties", "House rule"]
    assert help_["Goal"] == "The house rule's goal." and help_["House rule"] == "Something added."
    assert rules.spec.game["text"] == "The house rule's summary."
    assert load_ruleset("capital_jux").spec.game["help"]["Goal"].startswith("Score the most points")
