"""What loading a ruleset costs, with and without the compile cache (interpreter/engine/compiled.py).

Usage: python bench/loads.py [-n RUNS] [--rev REV]

Each figure is the CPU time (process time) of fresh processes, the best of RUNS (default 5):
- a base load: `build_ruleset` of rules/capital_jux in a process that loaded it once, its files
  read again (as bench/run.py's "load + check + compile", docs/performance.md's base load);
- another tile combination in a process that loaded one: the mean of 8 combinations, with the
  compile cache off (JUX_CACHE=off), and warm (each was loaded once before, in another process);
- importing jux and loading capital_jux in a fresh process, the cache off and warm.
The cache is a folder of the bench's own (JUX_CACHE_DIR), never the user's. With --rev, the same
figures of git revision REV's jux (unpacked as bench/startup.py does, on its own rule files), for
a revision before the cache the "warm" figures are the same work as the others.
"""
from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
COMBOS = [["outsider", "mentalist", "sentinel", "dualist"], ["recruiter", "doomsayer", "follower", "convertor"],
          ["infiltrator", "missionary", "aristocrat", "discoverer"], ["agent", "doomsayer", "merchant", "dualist"],
          ["outsider", "cleric", "follower", "scholar"], ["recruiter", "mentalist", "aristocrat", "convertor"],
          ["infiltrator", "cleric", "sentinel", "discoverer"], ["agent", "missionary", "follower", "dualist"]]

BASE = ("import time\nfrom jux import load_ruleset\nfrom jux.interpreter.engine.ruleset import build_ruleset\n"
        "from jux.interpreter.reading import yaml_reader\nfrom jux.interpreter.reading.spec import ruleset_path\n"
        "load_ruleset('capital_jux')\nyaml_reader._READ_CACHE.clear()\nt = time.process_time()\n"
        "build_ruleset(ruleset_path('capital_jux'))\nprint(time.process_time() - t)\n")
OTHER = ("import time\nfrom jux import load_ruleset\nload_ruleset('capital_jux', ['agent', 'cleric', 'merchant', 'scholar'])\n"
         "t = time.process_time()\nfor c in {combos!r}:\n    load_ruleset('capital_jux', c)\n"
         "print((time.process_time() - t) / {n})\n")
FRESH = ("import time\nt = time.process_time()\nfrom jux import load_ruleset\nload_ruleset('capital_jux')\n"
         "print(time.process_time() - t)\n")


def _cpu(code: str, env: dict) -> float:
    out = subprocess.run([sys.executable, "-c", code], cwd=env.get("JUX_BENCH_ROOT", ROOT), env=env,
                         capture_output=True, text=True, check=True)
    return float(out.stdout)


def figures(runs: int = 5, tree=None) -> list:
    """[(label, seconds)] of each figure (the module's text), each the best of runs; tree: another
    jux to measure (bench/startup.py's Tree), else the working tree's."""
    cache = tempfile.mkdtemp(prefix="jux-loads-bench-")
    base = dict(os.environ)
    if tree is not None:
        base.update(PYTHONPATH=str(tree.path), JUX_BENCH_ROOT=str(tree.root))
    off = dict(base, JUX_CACHE="off")
    on = dict(base, JUX_CACHE_DIR=cache)
    on.pop("JUX_CACHE", None)
    other = OTHER.format(combos=COMBOS, n=len(COMBOS))
    try:
        _cpu(other, on)  # (fills the cache: every combination, and capital_jux, once)
        _cpu(FRESH, on)
        return [
            ("base load: read + check + compile rules/capital_jux in a warm process (build_ruleset)",
             min(_cpu(BASE, off) for _ in range(runs))),
            ("another tile combination in a process that loaded one, compile cache off",
             min(_cpu(other, off) for _ in range(runs))),
            ("another tile combination in a process that loaded one, compile cache warm",
             min(_cpu(other, on) for _ in range(runs))),
            ("import jux + load capital_jux, fresh process, compile cache off", min(_cpu(FRESH, off) for _ in range(runs))),
            ("import jux + load capital_jux, fresh process, compile cache warm", min(_cpu(FRESH, on) for _ in range(runs))),
        ]
    finally:
        shutil.rmtree(cache, ignore_errors=True)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("-n", type=int, default=5, help="fresh processes of each, the best kept (default 5)")
    ap.add_argument("--rev", help="a git revision's jux instead of the working tree's, e.g. dfde39a")
    args = ap.parse_args(argv)
    tmp = Path(tempfile.mkdtemp(prefix="jux-loads-rev-"))
    try:
        tree = None
        if args.rev:
            sys.path.insert(0, str(Path(__file__).resolve().parent))
            from startup import tree_at

            tree = tree_at(args.rev, tmp / "rev")
        for label, seconds in figures(args.n, tree):
            print(f"{label}: {seconds * 1000:.1f} ms CPU")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
