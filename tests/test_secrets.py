"""Secret numbers and lines for some seats (issue 27): a counter `visible: owner` (only the seat it
belongs to sees it) or `visible: none` (no seat does, only the rules read it), a zone `size: hidden`
(the seats that cannot see it do not see how many cards it holds), and `log TEXT to SEATS [else
TEXT]` (a line those seats read; the others read the `else` line, or nothing).

A small ruleset written here, and the example docs/examples/secret_bids. Tests: the checks and the
schema locate wrong declarations; views, the table, the log (also replayed from a record), a
bot's samples and the bots themselves keep to who may know what; at the game's end every seat
sees every counter and every zone's size.
"""
from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from jux.interpreter.bots.greedy import GreedyBot
from jux.interpreter.bots.ismcts import IsmctsBot
from jux.interpreter.bots.random_bot import random_answer
from jux.interpreter.bots.sample import InfoSet, bot_input, secret_counters
from jux.interpreter.engine.game import Game
from jux.interpreter.engine.ruleset import load_ruleset
from jux.interpreter.errors import RuleError, RuleErrors
from jux.tui.widgets.table import render_table

EXAMPLE = Path(__file__).resolve().parent.parent / "docs" / "examples" / "secret_bids"
HIDDEN = {"hidden": True}

RULES = """\
game:
  name: secrets
  players: {min: 2, max: 4}
constants:
  colours: [red, blue]
cards:
  card:
    label: "{colour} {value}"
    attributes:
      colour: [red, blue]
      value: [1, 2, 3, 4, 5, 6]
zones:
  deck: {visible: none, size: hidden, start: [card]}
  hand: {per: player, visible: owner, size: hidden}
  open: {visible: all}
counters:
  chips: {start: 5, per: player, visible: owner}
  stock: {start: 0, per: [player, colours], visible: owner}
  pot: {start: 0, visible: none}
  round: 0
functions:
  score(p): chips[p] + len(hand[p])
procedures:
  turn(p): |
    choose n from [1, 2] by p prompt "Bet how many?" label "{n}"
    chips[p] -= n
    pot += n
    stock[p]["red"] += n
    draw 1 from deck to hand[p]
    log "You draw {top(hand[p])} and bet {n}." to p else "{p} draws a card and bets."
    log "Only the first two seats read this." to [players[0], players[1]]
    show "Round {round}" columns ["player"] rows [[q] for q in players]
flow: |
  shuffle deck
  while round < 2 {
    round += 1
    for p in players { turn(p) }
  }
  move top(hand[0]) to open
  log "{players[0]} shows {top(open)}."
"""


def load(tmp_path, text: str = RULES):
    d = tmp_path / "secrets"
    d.mkdir(exist_ok=True)
    (d / "game.yaml").write_text(text)
    return load_ruleset(d)


@pytest.fixture(scope="module")
def rules(tmp_path_factory):
    return load(tmp_path_factory.mktemp("secrets"))


def edit(old: str, new: str, text: str = RULES) -> str:
    assert text.count(old) == 1, f"{old!r} is not once in the text"
    return text.replace(old, new)


def errors(tmp_path, text) -> list:
    with pytest.raises(RuleErrors) as e:
        load(tmp_path, text)
    for err in e.value.errors:
        assert isinstance(err, RuleError) and err.pos is not None and "\n" not in str(err)
    return e.value.errors


def at(text: str, needle: str) -> tuple:
    i = text.index(needle)
    return text.count("\n", 0, i) + 1, i - (text.rfind("\n", 0, i) + 1) + 1


def play(rules, players=3, seed=1, answers=None):
    """A game played by random answers (seeded) to its end; each answer as (player, choice)."""
    g = Game.new(rules, players, seed)
    rng = random.Random(seed)
    while g.pending:
        d = g.pending[0]
        g.apply(random_answer(d, rng.random), player=d.player)
    return g


def first_turn(rules, players=3, seed=1):
    """A game after seat 0 bet 2 (its first turn done; seat 1 deciding)."""
    g = Game.new(rules, players, seed)
    g.apply(1, player=0)
    return g


# ------------------------------------------------------------ the checks


def test_the_ruleset_loads_and_a_correct_file_has_no_errors(rules):
    assert rules.name == "secrets"


