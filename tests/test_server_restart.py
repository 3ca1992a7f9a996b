"""`jux serve` killed with SIGKILL mid-game and started again on the same data folder: the clients
come back with their codes and find the game exactly where it was (view, decisions, log)."""
import asyncio
import random
import re
import signal
import subprocess

from server_helpers import JUX, Raw, create, random_choice, start_serve, stop_serve


async def _join(url, codes, check) -> dict:
    """A client of each seat, once its last state holds check."""
    clients = {}
    for seat, code in codes.items():
        clients[seat] = c = await Raw.open(url)
        await c.send({"v": 1, "type": "hello", "code": code})
        await c.until("welcome")
    for c in clients.values():
        await c.until_state(check)
    return clients


def _where(c: Raw) -> tuple:
    """What a client knows of the game: its last view and decisions, and its whole log."""
    states = c.states()
    log = [line for s in states for line in s["log"]]
    last = states[-1]
    return last["view"], last["decisions"], log, last["seats"]


def test_a_killed_server_brings_every_table_back_exactly(tmp_path):
    proc, url = start_serve(tmp_path)
    try:
        async def first():
            created = await create(url, "capital_jux", ["human", "human", "random"],
                                   ["merchant", "cleric", "agent", "scholar"])
            codes = {int(s): c for s, c in created["codes"].items()}
            clients = await _join(url, codes, lambda s: s["started"])
            rnd = random.Random(3)
            for _ in range(16):  # answer one decision at a time, each stored before it shows
                seat, c = next(((s, c) for s, c in clients.items() if c.states()[-1]["decisions"]), (None, None))
                if c is None:
                    break
                d = c.states()[-1]["decisions"][0]
                seen = {x: len(x.states()) for x in clients.values()}
                await c.answer(d["id"], random_choice(d, rnd))
                while (reply := await c.recv())["type"] not in ("state", "error"):  # its acknowledgement
                    pass
                if reply["type"] == "state":  # (taken: each seat is sent its state)
                    for x in clients.values():
                        await x.more_states(seen[x])
            assert not [e for c in clients.values() for e in c.errors() if e["code"] != "illegal_answer"]
            return codes, {s: _where(c) for s, c in clients.items()}, {s: c.seq for s, c in clients.items()}

        codes, before, seqs = asyncio.run(first())
        assert any(len(b[2]) > 5 for b in before.values())
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait()
    proc, url = start_serve(tmp_path)
    try:
        async def second():
            clients = {}
            for seat, code in codes.items():
                clients[seat] = c = await Raw.open(url)
                await c.send({"v": 1, "type": "hello", "code": code})
                welcome = await c.until("welcome")
                assert welcome["seq"] == (seqs[seat] or None)
            for c in clients.values():  # (each sees the others come back)
                await c.until_state(lambda s: all(x["connected"] for x in s["seats"]))
            return {s: _where(c) for s, c in clients.items()}, clients

        after, clients = asyncio.run(second())
        for seat in codes:
            view, decisions, log, seats = after[seat]
            assert (view, decisions, log) == before[seat][:3]
            assert all(s["connected"] for s in seats)
        # the commands that talk to a server: the table is listed; a new one gets its codes
        listed = subprocess.run([JUX, "tables", "--server", url], capture_output=True, text=True, timeout=60)
        assert listed.returncode == 0 and "capital_jux with merchant" in listed.stdout and "playing" in listed.stdout
        hosted = subprocess.run([JUX, "host", "guildhall", "--server", url, "--seat", "human", "--seat", "human",
                                 "--seat", "greedy", "--timer", "60", "--away", "300"], capture_output=True, text=True, timeout=60)
        assert hosted.returncode == 0, hosted.stderr
        assert re.findall(r"seat (\d) \(Player (\d)\): [\w-]{32}", hosted.stdout) == [("1", "1"), ("2", "2")]
        assert re.search(r"spectators: [\w-]{32}", hosted.stdout)
        bad = subprocess.run([JUX, "host", "nogame", "--server", url], capture_output=True, text=True, timeout=60)
        assert bad.returncode == 1 and "not a ruleset of this server" in bad.stderr and "Traceback" not in bad.stderr
        gone = subprocess.run([JUX, "tables", "--server", "ws://127.0.0.1:1"], capture_output=True, text=True,
                              timeout=60)
        assert gone.returncode == 1 and "cannot talk to the server" in gone.stderr and len(gone.stderr.splitlines()) == 1
    finally:
        assert "Traceback" not in stop_serve(proc)


def test_table_clients_come_back_by_themselves_after_a_restart_on_the_same_port(tmp_path):
    from jux.interpreter.server.client import TableClient

    proc, url = start_serve(tmp_path)
    port = url.rsplit(":", 1)[1]
    procs = [proc]

    async def until(c, check, timeout=30):
        """Take c's messages until its last state holds check."""
        end = asyncio.get_running_loop().time() + timeout
        while c.state is None or not check(c.state):
            await asyncio.wait_for(c.next(), max(0.0, end - asyncio.get_running_loop().time()))

    async def main():
        created = await create(url, "guildhall", ["human", "human", "random"])
        clients = {int(s): TableClient(url, code) for s, code in created["codes"].items()}
        for c in clients.values():
            await c._connect()
        for c in clients.values():
            await until(c, lambda s: s["started"])
        rnd = random.Random(4)
        for _ in range(8):
            c = next(c for c in clients.values() if c.state["decisions"])
            d = c.state["decisions"][0]
            last = {x: x.state for x in clients.values()}
            await c.answer(d["id"], random_choice(d, rnd))
            if (await asyncio.wait_for(c.next(), 30))["type"] == "state":  # (taken: each seat is sent its state)
                for x in clients.values():
                    await until(x, lambda s: s is not last[x])
        before = {s: (c.state["view"], c.state["decisions"], list(c.log), c.seq) for s, c in clients.items()}
        procs[0].send_signal(signal.SIGKILL)
        procs[0].wait()
        procs.append(_start_on(tmp_path, port))
        for s, c in clients.items():  # each finds the server again by itself, and the game where it was
            msg = await asyncio.wait_for(c.next(), 60)
            assert msg["type"] == "state"
            assert (c.state["view"], c.state["decisions"], c.log, c.seq) == before[s]
        c = next(c for c in clients.values() if c.state["decisions"])
        d = c.state["decisions"][0]
        await c.answer(d["id"], random_choice(d, rnd))  # its seq goes on from before the restart
        msg = await asyncio.wait_for(c.next(), 30)
        assert msg["type"] == "state" or msg["code"] == "illegal_answer", msg
        for c in clients.values():
            await c.close()

    try:
        asyncio.run(main())
    finally:
        for p in procs:
            p.kill()
            p.wait()
            assert "Traceback" not in p.stderr.read()


def _start_on(data, port):
    proc = subprocess.Popen([JUX, "serve", "--port", port, "--data", str(data)], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    line = proc.stderr.readline()
    assert "listening on" in line and "1 brought back" in line, line
    return proc
