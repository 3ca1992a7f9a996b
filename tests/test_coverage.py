"""Rule coverage (interpreter/study/coverage.py): what ran, how often, what never ran, forced chooses."""
import random
from pathlib import Path

import pytest

from jux.interpreter.study import coverage
from jux.interpreter.engine.game import Game
from jux.interpreter.engine.ruleset import load_ruleset
from jux.interpreter.study.simulate import run_games

RULES = """\
game:
  name: cov
  players: {min: 2, max: 2}
cards:
  num:
    label: "card {value}"
    attributes:
      value: [1, 2, 3, 4, 5, 6]
zones:
  deck: {visible: none, start: [num]}
  hand: {per: player, visible: owner}
  table: {visible: all}
counters:
  n: 0
  gold: {per: player, start: 0}
slots:
  power: {low: give, high: ask}
functions:
  score(p): "sum(c.value for c in table) + n + gold[p]"
  unused(p): p + 1
procedures:
  give(p, c): |
    gold[p] += c.value
  ask(p, c): |
    choose x from [1, 2] by p
  turn(p): |
    choose c from hand[p] by p
    move c to table
    power[if c.value <= 3 then "low" else "high"](p, c)
    choose yes from [true] by p
    if n > 100 {
      n = 0
    }
flow: |
  shuffle deck
  for p in players { draw 2 from deck to hand[p] }
  for i in range(3) { n += 1 }
  for p in players { turn(p) }
"""

# the lines of RULES that hold effect code (the file's line numbers)
LINE = {text.strip(): i for i, text in enumerate(RULES.splitlines(), 1)}


@pytest.fixture()
def path(tmp_path):
    d = tmp_path / "cov"
    d.mkdir()
    (d / "game.yaml").write_text(RULES)
    return d


def play(rules, seeds):
    for seed in seeds:
        g = Game.new(rules, 2, seed)
        rng = random.Random(seed)
        while not g.over:
            d = g.next_decision()
            d.answer(rng.randrange(len(d.values)))
        yield g


def test_counts_what_ran_how_often_and_what_never_ran(path):
    rules = load_ruleset(path, coverage=True)
    for g in play(rules, range(5)):
        g.scores
    rep = coverage.report(rules.coverage.data())
    (f, e), = rep.items()
    assert f.endswith("game.yaml")
    lines = e["lines"]
    assert lines[LINE["for i in range(3) { n += 1 }"]] == 5 * 3  # the loop's statement, 3 times a game
    assert lines[LINE["move c to table"]] == 5 * 2
    assert lines[LINE['score(p): "sum(c.value for c in table) + n + gold[p]"']] > 5 * 2  # (powers read it too)
    never = {(line, what) for line, col, what in e["never"]}
    assert lines[LINE["gold[p] += c.value"]] + lines[LINE["choose x from [1, 2] by p"]] == 5 * 2
    assert never == {(LINE["unused(p): p + 1"], "function unused"), (LINE["n = 0"], "assign")}
    # `choose yes from [true]` always had one possible answer; `choose c from hand[p]` had two
    forced = [(line, reached, asked, most) for line, col, reached, asked, most in e["forced"]]
    assert forced == [(LINE["choose yes from [true] by p"], 10, 10, 1)]
    md = coverage.markdown(rules.coverage.data(), 5)
    assert "## Powers" in md and "| power | high |" in md
    assert "(function unused) `unused(p): p + 1`" in md and "asked 10 times, always one possible answer" in md


def test_counts_each_power_and_the_score_change_of_its_seat(path):
    rules = load_ruleset(path, coverage=True)
    rules.coverage.reset()
    low = []
    for g in play(rules, range(20)):
        low += [c["label"] for z in g.view(None)["zones"] if z["name"] == "table" for c in z["cards"]
                if int(c["label"].split()[1]) <= 3]
    powers = {(p[0], p[1]): p[2:] for p in rules.coverage.data()["powers"]}
    values = [int(x.split()[1]) for x in low]
    # give adds the card's value to the seat's gold, so to its score; ask changes nothing
    assert powers[("power", "low")] == [len(values), len(values), sum(values), sum(v * v for v in values)]
    assert powers[("power", "high")] == [40 - len(values), 40 - len(values), 0, 0]


def test_coverage_changes_no_game_and_plain_rules_count_nothing(path):
    counted = load_ruleset(path, coverage=True)
    plain = load_ruleset(path)
    assert plain.coverage is None and "_C[" not in plain.source and "_C[" in counted.source
    assert counted is not plain and load_ruleset(path, coverage=True) is counted
    for a, b in zip(play(counted, range(3)), play(plain, range(3))):
        assert a.state.to_json() == b.state.to_json() and a.log_lines() == b.log_lines()
    capital = load_ruleset("capital_jux", coverage=True)
    quick = [r.to_json() for r in run_games(capital, 4, range(3), "random")]
    assert quick == [r.to_json() for r in run_games("capital_jux", 4, range(3), "random")]


def test_counts_add_up_across_runs_and_reset(path):
    rules = load_ruleset(path, coverage=True)
    rules.coverage.reset()
    list(play(rules, range(2)))
    a = rules.coverage.data()
    rules.coverage.reset()
    assert not any(rules.coverage.data()["runs"])
    list(play(rules, range(2, 5)))
    b = rules.coverage.data()
    rules.coverage.reset()
    list(play(rules, range(5)))
    assert coverage.add(coverage.add(None, a), b) == rules.coverage.data()
    other = load_ruleset("capital_jux", coverage=True).coverage.data()
    with pytest.raises(ValueError):
        coverage.add(a, other)


def test_each_result_carries_its_games_counts_and_they_add_up_to_the_whole(path):
    rules = load_ruleset(path, coverage=True)
    rules.coverage.reset()
    results = list(run_games(rules, 2, range(6), "random"))
    total = None
    for r in results:
        assert r.coverage is not None and sum(r.coverage["runs"]) > 0
        total = coverage.add(total, r.coverage)
    whole = rules.coverage.data()
    assert coverage.add(total, {**whole, "runs": [0] * len(whole["runs"]),
                                "choices": [[0, 0, 0, 0]] * len(whole["choices"]), "powers": []}) == whole
    assert all(r.coverage is None for r in run_games(path, 2, range(2), "random"))


def test_a_definition_an_override_replaces_is_reported_by_its_author_s_name():
    """A tile's override of a function keeps the one it replaces for `previous(...)`; coverage names
    each as its author wrote it (its place tells which), never by an inner name."""
    rules = load_ruleset("capital_jux", ["merchant"], coverage=True)
    for _ in run_games(rules, 4, [1], ["random"]):
        pass
    sites = rules.coverage.data()["sites"]
    assert not [s for s in sites if "__" in s[3]]
    overridden = {(Path(f).name, line) for f, line, _, what in sites if what == "function power_possible"}
    assert {"power_tiles.yaml", "merchant.yaml"} <= {name for name, _ in overridden}
    never = [what for e in coverage.report(rules.coverage.data()).values() for _, _, what in e["never"]]
    assert never and not [w for w in never if "__" in w]
