"""One websocket connection of the server: a token bucket on the messages it sends (a flood is
refused), an outbox for the messages it is sent, written with a time limit per frame (a client
that stops reading is dropped); and the server's log, one line per event, never a traceback."""
from __future__ import annotations

import asyncio
import logging
import sys
import time

from .protocol import dumps
from .tables import Client

OUTBOX = 4 * 1024 * 1024  # characters waiting for a client that reads slowly; more and it is dropped
SEND_TIMEOUT = 10.0  # seconds a frame may take to leave; longer and the client is dropped
BUCKET = 200  # messages a connection may send at once ...
RATE = 100.0  # ... and per second after that
_CLOSE = object()


def log(text: str) -> None:
    """One line on stderr, never a traceback."""
    print(f"jux serve: {text}".replace("\n", " "), file=sys.stderr, flush=True)


class _OneLine(logging.Formatter):
    def format(self, record):
        return f"jux serve: websockets: {record.getMessage()}".replace("\n", " ")

    def formatException(self, ei):  # (a traceback never shows)
        return ""


def quiet_logger() -> logging.Logger:
    logger = logging.getLogger("jux.server.websockets")
    if not logger.handlers:
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(_OneLine())
        logger.addHandler(handler)
        logger.propagate = False
        logger.setLevel(logging.WARNING)
    return logger


class Connection(Client):
    """A client over a websocket: a token bucket on what it sends, an outbox for what it is sent."""

    def __init__(self, ws):
        super().__init__(self._queue)
        self.ws = ws
        self.outbox: asyncio.Queue = asyncio.Queue()
        self.queued = 0  # characters in the outbox
        self.tokens = float(BUCKET)
        self.at = time.monotonic()
        self.dropped = False
        self.closing = False
        self.made: list = []  # when it made its tables (time.monotonic(); the last minute's)

    def allowed(self) -> bool:
        now = time.monotonic()
        self.tokens = min(BUCKET, self.tokens + (now - self.at) * RATE)
        self.at = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True

    def _queue(self, msg) -> None:
        if self.dropped:
            return
        text = dumps(msg)
        self.queued += len(text)
        if self.queued > OUTBOX:  # it does not read: drop it rather than hold its frames
            self.drop("does not read its messages")
            return
        self.outbox.put_nowait(text)

    def close_after(self) -> None:
        """Close once everything queued is sent."""
        self.closing = True
        self.outbox.put_nowait(_CLOSE)

    def drop(self, why: str) -> None:
        self.dropped = True
        log(f"a client dropped: {why}")
        transport = getattr(self.ws, "transport", None)
        if transport is not None:
            transport.abort()

    async def write(self) -> None:
        from websockets.exceptions import ConnectionClosed

        while True:
            item = await self.outbox.get()
            if item is _CLOSE:
                await self.ws.close(1008, "too many messages")
                return
            self.queued -= len(item)
            try:
                await asyncio.wait_for(self.ws.send(item), SEND_TIMEOUT)
            except asyncio.TimeoutError:
                self.drop("a frame took too long to leave")
                return
            except ConnectionClosed:  # (it left as a frame went out: its reader leaves too)
                return


__all__ = ["Connection", "log", "quiet_logger", "BUCKET", "RATE"]
