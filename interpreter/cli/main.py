"""jux: play, check and study card games written as rules-as-data.

Usage:
  jux validate PATH...            check rule files (a ruleset folder or name, a file in one, or a
                                  folder of rulesets); prints ok or every error as path:line:col
  jux test PATH... [-k TEXT] [-x] [-q] [-v]
                                  run scenario files (a file, every *.yaml under a folder, or a
                                  ruleset's own scenarios/): each failure at its file:line:col
                                  with expected and actual
  jux simulate RULESET [--players N] [--games G] [--seed S] [--bots random,...]
               [--json OUT.json] [--csv OUT.csv] [--records DIR] [--quiet] [--workers N] [--resume]
               [--coverage [REPORT.md]]
                                  play G games between bots (game i uses seed S+i) on every core
                                  and summarize; --resume continues an interrupted run; --coverage
                                  says which lines of effect code ran, never ran, and forced chooses
  jux balance RULESET [--players N] [--games-per-combo G] [--tiles-grid all|FAMILY...] [--out DIR]
              [--workers N] [--resume]
                                  sweep tile combinations; a report of what each tile does
  jux replay RECORD.json [--viewer SEAT] [--rules RULESET] [--tiles FILE,...]
                                  replay a game record: the log, then the final scores
  jux rules [RULESET]             list the rulesets, or show one: text, components, powers
  jux play [RULESET] [--players N] [--seat human|BOT ...] [--name NAME ...] [--seed S]
           [--bot-delay SEC] [--load SAVE.json] [--print] [--server ws://HOST:PORT]
                                  play in the terminal UI (humans at one keyboard, bots);
                                  --print: random bots, printed as a log
  jux new game NAME | jux new tile NAME --game GAME
                                  write a minimal ruleset (with a passing scenario) or a tile
  jux schema [ruleset|scenario]   where the JSON Schemas of rule and scenario files are
  jux lsp [--stdio]                the language server for editors (over stdio): errors as you
                                  type, completion, hover, go to definition (docs/editors.md)
  jux --version

Seats are numbered from 0. Exit status: 0 ok, 1 error (a file, a record or a value jux cannot
use), 2 bad usage (an unknown option, a value of the wrong form: one line `jux: ...`), 130 and 143
stopped by Ctrl-C or SIGTERM. Set JUX_DEBUG=1 to see a Python traceback for an unexpected internal
error.

The commands live in one module each (validate.py, test.py, new.py, ...); what they print in console.py.
"""
from __future__ import annotations

import argparse
import os
import sys

from .console import PROG
from .parsing import Parser as _Parser, number as _number, unrecognized as _unrecognized, \
    whole_number as _int, zero_or_more as _nonneg_int
from .server_args import add_host, add_join, add_serve, add_tables


# Each command's module (and the engine it needs) is imported when the command runs, so `jux
# --version` and `jux --help` import none of them (tests/test_cli.py; docs/performance.md).

def cmd_validate(args) -> int:
    from .validate import cmd_validate as run

    return run(args)


def cmd_test(args) -> int:
    from .test import cmd_test as run

    return run(args)


def simulate(args) -> int:
    from ..study.stops import with_stops
    from .simulate import simulate as run

    return with_stops(run)(args)


def balance(args) -> int:
    from ..study.stops import with_stops
    from .balance import balance as run

    return with_stops(run)(args)


def cmd_replay(args) -> int:
    from .play import cmd_replay as run

    return run(args)


def cmd_rules(args) -> int:
    from .rules import cmd_rules as run

    return run(args)


def cmd_play(args) -> int:
    from .play import cmd_play as run

    return run(args)


def cmd_new(args) -> int:
    from .new import cmd_new as run

    return run(args)


def cmd_schema(args) -> int:
    from .new import cmd_schema as run

    return run(args)


def cmd_lsp(args) -> int:
    from .lsp import cmd_lsp as run

    return run(args)


def _version() -> str:
    """The version of jux (the package's own, not looked up in the installed distributions'
    metadata: importlib.metadata would double the time `jux --version` takes)."""
    from ... import __version__

    return __version__




