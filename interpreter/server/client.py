"""Clients of `jux serve`: `request` asks a server one thing (`jux host`, `jux tables`); `TableClient`
plays a seat (or watches a table) and comes back on its own when the connection drops or the server
restarts: it says hello again with its code (again a little later when the server refuses it for
now: `busy`, `code_busy`, `table_full`), takes the whole log again and goes on numbering its
answers from the last `seq` the server took. One line on any failure (JuxError)."""
from __future__ import annotations

import asyncio
import json

from ..errors import JuxError
from .protocol import dumps, message

TIMEOUT = 30.0  # seconds for the server to answer (making a table compiles its rules)
MAX_REPLY = 16 * 1024 * 1024  # bytes of the server's answer
AGAIN = ("busy", "code_busy", "table_full")  # a hello refused for now: tried again within the patience


def _check_url(url: str) -> str:
    if not isinstance(url, str) or not url.startswith(("ws://", "wss://")):
        raise JuxError(f"--server: '{str(url)[:80]}' is not a server's address (ws://HOST:PORT or wss://...)")
    return url


async def _request(url: str, msg: dict, expect: str) -> dict:
    from websockets.asyncio.client import connect
    from websockets.exceptions import InvalidURI, WebSocketException

    try:
        async with connect(url, max_size=MAX_REPLY, open_timeout=TIMEOUT, close_timeout=2) as ws:
            await ws.send(dumps(msg))
            while True:
                reply = json.loads(await asyncio.wait_for(ws.recv(), TIMEOUT))
                if not isinstance(reply, dict):
                    raise JuxError(f"{url}: the server's answer is not a message")
                if reply.get("type") == "error":
                    raise JuxError(f"{url}: {reply.get('code')}: {reply.get('message')}")
                if reply.get("type") == expect:
                    return reply
    except InvalidURI:
        raise JuxError(f"--server: '{url[:80]}' is not a server's address (ws://HOST:PORT)") from None
    except (OSError, asyncio.TimeoutError, WebSocketException, ValueError) as e:
        why = "no answer in time" if isinstance(e, asyncio.TimeoutError) else (str(e) or type(e).__name__)
        raise JuxError(f"{url}: cannot talk to the server: {why}") from None


def request(url: str, kind: str, expect: str, **fields) -> dict:
    """Send one message of this kind, return the server's reply of type expect (JuxError otherwise)."""
    return asyncio.run(ask(url, kind, expect, **fields))


async def ask(url: str, kind: str, expect: str, **fields) -> dict:
    """`request` from inside a running event loop."""
    return await _request(_check_url(url), message(kind, **fields), expect)


class TableClient:
    """One seat's (or a spectator's) connection to a table, that reconnects by itself.

    `await next()` gives the server's next `state` or `error` message (a `welcome` updates seat,
    names and seq); `log` holds every log line of the seat so far and `state` the last state.
    `await answer(decision, choice)` sends an answer with the next seq. While the server cannot
    be reached, both try again for up to `patience` seconds, then raise JuxError."""

    def __init__(self, url: str, code: str, patience: float = 60.0):
        self.url = _check_url(url)
        self.code = code
        self.patience = patience
        self.ws = None
        self.seat = None
        self.names: list = []
        self.seq = 0
        self.log: list = []
        self.state: dict | None = None
        self.welcome: dict | None = None
        self._fresh = False  # the next state carries the whole log
        self.on_drop = None  # called (no arguments) when the connection drops, before coming back

    async def _connect(self) -> None:
        from websockets.asyncio.client import connect
        from websockets.exceptions import WebSocketException

        loop = asyncio.get_running_loop()
        deadline, wait = loop.time() + self.patience, 0.1
        while True:
            try:
                ws = await connect(self.url, max_size=MAX_REPLY, open_timeout=TIMEOUT, close_timeout=2)
                msg = await self._hello(ws, deadline, wait)
                self.ws, self.welcome = ws, msg
                self.seat, self.names = msg.get("seat"), msg.get("names") or []
                self.seq = max(self.seq, msg.get("seq") or 0)
                self._fresh = True
                return
            except (OSError, asyncio.TimeoutError, WebSocketException, ValueError) as e:
                if loop.time() + wait > deadline:
                    raise JuxError(f"{self.url}: cannot reach the server: {str(e) or type(e).__name__}") from None
                await asyncio.sleep(wait)
                wait = min(wait * 2, 2.0)

    async def _hello(self, ws, deadline: float, wait: float) -> dict:
        """Say hello on ws until the server welcomes it: the `welcome`. Refused for now (a crowd
        joining, or this seat's dropped connection not let go yet: AGAIN), it says hello again on
        the same connection a little later; refused for good, JuxError."""
        loop = asyncio.get_running_loop()
        while True:
            await ws.send(dumps(message("hello", code=self.code)))
            msg = {}
            while msg.get("type") not in ("welcome", "error"):
                msg = json.loads(await asyncio.wait_for(ws.recv(), TIMEOUT))
            if msg["type"] == "welcome":
                return msg
            if msg.get("code") not in AGAIN or loop.time() + wait > deadline:
                await ws.close()
                raise JuxError(f"{self.url}: {msg.get('code')}: {msg.get('message')}")
            await asyncio.sleep(wait)
            wait = min(wait * 2, 2.0)

    async def next(self) -> dict:
        from websockets.exceptions import ConnectionClosed

        while True:
            if self.ws is None:
                await self._connect()
            try:
                msg = json.loads(await self.ws.recv())
            except ConnectionClosed:
                self._dropped()
                continue
            if msg.get("type") == "state":  # (after an undo, log_reset: the log is the rewound game's)
                self.log = list(msg["log"]) if self._fresh or msg.get("log_reset") else self.log + msg["log"]
                self._fresh = False
                self.state = msg
                return msg
            if msg.get("type") == "error":
                return msg

    async def answer(self, decision: int, choice) -> None:
        """Send an answer (a state or an error follows through next()); a dropped connection is
        opened again, and the answer is not sent again: the state that comes tells whether it
        was taken."""
        from websockets.exceptions import ConnectionClosed

        if self.ws is None:
            await self._connect()
        self.seq += 1
        try:
            await self.ws.send(dumps(message("answer", decision=decision, choice=choice, seq=self.seq)))
        except ConnectionClosed:
            self._dropped()

    async def undo(self) -> None:
        """Ask the server to take back this seat's last answer (a state or an error follows
        through next(), as for an answer)."""
        from websockets.exceptions import ConnectionClosed

        if self.ws is None:
            await self._connect()
        self.seq += 1
        try:
            await self.ws.send(dumps(message("undo", seq=self.seq)))
        except ConnectionClosed:
            self._dropped()

    def _dropped(self) -> None:
        self.ws = None
        if self.on_drop is not None:
            self.on_drop()

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()
            self.ws = None


__all__ = ["request", "TableClient"]
