"""Knowledge that follows the card, `knows(p, c)`, and face-up piles that show only their top
(`visible: top`): docs/language.md, "Knowledge that follows the card", "knows(p, c)" and
"Face-up piles: visible: top".

A small ruleset written here: sun and moon cards, a face-down deck, a face-up row (`shown`), a
pile that shows only its top, a face-down `table`, and per seat a hand and a `secret` zone. Each
procedure makes one kind of move; the tests set up a position (Game.scenario), run it and read
who knows what: the engine's masks, each seat's view, its log and the rules' own knows().
"""
from __future__ import annotations

import random

import pytest

from jux.interpreter.bots.sample import InfoSet, determinize
from jux.interpreter.engine.game import Game
from jux.interpreter.engine.ruleset import load_ruleset
from jux.interpreter.errors import RuleErrors
from jux.interpreter.runtime import chance, moves
from jux.interpreter.runtime.state import SEATS, Card

RULES = """\
game:
  name: follow
  players: {min: 2, max: 4}
cards:
  card:
    label: "{suit} {value}"
    attributes:
      suit: [sun, moon]
      value: [1, 2, 3, 4, 5, 6]
zones:
  deck: {visible: none, start: [card]}
  shown: {visible: all}
  pile: {visible: top}
  table: {visible: none}
  between: {visible: none}
  hand: {per: player, visible: owner}
  secret: {per: player, visible: owner}
functions:
  score(p): len(hand[p])
procedures:
  take(p): |
    let c = top(shown)
    move c to hand[p]
    log "{p} takes {c}."
  take_list(p): move [c for c in shown] to hand[p]
  trade(p, q): |
    move hand[p] to between
    move hand[q] to hand[p]
    move between to hand[q]
  hide(p): |
    choose c from hand[p] by p prompt "Hide which card?" label "{c}"
    move c to secret[p]
  take_and_hide(p): |
    move top(shown) to hand[p]
    choose c from hand[p] by p prompt "Hide which card?" label "{c}"
    move c to secret[p]
  take_and_show(p): |
    move top(shown) to hand[p]
    choose c from hand[p] by p prompt "Show which card?" label "{c}"
    move c to shown
  take_and_lose(p): |
    move top(shown) to hand[p]
    move random(hand[p]) to secret[p]
  pass_all: |
    let packs = [hand[p] for p in players]
    for p in players { move packs[p] to hand[next_seat(p)] }
  show_one(p): |
    choose c from hand[p] by p prompt "Show which card?" label "{c}"
    move c to shown
  on_deck(p): |
    choose c from hand[p] by p prompt "Put which card on the deck?" label "{c}"
    move c to deck
  draw_one(p): draw 1 from deck to hand[p]
  to_table(p): move top(hand[p]) to table
  under_deck(p): move top(hand[p]) to deck bottom
  mix: shuffle deck
  discard(p): move top(hand[p]) to pile
  take_pile(p): move top(pile) to hand[p]
  draw_pile(p): draw 2 from pile to hand[p]
  under_pile(p): move top(hand[p]) to pile bottom
  row_to_pile: move shown to pile
  mix_pile: shuffle pile
  ask(p, q): |
    log "{p} knows {count(c for c in hand[q] if knows(p, c))} of {q}'s hand; the top of the deck: {knows(p, top(deck))}"
flow: |
  shuffle deck
"""


@pytest.fixture(scope="module")
def rules(tmp_path_factory):
    d = tmp_path_factory.mktemp("follow") / "follow"
    d.mkdir()
    (d / "game.yaml").write_text(RULES)
    return load_ruleset(d)


def at(rules, players=3, run=None, args=(), **zones):
    return Game.scenario(rules, players, zones=zones, run=run, args=args)


def knowers(g, label) -> set:
    """The seats that know the card of this label."""
    c = next(c for c in g.rules.cards if g.rules.card_labels[c] == label)
    return {p for p in range(g.state.n) if g.knows(p, c)}


