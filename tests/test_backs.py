"""Public card backs: a card kind's `back: [attributes]` shows those attributes to everyone, also
where the card is hidden (`back_label` says how such a card reads; `stacked_in` names the zones
where the kind's cards lie in a pile, only the top one's back showing).

A small ruleset written here: persons (back: colour, with a back label, stacked in two draw
piles), tokens (back: shade, the default back label) and coins (no back). Tests: the schema and
check errors are located; views show the back and nothing else; log, prompts and option labels
read the back; a bot's sample never changes a back and keeps every card once, and depends only on
what the seat may know; the terminal table colours and counts backs; a property plays random
games and checks every view and every decision against an oracle built from the zones and the
moves each seat followed (a card a seat put face down, it still knows).
"""
from __future__ import annotations

import random
import re

import pytest
from hypothesis import given, note
from hypothesis import strategies as st

from jux.interpreter.bots.random_bot import random_answer
from jux.interpreter.bots.sample import InfoSet, determinize, relabel
from jux.interpreter.engine.game import Game
from jux.interpreter.engine.ruleset import load_ruleset
from jux.interpreter.errors import RuleError, RuleErrors

RULES = """\
game:
  name: backs
  players: {min: 2, max: 4}
constants:
  piles: [A, B]
cards:
  person:
    label: "{colour} {value}"
    back: [colour]
    back_label: "a {colour} card"
    stacked_in: [pile]
    attributes:
      colour: [blue, red, brown]
      value: [1, 2, 3, 4]
  token:
    label: "token {shade} {value}"
    back: [shade]
    attributes:
      shade: [dark, light]
      value: [1, 2]
  coin:
    label: "coin {value}"
    attributes:
      value: [1, 2, 3]
zones:
  box: {visible: none, start: [person]}
  pile: {per: piles, visible: none}
  bag: {visible: none, start: [token]}
  bank: {visible: none, start: [coin]}
  table: {visible: none}
  shown: {visible: all}
  hand: {per: player, visible: owner}
functions:
  score(p): sum(c.value for c in hand[p])
procedures:
  setup: |
    shuffle box
    draw 6 from box to pile["A"]
    draw 6 from box to pile["B"]
    shuffle bag
    shuffle bank
    for p in players {
      draw 1 from bag to hand[p]
      draw 1 from bank to hand[p]
    }
  turn(p): |
    let open = [k for k in piles if len(pile[k]) > 0]
    choose k from open by p prompt "Draw from which pile?" label "pile {k}: {top(pile[k])}"
    if k != none {
      log "under pile {k}: {first(pile[k])}"
      draw 1 from pile[k] to hand[p]
      log "{p} draws {top(hand[p])} from pile {k}"
    }
    choose c from hand[p] by p prompt "Play which card?" label "{c}"
    if c != none {
      choose how from ["down", "up", "back"] by p prompt "Play {c}: face down, face up or onto a pile?"
      if how == "down" {
        move c to table
      } elif how == "up" {
        move c to shown
      } elif c.kind == "person" {
        move c to pile["A"]
      } else {
        move c to table
      }
      log "{p} plays {c} ({how})"
    }
flow: |
  setup()
  let turns = 0
  while turns < 4 {
    for p in players { turn(p) }
    turns += 1
  }
"""


@pytest.fixture(scope="module")
def rules(tmp_path_factory):
    d = tmp_path_factory.mktemp("backs") / "backs"
    d.mkdir()
    (d / "game.yaml").write_text(RULES)
    return load_ruleset(d)


def load(tmp_path, text: str):
    d = tmp_path / "backs"
    d.mkdir(exist_ok=True)
    (d / "game.yaml").write_text(text)
    return load_ruleset(d)


def edit(old: str, new: str, text: str = RULES) -> str:
    assert text.count(old) == 1, f"{old!r} is not once in the text"
    return text.replace(old, new)


def errors(tmp_path, text) -> list:
    with pytest.raises(RuleErrors) as e:
        load(tmp_path, text)
    for err in e.value.errors:
        assert isinstance(err, RuleError) and err.pos is not None and "\n" not in str(err)
    return e.value.errors


