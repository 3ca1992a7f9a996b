"""`jux simulate` on several cores: results identical to one worker, Ctrl-C and a dead worker keep
the finished games, --resume completes an interrupted run to the file an uninterrupted run writes."""
import csv
import gc
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from jux.interpreter import bots
from jux.interpreter.bots import register
from jux.interpreter.bots.random_bot import RandomBot
from jux.interpreter.study.parallel import ParallelRun, chunks, default_workers
from jux.interpreter.study.simulate import run_games

ROOT = Path(__file__).resolve().parent.parent
TIMING = ("seconds", "games_per_second")


def one_line_error(p, code):
    assert p.returncode == code, (p.stdout, p.stderr)
    lines = p.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("jux: "), p.stderr
    return lines[0]


def without_timing(data):
    data = json.loads(json.dumps(data))
    for k in TIMING:
        data["summary"].pop(k, None)
    return data


def load(path):
    return json.loads(Path(path).read_text())


def test_chunks_cover_the_seeds_in_order():
    assert chunks([], 2) == []
    assert chunks(range(5), 4) == [[0], [1], [2], [3], [4]]
    cut = chunks(range(10, 10_010), 2)
    assert [s for c in cut for s in c] == list(range(10, 10_010))
    assert max(map(len, cut)) == 50 and len(cut) == 200
    cut = chunks(range(100), 2)
    assert len(cut) >= 14 and all(len(c) == len(cut[0]) for c in cut[:-1])  # ~8 chunks per worker


def test_a_sweep_s_combination_goes_to_one_worker_when_there_are_enough():
    # 256 combinations of 100 games on 2 workers: each combination one task (loaded by one worker)
    assert chunks(range(100), 2, total=25_600) == [list(range(100))]
    # 4 combinations of 200 games: cut so that each worker still has about 8 tasks
    cut = chunks(range(200), 2, total=800)
    assert [s for c in cut for s in c] == list(range(200)) and len(cut) == 4
    # one job alone (jux simulate): at most 50 a task, as before
    assert max(map(len, chunks(range(1000), 2, total=1000))) == 50
    assert default_workers() >= 1


def test_pool_gives_the_games_one_process_gives():
    seeds = list(range(3, 23))
    here = [r.to_json() for r in run_games("capital_jux", 3, seeds, "random", record=True)]
    records = {r.seed: r.record for r in run_games("capital_jux", 3, seeds, "random", record=True)}
    with ParallelRun("capital_jux", [], 3, seeds, ["random"] * 3, workers=2, record=True, chunk=3) as run:
        got = list(run)
    assert run.workers == 2 and len(run.tasks) == 10
    assert sorted(r.seed for r in got) == seeds
    assert [r.to_json() for r in sorted(got, key=lambda r: r.seed)] == here
    assert {r.seed: r.record for r in got} == records


def test_workers_do_not_change_the_outputs(run):
    common = ["simulate", "capital_jux", "--players", "3", "--games", "16", "--seed", "50",
              "--tiles", "mentalist,sentinel", "--bots", "random,greedy,random"]
    p1 = run(*common, "--workers", "1", "--json", "a.json", "--csv", "a.csv", "--records", "ra")
    p2 = run(*common, "--workers", "2", "--json", "b.json", "--csv", "b.csv", "--records", "rb")
    assert p1.returncode == 0 and p2.returncode == 0, p2.stderr
    assert "workers: 1" in p1.stdout and "workers: 2" in p2.stdout
    a, b = load("a.json"), load("b.json")
    assert [g["seed"] for g in b["games"]] == list(range(50, 66))
    assert a["games"] == b["games"] and without_timing(a) == without_timing(b)
    assert "mentalist" in b["summary"]["variants"] and b["summary"]["complete"] is True
    assert Path("a.csv").read_text() == Path("b.csv").read_text()
    names = sorted(os.listdir("ra"))
    assert names == sorted(os.listdir("rb")) and len(names) == 16
    for n in names:
        assert load(Path("ra") / n) == load(Path("rb") / n)
    # more workers than games, and a single game (played in process)
    for games in (3, 1):
        assert run(*common, "--games", games, "--workers", "8", "--json", "c.json").returncode == 0
        assert load("c.json")["games"] == a["games"][:games]