def seen(g, viewer, zone) -> list:
    """Zone as the viewer's view shows it: labels, '?' for a hidden card."""
    z = next(z for z in g.view(viewer)["zones"] if (f"{z['name']}[{z['key']}]" if z["key"] is not None else z["name"]) == zone)
    return [c.get("label", "?") for c in z["cards"]]


def zi(g, name) -> int:
    """The index of a zone by its display name ('hand[1]')."""
    return g.rules.layout.zone_names(g.state.n).index(name)


def card(g, label) -> Card:
    return next(c for c in g.rules.cards if g.rules.card_labels[c] == label)


def answer(g, label):
    d = g.next_decision()
    g.apply(next(o.id for o in d.options if o.label == label), player=d.player, decision=d.id)


# ------------------------------------------------------------------ moves


def test_a_card_taken_face_up_into_a_hand_stays_known_to_everyone(rules):
    g = at(rules, run="take", args=[1], shown=["sun 4"], **{"hand[1]": ["moon 2"]})
    assert knowers(g, "sun 4") == {0, 1, 2}
    assert knowers(g, "moon 2") == {1}
    assert seen(g, 0, "hand[1]") == ["?", "sun 4"]
    assert seen(g, 2, "hand[1]") == ["?", "sun 4"]
    # a list of cards moves the same way, each in turn
    g = at(rules, run="take_list", args=[1], shown=["sun 4", "sun 5"])
    assert knowers(g, "sun 4") == knowers(g, "sun 5") == {0, 1, 2}


def test_traded_hands_stay_known_to_the_seat_that_gave_them(rules):
    g = at(rules, run="trade", args=[0, 1], **{"hand[0]": ["sun 1", "sun 2"], "hand[1]": ["moon 1"],
                                               "hand[2]": ["moon 6"]})
    assert g.zone("hand[0]") == ["moon 1"] and g.zone("hand[1]") == ["sun 1", "sun 2"]
    assert knowers(g, "sun 1") == knowers(g, "sun 2") == {0, 1}
    assert knowers(g, "moon 1") == {0, 1}
    assert seen(g, 0, "hand[1]") == ["sun 1", "sun 2"] and seen(g, 1, "hand[0]") == ["moon 1"]
    assert seen(g, 2, "hand[1]") == ["?", "?"] and seen(g, 2, "hand[0]") == ["?"]  # seat 2 saw neither


def test_a_card_drawn_from_the_deck_is_known_to_its_drawer_only(rules):
    g = at(rules, run="draw_one", args=[2], deck=["sun 3"])
    assert g.zone("hand[2]") == ["sun 3"] and knowers(g, "sun 3") == {2}


def test_a_card_put_face_down_is_still_known_to_whoever_put_it_there(rules):
    g = at(rules, run="to_table", args=[0], **{"hand[0]": ["sun 6"]})
    assert knowers(g, "sun 6") == {0}
    assert seen(g, 0, "table") == ["sun 6"] and seen(g, 1, "table") == ["?"]


def test_a_card_on_a_face_down_pile_is_followed_until_it_is_shuffled(rules):
    # seat 0 puts sun 6 on the deck, another card covers it, seat 1 draws both: seat 0 still knows
    # which one is sun 6 (nobody changes a face-down pile's order unseen)
    g = at(rules, run="on_deck", args=[0], **{"hand[0]": ["sun 6", "sun 1"]})
    answer(g, "sun 6")
    assert g.zone("deck")[-1] == "sun 6" and knowers(g, "sun 6") == {0}
    assert seen(g, 0, "deck")[-1] == "sun 6" and seen(g, 1, "deck")[-1] == "?"
    S = g.state
    moves.move(S, card(g, "sun 1"), zi(g, "deck"))  # (put from seat 0's hand: followed by seat 0 too)
    moves.draw(S, 2, zi(g, "deck"), zi(g, "hand[1]"))
    assert g.zone("hand[1]") == ["sun 1", "sun 6"] and knowers(g, "sun 6") == knowers(g, "sun 1") == {0, 1}
    # the bottom of the deck: followed too
    g = at(rules, run="under_deck", args=[0], **{"hand[0]": ["moon 5"]})
    assert g.zone("deck")[0] == "moon 5" and knowers(g, "moon 5") == {0}
    # a shuffle forgets it
    chance.shuffle(g.state, zi(g, "deck"))
    assert knowers(g, "moon 5") == set()


