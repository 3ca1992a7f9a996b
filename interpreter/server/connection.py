"""One websocket connection of the server: a token bucket on the messages it sends (a flood is
refused); a bounded outbox for the messages it is sent, written by its own task with a time limit
per frame (a client that stops reading is dropped; a spectator behind gets the latest state in place
of those it did not take, public.py); its pings (one not answered in time drops it); and the
server's log, one line per event, never a traceback."""
from __future__ import annotations

import asyncio
from collections import deque
import logging
import sys

from .limits import Bucket, Limits
from .protocol import dumps
from .public import spectator_frame
from .tables import Client

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

    def __init__(self, ws, limits: Limits = Limits()):
        super().__init__(self._queue)
        self.ws = ws
        self.limits = limits
        self.outbox: deque = deque()  # frames (text) to send, in order
        self.queued = 0  # characters in the outbox
        self.public = None  # a spectator's latest position not sent yet (public.py), sent after the outbox
        self.wake = asyncio.Event()
        self.bucket = Bucket(BUCKET, RATE)
        self.dropped = False
        self.closing = False
        self.why = ""  # (close_after's reason)
        self.made: list = []  # when it made its tables (time.monotonic(); the last minute's)
        self.address = (getattr(ws, "remote_address", None) or ("?",))[0]

    def allowed(self) -> bool:
        return self.bucket.take()

    def _queue(self, msg) -> None:
        if self.dropped:
            return
        text = dumps(msg)
        self.queued += len(text)
        if self.queued > self.limits.outbox:  # it does not read: drop it rather than hold its frames
            self.drop(f"does not read its messages ({self.queued:,} characters waiting)")
            return
        self.outbox.append(text)
        self.wake.set()

    def post(self, public) -> None:
        if not self.dropped:
            self.public = public
            self.wake.set()

    def close_after(self, why: str) -> None:
        """Close (1008, why) once everything queued is sent."""
        self.closing = True
        self.why = why
        self.outbox.append(_CLOSE)
        self.wake.set()

    def drop(self, why: str) -> None:
        if self.dropped:
            return
        self.dropped = True
        self.public = None
        log(f"a client dropped: {why}")
        transport = getattr(self.ws, "transport", None)
        if transport is not None:
            transport.abort()

    def _next(self):
        """The next frame to send (text, a spectator's state in UTF-8, or _CLOSE), or None."""
        if self.outbox:
            item = self.outbox.popleft()
            if item is not _CLOSE:
                self.queued -= len(item)
            return item
        if self.public is not None:
            public, self.public = self.public, None
            return spectator_frame(public, self)
        return None

    async def write(self) -> None:
        from websockets.exceptions import ConnectionClosed

        while not self.dropped:
            await self.wake.wait()
            self.wake.clear()
            while not self.dropped and (item := self._next()) is not None:
                if item is _CLOSE:
                    await self.ws.close(1008, self.why)
                    return
                try:
                    async with asyncio.timeout(self.limits.send_timeout):
                        await self.ws.send(item, text=True)
                except asyncio.TimeoutError:
                    self.drop(f"a frame took more than {self.limits.send_timeout:g} s to leave")
                    return
                except ConnectionClosed:  # (it left as a frame went out: its reader leaves too)
                    return

    async def keepalive(self) -> None:
        """A ping every limits.ping / 2 seconds; one not answered within limits.ping drops the
        connection (at once, with no closing handshake: a connection that does not answer pings would
        not answer that either)."""
        from websockets.exceptions import ConnectionClosed

        timeout = self.limits.ping
        try:
            while not self.dropped:
                await asyncio.sleep(timeout / 2)
                try:
                    async with asyncio.timeout(timeout):
                        await (await self.ws.ping())
                except asyncio.TimeoutError:
                    self.drop(f"it did not answer a ping in {timeout:g} s")
                    return
        except ConnectionClosed:
            return


__all__ = ["Connection", "log", "quiet_logger", "BUCKET", "RATE"]
