"""`make bench`: how fast jux plays, loads and copies. Figures go to docs/performance.md.

Usage: python bench/run.py [--games N] [--quick]
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

from rich.console import Console
from rich.table import Table

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from jux import Game, load_ruleset  # noqa: E402
from jux.interpreter.engine.ruleset import build_ruleset  # noqa: E402
from jux.interpreter.reading import yaml_reader  # noqa: E402
from jux.interpreter.reading.spec import rule_files  # noqa: E402
from jux.interpreter.paths import RULES_DIR  # noqa: E402
from jux.interpreter.study.simulate import run_games  # noqa: E402


def best_of(n, fn):
    """The fastest of n timings of fn() in seconds (the least disturbed by the machine)."""
    best = None
    for _ in range(n):
        t = time.perf_counter()
        fn()
        dt = time.perf_counter() - t
        best = dt if best is None else min(best, dt)
    return best


def games_per_second(rules, players, games, repeats):
    def run():
        for _ in run_games(rules, players, range(games), ["random"]):
            pass
    return games / best_of(repeats, run)


def decisions_per_second(rules, players, games, repeats):
    """Answers given per second in random-bot games (each answer is one decision taken)."""
    answers = []

    def run():
        answers.clear()
        for r in run_games(rules, players, range(games), ["random"]):
            answers.append(r.turns)
    seconds = best_of(repeats, run)
    return sum(answers) / seconds


def mid_game(rules, players=4, seed=3, steps=40):
    g = Game.new(rules, players, seed)
    import random

    rng = random.Random(seed)
    for _ in range(steps):
        d = g.pending[0]
        if d.many:
            g.apply(rng.sample(range(len(d.values)), d.max), decision=d.id)
        else:
            g.apply(rng.randrange(len(d.values)), decision=d.id)
    return g


def startup_seconds(repeats=7, timeout=20.0, args=""):
    """Wall time from `jux play ARGS` (`capital_jux`: a ruleset named, loaded before the screen) to its start screen in a real 80x24 terminal (tmux), best and
    median of repeats (the figure is noisy on a shared machine: keep several runs).

    Each run: a fresh tmux server (own socket, no config) with an idle shell; the clock starts when
    `exec jux play` is typed; `tmux capture-pane` is polled (about 5 ms a poll, included). Two
    times: the start screen first drawn (its title and the seat rows with their names), and the
    ruleset loaded in the background (its player range shown, ctrl+s can start).
    Returns (((first, ready) best, (first, ready) median) in seconds, None), or (None, why).
    """
    if shutil.which("tmux") is None:
        return None, "tmux is not installed"
    jux = Path(sys.executable).parent / "jux"
    if not jux.exists():
        return None, f"{jux} is missing (pip install -e .)"
    sock = f"juxbench{os.getpid()}"

    def tmux(*args):
        return subprocess.run(["tmux", "-L", sock, "-f", "/dev/null", *args], capture_output=True,
                              text=True, timeout=20)

    runs = []
    try:
        for i in range(repeats):
            name = f"start{i}"
            for _ in range(5):  # the server may still be exiting after the last run's session
                r = tmux("new-session", "-d", "-s", name, "-x", "80", "-y", "24", "-c", str(ROOT), "sh")
                if r.returncode == 0:
                    break
                time.sleep(0.2)
            if r.returncode != 0:
                return None, f"tmux cannot start a session: {r.stderr.strip()}"
            time.sleep(0.3)  # let the shell come up: it is not part of the measure
            t = time.perf_counter()
            tmux("send-keys", "-t", name, f"exec {jux} play {args}".rstrip(), "Enter")
            first = None
            while True:
                dt = time.perf_counter() - t
                screen = tmux("capture-pane", "-p", "-t", name).stdout
                if first is None and "a new game" in screen and "Player 1" in screen:
                    first = dt
                if first is not None and " players" in screen:  # "<title>: 2 to 4 players"
                    break
                if dt > timeout:
                    return None, f"no start screen after {timeout:.0f} s"
                time.sleep(0.005)
            runs.append((first, dt))
            tmux("kill-session", "-t", name)
    finally:
        tmux("kill-server")
    firsts, readies = sorted(r[0] for r in runs), sorted(r[1] for r in runs)
    mid = len(runs) // 2
    return ((firsts[0], readies[0]), (firsts[mid], readies[mid])), None


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--games", type=int, default=1000, help="games per player count (default 1000)")
    ap.add_argument("--quick", action="store_true", help="fewer games and repeats")
    args = ap.parse_args(argv)
    games = 200 if args.quick else args.games
    repeats = 1 if args.quick else 3
    con = Console()
    rules = load_ruleset("capital_jux")

    t = Table(title="jux benchmark (one core)")
    t.add_column("measure")
    t.add_column("result", justify="right")

    for players in (4, 3, 2):
        gps = games_per_second(rules, players, games, repeats)
        t.add_row(f"random-bot {players}-player base games per second", f"{gps:,.0f}")

    # decisions per second, the measure that compares games of different lengths
    guildhall = load_ruleset("guildhall")
    base_dps = decisions_per_second(rules, 4, games, repeats)
    t.add_row("random-bot 4-player decisions per second, Capital Jux", f"{base_dps:,.0f}")
    g_games = max(20, games // 20)  # (a Guildhall game takes about 500 decisions)
    gh_dps = decisions_per_second(guildhall, 4, g_games, repeats)
    t.add_row(f"random-bot 4-player decisions per second, Guildhall ({g_games} games)",
              f"{gh_dps:,.0f} ({base_dps / gh_dps:.1f}x slower)")
    bruges = load_ruleset("bruges")
    b_games = max(20, games // 20)  # (a Bruges game takes about 550 decisions)
    br_dps = decisions_per_second(bruges, 4, b_games, repeats)
    t.add_row(f"random-bot 4-player decisions per second, Bruges ({b_games} games)",
              f"{br_dps:,.0f} ({base_dps / br_dps:.1f}x slower; target within 2x)")

    tiles = ["infiltrator", "doomsayer", "aristocrat", "convertor"]
    tiled = load_ruleset("capital_jux", tiles)
    gps = games_per_second(tiled, 4, games, repeats)
    t.add_row(f"random-bot 4-player games per second with {','.join(tiles)}", f"{gps:,.0f}")
    aaaa = load_ruleset("capital_jux", ["agent"])
    gps = games_per_second(aaaa, 4, games, repeats)
    t.add_row("random-bot 4-player games per second with the A tiles", f"{gps:,.0f}")
    import loads  # (bench/loads.py: loading with and without the compile cache, CPU time of fresh processes)
    for label, seconds in loads.figures(3):
        t.add_row(label, f"{seconds * 1000:.0f} ms CPU")

    files = [f for d in (RULES_DIR,) for f in rule_files(d)]
    def load_all():
        yaml_reader._READ_CACHE.clear()  # parse the files again: the cache would hide the YAML and Lark work
        return [build_ruleset(d) for d in sorted(RULES_DIR.iterdir()) if d.is_dir() and list(d.glob("*.yaml"))]

    warm = best_of(5, load_all)
    t.add_row(f"load + check + compile every rule file ({len(files)} files), warm process", f"{warm * 1000:.0f} ms")
    starts = 3 if args.quick else 7
    for named in ("", "capital_jux"):  # (a ruleset named: loaded by the screen when the compile cache holds it)
        command = f"`jux play {named}`".replace(" `", "`")
        start, why = startup_seconds(starts, args=named)
        if start is None:
            t.add_row(f"{command} to the start screen, 80x24 tmux", f"skipped: {why}")
            continue
        (first, ready), (first_mid, ready_mid) = start
        t.add_row(f"{command} to the start screen drawn, 80x24 tmux, best (median) of {starts} "
                  "(target under 1 s)", f"{first * 1000:.0f} ms ({first_mid * 1000:.0f})")
        t.add_row(f"{command} to the ruleset loaded (ready to start), best (median) of {starts}",
                  f"{ready * 1000:.0f} ms ({ready_mid * 1000:.0f})")

    import targets  # (bench/targets.py: the figures of issue 28, each with its target)
    for label, result in targets.rows(args.quick):
        t.add_row(label, result)

    g = mid_game(rules)
    n = 2000
    copy = best_of(3, lambda: [g.copy() for _ in range(n)]) / n
    t.add_row("copy a mid-game state (game.copy())", f"{copy * 1e6:.0f} µs")
    blob = json.dumps(g.save())
    dump = best_of(3, lambda: [json.dumps(g.state.to_json()) for _ in range(200)]) / 200
    t.add_row("state to JSON text (save without replay)", f"{dump * 1e6:.0f} µs")
    load = best_of(3, lambda: [Game.from_record(json.loads(blob)) for _ in range(50)]) / 50
    t.add_row(f"load a save (replay {len(g.answers)} answers + compare)", f"{load * 1000:.2f} ms")
    con.print(t)


if __name__ == "__main__":
    main()
