"""`jux play` (the terminal UI, or without a terminal a game printed as a log) and `jux replay`."""
from __future__ import annotations

import os
import sys

from . import options
from ..errors import JuxError
from .console import print_game


def _play_seats(args, rules) -> tuple:
    """(players, [(name, kind)]) from --players, --seat and --name; kind is 'human' or a bot spec."""
    from ..bots import bot_factory, bot_names

    kinds = list(args.seat or [])
    names = list(args.name or [])
    players = args.players if args.players is not None else (
        max(len(kinds), len(names)) or options.players_default(rules))
    if not rules.min_players <= players <= rules.max_players:
        raise JuxError(f"{rules.name} is for {rules.min_players} to {rules.max_players} players, not {players}")
    if len(kinds) > players or len(names) > players:
        raise JuxError(f"more --seat or --name options than the {players} players")
    first_bot = bot_names()[0] if bot_names() else "random"
    if not kinds:
        kinds = ["human"]
    kinds += [first_bot] * (players - len(kinds))
    kinds = [first_bot if k.strip().lower() == "bot" else k.strip() for k in kinds]
    for k in kinds:
        if k.lower() != "human":
            bot_factory(k)  # unknown bots and options are errors now, not in the middle of a game
    kinds = ["human" if k.lower() == "human" else k for k in kinds]
    names += [f"Player {i + 1}" for i in range(len(names), players)]
    if len(set(names)) != len(names):
        raise JuxError("give each seat its own --name")
    options.check_names(names)
    return players, list(zip(names, kinds))


def cmd_play(args) -> int:
    options.bounded("--bot-delay", args.bot_delay, 0, 60, "a number of seconds")
    options.check_seed(args.seed)
    if args.server is not None:
        _check_server(args)
    rules = None
    direct = args.players is not None or args.seat or args.name
    screen = not args.print and sys.stdout.isatty() and sys.stdin.isatty()
    # the start screen loads the ruleset itself, after its first frame: so it does with one named
    # here that the compile cache holds (it loads without an error); any other is loaded now
    later = screen and not direct and args.load is None and _compiled_before(args)
    if (args.ruleset or args.tiles or direct) and not later:
        # the engine (and its parser) is imported only here
        from ..engine.ruleset import load_ruleset

        rules = load_ruleset(args.ruleset, options.tiles(args))  # errors now, before the screen opens
    seats = None
    if direct:
        _, seats = _play_seats(args, rules)  # bad seats are errors with or without a terminal
    # files the user named: a save's ruleset and variant files may be among them (records.py)
    paths = [args.ruleset, *options.tiles(args)] if args.ruleset or args.tiles else []
    session = None
    if args.load is not None:  # a bad save is one line now, before the screen opens
        from ...tui.session import Session

        try:
            session = Session.load(args.load, [k for _, k in seats] if seats else None, paths=paths)
        except JuxError as e:
            if getattr(e, "missing", None) == "ruleset" and not args.ruleset:
                raise JuxError(f"{e} (jux play FOLDER --load {args.load})") from None
            raise
    if not screen:
        return _print_loaded_game(args, session.game) if session is not None else _print_bot_game(args)
    from ...tui import run
    from ...tui.rulesets import source_of, source_of_path

    # a ruleset named by path is played from that path (its name could be another, built-in, one)
    if rules is not None:
        ruleset, tiles = source_of(rules), list(rules.variants)
    elif later:
        from ..engine.keys import variant_names
        from ..reading.folders import ruleset_path

        ruleset, tiles = source_of_path(ruleset_path(_named(args))), list(variant_names(options.tiles(args)))
    else:
        ruleset, tiles = None, None
    return run(ruleset=ruleset, tiles=tiles, seats=seats, seed=args.seed, bot_delay=args.bot_delay,
               session=session, paths=paths, server=args.server)


def _named(args) -> str:
    """The ruleset `jux play` names: the one given, else the default."""
    from ..paths import default_ruleset

    return args.ruleset if args.ruleset else default_ruleset()


def _compiled_before(args) -> bool:
    """Whether the ruleset and tiles named (if any) load from the compile cache (engine/keys.py)."""
    if not (args.ruleset or args.tiles):
        return False
    from ..engine.keys import compiled_before

    try:
        return compiled_before(_named(args), options.tiles(args))
    except JuxError:
        return False


