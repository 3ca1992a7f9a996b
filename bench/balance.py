"""What a balance sweep costs: CPU time and the largest process of `jux balance`, in fresh runs.

Usage: python bench/balance.py [REV ...] [--games G] [--players N] [--workers W] [-n RUNS]

Runs `jux balance capital_jux --players N --games-per-combo G` (the 256 combinations of Capital
Jux's tiles) with the working tree's jux, and with each git revision REV's (unpacked as
bench/startup.py does, each side on its own rule files), alternating, RUNS times each. For the
working tree it runs twice in a row with a compile cache of its own, first empty ("cold") then
as the first run left it ("warm"), and once with JUX_CACHE=off. Reports the CPU seconds of
the whole run (every worker: the children's user + system time) and the resident size of the
largest process (ru_maxrss of the children: the largest of the tree, not their sum).
"""
from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from startup import Tree, tree_at, working_tree  # noqa: E402

# Runs jux as a child and says what its tree of processes took (the workers are its children).
MEASURE = ("import resource, subprocess, sys\n"
           "p = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)\n"
           "if p.returncode: sys.exit(p.stderr.decode()[-2000:])\n"
           "r = resource.getrusage(resource.RUSAGE_CHILDREN)\n"
           "print(r.ru_utime + r.ru_stime, r.ru_maxrss)\n")


def run_once(tree: Tree, out: Path, games: int, players: int, workers: int, env_extra: dict) -> tuple:
    """(CPU seconds, largest process in MiB) of one `jux balance` run."""
    cmd, env = tree.command("balance", "capital_jux", "--players", str(players), "--games-per-combo",
                            str(games), "--workers", str(workers), "--out", str(out))
    env.update(env_extra)
    shutil.rmtree(out, ignore_errors=True)
    p = subprocess.run([sys.executable, "-c", MEASURE, *cmd], cwd=tree.root, env=env, capture_output=True, text=True)
    if p.returncode:
        sys.exit(f"balance.py: jux balance failed:\n{p.stderr}")
    cpu, rss = p.stdout.split()
    return float(cpu), int(rss) / 1024


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("revs", nargs="*", help="git revisions to compare with the working tree, e.g. dfde39a")
    ap.add_argument("--games", type=int, default=20, help="games per combination (default 20)")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("-n", type=int, default=1, help="runs of each (default 1)")
    ap.add_argument("--revs-only", action="store_true", help="run only the revisions, not the working tree")
    args = ap.parse_args(argv)
    tmp = Path(tempfile.mkdtemp(prefix="jux-balance-bench-"))
    try:
        trees = {rev: tree_at(rev, tmp / f"rev{i}") for i, rev in enumerate(args.revs)}
        if not args.revs_only:
            trees["working tree"] = working_tree(tmp / "now")
        got: dict = {}
        for i in range(args.n):
            for label, tree in (trees.items() if i % 2 == 0 else reversed(trees.items())):
                if label != "working tree":
                    got.setdefault(label, []).append(run_once(tree, tmp / "out", args.games, args.players,
                                                              args.workers, {"JUX_CACHE": "off"}))
                    continue
                cache = tmp / f"cache{i}"
                for kind, extra in (("cache off", {"JUX_CACHE": "off"}), ("cold cache", {"JUX_CACHE_DIR": str(cache)}),
                                    ("warm cache", {"JUX_CACHE_DIR": str(cache)})):
                    got.setdefault(f"{label}, {kind}", []).append(
                        run_once(tree, tmp / "out", args.games, args.players, args.workers, extra))
        print(f"jux balance capital_jux --players {args.players} --games-per-combo {args.games} "
              f"--workers {args.workers}: CPU seconds (all processes), largest process MiB")
        for label, runs in got.items():
            cpus = ", ".join(f"{c:.1f}" for c, _ in runs)
            print(f"  {label:>28}: CPU {cpus} s (best {min(c for c, _ in runs):.1f}); "
                  f"largest process {max(r for _, r in runs):.0f} MiB")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
