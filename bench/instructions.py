"""Instructions a game, counted by valgrind's callgrind: repeatable where wall time is not.

Usage: python bench/instructions.py [--games N] [--players N] [--tiles a,b,c,d] [--rules NAME] [--seen]

Runs N random-bot games in a fresh process under callgrind, and a run of no games beside it (the
same imports, load and warm-up), and divides the difference by N. Prints nothing and exits 2 when
valgrind is not installed. The games are run_games's, played blind (nobody reads who knows which
card); with --seen, play()'s, which keep who knows which card as a game at a table does.
"""
from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

PROGRAM = """
import sys
from jux.interpreter.engine.ruleset import load_ruleset
from jux.interpreter.study.simulate import bot_factory, play, run_games
rules = load_ruleset({rules!r}, {tiles!r})
bots = [bot_factory("random")] * {players}

def games(seeds):
    if {seen!r}:
        for seed in seeds:
            play(rules, {players}, seed, bots)
    else:
        for _ in run_games(rules, {players}, seeds, ["random"]):
            pass

games(range(5))
games(range(100, 100 + {games}))
"""


def collected(rules: str, tiles: list[str], players: int, games: int, seen: bool = False) -> int:
    """Instructions callgrind counts for a process that plays `games` games (after its warm-up)."""
    code = PROGRAM.format(rules=rules, tiles=tiles, players=players, games=games, seen=seen)
    # the same string hashes, so the same count each run; no compile cache (a run that stores an
    # entry and one that reads it would count the difference as games)
    env = dict(os.environ, PYTHONHASHSEED="0", JUX_CACHE="off")
    out = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
                          sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, env=env)
    if out.returncode:
        sys.exit(f"instructions.py: the program under callgrind failed:\n{out.stderr[-2000:]}")
    found = re.search(r"Collected\s*:\s*(\d+)", out.stderr)
    if not found:
        sys.exit("instructions.py: callgrind printed no count")
    return int(found.group(1))


def per_game(rules: str = "capital_jux", tiles: tuple[str, ...] = (), players: int = 4,
             games: int = 60, seen: bool = False) -> float | None:
    """Instructions a game (seen: games that keep who knows which card), or None without valgrind."""
    if not shutil.which("valgrind"):
        return None
    base = collected(rules, list(tiles), players, 0, seen)
    return (collected(rules, list(tiles), players, games, seen) - base) / games


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=60)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--tiles", default="")
    ap.add_argument("--rules", default="capital_jux")
    ap.add_argument("--seen", action="store_true", help="games that keep who knows which card (play())")
    args = ap.parse_args(argv)
    tiles = tuple(t for t in args.tiles.split(",") if t)
    n = per_game(args.rules, tiles, args.players, args.games, args.seen)
    if n is None:
        print("instructions.py: valgrind is not installed", file=sys.stderr)
        return 2
    print(f"{n / 1e6:.3f} M instructions a game ({args.rules}, {args.players} players, "
          f"tiles: {', '.join(tiles) or 'none'}; {args.games} games, {'seen' if args.seen else 'blind'})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
