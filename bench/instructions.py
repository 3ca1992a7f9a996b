"""Instructions a game, counted by valgrind's callgrind: repeatable where wall time is not.

Usage: python bench/instructions.py [--games N] [--players N] [--tiles a,b,c,d] [--rules NAME] [--seen]

Runs N random-bot games in a fresh process under callgrind, after the imports, the load and a
warm-up of 5 games, and counts only the instructions of the N games: the program calls
os.getppid() just before and just after them, and callgrind dumps its counts at each call
(--dump-before=os_getppid), so the games are the second of three dumps. Divides by N, and prints
the decisions a game and instructions a decision too. Prints nothing and exits 2 when valgrind
is not installed. The games are run_games's, played blind (nobody reads who knows which card); with
--seen, play()'s, which keep who knows which card as a game at a table does.

Before issue 40 the count was two runs' difference (N games, and none); the load's own count
moves by about 1% from one process to the next (the addresses of objects differ, and with them
the order of sets and dicts keyed by them), which came to up to 0.3 M a game over 20 games. After
the warm-up the process's objects are frozen (gc.freeze()): a full pass of the cyclic garbage
collector over the load's objects (the rules' trees) costs millions of instructions, and whether
one fell within the games moved the count with edits that changed nothing in a game.
"""
from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

PROGRAM = """
import gc, os, sys
from jux.interpreter.engine.ruleset import load_ruleset
from jux.interpreter.study.simulate import bot_factory, play, run_games
rules = load_ruleset({rules!r}, {tiles!r})
bots = [bot_factory("random")] * {players}

def games(seeds):
    decisions = 0
    if {seen!r}:
        for seed in seeds:
            decisions += len(play(rules, {players}, seed, bots).answers)
    else:
        for result in run_games(rules, {players}, seeds, ["random"]):
            decisions += result.turns
    return decisions

games(range(5))
gc.freeze()  # (the load's objects out of the collector's passes: see the docstring)
os.getppid()  # (callgrind dumps its counts here and after the games)
decisions = games(range(100, 100 + {games}))
os.getppid()
print("decisions", decisions)
"""


def collected(rules: str, tiles: list[str], players: int, games: int, seen: bool = False) -> tuple[int, int]:
    """(instructions, decisions) of `games` games in a process under callgrind, after its warm-up."""
    code = PROGRAM.format(rules=rules, tiles=tiles, players=players, games=games, seen=seen)
    # the same string hashes each run; no compile cache (a run that stores an entry and one that
    # reads it differ)
    env = dict(os.environ, PYTHONHASHSEED="0", JUX_CACHE="off")
    with tempfile.TemporaryDirectory(prefix="jux-callgrind-") as tmp:
        out_file = Path(tmp) / "cg.out"
        out = subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out_file}",
                              "--dump-before=os_getppid", sys.executable, "-c", code],
                             cwd=ROOT, capture_output=True, text=True, env=env)
        if out.returncode:
            sys.exit(f"instructions.py: the program under callgrind failed:\n{out.stderr[-2000:]}")
        dump = Path(f"{out_file}.2")  # (.1: up to the first call, .2: the games, the file itself: the rest)
        found = re.search(r"^summary:\s*(\d+)", dump.read_text(), re.M) if dump.exists() else None
    said = re.search(r"decisions (\d+)", out.stdout)
    if not found or not said:
        sys.exit("instructions.py: callgrind gave no count of the games")
    return int(found.group(1)), int(said.group(1))


def measured(rules: str = "capital_jux", tiles: tuple[str, ...] = (), players: int = 4,
             games: int = 60, seen: bool = False) -> tuple[float, float] | None:
    """(instructions a game, decisions a game), or None without valgrind."""
    if not shutil.which("valgrind"):
        return None
    n, decisions = collected(rules, list(tiles), players, games, seen)
    return n / games, decisions / games


def per_game(rules: str = "capital_jux", tiles: tuple[str, ...] = (), players: int = 4,
             games: int = 60, seen: bool = False) -> float | None:
    """Instructions a game (seen: games that keep who knows which card), or None without valgrind."""
    got = measured(rules, tiles, players, games, seen)
    return None if got is None else got[0]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=60)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--tiles", default="")
    ap.add_argument("--rules", default="capital_jux")
    ap.add_argument("--seen", action="store_true", help="games that keep who knows which card (play())")
    args = ap.parse_args(argv)
    tiles = tuple(t for t in args.tiles.split(",") if t)
    got = measured(args.rules, tiles, args.players, args.games, args.seen)
    if got is None:
        print("instructions.py: valgrind is not installed", file=sys.stderr)
        return 2
    n, decisions = got
    print(f"{n / 1e6:.3f} M instructions a game ({args.rules}, {args.players} players, "
          f"tiles: {', '.join(tiles) or 'none'}; {args.games} games, {'seen' if args.seen else 'blind'}); "
          f"{decisions:.1f} decisions a game, {n / decisions:,.0f} instructions a decision")
    return 0


if __name__ == "__main__":
    sys.exit(main())
