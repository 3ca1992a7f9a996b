"""The same games before and after a change made for speed: a digest of many random-bot games.

Usage: python bench/same_games.py [--games N] [--write]

For each game of each set below (Capital Jux at 2, 3 and 4 players, with the four tiles
bench/targets.py measures, Guildhall, Bruges) it hashes the answers given, the scores and the state
the game ends in (its zones, counters, who knows each card, marks), played as `jux simulate` plays
them (autoplay with the bots' pick, the rules run direct); and a few games played with a log,
the log's lines too. One digest per set; compared with bench/same_games.json (written with
--write, from the engine before the change). tests/test_same_games.py checks the first games of
each set against the same file.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from jux.interpreter.engine.ruleset import load_ruleset  # noqa: E402
from jux.interpreter.study.simulate import play  # noqa: E402

STORED = Path(__file__).with_name("same_games.json")
TILES = ("infiltrator", "doomsayer", "aristocrat", "convertor")
# name -> (rules, tiles, players, bots, how many of --games: Guildhall and Bruges games are 10x longer)
SETS = {
    "capital_jux 2": ("capital_jux", (), 2, "random", 1),
    "capital_jux 3": ("capital_jux", (), 3, "random", 1),
    "capital_jux 4": ("capital_jux", (), 4, "random", 1),
    "capital_jux 4 tiles": ("capital_jux", TILES, 4, "random", 1),
    "capital_jux 3 tiles": ("capital_jux", TILES, 3, "random", 1),
    "guildhall 4": ("guildhall", (), 4, "random", 0.2),
    "bruges 4": ("bruges", (), 4, "random", 0.2),
    "bruges 2": ("bruges", (), 2, "random", 0.2),
    "capital_jux 3 greedy": ("capital_jux", (), 3, "greedy", 0.1),  # (decisions made, views read)
    "bruges 3 greedy": ("bruges", (), 3, "greedy", 0.02),
}
LOGGED = 3  # the first games of a set are also played with a log, hashed too


def game_digest(game, logged: bool = False) -> str:
    state = game.state.to_json()
    state.pop("threads")  # (empty at the end)
    parts = {"answers": game.answers, "scores": game.scores, "state": state}
    if logged:
        parts["log"] = [game.view(p)["log"] for p in range(game.state.n)]
    return hashlib.sha256(json.dumps(parts, sort_keys=True, default=str).encode()).hexdigest()


def set_digest(name: str, games: int) -> str:
    rules_name, tiles, players, bot, share = SETS[name]
    rules = load_ruleset(rules_name, list(tiles))
    h = hashlib.sha256()
    for seed in range(max(1, int(games * share))):
        h.update(game_digest(play(rules, players, seed, [bot] * players)).encode())
        if seed < LOGGED:
            h.update(game_digest(play(rules, players, seed, [bot] * players, log=True), True).encode())
    return h.hexdigest()


def digests(games: int, names=None) -> dict:
    return {name: set_digest(name, games) for name in (names or SETS)}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=300, help="games a set (Guildhall and Bruges: a fifth)")
    ap.add_argument("--write", action="store_true", help=f"store the digests in {STORED.name}")
    args = ap.parse_args(argv)
    got = digests(args.games)
    stored = json.loads(STORED.read_text()) if STORED.exists() else {}
    if args.write:
        stored[str(args.games)] = got
        STORED.write_text(json.dumps(stored, indent=1, sort_keys=True) + "\n")
        print(f"wrote {STORED.name} for {args.games} games a set")
        return 0
    want = stored.get(str(args.games))
    if want is None:
        print(f"no stored digests for {args.games} games a set (write them with --write before the change)")
        return 2
    bad = [name for name in got if want.get(name) != got[name]]
    for name in got:
        print(f"{name}: {'same' if name not in bad else 'DIFFERENT'}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
