"""Balance sweeps (interpreter/study/balance.py): the grid, the figures, resume, the report."""
import json

import pytest

from jux.interpreter.study.balance import Sweep, combo_stats, per_tile, tile_grid
from jux.interpreter.study.balance_report import write_report
from jux.interpreter.errors import JuxError
from jux.interpreter.study.simulate import GameResult

GAME = "capital_jux"


def test_the_grid_is_every_combination_or_the_families_named():
    keys, combos = tile_grid(GAME)
    assert keys == [("power", "blue"), ("power", "pink"), ("power", "yellow"), ("power", "green")]
    assert len(combos) == 256 == len(set(combos))
    assert {c[0] for c in combos} == {"agent", "infiltrator", "recruiter", "outsider"}
    keys, combos = tile_grid(GAME, ["rebels"])
    assert combos == [(b, "cleric", "merchant", "scholar") for b in ("agent", "infiltrator", "recruiter", "outsider")]
    assert len(tile_grid(GAME, ["rebels", "scientists"])[1]) == 16
    with pytest.raises(JuxError, match="unknown family 'rebel'.*did you mean 'rebels'"):
        tile_grid(GAME, ["rebel"])


def result(seed, scores, first, powers=(), choices=((0, 3, 2, 2),)):
    best = max(scores)
    return GameResult(seed=seed, scores=list(scores), winners=[p for p, s in enumerate(scores) if s == best],
                      turns=10 + seed, first=first,
                      coverage={"runs": [], "choices": [list(c) for c in choices], "powers": [list(p) for p in powers]})


def test_a_combination_s_figures():
    # the starting seat (first) wins 2 of 4 games outright and shares a third (a tie: half a win)
    results = [result(0, [5, 1], 0, powers=[("power", "blue", 2, 2, 6, 20)]),
               result(1, [3, 3], 1), result(2, [1, 4], 1, powers=[("power", "blue", 1, 1, -1, 1)]),
               result(3, [0, 2], 0)]
    c = combo_stats(["a", "b"], results, players=2, comparisons=1)
    assert c["games"] == 4 and c["start_games"] == 4 and c["start_wins"] == 2.5 and c["start_rate"] == 0.625
    assert c["score_mean"] == pytest.approx(19 / 8, abs=1e-4)
    assert c["turns_mean"] == 11.5
    assert c["decisions"] == 12 and c["single_option"] == 4 and c["single_share"] == pytest.approx(1 / 3, abs=1e-4)
    assert c["powers"] == {"power[blue]": {"uses": 3, "per_game": 0.75, "mean_change": pytest.approx(5 / 3, abs=1e-4),
                                           "seated": 3, "change": 5}}
    assert c["flag"] == ""  # 4 games: the interval holds 50%
    lucky = [result(i, [9, 1], 0) for i in range(40)]
    assert combo_stats(["a", "b"], lucky, 2, 1)["flag"] == "!!"
    # 22 wins of 30 is away from 50% at 95% (one comparison: both flags), but not once the
    # interval is corrected for 256 comparisons; 29 of 30 is away even then
    some = [result(i, [9, 1] if i < 22 else [1, 9], 0) for i in range(30)]
    assert combo_stats(["a", "b"], some, 2, 1)["flag"] == "!!"
    assert combo_stats(["a", "b"], some, 2, 256)["flag"] == "!"
    assert combo_stats(["a", "b"], [result(i, [9, 1] if i < 29 else [1, 9], 0) for i in range(30)], 2, 256)["flag"] == "!!"
    assert combo_stats(["a", "b"], [result(i, [9, 1] if i < 20 else [1, 9], 0) for i in range(30)], 2, 1)["flag"] == ""


def test_per_tile_pools_the_combinations_that_hold_the_tile():
    a = combo_stats(["x", "p"], [result(0, [5, 1], 0, powers=[("power", "k1", 2, 2, 4, 8)])], 2, 1)
    b = combo_stats(["y", "p"], [result(0, [1, 5], 0), result(1, [1, 7], 1)], 2, 1)
    rows = per_tile([("power", "k1"), ("power", "k2")], [a, b], 2)
    assert [(r["key"], r["tile"], r["combos"], r["games"]) for r in rows] == \
        [("k1", "x", 1, 1), ("k1", "y", 1, 2), ("k2", "p", 2, 3)]
    x, y, p = rows
    assert x["start_rate"] == 1.0 and y["start_rate"] == 0.5 and p["start_rate"] == pytest.approx(2 / 3, abs=1e-4)
    assert x["power_per_game"] == 2 and x["power_mean_change"] == 2 and y["power_per_game"] == 0


