"""The game server: websockets (asyncio) in front of the tables (tables.py) and their store (store.py).

Each connection reads frames through protocol.parse (a bad one gets an `error`, never an exception),
under a token bucket (a flood gets `rate_limited`, then the connection closes), and writes through
a bounded outbox with a time limit per frame (a client that stops reading is dropped). Each table
has a lock: its answers are applied in a worker thread (bots may think), stored in one transaction,
and only then is each connection sent its own `state`. Every failure of one connection is one line
in the log and touches no other connection or table."""
from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
import hmac
import re
import secrets
import time

from ..errors import JuxError
from .connection import BUCKET, RATE, Connection, log, quiet_logger
from .protocol import ProtocolError, error, message, parse
from .store import FAILED, OPEN, OVER, PLAYING, Store, StoreError, code_hash
from .tables import HUMAN, Table

WIRE_MAX = 256 * 1024  # bytes of a frame websockets reads at all (protocol.MAX_FRAME is the refusal with an error)
MAX_TABLES = 1000  # tables a server holds (not over)
TABLES_PER_MINUTE = 10  # tables one connection may make in a minute
TICK = 0.25  # seconds between two looks at the turn timers
_TILE = re.compile(r"[\w][\w.-]{0,59}")


class Server:
    def __init__(self, store: Store, rule_paths=()):
        self.store = store
        self.tables: dict = {}
        self.locks: dict = {}
        self.rules: dict = {}  # a --rules ruleset's name -> its path
        self._loading = None
        self._io = ThreadPoolExecutor(max_workers=1, thread_name_prefix="jux-store")  # (the store's one thread)
        for path in rule_paths or ():
            from ..engine.ruleset import load_ruleset

            self.rules[load_ruleset(path).name] = str(path)

    # ------------------------------------------------------------ tables

    async def stored(self, method, *args):
        """A call of the store, in its own thread: the loop serves the other tables while the disk
        writes (a commit waits for it)."""
        return await asyncio.get_running_loop().run_in_executor(self._io, method, *args)

    def lock(self, table_id: str) -> asyncio.Lock:
        if table_id not in self.locks:
            self.locks[table_id] = asyncio.Lock()
        return self.locks[table_id]

    def load_rules(self, source: str, tiles: list):
        from ..engine.ruleset import load_ruleset

        return load_ruleset(source, tiles)

    def restore(self) -> int:
        """Every table of the store not over, rebuilt from its answers; how many came back."""
        back = 0
        for row in self.store.unfinished():
            try:
                rules = self.load_rules(row["ruleset"], row["tiles"])
                if rules.digest != row["digest"]:
                    raise JuxError(f"its rules changed since it was made (digest {row['digest']}, now {rules.digest})")
                table = Table(row["id"], rules, row["ruleset"], row["tiles"], row["seats"], row["seed"],
                              row["options"], row["state"])
                table.seq_floor = dict(row["undos"])
                table.last_seq.update(table.seq_floor)
                table.replay([(a[1], a[2], a[3], a[4]) for a in row["answers"]])
            except JuxError as e:
                log(f"table {row['id']} is not brought back: {e}")
                continue
            self.tables[table.id] = table
            back += 1
        return back

    def source_of(self, name: str) -> str:
        if name in self.rules:
            return self.rules[name]
        from ..reading.spec import catalogue_rulesets

        known = catalogue_rulesets()
        if name not in known:
            raise ProtocolError("bad_table", f"'{name[:60]}' is not a ruleset of this server "
                                             f"(it serves: {', '.join(sorted(set(known) | set(self.rules)))})")
        return name

    async def create(self, msg: dict, client: Connection | None = None) -> dict:
        now = time.monotonic()
        if client is not None:
            client.made = [t for t in client.made if now - t < 60]
            if len(client.made) >= TABLES_PER_MINUTE:
                raise ProtocolError("too_many_tables", f"a connection makes at most {TABLES_PER_MINUTE} tables a "
                                                       "minute: wait a little")
        if sum(t.state in (OPEN, PLAYING) for t in self.tables.values()) >= MAX_TABLES:
            raise ProtocolError("full", f"this server holds {MAX_TABLES} tables already")
        source = self.source_of(msg["ruleset"])
        tiles = list(msg.get("tiles") or [])
        for t in tiles:
            if not _TILE.fullmatch(t):
                raise ProtocolError("bad_table", f"tile '{t[:60]}': a tile is named by its name in jux's catalogue")
        players, seats = msg["players"], msg["seats"]
        if len(seats) != players:
            raise ProtocolError("bad_table", f"{len(seats)} seats given for {players} players")
        names = msg.get("names") or [f"Player {p + 1}" for p in range(players)]
        if len(names) != players or len(set(names)) != players or any(not n.isprintable() or len(n) > 40 for n in names):
            raise ProtocolError("bad_table", "names: one distinct name of at most 40 printable characters per seat")
        from ..bots import bot_factory

        kinds = []
        for s in seats:
            if s.strip().lower() == HUMAN:
                kinds.append(HUMAN)
                continue
            try:
                bot_factory(s)
            except JuxError as e:
                raise ProtocolError("bad_table", str(e)) from None
            kinds.append(s.strip())
        if HUMAN not in kinds:
            raise ProtocolError("bad_table", "a table has at least one human seat")
        options = {k: msg[k] for k in ("timer", "away", "stand_in") if msg.get(k) is not None}
        if "stand_in" in options:
            try:
                bot_factory(options["stand_in"])
            except JuxError as e:
                raise ProtocolError("bad_table", f"stand_in: {e}") from None
        if self._loading is None:
            self._loading = asyncio.Lock()
        async with self._loading:  # (compiling a ruleset takes a moment: one at a time, off the loop)
            try:
                rules = await asyncio.to_thread(self.load_rules, source, tiles)
            except JuxError as e:
                raise ProtocolError("bad_table", str(e)) from None
        if not rules.min_players <= players <= rules.max_players:
            raise ProtocolError("bad_table", f"{rules.name} is for {rules.min_players} to {rules.max_players} "
                                             f"players, not {players}")
        table_id = secrets.token_hex(8)
        seed = secrets.randbits(63)
        seat_specs = [{"name": n, "kind": k} for n, k in zip(names, kinds)]
        table = Table(table_id, rules, source, tiles, seat_specs, seed, options)
        codes = {p: secrets.token_urlsafe(24) for p in table.humans}  # (192 bits each)
        spectate = secrets.token_urlsafe(24)
        hashes = {code_hash(c): p for p, c in codes.items()}
        hashes[code_hash(spectate)] = None
        try:
            await self.stored(self.store.create_table, table_id, source, tiles, players, seat_specs, seed, options,
                              rules.digest, hashes)
        except StoreError as e:
            raise ProtocolError("storage", str(e)) from None
        self.tables[table_id] = table
        if client is not None:
            client.made.append(now)
        log(f"table {table_id}: {rules.name} for {players} ({', '.join(kinds)})")
        return message("created", table=table_id, codes={str(p): c for p, c in codes.items()}, spectate=spectate)

    def listing(self) -> dict:
        return message("tables", tables=[t.listing() for t in self.tables.values() if t.state in (OPEN, PLAYING)])

    # ------------------------------------------------------------ a connection's messages

    async def hello(self, client: Connection, code: str) -> None:
        if client.joined:
            raise ProtocolError("already_joined", "this connection has joined a table already")
        digest = code_hash(code)
        try:
            found = await self.stored(self.store.find_code, digest)
        except StoreError as e:
            raise ProtocolError("storage", str(e)) from None
        if found is None or not hmac.compare_digest(found[0], digest):
            raise ProtocolError("bad_code", "no table has this code")
        if found[1] not in self.tables:
            raise ProtocolError("bad_code", "this code's table is not held by the server any more (its game is "
                                            "over, or its rules could not be loaded)")
        _, table_id, seat = found
        table = self.tables[table_id]
        async with self.lock(table_id):
            client.table, client.seat, client.spectator = table, seat, seat is None
            client.sent_log = client.sent_notices = 0
            table.clients.append(client)
            table.gone_since.pop(seat, None)
            client.send(table.welcome(client))
            if seat is not None and table.state == OPEN:
                table.joined.add(seat)
                if table.all_joined():
                    await self._commit(table, await asyncio.to_thread(table.start), PLAYING)
                    return
            table.broadcast()

    async def answer(self, client: Connection, msg: dict) -> None:
        if not client.joined:
            raise ProtocolError("not_joined", "say hello with a code first")
        table = client.table
        async with self.lock(table.id):
            seat = None if client.spectator else client.seat
            rows = await asyncio.to_thread(table.answer, seat, msg["decision"], msg["choice"], msg["seq"])
            await self._commit(table, rows)

    async def undo(self, client: Connection, msg: dict) -> None:
        """Take back the seat's last answer and the bots' after it: stored (the answers deleted in
        one transaction), then the rewound game is every connection's, with its whole log."""
        if not client.joined:
            raise ProtocolError("not_joined", "say hello with a code first")
        table = client.table
        async with self.lock(table.id):
            seat = None if client.spectator else client.seat
            first = table.undo(seat, msg["seq"])
            try:
                await self.stored(self.store.undo, table.id, first, seat, msg["seq"])
            except StoreError as e:
                raise ProtocolError("storage", f"{e}; nothing changed") from None
            await asyncio.to_thread(table.rewound, first, seat, msg["seq"])
            table.broadcast()

    async def _commit(self, table: Table, rows: list, state: str | None = None) -> None:
        """Store the answers (and the table's state): only then apply them for good and show them.
        A store that fails puts the game back to its last stored answer."""
        over = table.game.over
        try:
            await self.stored(self.store.add_answers, table.id, len(table.rows), rows, OVER if over else state)
        except StoreError as e:
            await asyncio.to_thread(table.rebuild)
            if state is not None:
                table.state = OPEN
            raise ProtocolError("storage", f"{e}; nothing changed") from None
        table.committed(rows)
        table.broadcast()

    async def leave(self, client: Connection) -> None:
        table = client.table
        if table is None:
            return
        async with self.lock(table.id):
            if client in table.clients:
                table.clients.remove(client)
            if not client.spectator and client.seat in table.humans and not table.connected(client.seat):
                table.gone_since[client.seat] = time.monotonic()
            if table.state in (OVER, FAILED) and not table.clients:  # (its game is in the store: let it go)
                self.tables.pop(table.id, None)
                self.locks.pop(table.id, None)
                return
            table.broadcast()  # (the others see who is connected)

    async def dispatch(self, client: Connection, msg: dict) -> None:
        kind = msg["type"]
        if kind == "ping":
            client.send(message("pong"))
        elif kind == "hello":
            await self.hello(client, msg["code"])
        elif kind == "answer":
            await self.answer(client, msg)
        elif kind == "undo":
            await self.undo(client, msg)
        elif kind == "create":
            client.send(await self.create(msg, client))
        elif kind == "tables":
            client.send(self.listing())

    async def handler(self, ws) -> None:
        from websockets.exceptions import ConnectionClosed

        client = Connection(ws)
        writer = asyncio.create_task(client.write())
        try:
            async for frame in ws:
                if client.closing:
                    continue  # (read and dropped until its close comes back)
                if not client.allowed():
                    client.send(error("rate_limited", f"more than {BUCKET} messages at once, or {RATE:g} a second: "
                                                      "the connection is closed"))
                    client.close_after()
                    continue
                await asyncio.sleep(0)  # (its writer sends what is queued before more is read)
                try:
                    await self.dispatch(client, parse(frame))
                except ProtocolError as e:
                    client.send(error(e.code, e.message))
                except Exception as e:  # (a bug: one line, this connection only, the table as stored)
                    where = f"table {client.table.id}: " if client.table is not None else ""
                    log(f"{where}internal error: {type(e).__name__}: {e}")
                    client.send(error("internal"))
                    if client.table is not None:
                        await self._recover(client.table)
        except ConnectionClosed:
            pass
        except Exception as e:
            log(f"a connection failed: {type(e).__name__}: {e}")
        finally:
            try:
                await self.leave(client)
            except Exception as e:
                log(f"a connection failed as it left: {type(e).__name__}: {e}")
            if client.closing:  # (the error that says why goes out before the close)
                try:
                    await asyncio.wait_for(writer, 2)
                except (Exception, asyncio.CancelledError):
                    pass
            writer.cancel()

    async def tick(self) -> None:
        """Let stand-in bots answer the decisions past a table's turn timer or of its away seats."""
        now = time.monotonic()
        for table in list(self.tables.values()):
            if not table.overdue(now):
                continue
            async with self.lock(table.id):
                for did, why in table.overdue(time.monotonic()):  # (again: it may have been answered)
                    try:
                        rows = await asyncio.to_thread(table.stand_in, did, why)
                        if rows:
                            await self._commit(table, rows)
                    except ProtocolError as e:
                        log(f"table {table.id}: a stand-in could not answer: {e.message}")
                        break

    async def ticking(self, every: float = TICK) -> None:
        while True:
            await asyncio.sleep(every)
            try:
                await self.tick()
            except Exception as e:  # (one line; the next tick tries again)
                log(f"the turn timer failed: {type(e).__name__}: {e}")

    async def _recover(self, table: Table) -> None:
        async with self.lock(table.id):
            try:
                await asyncio.to_thread(table.rebuild)
            except Exception as e:
                table.fail(f"{type(e).__name__}: {e}")
                log(f"table {table.id} stopped: {table.failure}")
                table.state = FAILED


async def serve(store: Store, host: str = "127.0.0.1", port: int = 8765, rule_paths=(), ready=None,
                stop=None, ssl=None) -> None:
    """Serve until stop (a future) is done, or forever. ready(port) is called once listening."""
    from websockets.asyncio.server import serve as ws_serve

    server = Server(store, rule_paths)
    back = server.restore()
    async with ws_serve(server.handler, host, port, max_size=WIRE_MAX, max_queue=16, write_limit=2 ** 16,
                        ping_interval=20, ping_timeout=20, close_timeout=5, logger=quiet_logger(),
                        ssl=ssl) as ws_server:
        bound = ws_server.sockets[0].getsockname()[1]
        server.port = bound
        ticking = asyncio.create_task(server.ticking())
        if ready is not None:
            ready(bound, back, server)
        try:
            await (stop if stop is not None else asyncio.get_running_loop().create_future())
        finally:
            ticking.cancel()
            server._io.shutdown(wait=True)


__all__ = ["Server", "serve", "log", "WIRE_MAX"]