def _check_server(args) -> None:
    """--server: a server's address, for the start screen in a terminal (not with --load or --print)."""
    from ..server.client import _check_url

    _check_url(args.server)
    if args.load is not None or args.print:
        raise JuxError("play: --server does not go with --load or --print (a server's table is kept by the server)")
    if not (sys.stdout.isatty() and sys.stdin.isatty()):
        raise JuxError("play --server: the terminal UI needs a terminal")


def _print_loaded_game(args, game) -> int:
    """--load without a terminal (or with --print): the saved game played on by random bots."""
    import random

    from ..bots.random_bot import random_answer
    from ..study.simulate import MAX_ANSWERS

    loaded = len(game.answers)
    rnd = random.Random(game.seed).random
    if not game.over:
        game.autoplay(lambda d: random_answer(d, rnd), MAX_ANSWERS)
    print_game(game, f"{game.state.n} players, seed {game.seed}, loaded from {args.load} at answer {loaded}, "
                      f"then random bots")
    return 0


def _print_bot_game(args) -> int:
    """Without a terminal (or with --print): a game between bots, printed as a log: random bots,
    or the bots --seat names (a human seat is played by a random bot: nobody is there to ask). A
    game past --max-decisions stops unfinished: its log and scores so far, and exit status 1."""
    from ..engine.ruleset import load_ruleset
    from ..study.simulate import play

    rules = load_ruleset(args.ruleset, options.tiles(args))
    given = max(len(args.seat or []), len(args.name or []))
    players = options.players(args, rules) if args.players is not None or not given else given
    if not rules.min_players <= players <= rules.max_players:
        raise JuxError(f"{rules.name} is for {rules.min_players} to {rules.max_players} players, not {players}")
    most = options.max_decisions(args)
    kinds = [k.strip() for k in (args.seat or [])]
    if len(kinds) > players:
        raise JuxError(f"more --seat options than the {players} players")
    kinds = ["random" if k.lower() in ("human", "bot") else k for k in kinds]
    kinds += ["random"] * (players - len(kinds))
    seed = args.seed if args.seed is not None else int.from_bytes(os.urandom(4), "big") % 1_000_000
    game = play(rules, players, seed, kinds, log=True, max_answers=most, unfinished=True, direct=False,
                names=list(args.name) + [f"Player {i + 1}" for i in range(len(args.name), players)]
                if args.name else None)
    tiles = f" with {', '.join(_tile_names(rules))}" if rules.variants else ""
    who = f"{players} random bots" if set(kinds) == {"random"} else f"bots {', '.join(kinds)}"
    print_game(game, f"{who}, seed {seed}{tiles}")
    if not game.over:
        from .console import err

        err(f"the game was stopped unfinished after {len(game.answers):,} decisions (--max-decisions {most:,})")
        return 1
    return 0


def _tile_names(rules) -> list:
    """The tiles (slot-filling variants) a ruleset plays with, by name."""
    from ..reading.variants import catalogue

    cat = catalogue(rules.name)
    return [v for v in rules.variants if v not in cat or cat[v].fills]


def _tiles_of(record) -> str:
    """The --tiles a record's variants would need, as the command line takes them."""
    names = [v if isinstance(v, str) else str(v.get("name", "?")) if isinstance(v, dict) else "?"
             for v in record.get("variants") or ()]
    return f" --tiles {','.join(names)}" if names else ""


def cmd_replay(args) -> int:
    from ..engine.game import Game
    from ..engine.records import read_record
    from ..engine.ruleset import load_ruleset
    from ..errors import RecordError

    record = read_record(args.record)
    tiles = options.tiles(args)
    if args.rules:
        load_ruleset(args.rules)  # the rules' own errors, as path:line:col
    try:  # the record's ruleset and variant files: jux's catalogue, or the files named here
        game = Game.from_record(record, ruleset=args.rules, paths=[args.rules, *tiles])
    except RecordError as e:
        missing = getattr(e, "missing", None)
        how = (" (--rules FOLDER)" if missing == "ruleset" and not args.rules else
               f" (jux replay {args.record} --rules FOLDER{_tiles_of(record)})" if missing == "rule files" else "")
        raise JuxError(f"{args.record}: {e}{how}") from None
    n = game.state.n
    if args.viewer is not None and not 0 <= args.viewer < n:
        raise JuxError(f"--viewer must be a seat from 0 to {n - 1}")
    who = "" if args.viewer is None else f", as {game.names[args.viewer]} knows it"
    print_game(game, f"{n} players, seed {game.seed}, {len(game.answers)} answers{who}", args.viewer)
    return 0