def at(text: str, needle: str, nth: int = 0) -> tuple:
    """(line, column), 1-based, of the nth occurrence of needle in text."""
    i = -1
    for _ in range(nth + 1):
        i = text.index(needle, i + 1)
    line = text.count("\n", 0, i) + 1
    return line, i - (text.rfind("\n", 0, i) + 1) + 1


def where(e) -> tuple:
    return e.pos.line, e.pos.col


# ------------------------------------------------------------------ schema and check errors


def test_back_must_be_a_list_of_names(tmp_path):
    text = edit("back: [colour]\n", "back: colour\n")
    (e,) = errors(tmp_path, text)
    assert e.message.startswith("cards.person.back: expected ")
    assert where(e) == at(text, "colour\n    back_label")


def test_unknown_back_attribute_is_located_with_did_you_mean(tmp_path):
    text = edit("back: [colour]", "back: [colour, valeu]")
    (e,) = errors(tmp_path, text)
    assert e.message == "card kind 'person': its back shows unknown attribute 'valeu' (did you mean 'value'?)"
    assert where(e) == at(text, "valeu")


def test_a_back_attribute_must_be_one_every_card_has(tmp_path):
    text = edit("""    attributes:
      shade: [dark, light]
      value: [1, 2]
""", """    attributes:
      value: [1, 2]
    list: [{shade: dark}, {rim: gold}]
""")
    (e,) = errors(tmp_path, text)
    assert e.message == ("card kind 'token': its back shows 'shade', but item 2 of 'list' gives no 'shade': "
                         "a back attribute must be one every card of the kind has")
    assert where(e) == at(text, "shade]")
    # given by every item of the list, it is fine
    load(tmp_path, edit("{rim: gold}", "{shade: light}", text))


def test_back_label_may_use_only_the_back(tmp_path):
    text = edit('back_label: "a {colour} card"', 'back_label: "a {colour} {value} {colr}"')
    errs = errors(tmp_path, text)
    assert [e.message for e in errs] == [
        "back label of 'person' names 'value', which its back does not show (back: colour): a hidden card "
        "reads only as its back",
        "back label of 'person' names unknown attribute 'colr' (did you mean 'colour'?)"]
    assert {where(e) for e in errs} == {at(text, '"a {colour} {value}')}


def test_back_label_and_stacked_in_need_a_back_and_stacked_in_a_zone(tmp_path):
    text = edit("    label: \"coin {value}\"\n",
                "    label: \"coin {value}\"\n    back_label: \"a coin\"\n    stacked_in: [bank]\n")
    text = edit("stacked_in: [pile]", "stacked_in: [pile, piel]", text)
    errs = errors(tmp_path, text)  # all at once
    assert [(e.message, where(e)) for e in errs] == [
        ("card kind 'person': stacked_in names unknown zone 'piel' (did you mean 'pile'?)", at(text, "piel")),
        ("card kind 'coin' has a back_label but no back: say which attributes its back shows (back: [...])",
         at(text, '"a coin"')),
        ("card kind 'coin' is stacked_in zones but has no back: say which attributes its back shows (back: [...])",
         at(text, "bank]")),
    ]


# ------------------------------------------------------------------ views, labels, log


def place(rules, players=2, **zones):
    """A game at a position (cards by label; the last listed is the top), flow not started."""
    return Game.scenario(rules, players, zones=zones, run="turn", args=(0,))


def info(game, zone: str, viewer) -> list:
    name, _, key = zone.partition("[")
    key = key.rstrip("]") or None
    for z in game.view(viewer)["zones"]:
        if z["name"] == name and (key is None or str(z["key"]) == key):
            return z["cards"]
    raise AssertionError(zone)


