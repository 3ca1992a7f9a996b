"""How fast jux starts: `jux --version` and `jux validate PATH`, each in fresh processes.

Usage: python bench/startup.py [REV] [-n N] [--path PATH] [--instructions]

Without REV: best and median wall time of N fresh processes of the working tree's jux. With REV
(a git revision): the paired comparison. The revision's packages are taken out of git beside a
copy of the working tree's (both imported from a folder on PYTHONPATH, in the same layout), and
runs alternate between the two, N each, so both see the same machine from one minute to the next.
Each side validates its own rule files (what `jux validate` took on that day); --same-files: both
validate REV's (the engines compared on the same work). Python's bytecode caches are written (a
first run each) and used, as an installed jux has them. With
--instructions: the instructions each process takes, counted by valgrind's callgrind (one run
each: the count does not swing as time does).
"""
from __future__ import annotations

import argparse
import io
import os
import re
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# What the `jux` script does (pip writes it so): import the command line's main and run it.
LAUNCH = "import sys\nfrom {module} import main\nsys.argv[0] = 'jux'\nsys.exit(main())\n"


class Tree:
    """A version of jux to start: the folder put on PYTHONPATH (None: the installed jux), the
    module of its command line, and the folder its rule paths are relative to."""

    def __init__(self, path: Path | None = None, module: str = "jux.interpreter.cli.main", root: Path = ROOT):
        self.path, self.module, self.root = path, module, root

    def command(self, *args: str) -> tuple[list, dict]:
        env = dict(os.environ)
        if self.path is not None:
            env["PYTHONPATH"] = str(self.path)
        env.pop("JUX_DEBUG", None)
        env.pop("PYTHONDONTWRITEBYTECODE", None)  # (an installed jux has its bytecode cached: so here)
        return [sys.executable, "-c", LAUNCH.format(module=self.module), *args], env


