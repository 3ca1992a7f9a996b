"""`jux serve` (the game server), `jux host` (make a table on a server: its invitation codes) and
`jux tables` (a server's open tables). Each adds its parser with one call from main.py; websockets
and the engine are imported only when a command runs."""
from __future__ import annotations

import argparse

from ..errors import JuxError
from . import options

DEFAULT_URL = "ws://127.0.0.1:8765"


def _port(text: str) -> int:
    try:
        v = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{options.cut(text)}' is not a port number") from None
    if not 0 <= v <= 65535:
        raise argparse.ArgumentTypeError(f"'{options.cut(text)}' is not a port number (0 to 65535)")
    return v


def _count(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{options.cut(text)}' is not a whole number") from None


def _seconds(text: str) -> float:
    try:
        v = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{options.cut(text)}' is not a number of seconds") from None
    if not 0 < v <= 86400:
        raise argparse.ArgumentTypeError(f"'{options.cut(text)}' must be more than 0 and at most 86400 seconds")
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
    p.set_defaults(func=cmd_serve)


def add_host(sub) -> None:
    p = sub.add_parser("host", help="make a table on a server; prints its invitation codes",
                       description="Make a table on a jux server: one invitation code per human seat (whoever "
                                   "holds it plays that seat) and the table's spectator code.")
    p.add_argument("ruleset", metavar="RULESET", help="a ruleset the server serves (jux rules lists jux's own)")
    p.add_argument("--server", default=DEFAULT_URL, metavar="URL", help=f"the server (default {DEFAULT_URL})")
    p.add_argument("--tiles", "-t", metavar="A,B,...", help="variants to play with, separated by commas")
    p.add_argument("--players", "-p", type=_count, help="number of players (default: as many as --seat)")
    p.add_argument("--seat", action="append", metavar="human|BOT",
                   help="who plays the next seat: human or a bot (repeat per seat; default: seat 1 human, "
                        "the others random)")
    p.add_argument("--name", action="append", metavar="NAME", help="the next seat's name (repeat per seat)")
    p.add_argument("--timer", type=_seconds, metavar="SECONDS",
                   help="a turn timer: a decision not answered in time is answered by a stand-in bot")
    p.add_argument("--away", type=_seconds, metavar="SECONDS",
                   help="a seat without a connection for longer is played by a stand-in bot until it comes back")
    p.add_argument("--stand-in", metavar="BOT", help="the stand-in bot (default greedy)")
    p.set_defaults(func=cmd_host)


def add_tables(sub) -> None:
    p = sub.add_parser("tables", help="list a server's open tables",
                       description="List the tables of a jux server that are not over.")
    p.add_argument("--server", default=DEFAULT_URL, metavar="URL", help=f"the server (default {DEFAULT_URL})")
    p.set_defaults(func=cmd_tables)


def cmd_serve(args) -> int:
    import asyncio
    from pathlib import Path

    from ..server.app import log, serve
    from ..server.store import Store, StoreError, default_folder

    if bool(args.certfile) != bool(args.keyfile):
        raise JuxError("serve: --certfile and --keyfile go together")
    ssl_context = None
    if args.certfile:
        import ssl

        ssl_context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        try:
            ssl_context.load_cert_chain(args.certfile, args.keyfile)
        except (OSError, ssl.SSLError) as e:
            raise JuxError(f"serve: cannot use {args.certfile} and {args.keyfile}: {e}") from None
    folder = Path(args.data) if args.data else default_folder()
    try:
        store = Store(folder, synchronous=args.sync.upper())
    except StoreError as e:
        raise JuxError(str(e)) from None
    scheme = "wss" if ssl_context else "ws"

    def ready(port, back, _server):
        log(f"listening on {scheme}://{args.host}:{port} (tables in {store.path}; {back} brought back)")

    try:
        asyncio.run(serve(store, args.host, args.port, args.rules or (), ready=ready, ssl=ssl_context))
    except OSError as e:
        raise JuxError(f"serve: cannot listen on {args.host}:{args.port}: {e.strerror or e}") from None
    finally:
        store.close()
    return 0


def cmd_host(args) -> int:
    from ..server.client import request

    kinds = [k.strip() for k in (args.seat or [])]
    names = list(args.name or [])
    players = args.players if args.players is not None else max(len(kinds), len(names), 1)
    if len(kinds) > players or len(names) > players:
        raise JuxError("host: more --seat or --name options than the players")
    if not kinds:
        kinds = ["human"]
    kinds += ["random"] * (players - len(kinds))
    fields = {"ruleset": args.ruleset, "players": players, "seats": kinds}
    if args.tiles:
        fields["tiles"] = [t.strip() for t in args.tiles.split(",") if t.strip()]
    if names:
        names += [f"Player {i + 1}" for i in range(len(names), players)]
        fields["names"] = names
    for key in ("timer", "away", "stand_in"):
        if getattr(args, key) is not None:
            fields[key] = getattr(args, key)
    reply = request(args.server, "create", "created", **fields)
    print(f"table {reply.get('table')} on {args.server}")
    for seat, code in sorted((reply.get("codes") or {}).items(), key=lambda kv: int(kv[0])):
        who = names[int(seat)] if names else f"Player {int(seat) + 1}"
        print(f"  seat {seat} ({who}): {code}")
    print(f"  spectators: {reply.get('spectate')}")
    print("Each code is shown only now: give each player theirs (whoever holds a code plays that seat).")
    return 0


def cmd_tables(args) -> int:
    from ..server.client import request

    reply = request(args.server, "tables", "tables")
    tables = reply.get("tables") or []
    if not tables:
        print(f"no open tables on {args.server}")
        return 0
    for t in tables:
        seats = ", ".join(f"{s.get('name')}{' (bot)' if s.get('bot') else ''}" for s in t.get("seats") or [])
        tiles = f" with {', '.join(t['tiles'])}" if t.get("tiles") else ""
        free = len(t.get("free") or [])
        print(f"{t.get('table')}  {t.get('ruleset')}{tiles}  {t.get('state')}  {free} seat{'s' if free != 1 else ''} "
              f"free  {t.get('answers')} answers  [{seats}]")
    return 0


__all__ = ["add_serve", "add_host", "add_tables", "cmd_serve", "cmd_host", "cmd_tables"]
