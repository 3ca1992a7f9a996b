"""Families of zones made during play (`per: made`) as games run: keys (the lowest free number),
made() in the order made, remove, run-time errors at the rule's file:line:col, views that hold only
the zones made now with their visibility, saves, copies, records and the bots' samples."""
from __future__ import annotations

import random

import pytest

from jux import Game, load_ruleset
from jux.interpreter.bots.random_bot import random_picker
from jux.interpreter.bots.sample import determinize
from jux.interpreter.errors import JuxError

RULES = """\
game: {name: heaps, players: {min: 2, max: 3}}
cards:
  card: {label: "c{n}", attributes: {n: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]}}
zones:
  deck: {visible: none, start: [card]}
  hand: {per: player, visible: owner}
  row: {per: made, visible: all, most: 4, title: Rows}
  heap: {per: made, visible: none, most: 3}
counters:
  turns: 0
functions:
  score(p): len(hand[p])
procedures:
  turn(p): |
    let ways = ["pass"] + ["row" for x in [1] if len(made(row)) < 4 and len(deck) > 0] + ["heap" for x in [1] if len(made(heap)) < 3 and len(deck) > 0] + ["take" for x in [1] if len(made(row)) > 0]
    choose w from ways by p
    if w == "row" {
      let k = make(row)
      draw 1 from deck to row[k]
    } elif w == "heap" {
      let k = make(heap)
      draw 2 from deck to heap[k]
    } elif w == "take" {
      let k = first(made(row))
      move row[k] to hand[p]
      remove row[k]
      log "{p} takes row {k}; rows now: {made(row)}"
    }
  keys(): |
    let a = make(row)
    let b = make(row)
    let c = make(row)
    remove row[b]
    let d = make(row)
    remove row[a]
    log "made {a} {b} {c} {d}; now {made(row)}"
    let e = make(row)
    log "then {e}; now {made(row)}"
  unmade(): |
    let a = make(row)
    move top(deck) to row[a + 1]
  full(): |
    let a = make(heap)
    move top(deck) to heap[a]
    remove heap[a]
  too_many(): |
    for i in range(5) {
      let z = make(row)
    }
flow: |
  while turns < 6 {
    for p in players { turn(p) }
    turns += 1
  }
"""


@pytest.fixture(scope="module")
def rules(tmp_path_factory):
    f = tmp_path_factory.mktemp("heaps") / "heaps.yaml"
    f.write_text(RULES)
    return load_ruleset(f)


def line_of(text: str) -> int:
    return next(i for i, line in enumerate(RULES.splitlines(), 1) if text in line)


def test_a_key_is_the_lowest_free_and_made_lists_the_keys_in_the_order_made(rules):
    g = Game.scenario(rules, 2, run="keys")
    log = g.log_lines()
    assert "made 1 2 3 2; now 3, 2" in log, log
    assert "then 1; now 3, 2, 1" in log, log
    assert g.made("row") == [3, 2, 1] and g.made("heap") == []


@pytest.mark.parametrize("run, text, message", [
    ("unmade", "to row[a + 1]", "row[2] is not a zone made now (the keys made now: 1); make(row) makes one"),
    ("full", "remove heap[a]", "remove heap[1]: the zone still holds 1 card; move them elsewhere first"),
    ("too_many", "let z = make(row)", "make(row): 4 zones of 'row' are made already, the most it may have at "
                                      "once: raise most: in the declaration of zone 'row'"),
])
def test_a_failure_names_the_rules_line_in_plain_words(rules, run, text, message):
    with pytest.raises(JuxError) as e:
        Game.scenario(rules, 2, run=run)
    said = str(e.value)
    assert f"heaps.yaml:{line_of(text)}:" in said and message in said, said
    assert "Traceback" not in said and "zone_at" not in said


def play(rules, seed: int, players: int = 2, until=None):
    g = Game.new(rules, players, seed=seed)
    rng = random.Random(seed)
    while not g.over and (until is None or not until(g)):
        d = g.pending[0]
        g.apply(rng.randrange(len(d.options)), player=d.player)
    return g


