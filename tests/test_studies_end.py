"""Studies always end (issue 37): a game past --max-decisions ends unfinished, counted and shown
apart in simulate's table, JSON and CSV, in balance's report and figures, and in play --print
(exit status 1), never a hang and never in a win rate; play --print plays the bots --seat names."""
import csv
import json

import pytest

from jux.interpreter.cli.main import main
from jux.interpreter.study.simulate import MAX_DECISIONS, run_games, summarize

# random bots end a game of this only when both pick 0 in the same round (1 in 400)
NEVER = """\
game: {name: rarely, players: {min: 2, max: 2}}
cards: {n: {label: "{v}", attributes: {v: [1, 2, 3]}}}
zones: {deck: {visible: none, start: [n]}}
counters: {pts: {start: 0, per: player}}
functions:
  score(p): pts[p]
flow: |
  let done = false
  while not done {
    choose x from range(20) by 0
    if x == 0 {
      choose y from range(20) by 1
      if y == 0 { done = true }
    }
    pts[0] += 1
  }
"""


@pytest.fixture
def rarely(tmp_path):
    f = tmp_path / "rarely.yaml"
    f.write_text(NEVER)
    return f


def test_a_game_past_the_most_decisions_ends_unfinished_and_in_no_figure(rarely):
    results = list(run_games(str(rarely), 2, range(20), ["random"], max_decisions=100))
    late = [r for r in results if r.unfinished]
    assert late and len(late) < 20
    assert all(r.turns == 100 and r.scores == [] and r.winners == [] for r in late)
    s = summarize(results, 2)
    assert s["unfinished"] == len(late) and s["games"] == 20 - len(late)
    assert s["seats"][0]["wins"] == 20 - len(late)  # (seat 0 wins every game that ends)
    assert s["seats"][0]["win_rate"] == 1.0


@pytest.mark.parametrize("workers", ["1", "2"])
def test_simulate_reports_unfinished_games_in_its_table_json_and_csv(rarely, tmp_path, capsys, workers):
    js, cs = tmp_path / "out.json", tmp_path / "out.csv"
    assert main(["simulate", str(rarely), "--games", "20", "--max-decisions", "100", "--workers", workers,
                 "--json", str(js), "--csv", str(cs)]) == 0
    out = capsys.readouterr().out
    data = json.loads(js.read_text())
    late = [g for g in data["games"] if g.get("unfinished")]
    assert data["summary"]["unfinished"] == len(late) > 0 and data["summary"]["max_decisions"] == 100
    assert f"unfinished: {len(late)} of 20 games (past 100 decisions)" in out
    rows = list(csv.reader(cs.open()))
    assert rows[0][-1] == "unfinished" and sum(r[-1] == "yes" for r in rows[1:]) == len(late)


def test_the_default_is_well_above_the_built_in_games():
    assert MAX_DECISIONS == 10_000
    assert max(r.turns for r in run_games("guildhall", 4, range(20), ["random"])) < MAX_DECISIONS // 10


@pytest.mark.parametrize("value", ["0", "-3", "x", "100001"])
def test_a_bad_most_is_refused_in_one_line(rarely, capsys, value):
    try:
        code = main(["simulate", str(rarely), "--games", "1", "--max-decisions", value])
    except SystemExit as e:
        code = e.code
    err = capsys.readouterr().err
    assert code in (1, 2) and len(err.strip().splitlines()) == 1 and "--max-decisions" in err


def test_play_print_stops_an_unfinished_game_with_its_log_and_status_1(rarely, capsys):
    assert main(["play", "--print", str(rarely), "--seed", "2", "--max-decisions", "30"]) == 1
    out, err = capsys.readouterr()
    assert "Scores so far" in out
    assert err.strip() == "jux: the game was stopped unfinished after 30 decisions (--max-decisions 30)"


def test_play_print_plays_the_bots_seat_names(capsys):
    assert main(["play", "--print", "capital_jux", "--seat", "greedy", "--seat", "random", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0] == "Capital Jux: bots greedy, random, seed 3"
    from jux import Game, load_ruleset
    from jux.interpreter.study.simulate import play

    rules = load_ruleset("capital_jux")
    greedy = play(rules, 2, 3, ["greedy", "random"], log=True, direct=False)
    both_random = play(rules, 2, 3, ["random", "random"], log=True, direct=False)
    assert greedy.answers != both_random.answers  # (the greedy bot played seat 1)
    assert f"with {max(greedy.scores)}" in out or "tie" in out


def test_balance_counts_unfinished_games_apart(tmp_path, capsys):
    out = tmp_path / "b"
    assert main(["balance", "capital_jux", "--players", "2", "--games-per-combo", "2", "--tiles-grid", "rebels",
                 "--workers", "1", "--quiet", "--max-decisions", "20", "--out", str(out)]) == 0
    data = json.loads((out / "balance.json").read_text())
    assert all(c["unfinished"] == 2 and c["games"] == 0 for c in data["combos"])
    assert "Unfinished: " in (out / "report.md").read_text()