TILES_HELP = ("variants to play with, by name or path, separated by commas: power tiles, at most one per "
              "colour; a colour not named gets its A tile (see 'jux rules RULESET --tiles')")


def _cluster_options(p) -> None:
    p.add_argument("--cluster", metavar="ADDRESS",
                   help="play on a Dask distributed cluster (its scheduler, e.g. tcp://host:8786) "
                        "instead of this machine's cores; needs pip install '.[cluster]'")
    p.add_argument("--cluster-timeout", type=_number, default=10.0, metavar="SECONDS",
                   help="how long to wait for the cluster's scheduler (default 10)")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog=PROG, description="jux: a rules-as-data engine for card games.",
        epilog="Run 'jux COMMAND --help' for a command's options.")
    parser.add_argument("--version", action="version", version=f"{PROG} {_version()}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    p = sub.add_parser("validate", help="check rule files; exit status 1 on any error",
                       description="Check rulesets: a ruleset folder or name, a rule file in one, or "
                                   "a folder of rulesets. Errors are printed as path:line:col: message.")
    p.add_argument("paths", nargs="+", metavar="PATH")
    p.add_argument("--tiles", "-t", metavar="A,B,...",
                   help="also check this combination of variants with each ruleset named")
    p.set_defaults(func=cmd_validate)

    p = sub.add_parser("test", help="run scenario files; exit status 1 when any fails",
                       description="Run scenario files (docs/testing.md): each file named, and every "
                                   "*.yaml under each folder named (rule files skipped); for a ruleset "
                                   "named (its folder or its game.yaml), the files of its scenarios/ "
                                   "folder. A failure is "
                                   "shown at the file:line:col of the expectation, with expected and actual.")
    p.add_argument("paths", nargs="+", metavar="PATH")
    p.add_argument("-k", metavar="TEXT", action="append",
                   help="run only the scenarios whose path or title holds TEXT (any case); "
                        "given again, those that hold any of them")
    p.add_argument("-x", "--exitfirst", action="store_true", help="stop at the first failure")
    p.add_argument("-q", "--quiet", action="store_true", help="dots only, and no game log under a failure")
    p.add_argument("-v", "--verbose", action="store_true", help="a line per file: PASSED, FAILED or XFAIL, and its title")
    p.set_defaults(func=cmd_test)

    p = sub.add_parser("simulate", help="play many games between bots and summarize them",
                       description="Play GAMES games between bots; game i uses seed SEED+i.")
    p.add_argument("ruleset", metavar="RULESET", help="a ruleset name (a folder under rules/) or path")
    p.add_argument("--players", "-p", type=_int, help="number of players (default: 4 if allowed)")
    p.add_argument("--games", "-n", type=_nonneg_int, default=100, help="number of games (default 100)")
    p.add_argument("--seed", "-s", type=_int, default=0, help="seed of the first game (default 0)")
    p.add_argument("--bots", "-b", default="random",
                   help="a bot for every seat, or one per seat separated by commas (default: random)")
    p.add_argument("--json", metavar="OUT.json", help="write the summary and every game's result")
    p.add_argument("--csv", metavar="OUT.csv", help="write one line per game")
    p.add_argument("--records", metavar="DIR", help="write each game's record as DIR/game-<seed>.json")
    p.add_argument("--quiet", "-q", action="store_true", help="no progress bar and no summary table")
    p.add_argument("--tiles", "-t", metavar="A,B,...", help=TILES_HELP)
    p.add_argument("--workers", "-w", type=_int, metavar="N",
                   help="processes playing games at once (default: one per core); the results do not depend on it")
    p.add_argument("--resume", action="store_true",
                   help="continue an interrupted run: keep the games in its --json file (or --records "
                        "folder), play the others")
    p.add_argument("--max-decisions", type=_int, metavar="N", default=None,
                   help="a game past N decisions ends unfinished: counted apart, in no win rate or "
                        "mean (default 10,000; the built-in games take at most about 630)")
    _cluster_options(p)
    p.add_argument("--coverage", nargs="?", const="-", metavar="REPORT.md",
                   help="count which lines of effect code run, how often, and which choose is never a "
                        "real choice: a summary here, or the whole report as Markdown in REPORT.md")
    p.set_defaults(func=simulate)

    p = sub.add_parser("balance", help="sweep power-tile combinations and report what each tile does",
                       description="Play GAMES games (the same seeds) with every combination of tiles, on "
                                   "every core, and write a report (Markdown and PNG charts) to --out.")
    p.add_argument("ruleset", metavar="RULESET", help="a ruleset name (a folder under rules/) or path")
    p.add_argument("--players", "-p", type=_int, help="number of players (default: 4 if allowed)")
    p.add_argument("--games-per-combo", "-n", type=_int, default=100, metavar="GAMES",
                   help="games per combination (default 100)")
    p.add_argument("--tiles-grid", nargs="+", default=["all"], metavar="all|FAMILY",
                   help="all combinations (default), or vary only the tiles of these families "
                        "(the other colours keep their A tile)")
    p.add_argument("--with", dest="extra", nargs="+", default=[], metavar="TILE.yaml",
                   help="tile files of your own, swept too, each beside the tiles of its colour")
    p.add_argument("--seed", "-s", type=_int, default=1, help="seed of the first game (default 1)")
    p.add_argument("--bots", "-b", default="random",
                   help="a bot for every seat, or one per seat separated by commas (default: random)")
    p.add_argument("--workers", "-w", type=_int, metavar="N", help="processes (default: one per core)")
    p.add_argument("--out", "-o", metavar="DIR",
                   help="folder for balance.json, report.md and the charts (default balance-RULESET-Np)")
    p.add_argument("--resume", action="store_true",
                   help="continue an interrupted sweep from its balance.json")
    p.add_argument("--quiet", "-q", action="store_true", help="no progress bar and no table")
    p.add_argument("--max-decisions", type=_int, metavar="N", default=None,
                   help="a game past N decisions ends unfinished: counted apart, in no win rate or "
                        "mean (default 10,000; the built-in games take at most about 630)")
    _cluster_options(p)
    p.set_defaults(func=balance)

    p = sub.add_parser("replay", help="replay a game record and print its log and result",
                       description="Replay a game record (or save) and print the log and the scores.")
    p.add_argument("record", metavar="RECORD.json")
    p.add_argument("--viewer", type=_int, metavar="SEAT",
                   help="print the log as this seat (from 0) may know it (default: everything)")
    p.add_argument("--rules", metavar="RULESET",
                   help="the ruleset to replay with (default: the one named in the record)")
    p.add_argument("--tiles", "-t", metavar="FILE,...",
                   help="variant files the record names by path (a record may name only jux's own "
                        "rulesets and variants, and files named on the command line)")
    p.set_defaults(func=cmd_replay)

    p = sub.add_parser("rules", help="list the rulesets, or show one",
                       description="With no argument, list the rulesets in rules/; with one, show its "
                                   "text, components and the text of its procedures.")
    p.add_argument("ruleset", nargs="?", metavar="RULESET")
    p.add_argument("--tiles", action="store_true",
                   help="list the ruleset's variants (power tiles) by slot, with their rule text")
    p.set_defaults(func=cmd_rules)

    p = sub.add_parser("play", help="play a game in the terminal UI, humans and bots",
                       description="Open the terminal UI. With no options it starts on the new-game "
                                   "screen; --players, --seat or --name start a game at once. Without "
                                   "a terminal (or with --print) it plays bots and prints the log: random ones, or those "
                                   "--seat names.")
    p.add_argument("ruleset", nargs="?", metavar="RULESET",
                   help="a ruleset name (jux rules lists them), or the path of a ruleset folder or its "
                        "game.yaml: the start screen opens on it (default: the first ruleset)")
    p.add_argument("--players", "-p", type=_int, help="number of players")
    p.add_argument("--seat", action="append", metavar="KIND",
                   help="who plays the next seat: human, bot, or a bot name (repeat per seat; "
                        "default: seat 1 human, the others bots)")
    p.add_argument("--name", action="append", metavar="NAME", help="the next seat's name (repeat per seat)")
    p.add_argument("--seed", "-s", type=_int)
    p.add_argument("--bot-delay", type=_number, default=0.4, metavar="SECONDS",
                   help="pause before each bot move, so it can be followed (default 0.4)")
    p.add_argument("--load", metavar="SAVE.json", help="continue a saved game")
    p.add_argument("--print", action="store_true",
                   help="no UI: play bots (random, or those --seat names) and print the game log and scores")
    p.add_argument("--max-decisions", type=_int, metavar="N", default=None,
                   help="with --print: stop a game past N decisions, unfinished (default 10,000)")
    p.add_argument("--tiles", "-t", metavar="A,B,...", help=TILES_HELP)
    p.add_argument("--server", metavar="URL",
                   help="play at a jux server (ws://HOST:PORT): the start screen hosts a table there (it shows "
                        "the invitation codes) or joins one with a code")
    p.set_defaults(func=cmd_play)

    p = sub.add_parser("new", help="write a new game (a ruleset with a scenario) or a new tile",
                       description="jux new game NAME: the folder NAME with game.yaml (a minimal game that "
                                   "validates and plays) and scenarios/NAME.yaml (a scenario that passes). "
                                   "jux new tile NAME --game GAME: NAME.yaml, a variant of GAME (a game's "
                                   "name, or the path of a ruleset) that changes nothing yet. Never overwrites.")
    p.add_argument("what", choices=["game", "tile"], metavar="game|tile")
    p.add_argument("name", metavar="NAME", help="the game's folder (its last part names the game), or the tile's file")
    p.add_argument("--game", "-g", metavar="GAME", help="the tile's game: a name (jux rules lists them) or a path")
    p.set_defaults(func=cmd_new)

    p = sub.add_parser("schema", help="print where the JSON Schemas of rule and scenario files are",
                       description="Print the paths of the JSON Schemas inside the installed package, for "
                                   "an editor's '# yaml-language-server: $schema=...' line.")
    p.add_argument("kind", nargs="?", choices=["ruleset", "scenario"], help="print only this schema's path")
    p.add_argument("--uri", action="store_true", help="as file:// URIs")
    p.set_defaults(func=cmd_schema)

    p = sub.add_parser("lsp", help="the language server for rule and variant files (for editors)",
                       description="Serve the Language Server Protocol over stdin/stdout for rule and "
                                   "variant files: the errors of 'jux validate' as you type, completion, "
                                   "hover and go to definition. See docs/editors.md.")
    p.add_argument("--stdio", action="store_true", help="talk over stdin/stdout (the default and only way)")
    p.set_defaults(func=cmd_lsp)
    add_serve(sub)
    add_host(sub)
    add_tables(sub)
    add_join(sub)
    return parser