def test_a_card_put_back_from_a_hand_is_known_to_its_holder_only(rules):
    # everyone saw moon 3 taken into seat 0's hand; put back face down from the hand, the others
    # cannot tell which card went (a hand's order is its holder's)
    g = at(rules, run="take", args=[0], shown=["moon 3"], **{"hand[0]": ["sun 2"]})
    assert knowers(g, "moon 3") == {0, 1, 2}
    moves.move(g.state, card(g, "moon 3"), zi(g, "deck"))
    assert knowers(g, "moon 3") == {0}


def test_a_hidden_choice_out_of_a_hand_mixes_what_the_others_knew_of_it(rules):
    # everyone saw sun 4 taken into seat 1's hand; seat 1 then hides one of its two cards: the
    # others cannot tell which went, so they no longer know sun 4 is the one left
    g = at(rules, run="take_and_hide", args=[1], shown=["sun 4"], **{"hand[1]": ["moon 2"]})
    assert knowers(g, "sun 4") == {0, 1, 2}  # (while seat 1 chooses)
    answer(g, "moon 2")
    assert g.zone("hand[1]") == ["sun 4"] and g.zone("secret[1]") == ["moon 2"]
    assert knowers(g, "sun 4") == {1} and knowers(g, "moon 2") == {1}
    assert seen(g, 0, "hand[1]") == ["?"]
    # a card shown face up out of the hand tells everyone which card went: the rest stays known
    g = at(rules, run="take_and_show", args=[1], shown=["sun 4"], **{"hand[1]": ["moon 2"]})
    answer(g, "moon 2")
    assert knowers(g, "sun 4") == {0, 1, 2} and knowers(g, "moon 2") == {0, 1, 2}
    # hiding with no other card known changes nothing for the others
    g = Game.scenario(rules, 3, zones={"hand[1]": ["moon 2", "sun 4"]}, run="hide", args=[1])
    answer(g, "moon 2")
    assert knowers(g, "moon 2") == {1} and knowers(g, "sun 4") == {1}


def test_a_random_card_out_of_a_hand_mixes_it_too(rules):
    for seed in range(6):  # whichever card the generator takes, the others know neither
        g = Game.scenario(rules, 3, zones={"shown": ["sun 4"], "hand[1]": ["moon 2"]}, run="take_and_lose",
                          args=[1], seed=seed)
        assert len(g.zone("hand[1]")) == 1 and len(g.zone("secret[1]")) == 1
        assert knowers(g, "sun 4") == knowers(g, "moon 2") == {1}


def test_packs_passed_one_after_another_stay_known_to_each_passer(rules):
    # every seat's hand goes to the next seat, one pack after another: no choice is made in
    # between, so a pack leaving a hand the previous pack has just come into does not mix them
    g = at(rules, run="pass_all", **{"hand[0]": ["sun 1", "sun 2"], "hand[1]": ["moon 1"], "hand[2]": ["moon 6"]})
    assert g.zone("hand[1]") == ["sun 1", "sun 2"] and g.zone("hand[2]") == ["moon 1"] and g.zone("hand[0]") == ["moon 6"]
    assert knowers(g, "sun 1") == knowers(g, "sun 2") == {0, 1}
    assert knowers(g, "moon 1") == {1, 2} and knowers(g, "moon 6") == {0, 2}