def test_a_hidden_card_shows_its_back_and_nothing_else(rules):
    g = place(rules, **{"hand[1]": ["red 2", "token dark 1", "coin 3"], "table": ["blue 4"],
                        "pile[A]": ["brown 1", "blue 1"], "shown": ["red 3"]})
    assert info(g, "hand[1]", 0) == [{"hidden": True, "back": {"colour": "red"}},
                                     {"hidden": True, "back": {"shade": "dark"}},
                                     {"hidden": True}]
    assert info(g, "table", 0) == info(g, "table", 1) == [{"hidden": True, "back": {"colour": "blue"}}]
    # a pile the kind is stacked in: only the top card shows its back
    assert info(g, "pile[A]", 0) == [{"hidden": True}, {"hidden": True, "back": {"colour": "blue"}}]
    # the owner, everyone for a face-up card, and the view of nobody in particular see the fronts
    assert [c["label"] for c in info(g, "hand[1]", 1)] == ["red 2", "token dark 1", "coin 3"]
    assert info(g, "shown", 0)[0]["label"] == "red 3"
    assert all("label" in c and "back" not in c for z in g.view(None)["zones"] for c in z["cards"])


def test_a_mark_does_not_show_on_the_back(tmp_path):
    r = load(tmp_path, edit("zones:\n", "marks:\n  colour: {default: none}\nzones:\n"))
    g = place(r, **{"table": ["blue 4"]})
    g.state.m[g.state.z[g.rules.layout.zone_index["table"]][0]] = {"colour": "red"}
    assert info(g, "table", 0) == [{"hidden": True, "back": {"colour": "blue"}}]


def test_option_labels_prompts_and_log_read_the_back(rules):
    g = place(rules, **{"pile[A]": ["brown 1", "blue 1"], "pile[B]": ["red 1"], "hand[0]": ["token light 2"]})
    d = g.pending[0]
    assert [o.label for o in d.options] == ["pile A: a blue card", "pile B: a red card"]
    g.apply(0)
    # the log: the card under pile A was buried (no back seen); the drawn card shows its back to seat 1
    assert g.log_lines(1) == ["under pile A: a face-down card", "Player 1 draws a blue card from pile A"]
    assert g.log_lines(0) == ["under pile A: a face-down card", "Player 1 draws blue 1 from pile A"]
    assert g.log_lines(None)[0] == "under pile A: brown 1"
    d = g.pending[0]
    assert [o.label for o in d.options] == ["token light 2", "blue 1"]
    g.apply(0)  # the token, face down (the default back label), then onto the table
    assert g.pending[0].prompt == "Play token light 2: face down, face up or onto a pile?"
    g.apply(0)
    assert g.log_lines(1)[-1] == "Player 1 plays a face-down card (light) (down)"
    # brown 1 is now the top of pile A: new lines show its back, old lines stay as written
    assert info(g, "pile[A]", 1) == [{"hidden": True, "back": {"colour": "brown"}}]
    assert g.log_lines(1)[0] == "under pile A: a face-down card"
    brown = next(c for c in rules.cards if rules.card_labels[c] == "brown 1")
    assert g._render_value(brown, 1) == "a brown card" and g._render_value(brown, None) == "brown 1"


def test_default_back_label_lists_every_back_value(tmp_path):
    r = load(tmp_path, edit("back: [shade]", "back: [shade, value]"))
    g = place(r, **{"hand[1]": ["token dark 2"]})
    card = g.state.z[g.rules.layout.player_zone("hand", 1)][0]
    assert g._render_value(card, 0) == "a face-down card (dark, 2)"
    assert info(g, "hand[1]", 0) == [{"hidden": True, "back": {"shade": "dark", "value": 2}}]


# ------------------------------------------------------------------ bots' samples


def played(rules, players: int, seed: int, answers: int):
    g = Game.new(rules, players, seed)
    rnd = random.Random(seed)
    for _ in range(answers):
        if g.over:
            break
        d = g.pending[0]
        g.apply(random_answer(d, rnd.random), decision=d.id)
    return g


def zones_of(view) -> list:
    return [(z["name"], z["key"], z["cards"]) for z in view["zones"]]


