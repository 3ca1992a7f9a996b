"""How far one `jux serve` process goes, over loopback only (issue 29): `make bench` runs it.

Usage: python bench/server.py [--quick] [--seconds S] [--restart-tables N] [--crowd N] [--crowd-only]

1. Load: a real `jux serve` (a subprocess, on a free port of 127.0.0.1, in a temporary data folder)
   holds T 4-seat Capital Jux tables, every seat a client that answers its decisions at random as
   fast as it can (all clients in this process). For T = 1, 2, 4, 8, ... it measures, for S seconds,
   the time from sending an answer to its acknowledgement (the `state` the server sends back),
   and stops at the first T whose 99th percentile passes 50 ms. Also the server's CPU time per
   answer and its memory per table (/proc: Linux).
2. Kill and restart: N tables (one human seat, three bots) each get some answers; the server is
   killed with SIGKILL and started again on the same folder; every seat says hello again with its
   code: a table resumes when the server took every answer it acknowledged (welcome's `seq`).
3. A crowd (issue 39): a 4-seat table of clients answering at once, while N spectators (200; in
   another process) join another table, stay a moment and leave, again and again, and that table's
   human seat answers every 0.2 s (its bots at once): the p99 and the worst answer-to-state time of
   the 4-seat table, against the same without the crowd; with the server's default caps, and with
   no cap on spectators joining a second (`--joins-per-second 0`: the fan-out alone).
"""
from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import random
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from websockets.asyncio.client import connect

JUX = str(Path(sys.executable).parent / "jux")
LIMIT_MS = 50.0


def start(data: Path, port: int = 0, *options):
    """A `jux serve` on 127.0.0.1 (options: more of its options); (process, url)."""
    log = data / "server.log"  # (a file, not a pipe nobody reads while the server runs: it would fill)
    with open(log, "a") as out:
        proc = subprocess.Popen([JUX, "serve", "--port", str(port), "--data", str(data), "--sync", "normal", *options],
                                stdout=subprocess.DEVNULL, stderr=out, text=True)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and proc.poll() is None:
        found = re.findall(r"listening on (ws://\S+)", log.read_text())
        if len(found) > start.count.get(data, 0):
            start.count[data] = len(found)
            return proc, found[-1]
        time.sleep(0.05)
    proc.kill()
    sys.exit(f"server.py: jux serve did not start: {log.read_text()[-500:]!r}")


start.count = {}  # (how many times a server started on each folder: the log is appended)


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def pick(d: dict, rnd: random.Random):
    k = len(d["options"])
    if d["many"]:
        return sorted(rnd.sample(range(k), rnd.randint(d["min"], min(d["max"], k))))
    return None if k == 0 else rnd.randrange(k)


async def request(url: str, msg: dict, expect: str) -> dict:
    async with connect(url, max_size=2 ** 24) as ws:
        await ws.send(json.dumps({"v": 1, **msg}))
        while True:
            reply = json.loads(await ws.recv())
            if reply["type"] in (expect, "error"):
                return reply


async def seat_player(url: str, code: str, rnd: random.Random, until: float, times: list, stop_after=None,
                      pause: float = 0.0):
    """Play one seat at random until `until` (loop time) or the game's end (pause: seconds before each
    answer); the latency of each acknowledged answer in ms goes to times. Returns the last seq the
    server acknowledged."""
    loop = asyncio.get_running_loop()
    seq, acked, answered, sent_at = 0, 0, set(), None
    async with connect(url, max_size=2 ** 24) as ws:
        await ws.send(json.dumps({"v": 1, "type": "hello", "code": code}))
        while loop.time() < until:
            try:
                msg = json.loads(await asyncio.wait_for(ws.recv(), max(0.01, until - loop.time())))
            except asyncio.TimeoutError:
                break
            if msg["type"] == "error":
                sent_at = None
                answered.discard(msg.get("decision"))
                continue
            if msg["type"] != "state":
                continue
            if sent_at is not None:
                times.append((loop.time() - sent_at) * 1000)
                sent_at, acked = None, seq
            if msg["over"] or (stop_after is not None and seq >= stop_after):
                break
            for d in msg["decisions"]:
                if d["id"] not in answered:
                    if pause:
                        await asyncio.sleep(pause)
                    answered.add(d["id"])
                    seq += 1
                    sent_at = loop.time()
                    await ws.send(json.dumps({"v": 1, "type": "answer", "decision": d["id"],
                                              "choice": pick(d, rnd), "seq": seq}))
                    break
    return acked


async def load(url: str, tables: int, seconds: float, rnd: random.Random) -> list:
    times: list = []
    made = [await request(url, {"type": "create", "ruleset": "capital_jux", "players": 4,
                                "seats": ["human"] * 4}, "created") for _ in range(tables)]
    until = asyncio.get_running_loop().time() + seconds
    await asyncio.gather(*(seat_player(url, code, random.Random(rnd.random()), until, times)
                           for t in made for code in t["codes"].values()))
    return times