def _run(tree: Tree, args: tuple) -> tuple[float, float]:
    """Wall and CPU seconds (user + system) of one fresh process of jux with args."""
    cmd, env = tree.command(*args)
    t = time.perf_counter()
    p = subprocess.Popen(cmd, cwd=tree.root, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    err = p.stderr.read()
    _, status, usage = os.wait4(p.pid, 0)
    wall = time.perf_counter() - t
    p.returncode = os.waitstatus_to_exitcode(status)
    if p.returncode not in (0, 1) or b"Traceback" in err or b"internal error" in err:
        sys.exit(f"startup.py: jux {' '.join(args)} failed ({p.returncode}):\n{err.decode()[-2000:]}")
    return wall, usage.ru_utime + usage.ru_stime


def _summary(times: list) -> tuple[float, float]:
    return min(times), statistics.median(times)


def version_seconds(n: int = 20, tree: Tree | None = None) -> tuple[float, float]:
    """Best and median wall seconds of n fresh `jux --version` processes."""
    tree = tree or Tree()
    return _summary([_run(tree, ("--version",))[0] for _ in range(n)])


def validate_seconds(path: str = "rules/capital_jux", n: int = 20, tree: Tree | None = None) -> tuple[float, float]:
    """Best and median wall seconds of n fresh `jux validate PATH` processes."""
    tree = tree or Tree()
    return _summary([_run(tree, ("validate", path))[0] for _ in range(n)])


def tree_at(rev: str, into: Path) -> Tree:
    """Git revision rev's jux, unpacked under into in the layout of an installed package."""
    parts = [p for p in ("jux", "interpreter", "tui", "rules", "variants")
             if subprocess.run(["git", "cat-file", "-e", f"{rev}:{p}"], cwd=ROOT, capture_output=True).returncode == 0]
    try:
        data = subprocess.run(["git", "archive", rev, *parts], cwd=ROOT, check=True, capture_output=True).stdout
    except subprocess.CalledProcessError as e:
        sys.exit(f"startup.py: git archive {rev}: {e.stderr.decode().strip()}")
    with tarfile.open(fileobj=io.BytesIO(data)) as tar:
        tar.extractall(into, filter="data")
    if "jux" not in parts:  # (before the package was named jux: `interpreter` at the top, rules beside it)
        return Tree(into, "interpreter.cli", into)
    for p in parts[1:]:
        (into / p).rename(into / "jux" / p)
    return Tree(into, root=into / "jux")


def working_tree(into: Path) -> Tree:
    """The working tree's jux in the same layout (linked, not copied: edits since are seen)."""
    (into / "jux").mkdir(parents=True)
    for f in (ROOT / "jux").iterdir():
        if f.suffix == ".py":
            (into / "jux" / f.name).symlink_to(f)
    for p in ("interpreter", "tui", "rules", "variants"):
        (into / "jux" / p).symlink_to(ROOT / p, target_is_directory=True)
    return Tree(into, root=ROOT)


def paired(trees: dict, args: tuple, n: int) -> dict:
    """Runs of each tree, alternating (the order swapped every round), after a warm-up run each
    (which writes the bytecode caches): {label: (wall times, cpu times)}."""
    out = {label: ([], []) for label in trees}
    for tree in trees.values():
        _run(tree, args)
    labels = list(trees)
    for i in range(n):
        for label in (labels if i % 2 == 0 else labels[::-1]):
            wall, cpu = _run(trees[label], args)
            out[label][0].append(wall)
            out[label][1].append(cpu)
    return out


def instructions(tree: Tree, args: tuple) -> int | None:
    """Instructions of one fresh process (callgrind), or None without valgrind."""
    if not shutil.which("valgrind"):
        return None
    cmd, env = tree.command(*args)
    p = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", *cmd], cwd=tree.root,
                       env=env, capture_output=True, text=True)
    found = re.search(r"Collected\s*:\s*(\d+)", p.stderr)
    return int(found.group(1)) if found else None


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("rev", nargs="?", help="a git revision to compare with the working tree, e.g. 6915caf")
    ap.add_argument("-n", type=int, default=20, help="fresh processes of each kind, each side (default 20)")
    ap.add_argument("--path", action="append",
                    help="what to validate, relative to each side's checkout (repeatable; default rules/capital_jux)")
    ap.add_argument("--same-files", action="store_true", help="both sides validate REV's rule files")
    ap.add_argument("--instructions", action="store_true", help="also count instructions (valgrind)")
    args = ap.parse_args(argv)
    runs = [("--version",)] + [("validate", p) for p in args.path or ["rules/capital_jux"]]
    if args.rev is None:
        for run in runs:
            walls = paired({"now": Tree()}, run, args.n)["now"][0]
            print(f"jux {' '.join(run)}: best {min(walls) * 1e3:.1f} ms, median {statistics.median(walls) * 1e3:.1f} ms "
                  f"({args.n} fresh processes)")
        return 0
    tmp = Path(tempfile.mkdtemp(prefix="jux-startup-"))
    try:
        trees = {args.rev: tree_at(args.rev, tmp / "then"), "working tree": working_tree(tmp / "now")}
        if args.same_files:  # (paths are relative to REV's checkout for both)
            trees["working tree"].root = trees[args.rev].root
        print(f"paired: {args.n} fresh processes each, alternating; wall (CPU) milliseconds")
        for run in runs:
            got = paired(trees, run, args.n)
            (tw, tc), (nw, nc) = got[args.rev], got["working tree"]
            print(f"jux {' '.join(run)}")
            for label, (w, c) in got.items():
                print(f"  {label:>14}: best {min(w) * 1e3:6.1f} ({min(c) * 1e3:6.1f}), "
                      f"median {statistics.median(w) * 1e3:6.1f} ({statistics.median(c) * 1e3:6.1f})")
            print(f"  {'now / then':>14}: best {min(nw) / min(tw):.2f}x ({min(nc) / min(tc):.2f}x), "
                  f"median {statistics.median(nw) / statistics.median(tw):.2f}x "
                  f"({statistics.median(nc) / statistics.median(tc):.2f}x)")
            if args.instructions:
                counts = {label: instructions(tree, run) for label, tree in trees.items()}
                if None not in counts.values():
                    then, now = counts[args.rev], counts["working tree"]
                    print(f"  instructions: {then / 1e6:,.1f} M then, {now / 1e6:,.1f} M now ({now / then:.2f}x)")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