class _Interrupter(RandomBot):
    """A random bot that presses Ctrl-C when the `at`-th bot is made (in the process that makes it)."""

    at = None
    made = 0

    def __init__(self, seed=None):
        type(self).made += 1
        if type(self).made == type(self).at:
            raise KeyboardInterrupt
        super().__init__(seed=seed)


class _Killer(RandomBot):
    """A random bot whose worker process is killed (SIGKILL) when it makes its `at`-th bot."""

    at = None
    made = 0
    parent = os.getpid()

    def __init__(self, seed=None):
        type(self).made += 1
        if type(self).made == type(self).at and os.getpid() != type(self).parent:
            os.kill(os.getpid(), signal.SIGKILL)
        super().__init__(seed=seed)


class _Cheater(RandomBot):
    """Answers an option that does not exist."""

    name = "cheater"

    def choose(self, view, decision):
        return 999


@pytest.fixture
def test_bots(monkeypatch):
    """Bots registered for a test; the workers know them as they start by fork (Linux)."""
    if not sys.platform.startswith("linux"):
        pytest.skip("the workers know the bots registered by a test only when they start by fork")
    monkeypatch.setattr(bots, "_registered", dict(bots._registered))
    register("interrupter", _Interrupter)
    register("killer", _Killer)
    register("cheater", _Cheater)
    for cls in (_Interrupter, _Killer):
        monkeypatch.setattr(cls, "at", None)
        monkeypatch.setattr(cls, "made", 0)


def test_ctrl_c_keeps_the_games_and_resume_completes_them(run, test_bots):
    args = ["simulate", "capital_jux", "--players", "4", "--games", "12", "--seed", "5", "--bots", "interrupter",
            "--workers", "1", "--json", "out.json", "--csv", "out.csv", "--records", "recs"]
    _Interrupter.at = 4 * 7 + 1  # the first bot of the 8th game
    line = one_line_error(run(*args), 130)
    assert line == ("jux: interrupted: kept 7 of 12 games in out.json, out.csv, recs/; run the same "
                    "command with --resume to play the other 5")
    part = load("out.json")
    assert [g["seed"] for g in part["games"]] == list(range(5, 12))
    assert part["summary"]["games"] == 7 and part["summary"]["complete"] is False
    assert part["summary"]["games_planned"] == 12
    assert len(list(csv.reader(open("out.csv")))) == 8 and len(os.listdir("recs")) == 7

    _Interrupter.at = None
    p = run(*args, "--resume")
    assert p.returncode == 0, p.stderr
    assert run(*args[:-6], "--json", "full.json", "--csv", "full.csv", "--records", "full").returncode == 0
    assert without_timing(load("out.json")) == without_timing(load("full.json"))
    assert load("out.json")["summary"]["complete"] is True
    assert Path("out.csv").read_text() == Path("full.csv").read_text()
    assert sorted(os.listdir("recs")) == sorted(os.listdir("full"))
    assert all(load(f"recs/{n}") == load(f"full/{n}") for n in os.listdir("full"))
    # resuming a complete run plays nothing and changes no game
    p = run(*args, "--resume")
    assert p.returncode == 0 and load("out.json")["games"] == load("full.json")["games"]


def test_resume_from_the_records_alone(run, test_bots):
    args = ["simulate", "capital_jux", "--players", "2", "--games", "9", "--bots", "interrupter",
            "--workers", "1", "--records", "recs"]
    _Interrupter.at = 2 * 4 + 1
    line = one_line_error(run(*args), 130)
    assert "kept 4 of 9 games in recs/" in line and "--resume" in line
    _Interrupter.at = None
    p = run(*args, "--resume", "--json", "out.json")
    assert p.returncode == 0, p.stderr
    assert run(*args[:-2], "--json", "full.json").returncode == 0
    assert without_timing(load("out.json"))["games"] == load("full.json")["games"]
    assert len(os.listdir("recs")) == 9


