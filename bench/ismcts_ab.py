"""Is ISMCTS searching faster than at other revisions? Iterations per CPU second, in one process.

Usage: python bench/ismcts_ab.py REV [REV ...] [--rounds N] [--iterations N] [--ruleset NAME] [--samples N]
                                 [--own-rules]

The interpreter package of each git revision and the working tree's are imported side by side (as
bench/ab.py does) and search, in turns, the 12 mid-game positions of bench/bots.py's speed probe
(4 players, seeds 1-3, after 8, 20, 40 and 60 random answers) with a budget of iterations; the
order of the sides changes every round, so all see the same machine. CPU time (process_time), not
the wall clock: the machine is shared. Prints iterations per CPU second over all rounds and in
the best round of each. With --samples N: N samples of the InfoSet at each position instead
(the part of an iteration that a change to bots/sample.py or the compiled rules' sample code moves;
with --instructions too, instructions a sample: a change to how a sample is dealt changes every
playout after it, which moves an iteration's count by a few percent either way).

Each side plays the working tree's rule files (what is compared is the engine), unless
--own-rules: then each revision plays its own revision's rules/ and variants/ (git archive of REV),
the working tree its own, so what is compared is the engine plus the rules. That is for revisions
whose engine cannot read today's rule files (older than a language feature the rules now use).

--instructions N: instead of CPU time, each side's instructions an iteration, counted by valgrind's
callgrind (repeatable to 0.01%, whatever the load) in a process of its own: a search of N
iterations at each of the first --positions positions (default 4), after a warm-up, the load's
objects frozen (gc.freeze), counted between two os.getppid() calls as bench/instructions.py does.
"""
from __future__ import annotations

import argparse
import importlib
import io
import os
import random
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from ab import ROOT, package_at  # noqa: E402


def rules_at(rev: str, into: Path) -> None:
    """rules/ and variants/ of git revision rev, under into (beside a package there, as in a checkout)."""
    try:
        data = subprocess.run(["git", "archive", rev, "rules", "variants"], cwd=ROOT, check=True,
                              capture_output=True).stdout
    except subprocess.CalledProcessError as e:
        sys.exit(f"ismcts_ab.py: git archive {rev} rules variants: {e.stderr.decode().strip()}")
    with tarfile.open(fileobj=io.BytesIO(data)) as tar:
        tar.extractall(into, filter="data")


def positions(pkg: str, ruleset: str) -> list:
    """The 12 positions of bench/bots.py search_speed, as (game, decision) of package pkg."""
    engine = importlib.import_module(f"{pkg}.engine.ruleset")
    game = importlib.import_module(f"{pkg}.engine.game")
    bots = importlib.import_module(f"{pkg}.bots")
    rules = engine.load_ruleset(ruleset)
    out = []
    for seed in (1, 2, 3):
        for steps in (8, 20, 40, 60):
            g = game.Game.new(rules, 4, seed, log=False)
            rng = random.Random(seed)
            for _ in range(steps):
                d = g.next_decision()
                d.answer(bots.make_bot("random", rng.randrange(1 << 30)).choose(None, d))
            out.append((g, g.next_decision()))
    return out


def one_round(pkg: str, places: list, iterations: int) -> tuple:
    """(iterations, CPU seconds) of an ismcts search of `iterations` at each position."""
    bots = importlib.import_module(f"{pkg}.bots")
    sample = importlib.import_module(f"{pkg}.bots.sample")
    its = 0
    spent = 0.0
    for g, d in places:
        # (depth=20: playouts of 20 decisions, the same work an iteration at every revision; since
        # stop 51 the default counts turns)
        b = bots.make_bot(f"ismcts:iterations={iterations}:depth=20", 1)
        t = time.process_time()
        b.choose(sample.InfoSet(g, d.player), d)
        spent += time.process_time() - t
        its += b.last_iterations
    return its, spent


def sample_round(pkg: str, places: list, n: int) -> tuple:
    """(samples, CPU seconds) of n samples (InfoSet.sample) at each position: the part of an
    iteration that issue 39 changed."""
    sample = importlib.import_module(f"{pkg}.bots.sample")
    spent = 0.0
    for g, d in places:
        info = sample.InfoSet(g, d.player)
        rng = random.Random(1)
        info.sample(rng)
        t = time.process_time()
        for _ in range(n):
            info.sample(rng)
        spent += time.process_time() - t
    return n * len(places), spent


COUNTED = """
import gc, os, sys
sys.path.insert(0, {home!r})
sys.path.insert(0, {bench!r})
import ismcts_ab
places = ismcts_ab.positions({pkg!r}, {ruleset!r})[:{n}]
ismcts_ab.one_round({pkg!r}, places[:2], 50)
gc.freeze()
os.getppid()
its, spent = ({samples} and ismcts_ab.sample_round({pkg!r}, places, {samples})
              or ismcts_ab.one_round({pkg!r}, places, {iterations}))
os.getppid()
print("iterations", its)
"""


