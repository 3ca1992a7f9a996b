"""A seat's own secret in its standing (issue 37, No Thanks!): standing(p) may read its own seat's
`visible: owner` counter as X[p]; that seat's view shows it, the others see that part hidden (and a
score "N + ?"), the referee and the game's end show everything. Reading another seat's, or a
`visible: none` counter, stays an error."""
import pytest

from jux import Game, load_ruleset
from jux.interpreter.cli.main import main
from jux.interpreter.engine.views import PUBLIC
from jux.tui.widgets.counters import standing_text

RULES = """\
game: {{name: chips, players: {{min: 2, max: 3}}}}
cards: {{n: {{label: "{{v}}", attributes: {{v: [3, 4, 5, 6, 7, 8]}}}}}}
zones: {{deck: {{visible: none, start: [n]}}, taken: {{visible: all, per: player}}}}
counters:
  chips: {{start: 5, per: player, visible: owner, text: your chips}}
  bid: {{start: 0, per: player, visible: none}}
functions:
  standing(p): '{standing}'
  score(p): sum(v for (part, v) in standing(p))
flow: |
  shuffle deck
  while len(deck) > 0 {{
    for p in players {{
      if len(deck) > 0 {{
        choose t from ["take", "pay"] by p
        if t == "pay" and chips[p] > 0 {{ chips[p] -= 1 }} else {{ draw 1 from deck to taken[p] }}
      }}
    }}
  }}
"""
OWN = '[("cards", 0 - sum(c.v for c in taken[p])), ("chips", chips[p])]'


def rules_of(tmp_path, standing=OWN):
    f = tmp_path / "chips.yaml"
    f.write_text(RULES.format(standing=standing))
    return f


def test_each_seat_sees_its_own_chips_in_its_standing_and_the_others_see_them_hidden(tmp_path):
    g = Game.new(load_ruleset(rules_of(tmp_path)), players=2, seed=1)
    g.apply(1, player=0)  # Ann pays a chip: 4 left
    assert g.view(0)["standing"] == [[["cards", 0], ["chips", 4]], [["cards", 0], ["chips", {"hidden": True}]]]
    assert g.view(1)["standing"] == [[["cards", 0], ["chips", {"hidden": True}]], [["cards", 0], ["chips", 5]]]
    assert g.view(None)["standing"] == [[["cards", 0], ["chips", 4]], [["cards", 0], ["chips", 5]]]
    assert all(part[1] == {"hidden": True} for seat in g.view(PUBLIC)["standing"] for part in seat[1:])
    # the table: your own score in full, the others' with what you may not know as "?"
    assert standing_text(g.view(1), 0).plain == "  ·  score 0 + ?: cards 0, chips ?"
    assert standing_text(g.view(1), 1).plain == "  ·  score 5: cards 0, chips 5"
    while not g.over:
        d = g.pending[0]
        g.apply(0, player=d.player)
    final = g.view(1)["standing"]
    assert final[0][1] == ["chips", 4] and sum(v for _, v in final[0]) == g.scores[0]


@pytest.mark.parametrize("standing,said", [
    ('[("chips", chips[next_seat(p)])]', "'standing' reads counter 'chips', which is visible to its owner only; "
                                         "the standing may read a seat's own as chips[p] in standing itself"),
    ('[("bid", bid[p])]', "'standing' reads counter 'bid', which is visible to no seat"),
])
def test_another_seats_secret_or_nobodys_stays_an_error(tmp_path, capsys, standing, said):
    assert main(["validate", str(rules_of(tmp_path, standing))]) == 1
    assert said in capsys.readouterr().err