def unmade_zones(g) -> list:
    lay = g.rules.layout
    return [(name, k) for name, (base, most, slot) in lay.families.items() for k in range(1, most + 1)
            if k not in g.state.v[slot]]


def test_a_view_holds_only_the_zones_made_now_each_seen_as_its_family_says(rules):
    g = play(rules, 5, until=lambda g: len(g.made("row")) >= 2 and g.made("heap"))
    for viewer in (None, 0, 1):
        v = g.view(viewer)
        rows = {z["key"]: z for z in v["zones"] if z["name"] == "row"}
        heaps = {z["key"]: z for z in v["zones"] if z["name"] == "heap"}
        assert sorted(rows) == sorted(g.made("row")) and sorted(heaps) == sorted(g.made("heap"))
        assert all(z["owner"] is None for z in list(rows.values()) + list(heaps.values()))
        for k, z in rows.items():  # visible: all
            assert [c["label"] for c in z["cards"]] == g.zone(f"row[{k}]")
        for k, z in heaps.items():  # visible: none: a seat sees each card face down, the referee sees it
            assert len(z["cards"]) == len(g.zone(f"heap[{k}]"))
            assert all(c.get("hidden") for c in z["cards"]) == (viewer is not None)
    for name, k in unmade_zones(g):
        assert g.zone(f"{name}[{k}]") == []


def test_zones_made_save_load_copy_and_replay_exactly(rules):
    g = play(rules, 7, until=lambda g: g.made("row") and g.made("heap") and len(g.answers) > 6)
    saved = g.save()
    assert [k for k in saved["state"]["counters"][-2]["tuple"]] == g.made("row")
    back = Game.load(saved, rules=rules)
    assert back.state.same_as(g.state) and back.made("row") == g.made("row")
    again = Game.from_record(g.record(), rules=rules)
    assert again.state.same_as(g.state)
    c = g.copy()
    c.state.v[rules.layout.families["row"][2]] = ()  # the copy's made zones are its own
    assert g.made("row") and c.made("row") == []


def test_random_games_keep_every_zone_not_made_empty_and_replay(rules):
    for seed in range(12):
        g = Game.new(rules, 3, seed=seed)
        rng = random.Random(seed)
        took = False
        while not g.over:
            for name, k in unmade_zones(g):
                assert g.zone(f"{name}[{k}]") == [], (seed, name, k)
            assert sum(len(z) for z in g.state.z) == len(rules.cards)  # every card exactly once
            d = g.pending[0]
            g.apply(rng.randrange(len(d.options)), player=d.player)
            took = took or any("takes row" in line for line in g.log_lines())
        assert Game.from_record(g.record(), rules=rules).state.same_as(g.state)
    assert took


def test_a_bots_sample_deals_unknown_cards_only_into_zones_made_now(rules):
    g = play(rules, 3, until=lambda g: len(g.made("heap")) >= 2)
    heaps = {k: list(g.state.z[rules.layout.families["heap"][0] + k - 1]) for k in g.made("heap")}
    assert all(heaps.values())
    rng = random.Random(0)
    for _ in range(30):
        s = determinize(g, 0, rng)
        assert s.made("heap") == g.made("heap") and s.made("row") == g.made("row")
        for name, k in unmade_zones(g):
            assert s.zone(f"{name}[{k}]") == []
        for k, cards in heaps.items():
            assert len(s.zone(f"heap[{k}]")) == len(cards)


def test_a_game_of_bots_plays_to_its_end(rules):
    g = Game.new(rules, 2, seed=1)
    g.autoplay(pick=random_picker(random.Random(1).random), limit=5_000)
    assert g.over


def test_undo_takes_back_a_zone_made_with_the_answer_that_made_it(rules):
    from jux.interpreter.engine.undo import undo_plan

    g = Game.new(rules, 2, seed=2)
    d = g.pending[0]
    before = g.state.to_json()
    g.apply(next(o.id for o in d.options if o.label == "heap"), player=d.player)  # (face down: nothing learnt)
    assert g.made("heap") == [1]
    back, taken = undo_plan(g, d.player)
    assert taken == 1 and back.made("heap") == [] and back.state.to_json() == before
