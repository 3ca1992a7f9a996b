"""What games need that the language did not say (issue 27): the lowest score wins, a zone seen
in an order of its own (`sort`), who played which card (`played_by`), a single zone read by
position (`trick[i]`), a hook point at the round's end, `unavailable` things read as the
options' own label."""
from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from jux.interpreter.bots.random_bot import random_picker
from jux.interpreter.bots.sample import InfoSet
from jux.interpreter.engine.game import Game
from jux.interpreter.engine.ruleset import load_ruleset
from jux.interpreter.engine.ruleset import RuleRuntimeError
from jux.interpreter.errors import RuleErrors
from jux.interpreter.study.simulate import run_games
from jux.tui.screens.gameover import scores_rows, tiebreak_note, verdict
from jux.tui.widgets.table import render_table

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "docs" / "examples" / "low_tricks"

# Four seats, one card each (values 1, 2, 3, 4 dealt in seat order); the score is a counter the
# test sets, the tie-break a second one: so winners follow from what a test gives.
SCORED = """\
game:
  name: scored
  players: {min: 2, max: 4}
  WINNER
cards:
  num:
    label: "card {value}"
    attributes: {value: [1, 2, 3, 4]}
zones:
  deck: {visible: none, start: [num]}
  hand: {visible: owner, per: player, sort: low_first}
  trick: {visible: all, played_by: true}
counters:
  points: {per: player, start: 0}
  extra: {per: player, start: 0}
functions:
  low_first(c): "c.value"
  score(p): "points[p]"
  tiebreak(p): '[("extras", extra[p])]'
  standing(p): '[("points", points[p])]'
flow: |
  for p in players { draw 1 from deck to hand[p] }
  for p in players {
    choose c from hand[p] by p
    move c to trick
  }
"""


def rules_from(tmp_path: Path, text: str, name: str = "r"):
    folder = tmp_path / name
    folder.mkdir()
    (folder / "game.yaml").write_text(text)
    return load_ruleset(folder)


def game_with(tmp_path, winner: str, points, extra):
    """A game of SCORED (four seats) with these scores and tie-break values."""
    rules = rules_from(tmp_path, SCORED.replace("WINNER", winner))
    return Game.scenario(rules, len(points), counters={"points": list(points), "extra": list(extra)})


# ---------------------------------------------------------------- the lowest score wins


@pytest.mark.parametrize("winner, points, extra, winners", [
    ("", [5, 2, 7, 2], [0, 1, 0, 3], [2]),                    # highest: 7 wins
    ("winner: highest", [5, 2, 7, 7], [0, 1, 1, 3], [3]),     # tie on 7: the most extras
    ("winner: lowest", [5, 2, 7, 3], [0, 0, 0, 0], [1]),      # lowest: 2 wins
    ("winner: lowest", [5, 2, 7, 2], [0, 1, 0, 3], [1]),      # tie on 2: the fewest extras (the same way)
    ("winner: {score: lowest}", [5, 2, 7, 2], [0, 3, 0, 1], [3]),
    ("winner: {score: lowest, tiebreak: highest}", [5, 2, 7, 2], [0, 1, 0, 3], [3]),  # tie: the most extras
    ("winner: {score: highest, tiebreak: lowest}", [5, 2, 7, 7], [0, 1, 4, 3], [3]),
    ("winner: lowest", [2, 2, 7, 2], [1, 1, 0, 1], [0, 1, 3]),  # a complete tie
])
def test_winners_follow_the_direction_the_game_gives(tmp_path, winner, points, extra, winners):
    g = game_with(tmp_path, winner, points, extra)
    assert g.winners == winners
    assert g.winners_by(points) == winners


def test_where_the_lowest_wins_bots_and_rankings_count_a_lower_score_as_better(tmp_path):
    g = game_with(tmp_path, "winner: lowest", [5, 2, 7, 2], [0, 1, 0, 3])
    assert g.merits() == [-5, -2, -7, -2]
    assert g.values == [-5, -2, -7, -2]  # no value(p): the score negated
    assert g.ranking() == [1, 3, 0, 2]  # 2 (fewer extras), 2, 5, 7
    (tmp_path / "h").mkdir()
    high = game_with(tmp_path / "h", "", [5, 2, 7, 2], [0, 1, 0, 3])
    assert high.merits() == [5, 2, 7, 2] and high.values == [5, 2, 7, 2]
    assert high.ranking() == [2, 0, 3, 1]  # 7, 5, then the tie on 2: the most extras first


