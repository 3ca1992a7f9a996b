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


FOREVER = """\
game: {name: forever, players: {min: 2, max: 2}}
counters: {pts: {start: 0, per: player}}
functions:
  score(p): pts[p]
flow: |
  while true {
    for p in players {
      choose x from [1, 2, 3] by p prompt "Pick a number"
      pts[p] += x
    }
  }
"""


@pytest.mark.parametrize("bots", ["greedy:rollouts=1,ismcts:iterations=2:depth=-1:policy=mast",
                                  "ismcts:iterations=2:depth=-1,random"])
def test_bots_that_play_out_to_the_end_answer_in_a_game_that_never_ends(tmp_path, capsys, bots):
    """greedy's rollouts and ismcts's playouts with depth -1 play 'to the end': in a game that never
    ends they stop after random_bot.PLAYOUT_MOST decisions, value the position there and answer."""
    f = tmp_path / "forever.yaml"
    f.write_text(FOREVER)
    assert main(["simulate", str(f), "--games", "1", "--workers", "1", "--max-decisions", "4",
                 "--bots", bots]) == 0
    assert "unfinished: 1 of 1 games (past 4 decisions)" in capsys.readouterr().out


def test_resume_keeps_the_unfinished_games_of_the_json_file(rarely, tmp_path, capsys):
    def run(name, *extra):
        return main(["simulate", str(rarely), "--games", "20", "--max-decisions", "100",
                     "--json", str(tmp_path / name), *extra])
    assert run("full.json", "--workers", "1") == 0
    full = json.loads((tmp_path / "full.json").read_text())
    # as if stopped halfway: the file holds the first 10 games, one of them at least unfinished
    assert any(g.get("unfinished") for g in full["games"][:10])
    half = dict(full, games=full["games"][:10], summary=dict(full["summary"], complete=False))
    (tmp_path / "half.json").write_text(json.dumps(half))
    assert run("half.json", "--workers", "2", "--resume") == 0
    resumed = json.loads((tmp_path / "half.json").read_text())
    assert resumed["games"] == full["games"] and resumed["summary"]["complete"]
    assert resumed["summary"]["unfinished"] == full["summary"]["unfinished"]
    capsys.readouterr()
    # another most is another run: refused in one line
    assert main(["simulate", str(rarely), "--games", "20", "--max-decisions", "101", "--workers", "1",
                 "--json", str(tmp_path / "half.json"), "--resume"]) == 1
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "other settings (--max-decisions 100, not 101)" in err


def test_resume_from_records_keeps_the_unfinished_games(rarely, tmp_path):
    recs = tmp_path / "recs"
    base = ["simulate", str(rarely), "--games", "20", "--max-decisions", "100", "--workers", "1",
            "--records", str(recs)]
    assert main(base + ["--json", str(tmp_path / "full.json")]) == 0
    full = json.loads((tmp_path / "full.json").read_text())["games"]
    assert any(g.get("unfinished") for g in full[:10])
    for seed in range(10, 20):  # the second half not played yet
        (recs / f"game-{seed}.json").unlink()
    assert main(base + ["--resume", "--json", str(tmp_path / "again.json")]) == 0
    assert json.loads((tmp_path / "again.json").read_text())["games"] == full
