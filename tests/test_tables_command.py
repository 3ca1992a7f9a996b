"""`jux tables` (issue 39): the real command lists a server's open tables, and what it shows tells
nobody a secret. Two tables of docs/examples/secret_bids (secret chips, sealed bids, hidden sizes)
are played alike but for seat 2's sealed bid: their lines read the same but for the table's id,
and no seat's or spectator's code, card or number of chips appears in them."""
from __future__ import annotations

import asyncio
import re
import subprocess
from pathlib import Path

from server_helpers import JUX, Raw, create, start_serve, stop_serve

EXAMPLE = str(Path(__file__).resolve().parent.parent / "docs" / "examples" / "secret_bids")


async def _play(url: str, bid: int) -> tuple:
    """A 2-seat table of secret_bids: both pass the peek, seat 1 bids nothing and seat 2 `bid`
    chips (it wins the card either way); (the table's id, its codes)."""
    created = await create(url, "secret_bids", ["human", "human"])
    codes = {int(s): c for s, c in created["codes"].items()}
    clients = {}
    for seat, code in codes.items():
        clients[seat] = c = await Raw.open(url)
        await c.send({"v": 1, "type": "hello", "code": code})
        await c.until("welcome")
    for seat, prompt, pick in ((0, "Pay a chip", "pass"), (1, "Pay a chip", "pass"), (0, "sealed bid", 0), (1, "sealed bid", bid)):
        c = clients[seat]
        state = await c.until_state(lambda s: any(prompt in d["prompt"] for d in s["decisions"]))
        d = next(d for d in state["decisions"] if prompt in d["prompt"])
        labels = [o["label"] for o in d["options"]]
        await c.answer(d["id"], labels.index(pick) if isinstance(pick, str) else pick)  # (a bid's option is its number)
    await clients[0].until_state(lambda s: s["view"]["counters"]["round"] == 2 and s["decisions"])
    for c in clients.values():
        await c.close()
    return created["table"], codes, created.get("spectate")


def test_jux_tables_lists_the_tables_and_no_secret(tmp_path):
    proc, url = start_serve(tmp_path, "--rules", EXAMPLE)
    try:
        (a, codes_a, spectate_a), (b, codes_b, spectate_b) = asyncio.run(_both(url))
        listed = subprocess.run([JUX, "tables", "--server", url], capture_output=True, text=True, timeout=60)
        assert listed.returncode == 0, listed.stderr
        lines = {t: [line for line in listed.stdout.splitlines() if line.startswith(str(t))] for t in (a, b)}
        assert len(lines[a]) == len(lines[b]) == 1, listed.stdout
        line_a, line_b = lines[a][0], lines[b][0]
        assert "secret_bids" in line_a and "playing" in line_a and "4 answers" in line_a
        assert line_a[len(str(a)):] == line_b[len(str(b)):]  # the same but for the id
        for code in [*codes_a.values(), *codes_b.values(), spectate_a, spectate_b]:
            assert code and code not in listed.stdout
        assert not re.search(r"chip|\bbid\b|deck|won", listed.stdout)
    finally:
        assert "Traceback" not in stop_serve(proc)


async def _both(url):
    return await _play(url, 1), await _play(url, 3)