@pytest.mark.parametrize("old, new, needle, words", [
    ("chips: {start: 5, per: player, visible: owner}", "chips: {start: 5, per: player, visible: secret}",
     "visible: secret", "visible"),
    ("deck: {visible: none, size: hidden, start: [card]}", "deck: {visible: none, size: small, start: [card]}",
     "size: small", "size"),
    ("pot: {start: 0, visible: none}", "pot: {start: 0, visible: owner}",
     "pot:", "counter 'pot' is visible to its owner but has no owner (add per: player)"),
    ("open: {visible: all}", "open: {visible: all, size: hidden}",
     "open:", "zone 'open' is visible to all"),
])
def test_wrong_declarations_are_located_errors(tmp_path, old, new, needle, words):
    text = edit(old, new)
    errs = errors(tmp_path, text)
    line, _ = at(text, needle)
    assert any(words in str(e) and e.pos.line == line for e in errs), [str(e) for e in errs]


def test_the_standing_and_the_table_may_not_read_a_secret_counter(tmp_path):
    text = edit("  score(p): chips[p] + len(hand[p])\n",
                "  score(p): chips[p] + len(hand[p])\n"
                "  standing(p): '[(\"chips\", my_chips(p))]'\n"
                "  my_chips(p): chips[p]\n"
                "  in_the_pot: pot\n"
                "table:\n"
                "  the pot: in_the_pot\n")
    errs = [str(e) for e in errors(tmp_path, text)]
    assert any("'standing' reads counter 'chips', which is visible to its owner only" in e
               and f":{at(text, 'standing(p)')[0]}:" in e for e in errs), errs
    assert any("'in_the_pot' reads counter 'pot', which is visible to no seat" in e for e in errs), errs
    assert len(errs) == 2


def test_log_to_names_seats(tmp_path):
    text = edit('log "Only the first two seats read this." to [players[0], players[1]]',
                'log "Only the first two seats read this." to "red"')
    errs = [str(e) for e in errors(tmp_path, text)]
    line, col = at(text, 'to "red"')
    col += len("to ")
    assert any(f":{line}:{col}: 'log ... to' names a player (a seat) or a list of players, not a text" in e
               for e in errs), errs


def test_log_to_needs_its_seats(tmp_path):
    text = edit('log "Only the first two seats read this." to [players[0], players[1]]',
                'log "Only the first two seats read this." to')
    errs = [str(e) for e in errors(tmp_path, text)]
    assert len(errs) == 1 and f":{at(text, 'show')[0]}:" in errs[0], errs


def test_log_to_and_else_check_the_names_they_read(tmp_path):
    text = edit('log "Only the first two seats read this." to [players[0], players[1]]',
                'log "x" to plyr else "{nobody} y"')
    errs = [str(e) for e in errors(tmp_path, text)]
    assert any("'plyr'" in e for e in errs) and any("'nobody'" in e for e in errs), errs


# ------------------------------------------------------------ views


def test_a_counter_visible_to_its_owner_shows_only_to_its_owner(rules):
    g = first_turn(rules)
    for p in range(3):
        v = g.view(p)["counters"]
        assert v["chips"] == [(3, 5, 5)[q] if q == p else HIDDEN for q in range(3)]
        assert v["stock"] == [({"red": 2, "blue": 0} if q == 0 else {"red": 0, "blue": 0}) if q == p else HIDDEN
                              for q in range(3)]
        assert v["pot"] == HIDDEN and v["round"] == 1
    assert g.view(None)["counters"]["chips"] == [3, 5, 5] and g.view(None)["counters"]["pot"] == 2


def test_no_seat_view_carries_a_secret_value(rules):
    """Whatever the game, a seat's view is the same when the others' secret numbers change."""
    g = first_turn(rules)
    before = {p: g.view(p) for p in range(3)}
    lay = rules.layout
    g.state.v[lay.counter("chips", 2)] = 99
    g.state.v[lay.counter("pot")] = 77
    g.state.v[lay.counter("stock", 2, "blue")] = 55
    for p in (0, 1):
        assert g.view(p) == before[p]
    assert g.view(2)["counters"]["chips"][2] == 99
    assert "99" not in repr(g.view(1)) and "77" not in repr(g.view(2))


def test_a_hidden_size_shows_only_the_known_cards(rules):
    g = first_turn(rules)
    S = g.state
    for p in range(3):
        zones = {(z["name"], z["owner"]): z for z in g.view(p)["zones"]}
        deck = zones[("deck", None)]
        assert deck["size_hidden"] is True and deck["cards"] == []
        mine = zones[("hand", p)]
        assert "size_hidden" not in mine and len(mine["cards"]) == (1 if p == 0 else 0)
        for q in range(3):
            if q != p:
                z = zones[("hand", q)]
                assert z["size_hidden"] is True and z["cards"] == []
    ref = {(z["name"], z["owner"]): z for z in g.view(None)["zones"]}
    assert len(ref[("deck", None)]["cards"]) == len(S.z[rules.layout.zone_index["deck"]]) == 11
    assert "size_hidden" not in ref[("deck", None)]