def test_a_sweep_in_parallel_is_the_sweep_in_one_process_and_resumes_to_the_same(tmp_path):
    one = Sweep(GAME, 3, 4, seed=5, families=["rebels"], out_dir=tmp_path / "one")
    one.run(workers=1)
    two = Sweep(GAME, 3, 4, seed=5, families=["rebels"], out_dir=tmp_path / "two")
    two.run(workers=2)
    whole = json.loads(one.path.read_text())
    assert whole == json.loads(two.path.read_text())
    assert len(whole["combos"]) == 4 and all(c["games"] == 4 for c in whole["combos"])
    assert all(0 <= c["start_games"] <= 4 and c["powers"]["power[blue]"]["uses"] > 0 for c in whole["combos"])

    stopped = Sweep(GAME, 3, 4, seed=5, families=["rebels"], out_dir=tmp_path / "stopped")
    played = []

    def stop_after_six(r):
        played.append(r)
        if len(played) == 6:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        stopped.run(workers=1, on_game=stop_after_six)
    assert len(json.loads(stopped.path.read_text())["combos"]) == 1  # the finished combination is kept
    again = Sweep(GAME, 3, 4, seed=5, families=["rebels"], out_dir=tmp_path / "stopped")
    assert again.resume() == 1 and len(again.todo()) == 3
    again.run(workers=2)
    assert json.loads(again.path.read_text()) == whole

    other = Sweep(GAME, 3, 5, seed=5, families=["rebels"], out_dir=tmp_path / "stopped")
    with pytest.raises(JuxError, match="other settings \\(games_per_combo\\)"):
        other.resume()


