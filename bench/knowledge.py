"""The same knowledge before and after a change to how moves keep who knows which card.

Usage: python bench/knowledge.py [--write] [--file PATH] [--quick]

Plays many random-bot games of many sets (Capital Jux at 2-4 players, the 16 tiles in four sets
at 3 and 4 players, Guildhall, Bruges, docs/examples, tests/data/blind_draft) three ways: direct
(as `jux simulate` runs the rules) and with state machines (as a table does), hashing every
seat's knowledge (S.k, S.loc) at every decision; and answered through decisions, hashing every
seat's view (with its log) and S.k at every decision. One digest per set and way; written with
--write from the engine before a change, compared after it (default file: bench/knowledge.json;
the rule files' own changes change it too). tests/test_knowledge_moves.py checks the moves
against the card-by-card rules on a few games of each shape, with no stored file.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from jux.interpreter.bots import seat_seed  # noqa: E402
from jux.interpreter.bots.random_bot import random_picker, seeded  # noqa: E402
from jux.interpreter.engine.game import Game  # noqa: E402
from jux.interpreter.engine.ruleset import load_ruleset  # noqa: E402

STORED = Path(__file__).with_name("knowledge.json")
TILE_SETS = (("infiltrator", "doomsayer", "aristocrat", "convertor"), ("agent", "mentalist", "dualist", "sentinel"),
             ("outsider", "cleric", "discoverer", "follower"), ("recruiter", "missionary", "scholar", "merchant"))
EXAMPLES = ("discard_pile", "keep", "low_tricks", "market_swap", "secret_bids", "strict")
# (rules, tiles, players, games direct)
SETS = ([("capital_jux", (), p, 60) for p in (2, 3, 4)]
        + [("capital_jux", t, 4, 25) for t in TILE_SETS] + [("capital_jux", t, 3, 15) for t in TILE_SETS]
        + [("guildhall", (), 4, 8), ("guildhall", (), 2, 8), ("bruges", (), 4, 8), ("bruges", (), 3, 8)]
        + [(f"docs/examples/{e}", (), p, 30) for e in EXAMPLES for p in (2, 3)]
        + [("docs/examples/banker.yaml", (), 3, 20), ("tests/data/blind_draft", (), 3, 20)])


def _rules(name, tiles):
    return load_ruleset(str(ROOT / name) if "/" in name else name, list(tiles))


def digest_direct(rules, players: int, games: int, direct: bool = True) -> str:
    """Every seat's knowledge and every card's zone at each decision, games answered by pick."""
    h = hashlib.sha256()
    for seed in range(games):
        try:
            game = Game.new(rules, players, seed, start=False)
        except Exception as e:  # (a set whose games cannot start: its error is its digest)
            h.update(repr(e).encode())
            continue
        picks = []
        for p in range(players):
            inner = random_picker(seeded(seat_seed(seed, p)).random)

            def pick(n, lo, hi, many, keys=None, inner=inner):
                S = game.state
                h.update(repr((S.k, S.loc)).encode())
                return inner(n, lo, hi, many, keys)
            picks.append(pick)
        try:
            game.autoplay(pick=picks, direct=direct, limit=3000)
        except Exception as e:
            h.update(repr(e).encode())
        h.update(repr((game.state.k, game.answers)).encode())
    return h.hexdigest()


def digest_views(rules, players: int, games: int) -> str:
    """Every seat's view (with its log) and S.k at each decision, games answered through decisions."""
    h = hashlib.sha256()
    for seed in range(games):
        game = Game.new(rules, players, seed, log=True, start=False)
        rngs = [random_picker(seeded(seat_seed(seed, p)).random) for p in range(players)]

        def answer(d, game=game, rngs=rngs):
            for p in range(players):
                h.update(json.dumps(game.view(p), sort_keys=True, default=repr).encode())
            h.update(repr(game.state.k).encode())
            return rngs[d.player](len(d.values), d.min, d.max, d.many, getattr(d, "keys", None))
        try:
            game.autoplay(answer, 3000)
        except Exception as e:
            h.update(repr(e).encode())
    return h.hexdigest()


def digests(quick: bool = False) -> dict:
    out = {}
    for name, tiles, players, games in SETS:
        if quick:
            games = max(1, games // 5)
        key = f"{name} {','.join(tiles)} {players}"
        try:
            rules = _rules(name, tiles)
        except Exception as e:
            out[key] = f"load error {type(e).__name__}"
            continue
        big = "guildhall" in name or "bruges" in name
        out[key + " direct"] = digest_direct(rules, players, games)
        out[key + " state-machine"] = digest_direct(rules, players, max(1, games // 5), direct=False)
        out[key + " views"] = digest_views(rules, players, max(1, games // (20 if big else 10)))
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--write", action="store_true", help="store the digests (from the engine before a change)")
    ap.add_argument("--file", type=Path, default=STORED)
    ap.add_argument("--quick", action="store_true", help="a fifth of the games")
    args = ap.parse_args(argv)
    out = digests(args.quick)
    if args.write:
        args.file.write_text(json.dumps(out, indent=1) + "\n")
        print(f"wrote {len(out)} digests to {args.file}")
        return 0
    want = json.loads(args.file.read_text())
    bad = [k for k in out if want.get(k) != out[k]]
    for k in bad:
        print("different:", k)
    print(f"{'different' if bad else 'same'}: {len(out) - len(bad)} of {len(out)} sets the same")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