def load_rows(seconds: float, most: int) -> list:
    rows = []
    with tempfile.TemporaryDirectory(prefix="jux-bench-server-") as tmp:
        proc, url = start(Path(tmp))
        try:
            base_mb = rss_mb(proc.pid)
            tables = 1
            while tables <= most:
                cpu0 = cpu_seconds(proc.pid)
                times = asyncio.run(load(url, tables, seconds, random.Random(tables)))
                cpu = cpu_seconds(proc.pid) - cpu0
                if not times:
                    break
                q = statistics.quantiles(times, n=100) if len(times) > 1 else times * 99
                rows.append((tables, len(times), statistics.median(times), q[98], cpu / len(times) * 1000,
                             rss_mb(proc.pid)))
                if q[98] > LIMIT_MS:
                    break
                tables *= 2
            per_table = (rows[-1][5] - base_mb) / max(1, sum(r[0] for r in rows))
        finally:
            proc.kill()
            proc.wait()
    return rows, base_mb, per_table


async def restart_check(n: int) -> tuple:
    with tempfile.TemporaryDirectory(prefix="jux-bench-restart-") as tmp:
        proc, url = start(Path(tmp))
        port = int(url.rsplit(":", 1)[1])
        try:
            made = [await request(url, {"type": "create", "ruleset": "capital_jux", "players": 4,
                                        "seats": ["human", "random", "random", "random"]}, "created")
                    for _ in range(n)]
            codes = [t["codes"]["0"] for t in made]
            rnd = random.Random(7)
            far = asyncio.get_running_loop().time() + 120
            acked = await asyncio.gather(*(seat_player(url, c, random.Random(rnd.random()), far, [],
                                                       stop_after=rnd.randint(3, 15)) for c in codes))
            proc.send_signal(signal.SIGKILL)
            proc.wait()
            t0 = time.perf_counter()
            proc, url = start(Path(tmp), port)
            back = time.perf_counter() - t0
            resumed = 0
            for code, a in zip(codes, acked):
                welcome = await request(url, {"type": "hello", "code": code}, "welcome")
                resumed += welcome.get("seq") == (a or None)
            return resumed, back
        finally:
            proc.kill()
            proc.wait()


async def spectators(url: str, code: str, n: int, seconds: float) -> tuple:
    """n spectators joining (code), each staying 1 to 4 s, leaving, and coming back 0.5 to 2 s later
    (one refused for now says hello again on its connection 0.5 to 1.5 s later), until `seconds` are up: (joins taken, joins
    refused for now)."""
    from websockets.exceptions import WebSocketException

    loop = asyncio.get_running_loop()
    until, counts = loop.time() + seconds, [0, 0]

    async def one(rnd):
        while loop.time() < until:
            try:
                async with connect(url, max_size=2 ** 24) as ws:
                    await ws.send(json.dumps({"v": 1, "type": "hello", "code": code}))
                    while json.loads(await ws.recv())["type"] != "welcome":  # (refused for now: again)
                        counts[1] += 1
                        await asyncio.sleep(rnd.uniform(0.5, 1.5))
                        await ws.send(json.dumps({"v": 1, "type": "hello", "code": code}))
                    counts[0] += 1
                    leave = loop.time() + rnd.uniform(1.0, 4.0)
                    while loop.time() < leave:
                        try:
                            await asyncio.wait_for(ws.recv(), max(0.01, leave - loop.time()))
                        except asyncio.TimeoutError:
                            break
                await asyncio.sleep(rnd.uniform(0.5, 2.0))
            except (OSError, WebSocketException):
                await asyncio.sleep(0.5)

    await asyncio.gather(*(one(random.Random(i)) for i in range(n)))
    return tuple(counts)


def _crowd_process(url, code, n, seconds, out) -> None:
    out.put(asyncio.run(spectators(url, code, n, seconds)))


async def _timed_table(url: str, seconds: float, busy: dict) -> list:
    """A 4-seat table answering at once for `seconds`, beside `busy`'s human seat answering every 0.2 s:
    the 4-seat table's answer-to-state times (ms)."""
    times: list = []
    loop = asyncio.get_running_loop()
    until = loop.time() + seconds

    async def games():  # (one after the other until the time is up)
        while loop.time() < until:
            quiet = await request(url, {"type": "create", "ruleset": "capital_jux", "players": 4,
                                        "seats": ["human"] * 4}, "created")
            await asyncio.gather(*(seat_player(url, c, random.Random(i), until, times)
                                   for i, c in enumerate(quiet["codes"].values())))

    await asyncio.gather(games(), seat_player(url, busy["codes"]["0"], random.Random(9), until, [], pause=0.2))
    return times