@pytest.mark.parametrize("seed", range(6))
def test_a_sample_keeps_every_back_and_every_card_once(rules, seed):
    g = played(rules, 2 + seed % 3, seed, 3 + 2 * seed)
    for seat in range(g.state.n):
        info_set = InfoSet(g, seat)
        changed = 0
        for r in range(20):
            s = info_set.sample(random.Random(r))
            S = s.state
            assert sorted(c for z in S.z for c in z) == list(range(len(rules.cards)))
            assert all(S.loc[c] == zi for zi, z in enumerate(S.z) for c in z)
            # what the seat sees, backs included, is the same in the sample
            assert zones_of(s.view(seat)) == zones_of(g.view(seat))
            changed += S.z != g.state.z
        assert changed, "the samples never dealt the hidden cards again"


def test_a_sample_depends_only_on_what_the_seat_may_know(rules):
    """Swapping two cards the seat does not know, with the same back or where no back shows (a blue
    card in a hand and a blue one under a pile's top; a red and a brown one both under the top),
    gives the same samples: a sample does not tell where the real cards are."""
    g = Game.scenario(rules, 2, zones={"hand[1]": ["blue 1", "red 2"],
                                       "pile[A]": ["blue 2", "red 3", "brown 3", "blue 4"]}, run="turn", args=(0,))
    label = {rules.card_labels[c]: c for c in rules.cards}
    for a, b in (("blue 1", "blue 2"), ("red 3", "brown 3")):
        x, y = label[a], label[b]
        twin = relabel(g, {x: y, y: x})
        assert zones_of(twin.view(0)) == zones_of(g.view(0))
        for r in range(10):
            assert determinize(g, 0, random.Random(r)).state.to_json() == \
                determinize(twin, 0, random.Random(r)).state.to_json()
    # the card buried in the pile is, in some samples, the blue card in the hand (and the other way)
    buried = label["blue 2"]
    seen = {determinize(g, 0, random.Random(r)).state.loc[buried] for r in range(60)}
    assert {rules.layout.player_zone("hand", 1), rules.layout.zone_index["pile"]["A"]} <= seen


# ------------------------------------------------------------------ the terminal table


def test_the_table_colours_and_counts_backs():
    from jux.tui.widgets.card_text import FACE_DOWN, cards_text
    from jux.tui.widgets.words import colour_style

    def hidden(colour=None):
        return {"hidden": True, **({"back": {"colour": colour}} if colour else {})}

    t = cards_text([hidden("blue"), hidden("red"), hidden("blue")])
    assert t.plain == f"{FACE_DOWN * 3} 3 face down: 2 blue, 1 red"
    styles = [s.style for s in t.spans if s.end - s.start == 1]
    assert styles == [colour_style("blue"), colour_style("red"), colour_style("blue")]
    assert cards_text([hidden()] * 11 + [hidden("red")]).plain == "12 face down, top red"
    assert cards_text([hidden("red"), hidden()]).plain == f"{FACE_DOWN * 2} 2 face down: 1 red, 1 other"
    assert cards_text([hidden("blue")]).plain == f"{FACE_DOWN} 1 face down: blue"
    # no back: as before, one dim run of markers
    t = cards_text([hidden(), hidden()])
    assert t.plain == f"{FACE_DOWN * 2} 2 face down" and [s.style for s in t.spans] == ["dim", "dim"]


def test_the_table_of_a_game_with_backs(rules):
    from jux.tui.widgets.table import render_table

    g = place(rules, **{"hand[1]": ["red 2", "red 1", "blue 3", "coin 1"], "pile[A]": ["brown 1", "blue 1"]})
    text = render_table(g.view(0), rules.spec, you=0).plain
    assert "pile: A ▮▮ 2 face down, top blue" in text
    assert "hand: ▮▮▮▮ 4 face down: 2 red, 1 blue, 1 other" in text
    assert max(len(line) for line in text.splitlines()) <= 80


# ------------------------------------------------------------------ property: no view shows more than the back