def test_the_log_keeps_what_each_seat_knew_when_it_was_written(rules):
    g = at(rules, run="take", args=[1], shown=["sun 4"])
    assert g.log_lines(0)[-1] == "Player 2 takes sun 4."
    moves.move(g.state, card(g, "sun 4"), zi(g, "deck"))
    chance.shuffle(g.state, zi(g, "deck"))
    assert knowers(g, "sun 4") == set()
    assert g.log_lines(0)[-1] == "Player 2 takes sun 4."  # written when everyone knew it


def test_a_scenario_position_is_as_dealt_not_followed(rules):
    g = at(rules, shown=["sun 1"], **{"hand[0]": ["sun 2"], "pile": ["moon 1", "moon 2"]})
    assert knowers(g, "sun 1") == {0, 1, 2} and knowers(g, "sun 2") == {0}
    assert knowers(g, "moon 2") == {0, 1, 2} and knowers(g, "moon 1") == set()


# ------------------------------------------------------------------ knows(p, c)


def test_the_rules_read_who_knows_a_card(rules):
    g = Game.scenario(rules, 3, zones={"hand[1]": ["moon 2", "sun 4"]}, run="ask", args=[0, 1])
    assert g.log_lines()[-1] == "Player 1 knows 0 of Player 2's hand; the top of the deck: no"
    g = Game.scenario(rules, 3, zones={"hand[1]": ["moon 2", "sun 4"]}, run="ask", args=[1, 1])
    assert g.log_lines()[-1] == "Player 2 knows 2 of Player 2's hand; the top of the deck: no"
    # sun 4 taken face up: seat 0 knows it in seat 1's hand, and the rules read that
    g = Game.scenario(rules, 3, zones={"shown": ["sun 4"], "hand[1]": ["moon 2"]}, run="take", args=[1])
    ask = rules._c["procedures"]["ask"]
    g.state.log = []
    ask(g.state, SEATS[0], SEATS[1])
    assert g.log_lines() == ["Player 1 knows 1 of Player 2's hand; the top of the deck: no"]
    # the card seat 0 put on the deck: knows(p, top(deck)) is true for seat 0 only
    g = at(rules, run="on_deck", args=[0], **{"hand[0]": ["sun 6"]})
    answer(g, "sun 6")
    for p, word in ((0, "yes"), (2, "no")):
        g.state.log = []
        ask(g.state, SEATS[p], SEATS[1])
        assert g.log_lines()[0].endswith(f"the top of the deck: {word}")


def test_knows_is_checked_before_the_game(tmp_path):
    d = tmp_path / "bad"
    d.mkdir()
    (d / "game.yaml").write_text(RULES.replace("  mix: shuffle deck\n", "  mix: |\n    if knows(1, \"sun\") { shuffle deck }\n"))
    with pytest.raises(RuleErrors) as e:
        load_ruleset(d)
    assert "game.yaml:" in str(e.value) and "'knows' takes a card, not a text" in str(e.value)
    # at run time, the top of an empty zone (none) is a card nobody knows
    assert moves.knows(None, SEATS[0], None) is False


# ------------------------------------------------------------------ visible: top


def test_a_top_pile_shows_its_top_card_and_its_count(rules):
    g = at(rules, run="discard", args=[0], pile=["moon 1", "moon 2"], **{"hand[0]": ["sun 5"]})
    assert g.zone("pile") == ["moon 1", "moon 2", "sun 5"]
    for p in range(3):
        assert seen(g, p, "pile") == ["?", "?", "sun 5"]
    view = g.view(1)
    pile = next(z for z in view["zones"] if z["name"] == "pile")
    assert pile["cards"][:2] == [{"hidden": True}, {"hidden": True}]  # no back, no face under the top
    assert knowers(g, "moon 2") == set()  # covered: no one may look through the pile