def crowd_rows(seconds: float, n: int) -> list:
    """(label, answers, p99 ms, worst ms, joins taken, joins refused, the server's CPU %, the crowd's
    CPU %) without the crowd, with it under the default caps, and with it and no cap on joins a
    second."""
    rows = []
    for label, crowd, options in [("no crowd", 0, ()), (f"{n} spectators, default caps", n, ()),
                                  (f"{n} spectators, no joins cap", n, ("--joins-per-second", "0"))]:
        with tempfile.TemporaryDirectory(prefix="jux-bench-crowd-") as tmp:
            proc, url = start(Path(tmp), 0, *options)
            try:
                busy = asyncio.run(request(url, {"type": "create", "ruleset": "capital_jux", "players": 4,
                                                 "seats": ["human", "random", "random", "random"]}, "created"))
                out = multiprocessing.Queue()
                others = multiprocessing.Process(target=_crowd_process, args=(url, busy["spectate"], crowd, seconds + 1, out))
                others.start()
                time.sleep(1.0 if crowd else 0)  # (the crowd is there before the table is timed)
                cpu0, crowd0 = cpu_seconds(proc.pid), cpu_seconds(others.pid)
                try:
                    times = asyncio.run(_timed_table(url, seconds, busy))
                except (OSError, asyncio.TimeoutError) as e:  # (a server that stalls: no table to time)
                    times = [f"stalled: {e or type(e).__name__}"]
                times = times or [f"stalled: no answer acknowledged in {seconds:g} s"]
                cpu, crowd_cpu = cpu_seconds(proc.pid) - cpu0, cpu_seconds(others.pid) - crowd0
                joins = out.get(timeout=60)
                others.join()
            finally:
                proc.kill()
                proc.wait()
        if isinstance(times[0], str):
            rows.append((label, times[0], None, None, *joins, cpu / seconds * 100, crowd_cpu / seconds * 100))
            continue
        q = statistics.quantiles(times, n=100) if len(times) > 1 else times * 99
        rows.append((label, len(times), q[98], max(times), *joins, cpu / seconds * 100, crowd_cpu / seconds * 100))
    return rows


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--seconds", type=float, default=None, help="seconds of load at each step (default 10)")
    ap.add_argument("--most", type=int, default=64, help="most tables tried (default 64)")
    ap.add_argument("--restart-tables", type=int, default=None, help="tables killed and restarted (default 100)")
    ap.add_argument("--crowd", type=int, default=200, help="spectators joining and leaving (default 200)")
    ap.add_argument("--crowd-only", action="store_true", help="only the crowd's measure (3.)")
    args = ap.parse_args(argv)
    seconds = args.seconds or (3 if args.quick else 10)
    print(f"a 4-seat table answering at once while {args.crowd} spectators join and leave another ({seconds:g} s):")
    print(f"{'':>32} {'answers':>8} {'p99 ms':>8} {'worst ms':>9} {'joins':>6} {'refused':>8} {'server CPU':>11} "
          f"{'crowd CPU':>10}")
    for label, n, p99, worst, taken, refused, cpu, crowd_cpu in crowd_rows(seconds, args.crowd):
        if p99 is None:
            print(f"{label:>32} {n}; {taken} joins, {refused} refused, server CPU {cpu:.0f}%")
            continue
        print(f"{label:>32} {n:>8} {p99:>8.1f} {worst:>9.1f} {taken:>6} {refused:>8} {cpu:>10.0f}% {crowd_cpu:>9.0f}%")
    if args.crowd_only:
        return 0
    rows, base_mb, per_table = load_rows(seconds, 8 if args.quick else args.most)
    print(f"one `jux serve`, 4-seat Capital Jux tables, every seat a client answering at once ({seconds:g} s a step):")
    print(f"{'tables':>7} {'answers':>8} {'median ms':>10} {'p99 ms':>8} {'CPU ms/answer':>14} {'RSS MB':>7}")
    for t, n, med, p99, cpu, mb in rows:
        print(f"{t:>7} {n:>8} {med:>10.1f} {p99:>8.1f} {cpu:>14.2f} {mb:>7.0f}")
    held = [r[0] for r in rows if r[3] <= LIMIT_MS]
    print(f"tables held with p99 under {LIMIT_MS:.0f} ms: {max(held) if held else 0}; "
          f"server memory {base_mb:.0f} MB idle, about {per_table:.2f} MB a table")
    n = args.restart_tables or (20 if args.quick else 100)
    resumed, back = asyncio.run(restart_check(n))
    print(f"kill -9 and restart with {n} tables mid-game: {resumed} of {n} resumed with every "
          f"acknowledged answer (restart took {back:.1f} s)")
    return 0 if resumed == n else 1


if __name__ == "__main__":
    sys.exit(main())