def test_a_card_a_seat_knows_in_a_zone_of_hidden_size_is_listed(rules):
    g = first_turn(rules)
    card = g.state.z[rules.layout.player_zone("hand", 0)][-1]
    g.state.k[card] |= 1 << 1  # seat 1 was shown seat 0's card
    z = next(z for z in g.view(1)["zones"] if z["name"] == "hand" and z["owner"] == 0)
    assert z["size_hidden"] and [c["id"] for c in z["cards"]] == [card]


def test_at_the_end_every_seat_sees_every_counter_and_size(rules):
    g = play(rules)
    assert g.over
    ref = g.view(None)
    for p in range(3):
        v = g.view(p)
        assert v["counters"] == ref["counters"]
        assert not any(z.get("size_hidden") for z in v["zones"])
        assert [len(z["cards"]) for z in v["zones"]] == [len(z["cards"]) for z in ref["zones"]]


# ------------------------------------------------------------ the log


def test_a_line_to_a_seat_and_the_others_line(rules):
    g = first_turn(rules)
    card = g.rules.card_labels[g.state.z[rules.layout.player_zone("hand", 0)][-1]]
    mine = g.log_lines(0)
    assert mine[0] == f"You draw {card} and bet 2." and mine[1] == "Only the first two seats read this."
    assert g.log_lines(1)[:2] == ["Player 1 draws a card and bets.", "Only the first two seats read this."]
    assert g.log_lines(2)[:1] == ["Player 1 draws a card and bets."]
    assert "Only the first two seats read this." not in "\n".join(g.log_lines(2))
    assert card not in "\n".join(g.log_lines(1) + g.log_lines(2))
    assert g.log_lines(None)[:3] == [f"(to Player 1) You draw {card} and bet 2.",
                                     "(to the others) Player 1 draws a card and bets.",
                                     "(to Player 1, Player 2) Only the first two seats read this."]
    for p in range(3):
        assert g.view(p)["log"] == g.log_lines(p)


def test_tables_point_at_the_viewers_own_lines(rules):
    g = play(rules)
    for viewer in (None, 0, 1, 2):
        lines = g.log_lines(viewer)
        tables = g.tables(viewer)
        assert len(tables) == 6
        for t in tables:
            assert lines[t["at"]].startswith(t["title"])


def test_a_private_line_is_fixed_when_written(rules):
    """The card seat 0 drew reads by its label in seat 0's line, also after it is shown to all,
    and only the shown line names it for the others."""
    g = play(rules)
    shown = g.rules.card_labels[g.state.z[rules.layout.zone_index["open"]][-1]]
    assert g.log_lines(1)[-1] == f"Player 1 shows {shown}."
    assert sum(shown in line for line in g.log_lines(1)) == 1


def test_the_log_replays_from_the_record(rules):
    g = play(rules, seed=4)
    again = Game.from_record(g.record(), rules)
    for viewer in (None, 0, 1, 2):
        assert again.log_lines(viewer) == g.log_lines(viewer)
        assert again.view(viewer) == g.view(viewer)


# ------------------------------------------------------------ the table


def test_the_table_shows_a_secret_as_a_question_mark(rules):
    g = first_turn(rules)
    text = render_table(g.view(1), rules.spec, 1).plain
    assert re.search(r"Player 2 \(you\).*·  chips: 5\n", text), text
    assert "Player 1  ·  chips: ?  ·  stock: ?\n" in text and "Player 3  ·  chips: ?  ·  stock: ?\n" in text, text
    assert "pot: ?" in text and "deck: ? cards" in text, text
    assert "stock: ?\n  hand: ? cards" in text, text
    assert "11" not in text and "3" not in text.replace("Player 3", ""), text
    mine = render_table(g.view(0), rules.spec, 0).plain
    assert "chips: 3" in mine and "stock: red 2, blue 0" in mine and "hand: ? cards" in mine, mine


def test_the_table_at_the_end_shows_every_number(rules):
    g = play(rules)
    text = render_table(g.view(1), rules.spec, 1).plain
    assert "?" not in text, text


# ------------------------------------------------------------ bots


