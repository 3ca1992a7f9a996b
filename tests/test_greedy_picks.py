"""The greedy bot in a simultaneous pick (issue 37): each answer is valued once the block is over
(the other seats' pending picks made at random on each copy), so value(p) sees the pick wherever
the rules put it: held in a counter, face down, or turned up after the block (docs/bots.md)."""
import pytest

from jux import Game, load_ruleset
from jux.interpreter.study.simulate import play

RULES = """\
game: {{name: draft, players: {{min: 2, max: 3}}}}
cards: {{n: {{label: "n{{v}}", attributes: {{v: [1, 2, 3, 4, 5, 6, 7, 8, 9]}}}}}}
zones:
  deck: {{visible: none, start: [n]}}
  hand: {{visible: owner, per: player}}
  down: {{visible: none, per: player}}
  kept: {{visible: all, per: player}}
  discard: {{visible: none}}
counters:
  chosen: {{start: none, per: player, visible: owner}}
functions:
  score(p): sum(c.v for c in kept[p])
  value(p): {value}
flow: |
  shuffle deck
  for p in players {{ draw 3 from deck to hand[p] }}
  simultaneously for p in players {{
    choose c from hand[p] by p prompt "Pick a card"
    {keep}
  }}
  for p in players {{
    {reveal}
    move hand[p] to discard
  }}
"""
BY_COUNTER = dict(keep="chosen[p] = c", reveal="move chosen[p] to kept[p]")
FACE_DOWN = dict(keep="move c to down[p]", reveal="move down[p] to kept[p]")


def best_taken(tmp_path, value, how) -> int:
    f = tmp_path / "draft.yaml"
    f.write_text(RULES.format(value=value, **how))
    rules = load_ruleset(f)
    took = 0
    for seed in range(20):
        start = Game.new(rules, 2, seed)
        best = max(c["v"] for z in start.view(None)["zones"] if z["name"] == "hand" and z["key"] == 0
                   for c in z["cards"])
        took += play(rules, 2, seed, ["greedy", "random"], direct=False).scores[0] == best
    return took


@pytest.mark.parametrize("value,how", [
    ("score(p) + (if chosen[p] == none then 0 else chosen[p].v)", BY_COUNTER),
    ("score(p) + sum(c.v for c in down[p])", FACE_DOWN),
])
def test_a_value_that_counts_the_pick_where_it_waits_takes_the_best_card(tmp_path, value, how):
    assert best_taken(tmp_path, value, how) == 20


def test_a_value_that_waits_for_the_blocks_end_takes_the_best_card_too(tmp_path):
    """score(p) counts only the kept cards, which the rules fill after the block."""
    assert best_taken(tmp_path, "score(p)", BY_COUNTER) == 20
