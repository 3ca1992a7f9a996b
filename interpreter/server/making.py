"""`create` (docs/protocol.md): a table made as a client asks, within the server's limits (tables a
connection makes a minute, tables the server holds). Nothing here knows a game."""
from __future__ import annotations

import asyncio
import re
import secrets
import time

from ..errors import JuxError
from .connection import log
from .protocol import ProtocolError, message
from .store import OPEN, PLAYING, StoreError, code_hash
from .tables import HUMAN, Table

MAX_TABLES = 1000  # tables a server holds (not over)
TABLES_PER_MINUTE = 10  # tables one connection may make in a minute
_TILE = re.compile(r"[\w][\w.-]{0,59}")


def source_of(server, name: str) -> str:
    """The ruleset `create` names, as the server loads it (a --rules path, or a catalogue name)."""
    if name in server.rules:
        return server.rules[name]
    from ..reading.spec import catalogue_rulesets

    known = catalogue_rulesets()
    if name not in known:
        raise ProtocolError("bad_table", f"'{name[:60]}' is not a ruleset of this server "
                                         f"(it serves: {', '.join(sorted(set(known) | set(server.rules)))})")
    return name

async def make_table(server, msg: dict, client=None) -> dict:
    """`create`: check what is asked, compile the rules (one at a time, off the loop), store the
    table and its codes' hashes: the `created` message (ProtocolError when it cannot be made)."""
    now = time.monotonic()
    if client is not None:
        client.made = [t for t in client.made if now - t < 60]
        if len(client.made) >= TABLES_PER_MINUTE:
            raise ProtocolError("too_many_tables", f"a connection makes at most {TABLES_PER_MINUTE} tables a "
                                                   "minute: wait a little")
    if sum(t.state in (OPEN, PLAYING) for t in server.tables.values()) >= MAX_TABLES:
        raise ProtocolError("full", f"this server holds {MAX_TABLES} tables already")
    source = source_of(server, msg["ruleset"])
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
    if server._loading is None:
        server._loading = asyncio.Lock()
    async with server._loading:  # (compiling a ruleset takes a moment: one at a time, off the loop)
        try:
            rules = await asyncio.to_thread(server.load_rules, source, tiles)
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
        await server.stored(server.store.create_table, table_id, source, tiles, players, seat_specs, seed, options,
                          rules.digest, hashes)
    except StoreError as e:
        raise ProtocolError("storage", str(e)) from None
    server.tables[table_id] = table
    server.codes.update({h: (table_id, seat) for h, seat in hashes.items()})
    if client is not None:
        client.made.append(now)
    log(f"table {table_id}: {rules.name} for {players} ({', '.join(kinds)})")
    return message("created", table=table_id, codes={str(p): c for p, c in codes.items()}, spectate=spectate)


__all__ = ["make_table", "source_of", "MAX_TABLES", "TABLES_PER_MINUTE"]