def test_a_sample_puts_secret_counters_back_to_their_start(rules):
    g = first_turn(rules)
    lay = rules.layout
    for seed in range(5):
        s = InfoSet(g, 1).sample(random.Random(seed))
        V = s.state.v
        assert V[lay.counter("chips", 0)] == 5 and V[lay.counter("stock", 0, "red")] == 0
        assert V[lay.counter("pot")] == 0
        assert V[lay.counter("round")] == 1
    own = InfoSet(g, 0).sample(random.Random(0)).state.v
    assert own[lay.counter("chips", 0)] == 3 and own[lay.counter("stock", 0, "red")] == 2
    assert own[lay.counter("pot")] == 0  # no seat sees the pot, not even the one who bet


def test_samples_do_not_depend_on_secret_numbers(rules):
    g = first_turn(rules)
    h = first_turn(rules)
    lay = rules.layout
    h.state.v[lay.counter("chips", 0)] = 1
    h.state.v[lay.counter("pot")] = 4
    for seed in range(5):
        a = InfoSet(g, 1).sample(random.Random(seed))
        b = InfoSet(h, 1).sample(random.Random(seed))
        assert a.state.v == b.state.v and a.state.z == b.state.z


def test_secret_counters_lists_only_what_the_seat_may_not_see(rules):
    g = first_turn(rules)
    lay = rules.layout
    slots = {i for i, _ in secret_counters(g, 1)}
    assert slots == {lay.counter("pot"), lay.counter("chips", 0), lay.counter("chips", 2),
                     lay.counter("stock", 0, "red"), lay.counter("stock", 0, "blue"),
                     lay.counter("stock", 2, "red"), lay.counter("stock", 2, "blue")}


def test_a_ruleset_without_secrets_samples_as_before():
    rules = load_ruleset("capital_jux")
    g = Game.new(rules, 4, 3)
    assert secret_counters(g, 0) == []


@pytest.mark.parametrize("bot", [lambda: GreedyBot(seed=1), lambda: IsmctsBot(seed=1, iterations=30)])
def test_bots_play_the_example_to_its_end(bot):
    rules = load_ruleset(EXAMPLE)
    g = Game.new(rules, 3, 2)
    bots = [bot() for _ in range(3)]
    while g.pending:
        d = g.pending[0]
        g.apply(bots[d.player].choose(bot_input(bots[d.player], g, d.player), d), player=d.player)
    assert g.over and len(g.scores) == 3


# ------------------------------------------------------------ the example


def test_the_example_plays_and_keeps_its_secrets():
    rules = load_ruleset(EXAMPLE)
    for seed in range(6):
        g = Game.new(rules, 3, seed)
        rng = random.Random(seed)
        while g.pending:
            for p in range(3):
                v = g.view(p)
                assert all(x == HIDDEN for q, x in enumerate(v["counters"]["chips"]) if q != p)
                assert v["counters"]["chips"][p] != HIDDEN
                assert all(x == HIDDEN for x in v["counters"]["bid"])
                for z in v["zones"]:
                    if z["name"] == "deck" or (z["name"] == "won" and z["owner"] != p):
                        assert z["size_hidden"] and all(not c.get("hidden") for c in z["cards"])
            d = g.pending[0]
            g.apply(random_answer(d, rng.random), player=d.player)
        assert g.over
        lines = g.log_lines(None)
        for p in range(3):
            name, mine = g.names[p], g.log_lines(p)
            looks = sum(line.startswith(f"(to {name}) You pay a chip and see") for line in lines)
            others = sum(line.startswith("(to the others) ") and f") {name} " not in line for line in lines)
            assert sum(line.startswith("You pay a chip and see") for line in mine) == looks
            assert sum(line.endswith("pays a chip to peek at the deck.") for line in mine) == others


def test_a_local_read_only_by_log_to_works_across_a_decision(tmp_path):
    """`who` is read only by a log line (so it is worked out only with a log, kept beside it
    while the routine waits at the decision): the line still goes to the right seat, and a game
    without a log plays the same."""
    text = edit('    choose n from [1, 2] by p prompt "Bet how many?" label "{n}"\n',
                '    let who = next_seat(p)\n'
                '    choose n from [1, 2] by p prompt "Bet how many?" label "{n}"\n'
                '    log "{p} bet {n}: only you know." to who\n')
    rules = load(tmp_path, text)
    g = play(rules, seed=2)
    assert sum("bet" in line and "only you know" in line for line in g.log_lines(1)) == 2
    assert not any("only you know" in line for line in g.log_lines(0) if "Player 3 bet" not in line)
    assert sum("only you know" in line for line in g.log_lines(None)) == 6
    quiet = Game.new(rules, 3, 2, log=False)
    rng = random.Random(2)
    while quiet.pending:
        d = quiet.pending[0]
        quiet.apply(random_answer(d, rng.random), player=d.player)
    assert quiet.scores == g.scores and quiet.state.v == g.state.v
