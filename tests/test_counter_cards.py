"""A counter holding a card (issue 37): the rules set and read it, a view shows it as its seat knows
it (never the card's id to a seat that does not know the card), per its `visible:`, and a
scenario sets and expects it by the card's label."""
import pytest

from jux import Game, load_ruleset
from jux.interpreter.authoring.scenario_run import run_file

RULES = """\
game: {name: led, players: {min: 2, max: 2}}
cards: {n: {label: "n{v}", attributes: {v: [1, 2, 3, 4]}, back: [], back_label: "a card"}}
zones: {deck: {visible: none, start: [n]}, hand: {visible: owner, per: player}, table: {visible: all}}
counters:
  led: {start: none, text: the card led}
  kept: {start: none, per: player, visible: owner}
functions:
  score(p): if led == none then 0 else led.v
procedures:
  lead(p): |
    move led to table
    log "{p} leads {led}."
flow: |
  draw 2 from deck to hand[0]
  led = top(hand[0])
  kept[0] = hand[0][0]
  choose x from [1, 2] by 0
  lead(players[0])
  choose y from [1, 2] by 1
"""


@pytest.fixture
def rules(tmp_path):
    f = tmp_path / "led.yaml"
    f.write_text(RULES.replace("back: [], back_label: \"a card\"", ""))
    return f


def test_a_view_shows_a_counters_card_as_the_seat_knows_it(rules):
    g = Game.new(load_ruleset(rules), players=2, seed=1)
    led, kept = g.counter("led", labels=True), g.counter("kept", labels=True)
    assert led.startswith("n") and kept[0].startswith("n") and kept[1] is None
    seen = g.view(0)["counters"]
    assert seen["led"]["label"] == led and seen["kept"][0]["label"] == kept[0] and seen["kept"][1] == {"hidden": True}
    other = g.view(1)["counters"]
    assert other["led"] == {"hidden": True}  # in Ann's hand: Bob does not know it, not even its id
    assert other["kept"] == [{"hidden": True}, None]  # (visible to its owner only)
    assert "'id'" not in str(other)
    g.apply(0, player=0)  # Ann leads it face up: now Bob knows it
    assert g.view(1)["counters"]["led"]["label"] == led
    assert g.log_lines(1)[-1] == f"Player 1 leads {led}."


def test_a_scenario_sets_and_expects_a_counters_card_by_label(rules, tmp_path):
    sc = tmp_path / "sc.yaml"
    sc.write_text(f"""title: lead the card the counter holds
ruleset: {rules.name}
players: 2
names: [Ann, Bob]
zones:
  "hand[0]": [n2, n4]
counters: {{led: n4, kept: [n2, none]}}
run: lead
args: [0]
expect:
  counters: {{led: n4, kept: [n2, none]}}
  zones: {{table: [n4], "hand[0]": [n2]}}
  log: [Ann leads n4]
""")
    out = run_file(sc)
    assert out.status == "passed", out.report()
    sc.write_text(sc.read_text().replace("expect:\n  counters: {led: n4", "expect:\n  counters: {led: n2"))
    out = run_file(sc)
    assert out.status == "failed" and "counter led" in out.report() and "actual:   n4" in out.report()
