"""The game server: websockets (asyncio) in front of the tables (tables.py) and their store (store.py).

Each connection reads frames through protocol.parse (a bad one gets an `error`, never an exception),
under a token bucket (a flood gets `rate_limited`, then the connection closes), and writes through
a bounded outbox with a time limit per frame (a client that stops reading is dropped); one that
does not answer pings is dropped (connection.py). Each table has a lock: its answers are applied in
a worker thread (bots may think), stored in one transaction, and only then is each connection sent
its own `state` (the spectators one position for all, public.py). Joining a table tells only the
newcomer, unless a seat's connection changes what the others see. The server's limits (limits.py)
cap connections per table, per seat's code and per address, and spectators joining a table a
second. Every failure of one connection is one line in the log and touches no other connection or
table."""
from __future__ import annotations

import asyncio
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
import hmac
import time

from ..errors import JuxError
from .connection import BUCKET, RATE, Connection, log, quiet_logger
from .limits import Bucket, Limits, over
from .making import make_table
from .messages import seat_state
from .protocol import ProtocolError, error, message, parse
from .public import public_state
from .store import FAILED, OPEN, OVER, PLAYING, Store, StoreError, code_hash
from .tables import Table

WIRE_MAX = 256 * 1024  # bytes of a frame websockets reads at all (protocol.MAX_FRAME is the refusal with an error)
TICK = 0.25  # seconds between two looks at the turn timers
BACKLOG = 1024  # connections the kernel holds before they are accepted (a crowd comes at once)