def test_the_report_has_the_tables_and_the_charts(tmp_path):
    sweep = Sweep(GAME, 4, 3, families=["nobles"], out_dir=tmp_path / "out")
    sweep.run(workers=1)
    report = write_report(sweep).read_text()
    assert report.startswith("# Balance: Capital Jux, 4 players")
    assert "| yellow | follower | 1 | 3 |" in report and "## Flagged combinations" in report
    assert "| agent, cleric, sentinel, scholar |" in report
    for png in ("start_seat_win_rate.png", "power_use.png", "mean_score.png"):
        assert f"]({png})" in report
        assert (tmp_path / "out" / png).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_without_matplotlib_the_report_says_how_to_get_the_charts(tmp_path, monkeypatch, capsys):
    """Playing does not need matplotlib (the charts extra): a sweep without it writes its report,
    says why it has no charts, and the command says so too."""
    from jux.interpreter.study import balance_report as balance
    from jux.interpreter.cli.main import main

    monkeypatch.setattr(balance, "have_charts", lambda: False)
    out = tmp_path / "b"
    assert main(["balance", GAME, "--players", "3", "--games-per-combo", "2", "--tiles-grid", "rebels",
                 "--workers", "1", "--quiet", "--out", str(out)]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == balance.NO_CHARTS
    report = (out / "report.md").read_text()
    assert f"({balance.NO_CHARTS}.)" in report and ".png" not in report
    assert not list(out.glob("*.png"))


def test_jux_balance_writes_the_report_and_refuses_to_overwrite(tmp_path, capsys):
    from jux.interpreter.cli.main import main

    out = tmp_path / "b"
    args = ["balance", GAME, "--players", "3", "--games-per-combo", "3", "--tiles-grid", "rebels",
            "--workers", "1", "--out", str(out)]
    assert main(args) == 0
    text = capsys.readouterr().out
    assert "Capital Jux, 3 players: 4 combinations x 3 games" in text and f"report: {out / 'report.md'}" in text
    assert "| blue | outsider | 1 | 3 |" in (out / "report.md").read_text()
    assert main(args) == 1
    err = capsys.readouterr().err.strip()
    assert err == f"jux: {out / 'balance.json'} exists: continue that sweep with --resume, or give another --out"
    assert main(args + ["--resume"]) == 0
    assert main(["balance", GAME, "--tiles-grid", "nobel", "--out", str(tmp_path / "c")]) == 1
    assert capsys.readouterr().err.startswith("jux: unknown family 'nobel' (did you mean 'nobles'?); the families of")


def test_jux_simulate_coverage_in_the_terminal_and_as_markdown(tmp_path, capsys):
    from jux.interpreter.cli.main import main

    args = ["simulate", GAME, "--games", "6", "--tiles", "mentalist", "--quiet"]
    assert main(args + ["--coverage", "--workers", "2"]) == 0
    text = capsys.readouterr().out
    assert "Rule coverage (6 games)" in text
    assert "mentalist.yaml" in text and "never ran (function turn_unavailable)" in text
    md = tmp_path / "cov.md"
    assert main(args + ["--coverage", str(md), "--workers", "1"]) == 0
    assert capsys.readouterr().out.strip() == f"coverage of 6 games: {md}"
    report = md.read_text()
    assert report.startswith("# Rule coverage (6 games)") and "## Powers" in report and "| power | pink |" in report


def test_wilson_intervals():
    from jux.interpreter.study.stats import mean_sd, wilson, z_for

    assert z_for(0.95) == pytest.approx(1.959964, abs=1e-5)
    lo, hi = wilson(127, 200)  # the ismcts match of docs/bots.md
    assert (round(lo, 4), round(hi, 4)) == (0.5663, 0.6986)
    assert wilson(0, 0) == (0.0, 1.0) and wilson(10, 10)[1] == 1.0 and wilson(0, 10)[0] == pytest.approx(0, abs=1e-12)
    assert wilson(50, 100, 0.999)[0] < wilson(50, 100)[0]
    assert mean_sd([2, 4, 4, 4, 5, 5, 7, 9]) == (5.0, pytest.approx(2.13809, abs=1e-5))
    assert mean_sd([]) == (None, None) and mean_sd([3]) == (3.0, 0.0)


def test_ctrl_c_keeps_the_finished_combinations_and_resume_plays_the_rest(tmp_path, capsys, monkeypatch):
    from jux.interpreter.study import balance
    from jux.interpreter.cli.main import main

    run = balance.Sweep.run
    played = []

    def interrupted(self, workers=1, on_game=None, guard=None, *rest):
        def game(r):
            played.append(r)
            if len(played) == 7:  # in the third combination
                raise KeyboardInterrupt
        return run(self, workers, game, guard, *rest)

    out = tmp_path / "b"
    args = ["balance", GAME, "--players", "2", "--games-per-combo", "3", "--tiles-grid", "scientists",
            "--workers", "1", "--out", str(out), "--quiet"]
    monkeypatch.setattr(balance.Sweep, "run", interrupted)
    assert main(args) == 130
    err = capsys.readouterr().err.strip()
    assert err == (f"jux: interrupted: kept 2 of 4 combinations in {out / 'balance.json'}; "
                   "run the same command with --resume to play the other 2")
    assert "2 of 4 combinations" in (out / "report.md").read_text()  # the report of what is done
    monkeypatch.setattr(balance.Sweep, "run", run)
    assert main(args + ["--resume"]) == 0
    assert main(args[:-3] + ["--out", str(tmp_path / "whole"), "--quiet"]) == 0
    assert (out / "balance.json").read_text() == (tmp_path / "whole" / "balance.json").read_text()


def test_a_tile_file_of_ones_own_joins_the_sweep_beside_the_tiles_of_its_colour(tmp_path, capsys, monkeypatch):
    """jux balance --with FILE: the author's tile is swept with the catalogue's (named by its path),
    the report has its row, a resumed sweep needs it again; a broken one is refused before any game."""
    from pathlib import Path

    from jux.interpreter.cli.main import main

    banker = Path(__file__).resolve().parent.parent / "docs" / "examples" / "banker.yaml"
    (tmp_path / "banker.yaml").write_text(banker.read_text())
    monkeypatch.chdir(tmp_path)
    keys, combos = tile_grid(GAME, ["nobles"], ["banker.yaml"])
    yellow = sorted({c[2] for c in combos})
    assert "banker.yaml" in yellow and len(yellow) == 5  # the four yellow nobles... and the banker
    args = ["balance", GAME, "--players", "3", "--games-per-combo", "2", "--tiles-grid", "nobles",
            "--with", "banker.yaml", "--workers", "1", "--out", "b", "--quiet"]
    assert main(args) == 0
    report = (tmp_path / "b" / "report.md").read_text()
    assert "| yellow | banker.yaml | 1 | 2 |" in report, report
    assert json.loads((tmp_path / "b" / "balance.json").read_text())["settings"]["with"] == ["banker.yaml"]
    no_banker = [a for a in args if a not in ("--with", "banker.yaml")] + ["--resume"]
    assert main(no_banker) == 1 and "other settings (with)" in capsys.readouterr().err
    assert main(args + ["--resume"]) == 0
    (tmp_path / "broken.yaml").write_text(banker.read_text().replace("overrides: [", "overrides: [nothing_here, "))
    broken = ["balance", GAME, "--players", "3", "--games-per-combo", "2", "--with", "broken.yaml", "--out", "c"]
    assert main(broken) == 1
    assert "broken.yaml:" in capsys.readouterr().err and not (tmp_path / "c").exists()
    assert main(args + ["--cluster", "tcp://127.0.0.1:1"]) == 1
    assert "--with does not go with --cluster" in capsys.readouterr().err


def test_balance_json_reads_as_json_dumps_writes_it(tmp_path):
    """Sweep.save encodes each finished combination once: the file is still json.dumps(data, indent=1)."""
    from jux.interpreter.study.balance import FORMAT

    sweep = Sweep("capital_jux", 4, 2, families=["rebels"], out_dir=tmp_path)
    sweep.out.mkdir(parents=True, exist_ok=True)
    for n in range(3):
        expected = {"format": FORMAT, "settings": sweep.settings, "keys": [list(k) for k in sweep.keys],
                    "combos_planned": len(sweep.combos), "combos": list(sweep.done.values())}
        sweep.save()
        assert sweep.path.read_text() == json.dumps(expected, indent=1) + "\n"
        combo = sweep.combos[n]
        sweep.done[",".join(combo)] = {"combo": list(combo), "games": n, "powers": {"a": {"uses": [n, "x\ny"]}}, "none": None}
