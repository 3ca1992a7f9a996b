"""The figures issue 28 set targets for, as `make bench` reports them (bench/run.py): instructions a
game (callgrind), jux against the hand-written reference simulator (bench/reference.py), and the
start-up of `jux --version` and `jux validate` (bench/startup.py).

The issue measured jux at 0.34 of its own hand-written reference, which is not in the repository;
the engine it measured is ISSUE_ENGINE. bench/ab.py pairs that engine with the working tree's, so
the issue's ratio now is 0.34 times the speed-up (the reference's speed is the same in both)."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import ab  # noqa: E402
import instructions  # noqa: E402
import reference  # noqa: E402
import startup  # noqa: E402

TILES = ("infiltrator", "doomsayer", "aristocrat", "convertor")
ISSUE_ENGINE = "8a5c6d9"  # main when issue 28 was filed (the parent of its first commit, d6a83dd)
ISSUE_RATIO = 0.34  # jux / the issue's reference, as the issue measured it on ISSUE_ENGINE


def rows(quick: bool = False) -> list:
    """(measure, result) rows of the issue-28 figures, each with its target."""
    out = []
    base = instructions.per_game(games=20 if quick else 60)
    if base is None:
        out.append(("instructions a 4-player random-bot base game (callgrind)", "skipped: no valgrind"))
    else:
        tiled = instructions.per_game(tiles=TILES, games=5 if quick else 20)
        out.append(("instructions a 4-player random-bot base game, callgrind (target 4.30 M)",
                    f"{base / 1e6:.2f} M"))
        out.append((f"instructions a game with {', '.join(TILES)} (target 18.3 M)", f"{tiled / 1e6:.2f} M"))
    r = reference.ratio(batches=6 if quick else 20, games=50 if quick else 100, players=4)
    out.append(("random-bot base games per second, jux / bench/reference.py (stricter than the issue's "
                "reference, one function over plain ints and lists), paired in one process",
                f"{r['jux_games_per_second']:,.0f} / {r['reference_games_per_second']:,.0f} = {r['ratio']:.2f}"))
    for seen in (False, True):
        what = ("games that keep who knows which card, as at a table (play(), bench/ab.py --seen; "
                "no target)" if seen else "run_games, as bench/ab.py pairs runs (target 0.4)")
        try:
            speeds = ab.pair(ISSUE_ENGINE, batches=6 if quick else 20, games=50 if quick else 100, seen=seen)
        except SystemExit as e:  # (not a git checkout, or the revision is missing)
            out.append((f"jux against the engine issue 28 measured ({ISSUE_ENGINE})", f"skipped: {e}"))
            break
        (then, _), (now, _) = speeds.values()
        out.append((f"random-bot base games per second, jux against the engine issue 28 measured at "
                    f"{ISSUE_RATIO} of its reference ({ISSUE_ENGINE}), paired in one process; that ratio now: "
                    + what,
                    f"{now:,.0f} / {then:,.0f} = {now / then:.3f}x: {ISSUE_RATIO} x {now / then:.3f} = "
                    f"{ISSUE_RATIO * now / then:.2f}"))
    n = 5 if quick else 20
    best, median = startup.version_seconds(n)
    out.append((f"`jux --version`, fresh process, best (median) of {n} (target under 0.08 s)",
                f"{best * 1000:.0f} ms ({median * 1000:.0f})"))
    for path in ("rules/capital_jux", "variants/"):
        best, median = startup.validate_seconds(path, n)
        out.append((f"`jux validate {path}`, fresh process, best (median) of {n} (target: under the "
                    "engine of 2026-11-23, 6915caf: `python bench/startup.py 6915caf` pairs them)",
                    f"{best * 1000:.0f} ms ({median * 1000:.0f})"))
    return out
