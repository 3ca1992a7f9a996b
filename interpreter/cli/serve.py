"""`jux serve` (the game server), `jux host` (make a table on a server: its invitation codes) and
`jux tables` (a server's open tables). Their parsers are in cli/server_args.py; websockets and the
engine are imported only when a command runs."""
from __future__ import annotations

from ..errors import JuxError


def cmd_serve(args) -> int:
    import asyncio
    from pathlib import Path

    from ..server.app import log, serve
    from ..server.limits import Limits
    from ..server.store import Store, StoreError, default_folder

    if args.web and args.certfile:
        raise JuxError("serve: --web serves plain http: put it behind a TLS reverse proxy rather than "
                       "--certfile (docs/protocol.md)")
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

    bound = []  # (the web page's future: the game server's port)

    def ready(port, back, _server):
        log(f"listening on {scheme}://{args.host}:{port} (tables in {store.path}; {back} brought back)")
        if bound:
            bound[0].set_result(port)

    async def run():
        limits = Limits(per_table=args.max_per_table, per_code=args.max_per_code, per_address=args.max_per_address,
                        joins=args.joins_per_second, ping=args.ping_timeout, keep_over=args.keep_over)
        game = asyncio.create_task(serve(store, args.host, args.port, args.rules or (), ready=ready, ssl=ssl_context,
                                         limits=limits))
        if not args.web:
            return await game
        from .web import serve_web

        bound.append(asyncio.get_running_loop().create_future())
        await serve_web(game, bound[0], args.host, args.web_host, args.web_port)

    try:
        asyncio.run(run())
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
        print(f"  seat {int(seat) + 1} ({who}): {code}")  # (seats from 1, as the terminal UI shows them)
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

