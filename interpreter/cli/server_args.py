"""The parsers of `jux serve`, `jux host`, `jux tables` and `jux join` (main.py adds each with one call). Only
argparse here: the commands themselves (cli/serve.py, websockets, the engine) are imported when
one runs, so `jux --version` and `jux --help` import none of them."""
from __future__ import annotations

import argparse

from .parsing import shown, whole_number, zero_or_more

DEFAULT_URL = "ws://127.0.0.1:8765"


def _run(name: str, module: str = "serve"):
    """The command `name` of cli/serve.py (or of another module of cli/), imported when it runs."""
    def run(args) -> int:
        from importlib import import_module

        return getattr(import_module(f"{__package__}.{module}"), name)(args)
    return run


def _port(text: str) -> int:
    try:
        v = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{shown(text)}' is not a port number") from None
    if not 0 <= v <= 65535:
        raise argparse.ArgumentTypeError(f"'{shown(text)}' is not a port number (0 to 65535)")
    return v


def _seconds(text: str) -> float:
    try:
        v = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{shown(text)}' is not a number of seconds") from None
    if not 0 < v <= 86400:
        raise argparse.ArgumentTypeError(f"'{shown(text)}' must be more than 0 and at most 86400 seconds")
    return v


def add_serve(sub) -> None:
    p = sub.add_parser("serve", help="serve tables for remote play (websockets)",
                       description="Serve games for players on other machines (docs/protocol.md). Tables are "
                                   "kept in DATA/jux.sqlite and come back after a restart.")
    p.add_argument("--host", default="127.0.0.1", help="the address to listen on (default 127.0.0.1)")
    p.add_argument("--port", type=_port, default=8765, help="the port (default 8765; 0: any free port)")
    p.add_argument("--data", metavar="DIR", help="the folder of jux.sqlite (default: the user's data folder)")
    p.add_argument("--rules", action="append", metavar="PATH",
                   help="also serve this ruleset (a folder or its game.yaml); repeat for more")
    p.add_argument("--sync", choices=["full", "normal"], default="full",
                   help="full (default): each answer is on the disk before it is acknowledged; normal: faster, "
                        "safe when the server is killed but not when the machine crashes")
    p.add_argument("--certfile", metavar="PEM", help="serve over TLS (wss://) with this certificate chain")
    p.add_argument("--keyfile", metavar="PEM", help="the certificate's private key (with --certfile)")
    p.add_argument("--web", action="store_true",
                   help="also serve the terminal UI as a web page: a player opens http://WEB-HOST:WEB-PORT/join/CODE "
                        "in a browser, without jux")
    p.add_argument("--web-host", default="127.0.0.1", help="the web page's address (default 127.0.0.1)")
    p.add_argument("--web-port", type=_port, default=8000, help="the web page's port (default 8000; 0: any free port)")
    _add_limits(p)
    p.set_defaults(func=_run("cmd_serve"))


def _add_limits(p) -> None:
    """`jux serve`'s limits (interpreter/server/limits.py; docs/protocol.md, "Limits")."""
    from ..server.limits import Limits

    d = Limits()
    p.add_argument("--max-per-table", type=zero_or_more, default=d.per_table, metavar="N",
                   help=f"connections one table takes, seats and spectators (default {d.per_table}; 0: no cap)")
    p.add_argument("--max-per-code", type=zero_or_more, default=d.per_code, metavar="N",
                   help=f"connections on one seat's code (default {d.per_code}; 0: no cap)")
    p.add_argument("--max-per-address", type=zero_or_more, default=d.per_address, metavar="N",
                   help=f"connections from one IP address (default {d.per_address}; 0: no cap; behind a reverse "
                        "proxy every connection is the proxy's)")
    p.add_argument("--joins-per-second", type=zero_or_more, default=int(d.joins), metavar="N",
                   help=f"spectators joining one table a second (default {d.joins:g}; 0: no cap)")
    p.add_argument("--ping-timeout", type=_seconds, default=d.ping, metavar="SECONDS",
                   help=f"a connection that leaves a ping unanswered this long is dropped (default {d.ping:g}; "
                        "a ping every half of it)")
    p.add_argument("--keep-over", type=_seconds, default=d.keep_over, metavar="SECONDS",
                   help=f"how long a finished game's codes still show its end (default {d.keep_over:g})")


def add_host(sub) -> None:
    p = sub.add_parser("host", help="make a table on a server; prints its invitation codes",
                       description="Make a table on a jux server: one invitation code per human seat (whoever "
                                   "holds it plays that seat) and the table's spectator code.")
    p.add_argument("ruleset", metavar="RULESET", help="a ruleset the server serves (jux rules lists jux's own)")
    p.add_argument("--server", default=DEFAULT_URL, metavar="URL", help=f"the server (default {DEFAULT_URL})")
    p.add_argument("--tiles", "-t", metavar="A,B,...", help="variants to play with, separated by commas")
    p.add_argument("--players", "-p", type=whole_number, help="number of players (default: as many as --seat)")
    p.add_argument("--seat", action="append", metavar="human|BOT",
                   help="who plays the next seat: human or a bot (repeat per seat; default: seat 1 human, "
                        "the others random)")
    p.add_argument("--name", action="append", metavar="NAME", help="the next seat's name (repeat per seat)")
    p.add_argument("--timer", type=_seconds, metavar="SECONDS",
                   help="a turn timer: a decision not answered in time is answered by a stand-in bot")
    p.add_argument("--away", type=_seconds, metavar="SECONDS",
                   help="a seat without a connection for longer is played by a stand-in bot until it comes back")
    p.add_argument("--stand-in", metavar="BOT", help="the stand-in bot (default greedy)")
    p.set_defaults(func=_run("cmd_host"))


def add_tables(sub) -> None:
    p = sub.add_parser("tables", help="list a server's open tables",
                       description="List the tables of a jux server that are not over.")
    p.add_argument("--server", default=DEFAULT_URL, metavar="URL", help=f"the server (default {DEFAULT_URL})")
    p.set_defaults(func=_run("cmd_tables"))


def add_join(sub) -> None:
    p = sub.add_parser("join", help="play a seat of a server's table (its invitation code)",
                       description="Join a table of a jux server with a seat's invitation code (jux host prints "
                                   "them) and play it in the terminal UI, or watch the game with the table's spectator "
                                   "code. A dropped connection comes back by itself; the same code joins again after "
                                   "the terminal is closed.")
    p.add_argument("code", metavar="CODE", nargs="?",
                   help="the seat's invitation code, or the spectator code (default: the environment variable JUX_CODE)")
    p.add_argument("--server", default=DEFAULT_URL, metavar="URL", help=f"the server (default {DEFAULT_URL})")
    p.add_argument("--rules", metavar="PATH",
                   help="the table's ruleset, when it is not one of jux's own (the server's --rules PATH)")
    p.set_defaults(func=_run("cmd_join", "join"))
