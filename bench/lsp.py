"""How soon `jux lsp` tells the file being edited its errors with many files open (issue 38):
`make bench` runs it.

Usage: python bench/lsp.py [--files N] [--games G,G,...] [--edits E] [--json]

A real `jux lsp` (a subprocess, driven over stdio by pygls's client: JSON-RPC frames, as an editor
sends them) gets N rule files opened at once: copies of the built-in games' files (G: guildhall,
capital_jux, bruges, taken in turn), each copy its own ruleset folder in a temporary folder, so
nothing is shared between them but the server. Then:

1. busy: as soon as they are opened, one file is edited (a line with an unknown name added to its
   procedures): the seconds from the change to its diagnostics (what the author waits for while
   the server still checks the other files);
2. all: the seconds from opening to every file having its diagnostics;
3. steady: E more edits of that file, once all are checked, alternately mending and breaking it
   again (the probe's two lines taken away or added: most of its code moves): the seconds from
   each change to the diagnostics that tell it.

The machine is shared: figures vary from one minute to the next. Nothing here is asserted.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

from lsprotocol import types as t
from pygls.lsp.client import LanguageClient
from pygls.uris import from_fs_path

ROOT = Path(__file__).resolve().parent.parent
MARK = "bench_unknown_name"
TIMEOUT = 600


def broken(text: str, n: int) -> str:
    """text with a procedure added first in its procedures, using an unknown name (n makes each
    edit another text)."""
    return text.replace("\nprocedures:\n", f"\nprocedures:\n  bench_probe{n}: |\n    let x = {MARK}{n}\n", 1)


class Client:
    def __init__(self):
        self.client = LanguageClient("jux-bench", "1")
        self.arrived = asyncio.Condition()
        self.published: list = []  # (seconds since start, uri, messages)

        @self.client.feature(t.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        async def on_diagnostics(params: t.PublishDiagnosticsParams):
            async with self.arrived:
                self.published.append((time.perf_counter(), params.uri, [d.message for d in params.diagnostics]))
                self.arrived.notify_all()

    async def start(self, cwd: Path):
        await self.client.start_io(sys.executable, "-m", "jux", "lsp", cwd=str(cwd))
        await self.client.initialize_async(t.InitializeParams(capabilities=t.ClientCapabilities(),
                                                              root_uri=from_fs_path(str(cwd))))
        self.client.initialized(t.InitializedParams())

    async def until(self, fits, since: int = 0, every: int = 1) -> float:
        """The time of the first publication from index since on for which fits(uri, messages)
        (every: the first by which that many files had one that fits)."""
        def found():
            told = set()
            for at, uri, ms in self.published[since:]:
                if fits(uri, ms):
                    told.add(uri)
                    if len(told) >= every:
                        return at
            return None

        async with self.arrived:
            await asyncio.wait_for(self.arrived.wait_for(lambda: found() is not None), TIMEOUT)
        return found()

    def open(self, path: Path, text: str) -> str:
        uri = from_fs_path(str(path))
        self.client.text_document_did_open(t.DidOpenTextDocumentParams(
            t.TextDocumentItem(uri=uri, language_id="yaml", version=1, text=text)))
        return uri

    def change(self, uri: str, version: int, text: str) -> float:
        self.client.text_document_did_change(t.DidChangeTextDocumentParams(
            t.VersionedTextDocumentIdentifier(uri=uri, version=version),
            [t.TextDocumentContentChangeWholeDocument(text=text)]))
        return time.perf_counter()

    async def stop(self):
        try:
            await asyncio.wait_for(self.client.shutdown_async(None), 60)
            self.client.exit(None)
            await asyncio.wait_for(self.client.stop(), 60)
        finally:
            server = self.client._server
            if server is not None and server.returncode is None:
                server.kill()
                await server.wait()


def copies(folder: Path, n: int, games: list) -> list:
    """n rule files, copies of the games' game.yaml in turn, each in a ruleset folder of its own."""
    out = []
    for i in range(n):
        game = games[i % len(games)]
        d = folder / f"{game}_{i + 1:02d}"
        shutil.copytree(ROOT / "rules" / game, d, ignore=shutil.ignore_patterns("scenarios", "__pycache__"))
        out.append(d / "game.yaml")
    return out


async def measure(n: int, games: list, edits: int) -> dict:
    with tempfile.TemporaryDirectory(prefix="jux-bench-lsp-") as tmp:
        files = copies(Path(tmp), n, games)
        texts = {f: f.read_text(encoding="utf-8") for f in files}
        c = Client()
        await c.start(Path(tmp))
        try:
            opened = time.perf_counter()
            uris = {f: c.open(f, texts[f]) for f in files}
            edited = files[0]  # (opened first: checked last, but for the edit)
            uri, text = uris[edited], texts[edited]
            since = len(c.published)
            sent = c.change(uri, 2, broken(text, 0))
            busy = await c.until(lambda u, ms: u == uri and any(f"{MARK}0" in m for m in ms), since) - sent
            everyone = await c.until(lambda u, ms: True, every=len(files)) - opened
            steady = []
            for k in range(1, edits + 1):
                since = len(c.published)
                if k % 2:  # mended: the probe's lines taken away (the code below them moves up)
                    new, fits = text, (lambda ms: ms == [])
                else:  # broken again: lines added above most of the code
                    new, fits = broken(text, k), (lambda k: lambda ms: any(f"{MARK}{k}" in m for m in ms))(k)
                sent = c.change(uri, k + 2, new)
                steady.append(await c.until(lambda u, ms: u == uri and fits(ms), since) - sent)
        finally:
            await c.stop()
    return {"files": n, "games": games, "busy_edit_seconds": round(busy, 3),
            "all_checked_seconds": round(everyone, 3),
            "steady_edit_seconds": [round(s, 3) for s in steady]}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--files", type=int, default=30)
    ap.add_argument("--games", default="guildhall,capital_jux,bruges")
    ap.add_argument("--edits", type=int, default=8)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    games = [g.strip() for g in args.games.split(",") if g.strip()]
    r = asyncio.run(measure(args.files, games, args.edits))
    if args.json:
        print(json.dumps(r))
        return 0
    s = r["steady_edit_seconds"]
    print(f"jux lsp, {r['files']} files open ({', '.join(games)}, each copy a ruleset of its own):")
    print(f"  an edit as they open: its diagnostics in {r['busy_edit_seconds']:.2f} s")
    print(f"  every file checked:   {r['all_checked_seconds']:.2f} s after opening")
    if s:
        print(f"  edits once all are checked: median {statistics.median(s):.2f} s, worst {max(s):.2f} s "
              f"({len(s)} edits)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