def test_the_final_screen_reads_in_the_winning_direction(tmp_path):
    g = game_with(tmp_path, "winner: lowest", [5, 2, 7, 3], [0, 0, 0, 1])
    table = scores_rows(g)
    assert table["columns"][:3] == ["seat", "player", "score (lowest wins)"]
    assert [r[0] for r in table["rows"]] == ["2", "4", "1", "3"]  # the best first
    assert table["rows"][0][-1] == "★" and all(r[-1] == "" for r in table["rows"][1:])
    assert verdict(g) == "Player 2 wins with 2 (the lowest score wins)."
    assert tiebreak_note(g) == "A tie on score goes to the fewest extras."
    line = next(s for s in render_table(g.view(0), g.rules.spec, 0).plain.splitlines() if "Player 2" in s)
    assert "score 2 (lowest wins)" in line


def test_the_final_screen_where_the_highest_wins_lists_the_best_first(tmp_path):
    g = game_with(tmp_path, "", [5, 2, 7, 3], [0, 0, 0, 1])
    table = scores_rows(g)
    assert table["columns"][2] == "score"
    assert [r[2] for r in table["rows"]] == ["7", "5", "3", "2"]
    assert verdict(g) == "Player 3 wins with 7."
    assert tiebreak_note(g) == "A tie on score goes to the most extras."
    line = next(s for s in render_table(g.view(0), g.rules.spec, 0).plain.splitlines() if "Player 3" in s)
    assert "score 7" in line and "lowest" not in line


def test_simulated_wins_follow_the_lowest_score():
    results = list(run_games(str(EXAMPLE), 3, range(1, 13), ["random"]))
    assert any(len(set(r.scores)) > 1 for r in results)
    for r in results:
        assert all(r.scores[p] == min(r.scores) for p in r.winners)


@pytest.mark.parametrize("winner, message", [
    ("winner: low", "game.winner: 'low' is not one of highest, lowest"),
    ("winner: {score: lowest, tiebreak: most}", "game.winner.tiebreak: 'most' is not one of highest, lowest"),
])
def test_a_wrong_winner_is_a_located_error(tmp_path, winner, message):
    with pytest.raises(RuleErrors) as e:
        rules_from(tmp_path, SCORED.replace("WINNER", winner))
    (err,) = e.value.errors
    assert err.message == message and err.pos.line == 4


# ---------------------------------------------------------------- sort


def test_a_sorted_zone_is_seen_sorted_and_read_by_the_rules_as_its_cards_lie(tmp_path):
    rules = rules_from(tmp_path, SCORED.replace("WINNER", "").replace("draw 1 from", "draw 4 from")
                       .replace("players: {min: 2, max: 4}", "players: {min: 1, max: 1}"))
    g = Game.new(rules, 1, seed=0)
    lying = [int(x.split()[1]) for x in g.zone("hand[0]")]
    assert lying == [4, 3, 2, 1]  # drawn one by one from the top of the unshuffled deck
    seen = [c["value"] for z in g.view(0)["zones"] if z["name"] == "hand" for c in z["cards"]]
    assert seen == [1, 2, 3, 4]  # low_first(c): c.value
    assert [c["value"] for z in g.view(None)["zones"] if z["name"] == "hand" for c in z["cards"]] == seen
    # the rules choose from the zone as it lies: the options are in that order
    assert [o.label for o in g.pending[0].options] == g.zone("hand[0]")


def test_a_seat_sees_the_cards_it_knows_sorted_and_the_others_as_they_lie(tmp_path):
    rules = load_ruleset(EXAMPLE)
    g = Game.new(rules, 3, seed=4)
    for seat in range(3):
        mine = next(z for z in g.view(seat)["zones"] if z["name"] == "hand" and z["owner"] == seat)
        keys = [(c["suit"], c["rank"]) for c in mine["cards"]]
        assert keys == sorted(keys) and len(keys) == 4
        other = next(z for z in g.view(seat)["zones"] if z["name"] == "hand" and z["owner"] != seat)
        assert all(c.get("hidden") for c in other["cards"])
    lying = g.zone("hand[0]")
    assert lying != sorted(lying, key=lambda x: (x.split()[0], int(x.split()[1])))  # (seed 4: not dealt in order)