def test_resume_refuses_other_settings(run):
    base = ["simulate", "capital_jux", "--games", "4", "--seed", "3", "--workers", "1", "--json", "o.json"]
    assert run(*base, "--quiet").returncode == 0
    before = Path("o.json").read_text()
    for extra, says in [(["--players", "3"], "players 4, not 3"), (["--seed", "4"], "--seed 3, not 4"),
                        (["--games", "5"], "--games 4, not 5"), (["--bots", "greedy"], "bots random,random"),
                        (["--tiles", "mentalist"], "tiles none, not power_tiles")]:
        line = one_line_error(run(*base, *extra, "--resume"), 1)
        assert "o.json was made with other settings" in line and says in line, line
        assert "without --resume" in line
    assert Path("o.json").read_text() == before
    Path("bad.json").write_text(json.dumps(dict(load("o.json"), games=[{"seed": 99}])))
    Path("other.json").write_text('{"summary": {}, "games": []}')
    assert "not the --json output" in one_line_error(run(*base[:-1], "other.json", "--resume"), 1)
    assert "not a game of this run" in one_line_error(run(*base[:-1], "bad.json", "--resume"), 1)
    Path("trunc.json").write_text(before[:50])
    assert "not valid JSON" in one_line_error(run(*base[:-1], "trunc.json", "--resume"), 1)
    assert "--resume needs" in one_line_error(run(*base[:-2], "--resume"), 1)
    assert "--workers must be 1 or more" in one_line_error(run(*base, "--workers", "0"), 1)
    # --resume with no file yet starts from the first game
    assert run(*base[:-1], "new.json", "--resume", "--quiet").returncode == 0
    assert load("new.json")["games"] == load("o.json")["games"]


def test_a_dead_worker_keeps_the_finished_games(run, test_bots):
    args = ["simulate", "capital_jux", "--players", "4", "--games", "120", "--bots", "killer",
            "--workers", "2", "--json", "out.json"]
    _Killer.at = 4 * 40  # in a worker, during its 40th game (the chunks are 8 games)
    line = one_line_error(run(*args), 1)
    assert line.startswith("jux: a worker process died (killed by SIGKILL): kept ")
    assert "of 120 games in out.json; run the same command with --resume" in line
    part = load("out.json")
    kept = [g["seed"] for g in part["games"]]
    assert 8 <= len(kept) < 120 and kept == sorted(kept) and part["summary"]["complete"] is False
    _Killer.at = None
    assert run(*args, "--resume", "--quiet").returncode == 0
    assert run(*args[:-1], "full.json", "--workers", "1", "--quiet").returncode == 0
    assert without_timing(load("out.json")) == without_timing(load("full.json"))


