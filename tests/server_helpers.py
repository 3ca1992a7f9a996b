"""Helpers of the server tests: a real `jux serve` started in the test on a loopback port, raw
websocket clients, and a random player that speaks the protocol (docs/protocol.md)."""
from __future__ import annotations

import asyncio
import base64
import contextlib
import json
import os
from pathlib import Path
import random
import re
import signal
import socket
import subprocess
import sys
import time

from websockets.asyncio.client import connect

from jux.interpreter.server.app import serve
from jux.interpreter.server.limits import Limits
from jux.interpreter.server.store import Store

JUX = str(Path(sys.executable).with_name("jux"))


def start_serve(data, *args) -> tuple:
    """A `jux serve` process on a free port (args: more options, e.g. --rules PATH): (process, url)."""
    proc = subprocess.Popen([JUX, "serve", "--port", "0", "--data", str(data), *args], stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        line = proc.stderr.readline()
        m = re.search(r"listening on (ws://\S+)", line)
        if m:
            return proc, m.group(1)
        if not line and proc.poll() is not None:
            break
    proc.kill()
    raise AssertionError(f"jux serve did not start: {proc.stderr.read()}")


def stop_serve(proc) -> str:
    """Stop a `jux serve` process as Ctrl-C would (SIGTERM; killed if it takes over 10 s): what it wrote on stderr."""
    proc.send_signal(signal.SIGTERM)
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill()
    return proc.stderr.read()


@contextlib.asynccontextmanager
async def running_server(folder, busy_timeout: float = 1.0, synchronous: str = "NORMAL", rule_paths=(), **limits):
    """(url, Server, Store) of a server on 127.0.0.1 and a free port; stopped on leaving. (Its store
    does not wait for the disk at each commit: these tests do not crash the machine.) limits: the
    server's (server/limits.py), e.g. ping=1.0."""
    store = Store(folder, busy_timeout=busy_timeout, synchronous=synchronous)
    loop = asyncio.get_running_loop()
    stop, ready = loop.create_future(), loop.create_future()
    task = asyncio.create_task(serve(store, "127.0.0.1", 0, rule_paths=rule_paths, ready=lambda p, b, s: ready.set_result((p, s)),
                                     stop=stop, limits=Limits(**limits)))
    done, _ = await asyncio.wait([ready, task], return_when=asyncio.FIRST_COMPLETED)
    if task in done:
        task.result()  # (the server failed to start: its error)
    port, server = ready.result()
    try:
        yield f"ws://127.0.0.1:{port}", server, store
    finally:
        stop.set_result(None)
        await task
        store.close()


class Raw:
    """A raw client: every frame it receives, as text and as data."""

    def __init__(self, ws):
        self.ws = ws
        self.frames: list = []  # (text, message)
        self.seq = 0

    @classmethod
    async def open(cls, url):
        return cls(await connect(url, max_size=2 ** 24))

    async def send(self, msg) -> None:
        await self.ws.send(msg if isinstance(msg, (str, bytes)) else json.dumps(msg))

    async def recv(self, timeout: float = 30) -> dict:
        text = await asyncio.wait_for(self.ws.recv(), timeout)
        msg = json.loads(text)
        self.frames.append((text, msg))
        return msg

    async def until(self, kind: str, timeout: float = 30) -> dict:
        while True:
            msg = await self.recv(timeout)
            if msg["type"] == kind:
                return msg

    async def drain(self, quiet: float = 0.3) -> list:
        out = []
        while True:
            try:
                out.append(await self.recv(quiet))
            except asyncio.TimeoutError:
                return out

    async def until_state(self, check=None, timeout: float = 30) -> dict:
        """Read on until the last state received holds check(state) (any state: None): that state.
        (A condition, not a quiet moment: a loaded machine may be slow to send the next frame.)"""
        end = asyncio.get_running_loop().time() + timeout
        while not (self.states() and (check is None or check(self.states()[-1]))):
            await self.recv(max(0.0, end - asyncio.get_running_loop().time()))
        return self.states()[-1]

    async def more_states(self, than: int, timeout: float = 30) -> dict:
        """Read on until more than `than` states came: the last."""
        end = asyncio.get_running_loop().time() + timeout
        while len(self.states()) <= than:
            await self.recv(max(0.0, end - asyncio.get_running_loop().time()))
        return self.states()[-1]

    async def read_for(self, seconds: float) -> list:
        """Every frame that comes in the next seconds."""
        out = []
        end = asyncio.get_running_loop().time() + seconds
        while True:
            left = end - asyncio.get_running_loop().time()
            if left <= 0:
                return out
            try:
                out.append(await self.recv(left))
            except asyncio.TimeoutError:
                return out

    async def request(self, kind: str, expect: str, **fields) -> dict:
        await self.send({"v": 1, "type": kind, **fields})
        return await self.until(expect)

    async def answer(self, decision: int, choice, seq: int | None = None) -> None:
        if seq is None:
            self.seq += 1
            seq = self.seq
        await self.send({"v": 1, "type": "answer", "decision": decision, "choice": choice, "seq": seq})

    def states(self) -> list:
        return [m for _, m in self.frames if m["type"] == "state"]

    def errors(self) -> list:
        return [m for _, m in self.frames if m["type"] == "error"]

    async def close(self) -> None:
        await self.ws.close()


async def eventually(check, what: str = "", timeout: float = 30) -> None:
    """Wait until check() holds (the server runs in this loop: it is given the time), up to timeout seconds."""
    end = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < end, f"not so after {timeout} s: {what}"
        await asyncio.sleep(0.02)


def random_choice(d: dict, rnd: random.Random):
    """A random legal answer to a decision as the server sends it: for a choose of several with
    `keys` (no two of one group), options of as many groups."""
    k = len(d["options"])
    if d["many"]:
        keys = d.get("keys")
        if keys:
            order = rnd.sample(range(k), k)
            picks, seen = [], set()
            for i in order:
                if keys[i] not in seen:
                    seen.add(keys[i])
                    picks.append(i)
            return sorted(picks[:rnd.randint(d["min"], min(d["max"], len(picks)))])
        return sorted(rnd.sample(range(k), rnd.randint(d["min"], min(d["max"], k))))
    if k == 0 or (d["min"] == 0 and rnd.random() < 0.1):
        return None
    return rnd.randrange(k)


async def create(url, ruleset: str, seats: list, tiles=None) -> dict:
    host = await Raw.open(url)
    fields = {"ruleset": ruleset, "players": len(seats), "seats": seats}
    if tiles:
        fields["tiles"] = tiles
    created = await host.request("create", "created", **fields)
    await host.close()
    return created


async def play_random(client: Raw, rnd: random.Random, stop_after: int | None = None) -> None:
    """Answer this seat's decisions at random until the game is over (or stop_after answers).
    A decision is answered once; an illegal random pick (a `distinct` choose) is picked again."""
    answered: set = set()
    given = 0
    last = None
    while True:
        msg = await client.recv(60)
        if msg["type"] == "error":
            assert msg["code"] == "illegal_answer", msg  # (a random pick a `distinct` choose refuses)
            await client.answer(last["id"], random_choice(last, rnd))
            continue
        if msg["type"] != "state":
            continue
        if msg["over"]:
            return
        for d in msg["decisions"]:
            if d["id"] in answered:
                continue
            if stop_after is not None and given >= stop_after:
                return
            answered.add(d["id"])
            last = d
            await client.answer(d["id"], random_choice(d, rnd))
            given += 1


def raw_socket(url: str, rcvbuf: int | None = 4096) -> socket.socket:
    """A TCP connection that says the websocket handshake and then reads nothing more (unless told):
    it answers no ping, and what the server sends it fills the kernel's buffers (rcvbuf: its
    receive buffer, set before it connects)."""
    host, port = url.removeprefix("ws://").rsplit(":", 1)
    sock = socket.socket()
    if rcvbuf:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
    sock.settimeout(10)
    sock.connect((host, int(port)))
    key = base64.b64encode(os.urandom(16)).decode()
    sock.sendall(f"GET / HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                 f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n".encode())
    head = b""
    while b"\r\n\r\n" not in head:
        chunk = sock.recv(1)  # (one byte at a time: nothing after the handshake is read)
        assert chunk, "the server closed during the handshake"
        head += chunk
    assert head.startswith(b"HTTP/1.1 101"), head
    return sock


def raw_send(sock: socket.socket, msg: dict) -> None:
    """One masked text frame, as a client sends it."""
    data = json.dumps(msg).encode()
    mask = os.urandom(4)
    n = len(data)
    head = bytes([0x81]) + (bytes([0x80 | n]) if n < 126 else bytes([0x80 | 126]) + n.to_bytes(2, "big"))
    sock.sendall(head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(data)))


def raw_read_all(sock: socket.socket) -> list:
    """Read a raw socket's frames until the server closes it or nothing comes for a second: the
    text frames' messages, in order."""
    data = b""
    sock.settimeout(1)
    try:
        while chunk := sock.recv(1 << 16):
            data += chunk
    except (TimeoutError, ConnectionError):
        pass
    out, i = [], 0
    while i + 2 <= len(data):
        op, n = data[i] & 0x0F, data[i + 1] & 0x7F
        i += 2
        if n == 126:
            n, i = int.from_bytes(data[i:i + 2], "big"), i + 2
        elif n == 127:
            n, i = int.from_bytes(data[i:i + 8], "big"), i + 8
        if i + n > len(data):
            break
        if op == 1:
            out.append(json.loads(data[i:i + n]))
        i += n
    return out
