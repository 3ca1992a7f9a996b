"""What one `jux serve` allows a crowd (docs/protocol.md, "Limits"): connections per table, per
seat's code and per address, spectators joining a table a second, how long a connection may leave
the server's pings unanswered, how much may wait for a client that reads slowly, and how long a
finished game's table stays for its codes. `jux serve`'s options set them (cli/server_args.py).
A cap of 0 is no cap. Nothing here knows a game."""
from __future__ import annotations

import time


class Limits:
    """The server's limits (a cap of 0: no cap). (A plain class: `jux --help` reads its defaults
    without importing dataclasses.)"""

    __slots__ = ("per_table", "per_code", "per_address", "joins", "ping", "outbox", "send_timeout", "keep_over")

    def __init__(self, per_table: int = 300, per_code: int = 4, per_address: int = 300, joins: float = 20.0,
                 ping: float = 20.0, outbox: int = 4 * 1024 * 1024, send_timeout: float = 10.0,
                 keep_over: float = 3600.0):
        self.per_table = per_table  # connections on one table (seats and spectators)
        self.per_code = per_code  # connections on one seat's code (a player's devices, one not yet let go)
        self.per_address = per_address  # open connections from one IP address (behind a proxy: the proxy's)
        self.joins = joins  # spectators joining one table a second (as many at once); seats' codes not counted
        self.ping = ping  # seconds a ping may stay unanswered before the connection is dropped (one every ping/2)
        self.outbox = outbox  # characters waiting for a connection that reads slowly; more and it is dropped
        self.send_timeout = send_timeout  # seconds a frame may take to leave; longer and it is dropped
        self.keep_over = keep_over  # seconds a finished game's table stays after its end for its codes


def over(cap, count: int) -> bool:
    """Whether count reaches the cap (a cap of 0: never)."""
    return bool(cap) and count >= cap


class Bucket:
    """A token bucket: `size` at once, then `rate` a second."""

    def __init__(self, size: float, rate: float):
        self.size, self.rate = size, rate
        self.tokens = float(size)
        self.at = time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.size, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


__all__ = ["Limits", "Bucket", "over"]
