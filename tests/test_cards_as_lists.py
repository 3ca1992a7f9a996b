"""Cards given as lists (issue 37): `copies` per item of a `list`, `attributes` optional, and a
warning where a key that reads like "how many" becomes an attribute."""
from collections import Counter

import pytest

from jux import Game, load_ruleset
from jux.interpreter.cli.main import main

RULES = """\
game: {{name: listy, players: {{min: 2, max: 2}}}}
cards:
  card:
    label: "{{name}}"
    copies: 2
    list:
      - {{name: joker, copies: {jokers}}}
      - {{name: ace}}
  chip: {{label: chip, copies: 3}}
{extra}
zones: {{deck: {{visible: all, start: [{kinds}]}}}}
functions:
  score(p): count(c for c in deck if c.kind == "card")
flow: |
  choose x from [1, 2] by 0
"""


def labels(tmp_path, **kw):
    f = tmp_path / "listy.yaml"
    f.write_text(RULES.format(**{"jokers": 3, "extra": "", "kinds": "card, chip", **kw}))
    g = Game.new(load_ruleset(f), players=2, seed=1)
    return Counter(c["label"] for z in g.view(None)["zones"] for c in z["cards"])


def test_a_list_item_says_its_own_copies_and_a_kind_needs_no_attributes(tmp_path):
    # the joker's own 3, the ace the kind's 2; chips: a kind of cards alike, without attributes
    assert labels(tmp_path) == Counter({"joker": 3, "ace": 2, "chip": 3})


def test_the_copies_key_is_not_an_attribute_of_the_card(tmp_path, capsys):
    f = tmp_path / "listy.yaml"
    f.write_text(RULES.format(jokers=3, extra="", kinds="card, chip").replace(
        'count(c for c in deck if c.kind == "card")', "sum(c.copies for c in deck)"))
    assert main(["validate", str(f)]) == 1
    assert "unknown card attribute 'copies'" in capsys.readouterr().err


@pytest.mark.parametrize("bad", ["0", "-1", '"two"'])
def test_a_bad_item_copies_is_refused_where_it_is_written(tmp_path, capsys, bad):
    f = tmp_path / "listy.yaml"
    f.write_text(RULES.format(jokers=bad, extra="", kinds="card, chip"))
    assert main(["validate", str(f)]) == 1
    err = capsys.readouterr().err
    assert "listy.yaml:7:31:" in err and "copies of list item 1 must be a whole number from 1" in err


def test_a_key_that_reads_like_how_many_is_an_attribute_with_a_warning(tmp_path, capsys):
    extra = "  odd:\n    label: \"{v}\"\n    attributes: {v: [1, 2], copies: 2}\n    list:\n      - {count: 3}"
    f = tmp_path / "listy.yaml"
    f.write_text(RULES.format(jokers=3, extra=extra, kinds="card, chip, odd"))
    assert main(["validate", str(f)]) == 0
    out, err = capsys.readouterr()
    assert "2 warnings" in out
    assert "listy.yaml:12:37: warning: " in err and "card kind 'odd': 'copies' is an attribute of every card, not how many " \
           "cards the kind makes; for that, write copies: N beside attributes, not in them" in err
    assert "card kind 'odd': 'count' in list item 1 is an attribute of that card, not how many cards it " \
           "makes; for that, write copies: N in the item" in err