@pytest.mark.parametrize("seed", range(3))
def test_what_a_seat_sees_of_sorted_and_played_zones_depends_only_on_what_it_may_know(seed):
    rules = load_ruleset(EXAMPLE)
    g = Game.new(rules, 3, seed=seed, start=False)
    g.autoplay(pick=random_picker(random.Random(seed).random), limit=2 + 3 * seed)
    for seat in range(3):
        screen = render_table(g.view(seat), rules.spec, seat).plain
        for i in range(3):  # the same game with every card the seat does not know dealt again
            other = InfoSet(g, seat).sample(random.Random(100 * seed + i))
            assert render_table(other.view(seat), rules.spec, seat).plain == screen


# ---------------------------------------------------------------- played_by and trick[i]


def test_a_played_by_zone_gives_each_card_who_played_it(tmp_path):
    rules = rules_from(tmp_path, SCORED.replace("WINNER", ""))
    g = Game.new(rules, 3, seed=2)
    while not g.over:
        g.apply(0)
    trick = next(z for z in g.view(1)["zones"] if z["name"] == "trick")
    assert [c["played_by"] for c in trick["cards"]] == [0, 1, 2]
    assert all("marks" not in c for c in trick["cards"])  # who played it is no mark
    assert g.marks("trick") == []
    line = next(s for s in render_table(g.view(1), rules.spec, 1).plain.splitlines() if s.startswith("trick"))
    labels = [c["label"] for c in trick["cards"]]
    assert line == f"trick: {labels[0]} (Player 1), {labels[1]} (Player 2), {labels[2]} (Player 3)"
    # a save keeps it
    again = Game.load(json.loads(json.dumps(g.save())), rules)
    assert next(z for z in again.view(None)["zones"] if z["name"] == "trick") == \
        next(z for z in g.view(None)["zones"] if z["name"] == "trick")


PLAYED = """\
game:
  name: played
  players: {min: 3, max: 3}
cards:
  num:
    label: "card {value}"
    attributes: {value: [1, 2, 3, 4, 5, 6, 7, 8]}
zones:
  deck: {visible: none, start: [num]}
  hand: {visible: owner, per: player}
  trick: {visible: all, played_by: true}
  won: {visible: all, per: player}
counters:
  leader: {start: none, seat: true}
  first: {start: 0}
  last: {start: 0}
functions:
  score(p): "len(won[p])"
flow: |
  shuffle deck
  draw 1 from deck to trick
  for p in players { draw 2 from deck to hand[p] }
  move hand[1] to trick
  for p in [0, 2] {
    choose c from hand[p] by p
    move c to trick bottom
  }
  first = trick[0].value
  last = trick[-1].value
  let best = max_by([c for c in trick if played_by(c) != none], c -> c.value)
  leader = played_by(best)
  log "{best} by {leader}; the first card {trick[0]} by {played_by(trick[0])}"
  move trick to won[leader]
  log "{played_by(best)} still played {best}"
"""


def test_the_rules_read_who_played_a_card_and_a_single_zone_by_position(tmp_path):
    rules = rules_from(tmp_path, PLAYED)
    g = Game.new(rules, 3, seed=5)
    g.apply(0)
    g.apply(0)
    assert g.over
    (pile,) = [z for z in g.view(None)["zones"] if z["name"] == "won" and z["cards"]]
    cards = pile["cards"]  # the trick as it lay: seat 2's card under seat 0's, under the deck's and seat 1's two
    assert [c.get("played_by") for c in cards] == [None] * 5  # won is no played_by zone
    values = [c["value"] for c in cards]
    assert g.counter("first") == values[0] and g.counter("last") == values[-1]
    by = [2, 0, None, 1, 1]
    best = max(v for v, p in zip(values, by) if p is not None)
    leader = by[values.index(best)]
    assert g.counter("leader") == leader and pile["owner"] == leader
    log = g.log_lines(None)
    assert log[-2] == f"card {best} by Player {leader + 1}; the first card card {values[0]} by Player 3"
    assert log[-1] == f"Player {leader + 1} still played card {best}"


def test_a_position_past_the_end_stops_the_game_at_its_line(tmp_path):
    rules = rules_from(tmp_path, PLAYED.replace("first = trick[0].value", "first = trick[9].value"))
    g = Game.new(rules, 3, seed=5)
    with pytest.raises(RuleRuntimeError, match=r"game.yaml:\d+:\d+"):
        g.apply(0)
        g.apply(0)


# ---------------------------------------------------------------- unavailable


UNAVAILABLE = """\
game:
  name: unavailable_labels
  players: {min: 1, max: 1}
cards:
  num:
    label: "card {value}"
    attributes: {value: [1, 2, 3, 4]}
zones:
  hand: {visible: owner, per: player}
  deck: {visible: all, start: [num]}
functions:
  score(p): "0"
flow: |
  move deck to hand[0]
  OPTIONS
"""