class Server:
    def __init__(self, store: Store, rule_paths=(), limits: Limits = Limits()):
        self.store = store
        self.limits = limits
        self.tables: dict = {}
        self.locks: dict = {}
        self.joins: dict = {}  # a table's id -> the bucket of its spectators' joins
        self.addresses: Counter = Counter()  # an address -> its open connections
        self.codes: dict = {}  # a code's hash -> (table id, seat): the held tables' codes met so far
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
        """Every table of the store not over (and those over in the last keep_over seconds), rebuilt
        from its answers; how many came back."""
        back = 0
        for row in self.store.unfinished(self.limits.keep_over):
            try:
                rules = self.load_rules(row["ruleset"], row["tiles"])
                if rules.digest != row["digest"]:
                    raise JuxError(f"its rules changed since it was made (digest {row['digest']}, now {rules.digest})")
                table = Table(row["id"], rules, row["ruleset"], row["tiles"], row["seats"], row["seed"],
                              row["options"], row["state"])
                table.seq_floor = dict(row["undos"])
                table.last_seq.update(table.seq_floor)
                table.replay([(a[1], a[2], a[3], a[4]) for a in row["answers"]])
                if table.state == OVER and row["ended"]:  # (its codes show the final scores until keep_over)
                    table.ended = time.monotonic() - max(0.0, time.time() - row["ended"])
            except JuxError as e:
                log(f"table {row['id']} is not brought back: {e}")
                continue
            self.tables[table.id] = table
            back += 1
        return back

    def listing(self) -> dict:
        return message("tables", tables=[t.listing() for t in self.tables.values() if t.state in (OPEN, PLAYING)])

    # ------------------------------------------------------------ a connection's messages

    async def hello(self, client: Connection, code: str) -> None:
        if client.joined:
            raise ProtocolError("already_joined", "this connection has joined a table already")
        digest = code_hash(code)
        found = self.codes.get(digest)  # (a crowd's joins do not wait for the store, nor make answers wait)
        if found is None:
            try:
                row = await self.stored(self.store.find_code, digest)
            except StoreError as e:
                raise ProtocolError("storage", str(e)) from None
            if row is None or not hmac.compare_digest(row[0], digest):
                raise ProtocolError("bad_code", "no table has this code")
            found = row[1:]
            if found[0] in self.tables:
                self.codes[digest] = found
        table_id, seat = found
        limits = self.limits
        if seat is None and limits.joins and table_id in self.tables:
            bucket = self.joins.setdefault(table_id, Bucket(limits.joins, limits.joins))
            if not bucket.take():
                raise ProtocolError("busy", f"this table lets {limits.joins:g} spectators join a second: "
                                            "try again in a moment")
        async with self.lock(table_id):
            table = self.tables.get(table_id)
            if table is None:
                raise ProtocolError("bad_code", "this code's table is not held by the server any more (its game "
                                                f"ended over {limits.keep_over:g} s ago, or its rules could not "
                                                "be loaded)")
            if over(limits.per_table, len(table.clients)):
                raise ProtocolError("table_full", f"this table has {len(table.clients)} connections, as many as "
                                                  "the server lets one table have")
            if seat is not None and over(limits.per_code, sum(c.seat == seat and not c.spectator
                                                              for c in table.clients)):
                raise ProtocolError("code_busy", f"this code has {limits.per_code} connections already (one that "
                                                 f"dropped is let go within {limits.ping:g} s)")
            came = seat is not None and not table.connected(seat)  # (what the others see changes)
            client.table, client.seat, client.spectator = table, seat, seat is None
            client.sent_log = client.sent_notices = 0
            table.clients.append(client)
            client.send(table.welcome(client))
            if seat is None:  # a spectator: its own state, nobody else's
                table.public = table.public or public_state(table)
                client.post(table.public)
                return
            table.gone_since.pop(seat, None)
            if table.state == OPEN:
                table.joined.add(seat)
                if table.all_joined():
                    await self._commit(table, await asyncio.to_thread(table.start), PLAYING)
                    return
            if came:
                table.broadcast()
            else:
                client.send(seat_state(table, client))

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
            if client.spectator or client.seat not in table.humans or table.connected(client.seat):
                return  # (nothing the others see changed)
            table.gone_since[client.seat] = time.monotonic()
            table.broadcast()  # (the others see who is connected)

    def let_go(self, now: float) -> None:
        """Let go of the tables with no connection whose game ended keep_over seconds ago, or that
        failed (their answers stay in the store)."""
        for table in list(self.tables.values()):
            lock = self.locks.get(table.id)
            if table.clients or (lock is not None and lock.locked()):
                continue
            if table.state == FAILED or (table.state == OVER and now - (table.ended or now) >= self.limits.keep_over):
                del self.tables[table.id]
                self.locks.pop(table.id, None)
                self.joins.pop(table.id, None)
                for h in [h for h, (t, _) in self.codes.items() if t == table.id]:
                    del self.codes[h]

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
            client.send(await make_table(self, msg, client))
        elif kind == "tables":
            client.send(self.listing())

    async def handler(self, ws) -> None:
        from websockets.exceptions import ConnectionClosed

        client = Connection(ws, self.limits)
        writer = asyncio.create_task(client.write())
        keepalive = asyncio.create_task(client.keepalive())
        self.addresses[client.address] += 1
        if over(self.limits.per_address, self.addresses[client.address] - 1):
            client.send(error("too_many_connections", f"this address has {self.limits.per_address} connections to "
                                                      "the server already: the connection is closed"))
            client.close_after("too many connections")
        try:
            async for frame in ws:
                if client.closing:
                    continue  # (read and dropped until its close comes back)
                if not client.allowed():
                    client.send(error("rate_limited", f"more than {BUCKET} messages at once, or {RATE:g} a second: "
                                                      "the connection is closed"))
                    client.close_after("too many messages")
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
            keepalive.cancel()
            self.addresses[client.address] -= 1
            if not self.addresses[client.address]:
                del self.addresses[client.address]
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
        """Let stand-in bots answer the decisions past a table's turn timer or of its away seats;
        let go of the tables over for long enough."""
        now = time.monotonic()
        self.let_go(now)
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
                stop=None, ssl=None, limits: Limits = Limits()) -> None:
    """Serve until stop (a future) is done, or forever. ready(port) is called once listening.
    (Pings are the connections' own: connection.py.)"""
    from websockets.asyncio.server import serve as ws_serve

    server = Server(store, rule_paths, limits)
    back = server.restore()
    async with ws_serve(server.handler, host, port, max_size=WIRE_MAX, max_queue=16, write_limit=2 ** 16,
                        ping_interval=None, close_timeout=5, logger=quiet_logger(), ssl=ssl, compression=None,
                        backlog=BACKLOG) as ws_server:
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