def test_taking_the_top_uncovers_the_next_card_for_everyone(rules):
    g = at(rules, run="take_pile", args=[2], pile=["moon 1", "moon 2", "sun 3"])
    assert g.zone("hand[2]") == ["sun 3"] and knowers(g, "sun 3") == {0, 1, 2}
    assert knowers(g, "moon 2") == {0, 1, 2} and knowers(g, "moon 1") == set()
    assert seen(g, 0, "pile") == ["?", "moon 2"]
    g = at(rules, run="draw_pile", args=[2], pile=["moon 1", "moon 2", "sun 3"])
    assert g.zone("hand[2]") == ["sun 3", "moon 2"]
    assert knowers(g, "sun 3") == knowers(g, "moon 2") == knowers(g, "moon 1") == {0, 1, 2}


def test_cards_put_under_or_shuffled_into_a_top_pile_are_not_seen(rules):
    g = at(rules, run="under_pile", args=[0], pile=["moon 1"], **{"hand[0]": ["sun 5"]})
    assert g.zone("pile") == ["sun 5", "moon 1"] and knowers(g, "sun 5") == set()
    g = at(rules, run="under_pile", args=[0], **{"hand[0]": ["sun 5"]})  # an empty pile: it is the top
    assert knowers(g, "sun 5") == {0, 1, 2}
    g = at(rules, run="row_to_pile", shown=["sun 1", "sun 2"], pile=["moon 6"])
    assert g.zone("pile") == ["moon 6", "sun 1", "sun 2"]
    assert [len(knowers(g, x)) for x in g.zone("pile")] == [0, 0, 3]
    g = at(rules, run="mix_pile", pile=["moon 1", "moon 2", "moon 3", "moon 4"])
    top = g.zone("pile")[-1]
    assert [len(knowers(g, x)) for x in g.zone("pile")] == [0, 0, 0, 3] and seen(g, 1, "pile")[-1] == top


def test_a_top_zone_cards_start_in_shows_only_its_top(tmp_path):
    d = tmp_path / "start"
    d.mkdir()
    (d / "game.yaml").write_text(RULES.replace("  deck: {visible: none, start: [card]}\n", "  deck: {visible: none}\n")
                                 .replace("  pile: {visible: top}", "  pile: {visible: top, start: [card]}")
                                 .replace("flow: |\n  shuffle deck", "flow: |\n  shuffle pile"))
    rules = load_ruleset(d)
    g = Game.new(rules, 2, seed=3)
    z = g.state.z[rules.layout.zone_index["pile"]]
    assert [g.state.k[c] for c in z] == [0] * (len(z) - 1) + [3]
    fresh = rules.initial_state(2)
    assert [fresh.k[c] for c in fresh.z[rules.layout.zone_index["pile"]]][-2:] == [0, 3]


def test_a_bots_sample_keeps_the_top_and_deals_the_cards_under_it_again(rules):
    g = at(rules, pile=["moon 1", "moon 2", "moon 3", "sun 6"], **{"hand[0]": ["sun 1"], "hand[1]": ["sun 2"]})
    pile = g.rules.layout.zone_index["pile"]
    under = set(g.state.z[pile][:-1])
    moved = False
    for seed in range(30):
        s = determinize(g, 0, random.Random(seed))
        z = s.state.z[pile]
        assert len(z) == 4 and g.rules.card_labels[z[-1]] == "sun 6"  # the top everyone sees
        assert s.state.z[g.rules.layout.zone_names(3).index("hand[0]")] == g.state.z[g.rules.layout.zone_names(3).index("hand[0]")]
        moved |= set(z[:-1]) != under
        assert sorted(c for zz in s.state.z for c in zz) == list(range(len(g.rules.cards)))
    assert moved, "the cards under the top are never dealt again"
    # two games that differ only under the top give the same samples
    h = at(rules, pile=["sun 3", "moon 2", "moon 3", "sun 6"], deck=["moon 1"],
           **{"hand[0]": ["sun 1"], "hand[1]": ["sun 2"]})
    a = InfoSet(g, 0).sample(random.Random(4)).state
    b = InfoSet(h, 0).sample(random.Random(4)).state
    assert a.z[pile][-1] == b.z[pile][-1]