def test_sigint_to_the_real_command(tmp_path):
    """Ctrl-C in a terminal signals the whole process group: the workers as well as jux."""
    args = [sys.executable, "-m", "jux", "simulate", "capital_jux", "--games", "1000", "--seed", "2",
            "--workers", "2", "--json", "out.json", "--records", "recs"]
    p = subprocess.Popen(args, cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         start_new_session=True, env=dict(os.environ, PYTHONPATH=str(ROOT)))
    recs = tmp_path / "recs"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and p.poll() is None:
        if recs.is_dir() and len(os.listdir(recs)) >= 20:
            break
        time.sleep(0.01)
    assert p.poll() is None, "the run ended before it could be interrupted"
    os.killpg(p.pid, signal.SIGINT)
    out, err = p.communicate(timeout=60)
    assert "Traceback" not in err, err
    line = one_line_error(subprocess.CompletedProcess(args, p.returncode, out, err), 130)
    assert line.startswith("jux: interrupted: kept ") and "of 1000 games in out.json, recs/" in line
    part = load(tmp_path / "out.json")
    kept = [g["seed"] for g in part["games"]]
    assert 20 <= len(kept) < 1000 and kept == sorted(kept)
    assert {f"game-{s}.json" for s in kept} <= set(os.listdir(recs))

    p = subprocess.run(args + ["--resume", "--quiet"], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert p.returncode == 0 and p.stderr == "", p.stderr
    full = [r.to_json() for r in run_games("capital_jux", 4, range(2, 1002), "random")]
    done = load(tmp_path / "out.json")
    assert done["games"] == full and done["summary"]["complete"] is True
    assert len(os.listdir(recs)) == 1000


def test_an_error_in_a_worker_is_one_line(run, test_bots):
    args = ["simulate", "capital_jux", "--games", "20", "--seed", "3", "--bots", "random,cheater", "--players", "2"]
    one = one_line_error(run(*args, "--workers", "1"), 1)
    assert one.startswith("jux: game 3: the cheater bot in seat 2 answered 999: ")
    for _ in range(3):  # every game fails: the first seed's error whichever worker is first to fail
        assert one_line_error(run(*args, "--workers", "2"), 1) == one


def _children(pid):
    try:
        return [int(x) for x in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except OSError:
        return []


def _gone(pid, within=5.0):
    """Whether process pid has ended (or is a zombie waiting to be reaped) within some seconds."""
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        try:
            if Path(f"/proc/{pid}/stat").read_text().split(")")[-1].split()[0] == "Z":
                return True
        except OSError:
            return True
        time.sleep(0.05)
    return False


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="needs Linux /proc")
def test_sigterm_keeps_the_games_and_no_worker_outlives_jux(tmp_path):
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    for how in (signal.SIGTERM, signal.SIGKILL):
        recs = tmp_path / f"recs-{how}"
        args = [sys.executable, "-m", "jux", "simulate", "capital_jux", "--games", "3000",
                "--workers", "2", "--json", "out.json", "--records", recs]
        p = subprocess.Popen(args, cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                             env=env)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and p.poll() is None:
            if recs.is_dir() and len(os.listdir(recs)) >= 10:
                break
            time.sleep(0.01)
        workers = _children(p.pid)
        assert p.poll() is None and len(workers) == 2
        p.send_signal(how)  # to jux alone, not its workers
        out, err = p.communicate(timeout=60)
        assert all(_gone(w) for w in workers), "a worker outlived jux"
        if how == signal.SIGTERM:
            assert p.returncode == 143 and "Traceback" not in err, err
            assert err.startswith("jux: terminated: kept ") and err.count("\n") == 1, err
            kept = [g["seed"] for g in load(tmp_path / "out.json")["games"]]
            # every game a worker sent back is kept (they come in chunks of 50), with its record
            assert len(kept) >= 50 and len(kept) % 50 == 0, len(kept)
            assert sorted(os.listdir(recs)) == sorted(f"game-{s}.json" for s in kept)


def test_ctrl_c_while_waiting_on_the_workers_is_held_until_the_wait_is_out_of_its_locks():
    """A KeyboardInterrupt raised inside concurrent.futures' wait could leave a future's lock held:
    the pool's thread then blocked on it and Python's exit on that thread (jux hung after Ctrl-C).
    During a run, the wait is a stops.deferred block: the signal is raised as the block ends."""
    from jux.interpreter.study.stops import Stops, deferred

    stops = Stops()
    # (no garbage collection while the signal is sent: a KeyboardInterrupt raised inside a gc
    # callback, such as hypothesis's, is printed as unraisable and lost instead of reaching here)
    gc.disable()
    try:
        finished = False
        with pytest.raises(KeyboardInterrupt):
            with deferred():
                os.kill(os.getpid(), signal.SIGINT)
                time.sleep(0.05)  # (the handler runs here, and holds the signal)
                finished = True
        assert finished
    finally:
        stops.restore()
        gc.enable()
    gc.disable()
    try:
        with deferred():  # no run: nothing is held
            with pytest.raises(KeyboardInterrupt):
                os.kill(os.getpid(), signal.SIGINT)
                time.sleep(0.05)
    finally:
        gc.enable()
