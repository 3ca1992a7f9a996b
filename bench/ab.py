"""Is the engine faster than at another revision? Both play the same games, in turns, in one process.

Usage: python bench/ab.py REV [--batches N] [--games N] [--players N] [--tiles a,b,c,d] [--seen]

On a shared machine the speed moves by a third from one minute to the next, so two runs one after
the other cannot tell a few percent apart. Here the interpreter package of git revision REV and
the one in the working tree are imported side by side, and batches of games alternate between
them, so both see the same machine. Both play the working tree's rule files (what is compared is
the engine). Prints games per second over all batches and in the best batch of each.
"""
from __future__ import annotations

import argparse
import importlib
import os
import io
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

from rich.console import Console
from rich.table import Table

ROOT = Path(__file__).resolve().parent.parent


def package_at(rev: str, into: Path, name: str) -> None:
    """The interpreter package of git revision rev, as package `name` under into."""
    try:
        data = subprocess.run(["git", "archive", rev, "interpreter"], cwd=ROOT, check=True,
                              capture_output=True).stdout
    except subprocess.CalledProcessError as e:
        sys.exit(f"ab.py: git archive {rev}: {e.stderr.decode().strip()}")
    with tarfile.open(fileobj=io.BytesIO(data)) as tar:
        tar.extractall(into, filter="data")
    (into / "interpreter").rename(into / name)


def stages(package: str) -> tuple:
    """The modules of load_ruleset and run_games in a revision's package: in their stage's folder
    (engine/ruleset.py, study/simulate.py), or, before issue 26, at the package's top."""
    try:
        return (importlib.import_module(f"{package}.engine.ruleset"),
                importlib.import_module(f"{package}.study.simulate"))
    except ModuleNotFoundError:
        return importlib.import_module(f"{package}.engine"), importlib.import_module(f"{package}.simulate")


def pair(rev: str, batches: int = 40, games: int = 100, players: int = 4, tiles=(), seen: bool = False) -> dict:
    """Games per second of the engine at git revision rev and of the working tree's, batches of
    `games` games alternating in one process (the first of the pair changes every batch), both on
    the working tree's rule files: {label: (games/s over all batches, games/s in the best batch)},
    the revision's label first. The games are run_games's; seen: play()'s, which keep who knows
    which card as a game played at a table does (run_games plays blind since issue 28)."""
    tmp = Path(tempfile.mkdtemp(prefix="jux-ab-"))
    # no compile cache: a package imported under another name cannot key it (compiled.py's
    # relative import of the version), and both sides compile the same rule files anyway
    os.environ["JUX_CACHE"] = "off"
    try:
        package_at(rev, tmp, "interpreter_then")
        shutil.copytree(ROOT / "interpreter", tmp / "interpreter_now",
                        ignore=shutil.ignore_patterns("__pycache__"))
        for data in ("rules", "variants"):  # found beside each package, as in a checkout
            (tmp / data).symlink_to(ROOT / data, target_is_directory=True)
        sys.path.insert(0, str(tmp))
        sides = {}
        for label, name in ((rev, "interpreter_then"), ("working tree", "interpreter_now")):
            engine, simulate = stages(name)
            rules = engine.load_ruleset("capital_jux", list(tiles))
            for _ in simulate.run_games(rules, players, range(20), ["random"]):
                pass  # warm up
            sides[label] = (rules, simulate)
        total = dict.fromkeys(sides, 0.0)
        best = dict.fromkeys(sides, float("inf"))
        order = list(sides)
        for b in range(batches):
            seeds = range(1000 + b * games, 1000 + (b + 1) * games)
            for label in (order if b % 2 else order[::-1]):
                rules, simulate = sides[label]
                t = time.process_time()
                if seen:
                    bots = [simulate.bot_factory("random")] * players
                    for seed in seeds:
                        simulate.play(rules, players, seed, bots)
                else:
                    for _ in simulate.run_games(rules, players, seeds, ["random"]):
                        pass
                dt = time.process_time() - t
                total[label] += dt
                best[label] = min(best[label], dt)
    finally:
        sys.path.remove(str(tmp))
        for name in [m for m in sys.modules if m.split(".")[0] in ("interpreter_then", "interpreter_now")]:
            del sys.modules[name]
        shutil.rmtree(tmp, ignore_errors=True)
    return {label: (batches * games / total[label], games / best[label]) for label in sides}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("rev", help="a git revision to compare with the working tree, e.g. HEAD~3")
    ap.add_argument("--batches", type=int, default=40, help="batches each (default 40)")
    ap.add_argument("--games", type=int, default=100, help="games a batch (default 100)")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--tiles", default="", help="tiles to play with (default: the base game)")
    ap.add_argument("--seen", action="store_true",
                    help="play games that keep who knows which card (play(), not run_games's blind games)")
    args = ap.parse_args(argv)
    tiles = [t for t in args.tiles.split(",") if t]
    speeds = pair(args.rev, args.batches, args.games, args.players, tiles, args.seen)
    n = args.batches * args.games
    table = Table(title=f"{n} {args.players}-player random-bot games each, CPU time, alternating batches")
    table.add_column("engine")
    table.add_column("games/s, all batches", justify="right")
    table.add_column("games/s, best batch", justify="right")
    for label, (overall, best) in speeds.items():
        table.add_row(label, f"{overall:,.0f}", f"{best:,.0f}")
    Console().print(table)
    then, now = (overall for overall, _ in speeds.values())
    print(f"working tree: {100 * (now / then - 1):+.1f}% games per second against {args.rev}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