def test_the_table_shows_only_the_top_of_a_top_pile(rules):
    from jux.tui.widgets.table import render_table
    from jux.tui.widgets.card_text import pile_text

    g = at(rules, pile=["moon 1", "moon 2", "sun 6"])
    text = render_table(g.view(0), rules.spec, you=0).plain
    assert "pile: sun 6 (top of 3)" in text and "moon" not in text
    assert pile_text([]).plain == "—"
    assert pile_text([{"label": "sun 6"}]).plain == "sun 6"


def test_the_schema_accepts_top_and_validate_names_a_wrong_word(tmp_path):
    d = tmp_path / "bad"
    d.mkdir()
    (d / "game.yaml").write_text(RULES.replace("  pile: {visible: top}", "  pile: {visible: tops}"))
    with pytest.raises(RuleErrors) as e:
        load_ruleset(d)
    assert "game.yaml:" in str(e.value) and "top" in str(e.value)


# ------------------------------------------------------------------ the examples


@pytest.mark.parametrize("name", ["market_swap", "discard_pile"])
def test_the_examples_play_to_the_end(name):
    from pathlib import Path

    from jux.interpreter.bots.random_bot import random_answer

    rules = load_ruleset(Path(__file__).resolve().parent.parent / "docs" / "examples" / name)
    for n in (2, 3, 4):
        g = Game.new(rules, n, seed=n)
        rng = random.Random(n)
        while not g.over:
            d = g.next_decision()
            g.apply(random_answer(d, rng.random), player=d.player, decision=d.id)
        assert len(g.scores) == n


def test_the_market_example_needs_no_reveal():
    from pathlib import Path

    path = Path(__file__).resolve().parent.parent / "docs" / "examples" / "market_swap"
    rules = load_ruleset(path)
    assert "reveal" not in (path / "game.yaml").read_text().split("procedures:")[1]
    g = Game.scenario(rules, 2, zones={"market": ["sun 6"], "hand[0]": ["moon 1"], "hand[1]": ["moon 2"]},
                      run="turn", args=[0])
    answer(g, "take sun 6")
    assert knowers(g, "sun 6") == {0, 1}
    g = Game.scenario(rules, 2, zones={"market": ["sun 6"], "hand[0]": ["moon 1"], "hand[1]": ["moon 2"]},
                      run="turn", args=[1])
    d = g.next_decision()
    trade = next(o for o in d.options if o.label == "trade hands with Player 1")
    assert trade.hint == "you know 0 of their cards"
    g.apply(trade.id, decision=d.id)
    assert g.zone("hand[0]") == ["moon 2"] and knowers(g, "moon 2") == {0, 1} and knowers(g, "moon 1") == {0, 1}


@pytest.mark.parametrize("name", ["capital_jux"])
def test_every_way_of_playing_gives_the_same_knowledge(name):
    """Who knows what is part of the game: answering one decision at a time, autoplay answering
    where the rules stop, and direct autoplay (threads run one by one) leave the same masks."""
    from jux.interpreter.bots.random_bot import random_answer

    rules = load_ruleset(name)
    g = Game.new(rules, 3, seed=2)
    rng = random.Random(2)
    masks = []
    while not g.over:
        d = g.next_decision()
        g.apply(random_answer(d, rng.random), player=d.player, decision=d.id)
        masks.append(list(g.state.k))
    followed = {m for ks in masks for m in ks if m not in (0, 1, 2, 4, 7)}
    assert followed, "no card was ever known to two seats of three"
    h = Game.new(rules, 3, seed=2, start=False, log=False)
    answers = iter([a for _, a in g.answers])
    for i in range(len(g.answers)):
        h.autoplay(pick=lambda n, lo, hi, many, *keys: next(answers), limit=1)
        assert h.state.k == masks[i], f"after answer {i + 1}"
    h = Game.new(rules, 3, seed=2, start=False, log=False)
    answers = iter([a for _, a in g.answers])
    h.autoplay(pick=lambda n, lo, hi, many, *keys: next(answers), direct=True)
    assert h.state.z == g.state.z and h.state.k == g.state.k