def instructions(home: Path, pkg: str, ruleset: str, iterations: int, n: int, samples: int = 0) -> float:
    """Instructions an ISMCTS iteration of package pkg (in folder home), counted by callgrind; with
    samples, instructions a sample (InfoSet.sample) instead."""
    code = COUNTED.format(home=str(home), bench=str(ROOT / "bench"), pkg=pkg, ruleset=ruleset, n=n,
                          iterations=iterations, samples=samples)
    env = dict(os.environ, PYTHONHASHSEED="0", JUX_CACHE="off")
    out_file = home / "cg.out"
    out = subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out_file}",
                          "--dump-before=os_getppid", sys.executable, "-c", code],
                         cwd=home, capture_output=True, text=True, env=env)
    dump = Path(f"{out_file}.2")
    found = re.search(r"^summary:\s*(\d+)", dump.read_text(), re.M) if dump.exists() else None
    its = re.search(r"iterations (\d+)", out.stdout)
    if out.returncode or not found or not its:
        sys.exit(f"ismcts_ab.py: the search under callgrind failed:\n{out.stderr[-2000:]}")
    return int(found.group(1)) / int(its.group(1))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("revs", nargs="+", help="git revisions to compare with the working tree")
    ap.add_argument("--rounds", type=int, default=6)
    ap.add_argument("--iterations", type=int, default=300, help="a search's iterations (default 300)")
    ap.add_argument("--ruleset", default="capital_jux")
    ap.add_argument("--samples", type=int, default=0, help="time N samples a position instead of searches")
    ap.add_argument("--own-rules", action="store_true",
                    help="each revision plays its own rule files (engine plus rules compared)")
    ap.add_argument("--instructions", type=int, default=0, metavar="N",
                    help="count each side's instructions an iteration of N-iteration searches (callgrind)")
    ap.add_argument("--positions", type=int, default=4, help="positions searched with --instructions")
    a = ap.parse_args(argv)
    tmp = Path(tempfile.mkdtemp(prefix="jux-ismcts-ab-"))
    # a package imported here, out of jux, has no jux version to key the compile cache with
    os.environ["JUX_CACHE"] = "off"
    sides = {}
    try:
        # each side in a folder of its own, its rule files beside its package (where it looks for them)
        for i, rev in enumerate(a.revs):
            home = tmp / f"r{i}"
            home.mkdir()
            package_at(rev, home, f"interpreter_r{i}")
            if a.own_rules:
                rules_at(rev, home)
            sides[rev] = (home, f"interpreter_r{i}")
        now = tmp / "now"
        shutil.copytree(ROOT / "interpreter", now / "interpreter_now", ignore=shutil.ignore_patterns("__pycache__"))
        sides["working tree"] = (now, "interpreter_now")
        for home, _ in sides.values():
            for data in ("rules", "variants"):
                if not (home / data).exists():
                    (home / data).symlink_to(ROOT / data, target_is_directory=True)
            sys.path.insert(0, str(home))
        if a.instructions:
            if not shutil.which("valgrind"):
                sys.exit("ismcts_ab.py: --instructions needs valgrind")
            rules = "each its own revision's rules" if a.own_rules else "the working tree's rules"
            print(f"ismcts:iterations={a.instructions}:depth=20, the first {a.positions} positions of {a.ruleset}, "
                  f"callgrind, {rules}")
            first = None
            for label, (home, pkg) in sides.items():
                n = instructions(home, pkg, a.ruleset, a.instructions, a.positions, a.samples)
                first = first or n
                what = "a sample" if a.samples else "an iteration"
                print(f"  {label:>14}: {n:11,.0f} instructions {what} ({first / n:.3f}x the first)")
            return 0
        sides = {label: pkg for label, (_, pkg) in sides.items()}
        places = {label: positions(pkg, a.ruleset) for label, pkg in sides.items()}
        for label, pkg in sides.items():
            one_round(pkg, places[label][:2], 50)  # warm up
        total = {label: [0, 0.0] for label in sides}
        best = dict.fromkeys(sides, 0.0)
        order = list(sides)
        for r in range(a.rounds):
            for label in (order if r % 2 else order[::-1]):
                its, spent = (sample_round(sides[label], places[label], a.samples) if a.samples else
                              one_round(sides[label], places[label], a.iterations))
                total[label][0] += its
                total[label][1] += spent
                best[label] = max(best[label], its / spent)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    what = f"{a.samples} samples" if a.samples else f"ismcts:iterations={a.iterations}:depth=20"
    unit = "samples" if a.samples else "iterations"
    rules = "each its own revision's rules" if a.own_rules else "the working tree's rules"
    print(f"{what}, 12 positions of {a.ruleset}, {a.rounds} rounds, CPU time, {rules}")
    for label in sides:
        its, spent = total[label]
        print(f"  {label:>14}: {its / spent:7.0f} {unit} per CPU second (best round {best[label]:.0f})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
