"""Command-line values checked before anything runs: each out of its range (or nan, inf) is one
line naming the option (a value like --games 10**12 or --workers 10**6 would never end, or take
the machine). The bounds are listed in docs/bad-input.md."""
from __future__ import annotations

import os

from ..errors import JuxError

MAX_GAMES = 500_000  # games of one run (more: several runs, each from its own --seed)
SEED_BOUNDS = "from -2**63 to 2**63 - 1"


def cut(text: str, most: int = 40) -> str:
    """text, or its start when it is long (a value repeated in a message)."""
    return text if len(text) <= most else f"{text[:most]}… ({len(text):,} characters)"


def bounded(option: str, value, lo, hi, what: str = "a whole number", bounds: str = "") -> None:
    """JuxError unless lo <= value <= hi (a float also finite); None is left to the default."""
    if value is None:
        return
    if value != value or not lo <= value <= hi:  # (NaN compares false)
        raise JuxError(f"{option} must be {what} {bounds or f'from {lo:,} to {hi:,}'}, not {cut(str(value))}")


def check_seed(seed) -> None:
    from ..engine.records import NEW_SEED

    bounded("--seed", seed, -NEW_SEED, NEW_SEED - 1, bounds=SEED_BOUNDS)


def check_run(args) -> None:
    """--seed and --cluster-timeout of simulate and balance."""
    check_seed(args.seed)
    bounded("--cluster-timeout", args.cluster_timeout, 0.1, 3600, "a number of seconds")


def check_workers(workers: int) -> int:
    """--workers: 1 to 4 per core (at least 8)."""
    if workers < 1:
        raise JuxError("--workers must be 1 or more")
    most = max(8, 4 * (os.cpu_count() or 1))
    if workers > most:
        raise JuxError(f"--workers must be at most {most} on this machine (4 per core), not {cut(str(workers))}")
    return workers


def check_names(names: list) -> None:
    """--name: 1 to MAX_NAME printable characters (what a record may hold)."""
    from ..engine.records import MAX_NAME

    if any(not n.strip() or len(n) > MAX_NAME or not n.isprintable() for n in names):
        raise JuxError(f"--name: a name has 1 to {MAX_NAME} printable characters")


def players_default(rules) -> int:
    return min(rules.max_players, max(rules.min_players, 4))


def players(args, rules) -> int:
    """--players (default: 4 if the ruleset allows), checked against the ruleset."""
    players = args.players if args.players is not None else players_default(rules)
    if not rules.min_players <= players <= rules.max_players:
        raise JuxError(f"{rules.name} is for {rules.min_players} to {rules.max_players} players, not {players}")
    return players


def workers(args) -> int:
    """--workers (default: one per core)."""
    from ..study.parallel import default_workers

    return check_workers(args.workers if args.workers is not None else default_workers())


def tiles(args) -> list:
    """The --tiles names, or [] (none: the ruleset without variants)."""
    text = getattr(args, "tiles", None)
    if text is None:
        return []
    names = [t.strip() for t in str(text).split(",") if t.strip()]
    if not names:
        raise JuxError("--tiles: name at least one tile (see 'jux rules RULESET --tiles')")
    return names


def max_decisions(args) -> int:
    """--max-decisions: a game of a study past this many decisions ends unfinished."""
    from ..study.simulate import MAX_ANSWERS, MAX_DECISIONS

    value = getattr(args, "max_decisions", None)
    bounded("--max-decisions", value, 1, MAX_ANSWERS)
    return MAX_DECISIONS if value is None else value