def main(argv=None) -> int:
    parser = build_parser()
    args, extra = parser.parse_known_args(argv)
    if extra:
        _unrecognized(parser, args.command, extra)
    if not getattr(args, "func", None):
        parser.print_help(sys.stderr)
        return 2
    from .. import files
    from ..errors import JuxError
    from .console import err, print_error

    try:
        return args.func(args)
    except JuxError as e:
        print_error(e)
        return 1
    except OSError as e:
        if isinstance(e, BrokenPipeError):
            _silence_stdout()
            return 1
        where = f"{e.filename}: " if e.filename else ""
        err(f"{where}{e.strerror or e}")
        return 1
    except KeyboardInterrupt:
        err("interrupted")
        return 130
    except RecursionError:
        if os.environ.get("JUX_DEBUG"):
            raise
        err("internal error: too deep recursion")
        return 1
    except Exception as e:  # a bug in jux itself: still one line, unless debugging
        if os.environ.get("JUX_DEBUG"):
            raise
        err(f"internal error: {type(e).__name__}: {e} (set JUX_DEBUG=1 for details)")
        return 1
    finally:
        files.close_pipes()  # (a FIFO checked for output but not written: its reader sees the end)


def _silence_stdout() -> None:
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass


if __name__ == "__main__":
    sys.exit(main())