def expected(rules, game, zi: int, pos: int, c: int, viewer: int, follows=None) -> dict:
    """What the viewer may see of card c at position pos of zone zi, from the zones and the moves
    the viewer followed (`follows`, see Followers): the front in a face-up zone, the viewer's own
    hand, or where the viewer followed it; else its back, unless its kind has none or it lies
    under the top of a zone its kind is stacked in."""
    name, key, owner = rules.layout.zone_of(zi)
    visible = rules.layout.zone_def[name]["visible"]
    if visible == "all" or (visible == "owner" and owner == viewer) or viewer in (follows or {}).get(c, ()):
        return {"label": rules.card_labels[c]}
    kind = rules.spec.cards[rules.card_attrs[c]["kind"]]
    top = pos == len(game.state.z[zi]) - 1
    if not kind.get("back") or (name in (kind.get("stacked_in") or ()) and not top):
        return {"hidden": True}
    return {"hidden": True, "back": {a: rules.card_attrs[c][a] for a in kind["back"]}}


class Followers:
    """The seats that know each card beyond the zones' visibility, worked out from the zones
    before and after each answer (one card moves at most per answer in this game; Bruges:
    tests/test_bruges.py), by the rule of
    docs/language.md ("Knowledge that follows the card"): a seat that saw or followed a card keeps
    knowing it when it leaves a zone whose order is public (all, none) or the seat's own hand; a
    card that leaves another seat's hand to where a seat cannot see it makes that seat forget the
    cards left in that hand; a shuffle (only in the setup, before any answer) forgets all."""

    def __init__(self, rules, game):
        self.rules, self.n = rules, game.state.n
        self.follows = {}
        self.loc = list(game.state.loc)

    def _sees(self, zi, p) -> bool:
        name, key, owner = self.rules.layout.zone_of(zi)
        v = self.rules.layout.zone_def[name]["visible"]
        return v == "all" or (v == "owner" and owner == p)

    def _owner(self, zi):
        name, key, owner = self.rules.layout.zone_of(zi)
        return owner if self.rules.layout.zone_def[name]["visible"] == "owner" else None

    def update(self, game):
        S = game.state
        for c, (a, b) in enumerate(zip(self.loc, S.loc)):
            if a == b:
                continue
            knew = {p for p in range(self.n) if self._sees(a, p) or p in self.follows.get(c, ())}
            held = self._owner(a)
            self.follows[c] = {p for p in knew if held is None or p == held}
            if held is not None:
                for p in range(self.n):
                    if p != held and not self._sees(b, p):
                        for x in S.z[a]:
                            if self.loc[x] == a:  # (a card come since the last answer is told apart)
                                self.follows.get(x, set()).discard(p)
        self.loc = list(S.loc)


def check_views(rules, game, followers=None):
    S = game.state
    follows = followers.follows if followers else None
    for viewer in range(S.n):
        view = game.view(viewer)
        unknown = set()
        for zi, (vz, zone) in enumerate(zip(view["zones"], S.z)):
            for pos, (seen, c) in enumerate(zip(vz["cards"], zone)):
                want = expected(rules, game, zi, pos, c, viewer, follows)
                if "label" in want:
                    assert seen.get("label") == want["label"] and seen["id"] == c
                else:
                    assert seen == want, f"seat {viewer} sees {seen} of {rules.card_labels[c]}, not {want}"
                    unknown.add(rules.card_labels[c])
        words = [d["prompt"] for d in view["decisions"]] + [o["label"] for d in view["decisions"] for o in d["options"]]
        for text in words:
            for label in unknown:
                assert not re.search(rf"\b{re.escape(label)}\b", text), f"seat {viewer} reads {label!r} in {text!r}"


@given(n=st.sampled_from([2, 3, 4]), seed=st.integers(0, 2**32 - 1), data=st.data())
def test_no_view_of_a_game_with_backs_shows_more_than_the_backs(rules, n, seed, data):
    game = Game.new(rules, n, seed)
    followers = Followers(rules, game)
    steps = 0
    while not game.over:
        check_views(rules, game, followers)
        d = game.pending[0]
        choice = data.draw(st.integers(0, len(d.options) - 1), label="answer")
        note(f"{d.player}: {d.prompt} -> {d.options[choice].label}")
        game.apply(choice, decision=d.id)
        followers.update(game)
        steps += 1
        assert steps < 200
    check_views(rules, game, followers)
