"""`make bench`: games per second with 1 worker and with every core, as `jux simulate` plays them.

Target: within 10% of linear in the number of cores (efficiency = speed-up / workers >= 90%) for
10,000 4-player games between random bots. Both runs play the same seeds and must give the same
results. The machine should be otherwise idle: the load average is printed beside the figures.
The CPU seconds (jux and its workers together) and the run with one worker process in a pool show
what running in parallel costs whatever the load: on a busy machine the wall-clock speed-up cannot
reach linear, those still should show no more than a few per cent.

With Dask distributed installed (`pip install .[cluster]`), the same games are then played on a
local Dask cluster with as many single-threaded worker processes (`--cluster ADDRESS`: on an
existing one): the cost of a cluster run against the local pool on the same work.

Usage: python bench/parallel.py [--games N] [--players P] [--workers W] [--bots SPEC] [--cluster ADDRESS|none]
"""
from __future__ import annotations

import argparse
import os
import resource
import sys
import time
from pathlib import Path

from rich.console import Console
from rich.table import Table

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from jux import load_ruleset  # noqa: E402
from jux.interpreter.study.parallel import ParallelRun, default_workers  # noqa: E402
from jux.interpreter.study.simulate import run_games, seat_bots  # noqa: E402


def cpu_seconds() -> float:
    """CPU time of this process and of its ended child processes (the workers, once joined)."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=10_000)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--workers", type=int, default=default_workers(), help="default: every core")
    ap.add_argument("--bots", default="random")
    ap.add_argument("--ruleset", default="capital_jux")
    ap.add_argument("--cluster", default="local",
                    help="a Dask scheduler's address, 'local' (default: start one here) or 'none'")
    a = ap.parse_args(argv)
    out = Console(highlight=False)
    rules = load_ruleset(a.ruleset)  # loaded once, outside the timings (as jux simulate does)
    bots = seat_bots(a.bots, a.players)
    seeds = range(a.games)

    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    t, c = time.perf_counter(), cpu_seconds()
    one = [r.to_json() for r in run_games(rules, a.players, seeds, bots)]
    t1, c1 = time.perf_counter() - t, cpu_seconds() - c

    def pool(workers):
        t, c = time.perf_counter(), cpu_seconds()
        with ParallelRun(a.ruleset, [], a.players, seeds, bots, workers, digest=rules.digest) as run:
            got = sorted((r.to_json() for r in run), key=lambda g: g["seed"])
        if got != one:
            out.print("[red]the runs differ: results depend on the number of workers[/]")
            sys.exit(1)
        return run.workers, time.perf_counter() - t, cpu_seconds() - c

    workers, tn, cn = pool(a.workers)
    _, tp, cp = pool(1)  # the cost of the pool itself, whatever the load: one worker process

    table = Table(title=f"{a.ruleset}: {a.games} games, {a.players} players, {a.bots} bots, "
                        f"{default_workers()} cores", title_justify="left")
    for col in ("Workers", "Seconds", "Games/s", "Speed-up", "Efficiency", "CPU s"):
        table.add_column(col, justify="right")
    table.add_row("1", f"{t1:.2f}", f"{a.games / t1:.1f}", "1.00", "100%", f"{c1:.2f}")
    table.add_row("1 in a pool", f"{tp:.2f}", f"{a.games / tp:.1f}", f"{t1 / tp:.2f}", f"{100 * t1 / tp:.0f}%",
                  f"{cp:.2f}")
    speedup = t1 / tn
    table.add_row(str(workers), f"{tn:.2f}", f"{a.games / tn:.1f}", f"{speedup:.2f}",
                  f"{100 * speedup / workers:.0f}%", f"{cn:.2f}")
    out.print(table)
    verdict = "within 10% of linear" if speedup / workers >= 0.9 else "NOT within 10% of linear"
    out.print(f"{verdict}; the same results with {workers} workers as with 1; CPU time in parallel "
              f"{100 * (cn / c1 - 1):+.0f}%; load average (1, 5, 15 min) before: {load}, after: "
              f"{' '.join(f'{x:.2f}' for x in os.getloadavg())}", soft_wrap=True)
    if a.cluster != "none":
        cluster_cost(a, rules, bots, seeds, one, tn, workers, out)
    return 0


def cluster_cost(a, rules, bots, seeds, one, local_seconds, workers, out) -> None:
    """The same games on a Dask cluster: its time against the local pool's (and its start-up)."""
    try:
        import distributed
    except ImportError:
        out.print("cluster: skipped (Dask distributed is not installed: pip install '.[cluster]')")
        return
    from jux.interpreter.study.cluster import ClusterRun

    started = None
    t = time.perf_counter()
    if a.cluster == "local":
        started = distributed.LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                                           dashboard_address=None)
        address = started.scheduler_address
    else:
        address = a.cluster
    boot = time.perf_counter() - t
    try:
        t = time.perf_counter()
        with ClusterRun(address, a.ruleset, [], a.players, seeds, bots, digest=rules.digest) as run:
            got = sorted((r.to_json() for r in run), key=lambda g: g["seed"])
            threads = run.workers
        tc = time.perf_counter() - t
    finally:
        if started is not None:
            started.close()
    if got != one:
        out.print("[red]the cluster run differs from the local one[/]")
        sys.exit(1)
    where = f"a local Dask cluster ({threads} workers, started in {boot:.1f} s)" if started else \
        f"the cluster at {address} ({threads} threads)"
    out.print(f"cluster: {a.games} games on {where} in {tc:.2f} s, {a.games / tc:.1f} games/s: "
              f"{100 * (tc / local_seconds - 1):+.0f}% time against the local pool of {workers}; the same results",
              soft_wrap=True)


if __name__ == "__main__":
    sys.exit(main())
