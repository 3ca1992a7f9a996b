"""The log never changes after it is written (issue 15).

What each seat reads of a log line (and of a `show` table) is fixed when the line is written: a
card in it, alone or in a list, a tuple or a nested value, reads as the seat knew it then. A card a
seat saw in secret stays "a face-down card" in the others' old lines after it is played, and a card
a seat knew stays named in its old lines after it is shuffled away.

Unit tests on a tiny ruleset show the rule; a property test plays random games of Capital Jux
without tiles, with random tile combinations, and of Guildhall, and checks after every answer that
no seat's earlier lines have changed (and that a game loaded from its save has the same log).
"""
from __future__ import annotations

import json
import random
import textwrap
from math import floor

import pytest
from hypothesis import given, note, settings
from hypothesis import strategies as st

from jux.interpreter.bots.random_bot import random_answer
from jux.interpreter.engine.game import Game
from jux.interpreter.engine.ruleset import load_ruleset
from jux.interpreter.reading.variants import catalogue

RULES = """\
game:
  name: logfixed
  players: {min: 2, max: 4}
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
functions:
  score(p): "0"
procedures:
  t: |
{code}
flow: |
  t()
"""


def ruleset(tmp_path, code: str):
    d = tmp_path / "logfixed"
    d.mkdir(exist_ok=True)
    body = textwrap.indent(textwrap.dedent(code).strip("\n"), "    ")
    (d / "game.yaml").write_text(RULES.replace("{code}", body))
    return load_ruleset(d)


def lines(game) -> dict:
    return {v: game.log_lines(v) for v in (None, *range(game.state.n))}


# seat 1 draws two cards in secret; the log names them in a list, a tuple, a nested list and
# alone; then seat 1 plays them to the table, where everyone sees them
SECRET_THEN_PLAYED = """
    draw 2 from deck to hand[1]
    log "list {hand[1]}"
    log "tuple {(top(hand[1]), 7)}"
    log "nested {[[top(hand[1])], []]}"
    log "single {top(hand[1])}"
    show "hands {hand[1]}" columns ["who", "cards"] rows [[1, hand[1]]]
    choose ok from ["play"] by 1
    move [c for c in hand[1]] to table
    log "played {table}"
"""


def test_a_card_seen_in_secret_stays_hidden_in_old_lines_once_played(tmp_path):
    g = Game.new(ruleset(tmp_path, SECRET_THEN_PLAYED), players=2, seed=0)
    before = lines(g)
    tables_before = [g.tables(v) for v in (None, 0, 1)]
    hidden = "a face-down card"
    assert before[0][:4] == [f"list {hidden}, {hidden}", f"tuple {hidden} 7", f"nested {hidden}; none",
                             f"single {hidden}"]
    assert hidden not in "".join(before[1]) and before[1] == before[None]
    assert g.tables(0)[0]["title"] == f"hands {hidden}, {hidden}"
    g.apply(0, player=1)  # seat 1 plays its cards: everyone sees them now
    after = lines(g)
    for v in before:
        assert after[v][:len(before[v])] == before[v], f"seat {v}'s old lines changed"
    assert [g.tables(v) for v in (None, 0, 1)] == tables_before
    assert hidden not in after[0][-1]  # the new line names them for everyone


def test_a_card_known_then_shuffled_away_stays_named_in_old_lines(tmp_path):
    g = Game.scenario(ruleset(tmp_path, """
        draw 1 from deck to hand[0]
        log "{[top(hand[0])]} and {top(hand[0])}"
        move top(hand[0]) to deck
        shuffle deck
    """), 2, run="t")
    first = g.log_lines(0)[0]
    assert "face-down" not in first and first.split(" and ")[0] == first.split(" and ")[1]
    assert g.log_lines(1)[0] == "a face-down card and a face-down card"


def test_a_logged_pair_of_numbers_is_not_read_as_a_card(tmp_path):
    g = Game.scenario(ruleset(tmp_path, 'log "{(1, 2)} {[(0, 3)]}"'), 2, run="t")
    assert g.log_lines() == ["1 2 0 3"] and g.log_lines(0) == ["1 2 0 3"]


def test_a_logged_list_is_a_copy(tmp_path):
    g = Game.scenario(ruleset(tmp_path, """
        let xs = [1]
        log "{xs}"
        xs += [2]
        log "{xs}"
    """), 2, run="t")
    assert g.log_lines() == ["1", "1, 2"]


# ---------------------------------------------------------------------------- property


TILE_GAME = "capital_jux"
CAT = catalogue(TILE_GAME)
COLOURS = ["blue", "pink", "yellow", "green"]
TILES = {key: sorted(i.name for i in CAT.values() if ("power", key) in i.fill_keys) for key in COLOURS}
_RULES: dict = {}


def rules_for(game: str, tiles: tuple):
    key = (game, tiles)
    if key not in _RULES:
        _RULES[key] = load_ruleset(game, list(tiles))
    return _RULES[key]


# Capital Jux without tiles; with a random combination of tiles (each colour with one of its tiles
# or none); Guildhall. Each kind plays a few games.
tiles_st = st.tuples(*[st.sampled_from([None] + TILES[k]) for k in COLOURS]).map(
    lambda t: tuple(x for x in t if x is not None))
GAMES = {"capital_jux": st.just(("capital_jux", ())),
         "tiles": st.tuples(st.just(TILE_GAME), tiles_st),
         "guildhall": st.just(("guildhall", ()))}

MAX_ANSWERS = 2000


@pytest.mark.parametrize("kind", list(GAMES))
@settings(max_examples=3)
@given(data=st.data(), n=st.sampled_from([2, 3, 4]), seed=st.integers(0, 2**32 - 1),
       answers=st.integers(0, 2**32 - 1), cut=st.integers(0, 150))
def test_no_seat_s_earlier_log_lines_ever_change(kind, data, n, seed, answers, cut):
    """Random games (random legal answers, from the `answers` seed): after every answer, each
    seat's earlier log lines and tables are as they were; a save made at answer `cut` (or the
    record, when the game is shorter) loads and plays on to the same log for every seat."""
    name, tiles = data.draw(GAMES[kind], label="game")
    note(f"load_ruleset({name!r}, {list(tiles)}), players={n}, seed={seed}, answers={answers}")
    g = Game.new(rules_for(name, tiles), players=n, seed=seed)
    rnd = random.Random(answers).random
    seats = (None, *range(n))
    seen = {v: g.log_lines(v) for v in seats}
    tables = {v: g.tables(v) for v in seats}
    save = None
    while not g.over:
        assert len(g.answers) < MAX_ANSWERS, "the game has not ended"
        pending = g.pending
        d = pending[floor(rnd() * len(pending))]
        g.apply(random_answer(d, rnd), player=d.player, decision=d.id)
        for v in seats:
            now = g.log_lines(v)
            assert now[:len(seen[v])] == seen[v], f"seat {v}'s earlier log lines changed at answer {len(g.answers)}"
            seen[v] = now
            t = g.tables(v)
            assert t[:len(tables[v])] == tables[v], f"seat {v}'s earlier tables changed at answer {len(g.answers)}"
            tables[v] = t
        if len(g.answers) == cut:
            save = json.loads(json.dumps(g.save()))
    # the log is not saved: a game loaded from a save (or a record) rebuilds it by replaying
    again = Game.from_record(save if save is not None else json.loads(json.dumps(g.record())))
    for player, answer in g.answers[len(again.answers):]:
        again.apply(answer, player=player)
    assert all(again.log_lines(v) == g.log_lines(v) and again.tables(v) == g.tables(v) for v in seats)
