"""A small client of `jux serve` for the commands that ask a server one thing (`jux host`, `jux
tables`): one request, its answer, one line on any failure (JuxError)."""
from __future__ import annotations

import asyncio
import json

from ..errors import JuxError
from .protocol import dumps, message

TIMEOUT = 30.0  # seconds for the server to answer (making a table compiles its rules)
MAX_REPLY = 16 * 1024 * 1024  # bytes of the server's answer


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
    return asyncio.run(_request(_check_url(url), message(kind, **fields), expect))


__all__ = ["request"]