@pytest.mark.parametrize("choose, unavailable", [
    # cards: a card reads as the option's label
    ('choose c from [c for c in hand[0] if c.value > 2] by 0 label "play {c}"\n'
     '    unavailable [(c, "too low") for c in hand[0] if c.value <= 2]',
     [{"option": "play card 1", "reason": "too low"}, {"option": "play card 2", "reason": "too low"}]),
    # tuples: a tuple of as many items reads as the label; a text or a card reads as written
    ('choose (c, how) from [(c, "up") for c in hand[0] if c.value > 3] by 0 label "{c} face {how}"\n'
     '    unavailable [((c, "up"), "too low") for c in hand[0] if c.value == 1] + [("anything else", "no")]'
     ' + [(top(hand[0]), "a card alone")]',
     [{"option": "card 1 face up", "reason": "too low"}, {"option": "anything else", "reason": "no"},
      {"option": "card 4", "reason": "a card alone"}]),
    # without a label: as written
    ('choose c from [c for c in hand[0] if c.value > 2] by 0\n'
     '    unavailable [(c, "too low") for c in hand[0] if c.value == 1]',
     [{"option": "card 1", "reason": "too low"}]),
    # a label that cannot read the thing: as written
    ('choose c from [c for c in hand[0] if c.value > 2] by 0 label "play {c.value + 1}"\n'
     '    unavailable [("the rest", "too low")]',
     [{"option": "the rest", "reason": "too low"}]),
])
def test_unavailable_things_read_as_the_options_own_label(tmp_path, choose, unavailable):
    rules = rules_from(tmp_path, UNAVAILABLE.replace("OPTIONS", choose))
    g = Game.new(rules, 1, seed=0)
    (d,) = g.pending
    assert d.unavailable == unavailable


# ---------------------------------------------------------------- the round's end


END_TILE = """\
variant:
  name: bell
  game: capital_jux
  requires: [power_tiles]
  overrides: [end_of_round]
procedures:
  end_of_round: |
    previous()
    log "The bell rings at the end of round {round}."
"""


def test_a_tile_acts_at_the_end_of_every_round_after_its_table_and_before_the_next(tmp_path):
    tile = tmp_path / "bell.yaml"
    tile.write_text(END_TILE)
    rules = load_ruleset("capital_jux", ("merchant", str(tile)))
    g = Game.new(rules, 3, seed=1, start=False)
    g.autoplay(pick=random_picker(random.Random(1).random))
    lines = g.log_lines(None)
    rings = [i for i, line in enumerate(lines) if line.startswith("The bell rings")]
    assert [lines[i] for i in rings] == [f"The bell rings at the end of round {r}." for r in (1, 2, 3)]
    ends = [i for i, line in enumerate(lines) if line.startswith("Round ") and line.endswith(" ends.")]
    begins = [i for i, line in enumerate(lines) if line.startswith("Round ") and " begins." in line]
    tables = [i for i, line in enumerate(lines) if line.startswith("Round ") and "MAX" in line]
    assert len(ends) == len(tables) == 3 and len(begins) == 3
    for r in range(3):  # after the round's end and its table; before the next round begins
        assert ends[r] < tables[r] < rings[r] and (r == 2 or rings[r] < begins[r + 1])
    assert rings[2] == len(lines) - 1 or all(not x.startswith("Round") for x in lines[rings[2]:])


def test_the_round_end_hook_point_changes_no_game(tmp_path):
    """The edition's end_of_round does nothing: a tile that only passes it on plays the same games."""
    tile = tmp_path / "quiet.yaml"
    text = END_TILE.replace('    log "The bell rings at the end of round {round}."\n', "").replace("bell", "quiet")
    assert "log" not in text
    tile.write_text(text)
    plain = load_ruleset("capital_jux", ("merchant", "cleric"))
    quiet = load_ruleset("capital_jux", ("merchant", "cleric", str(tile)))
    for seed in range(3):
        a = Game.new(plain, 3, seed=seed, start=False)
        a.autoplay(pick=random_picker(random.Random(seed).random))
        b = Game.new(quiet, 3, seed=seed, start=False)
        b.autoplay(pick=random_picker(random.Random(seed).random))
        assert a.answers == b.answers and a.scores == b.scores and a.log_lines(None) == b.log_lines(None)
