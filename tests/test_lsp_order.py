"""`jux lsp` with many files open (issue 38): every open file gets its diagnostics, each target
(a ruleset, a variant file) published as soon as it is checked; after edits, the file edited last
first; a result checked on a text that has changed since is never published over the newer one;
a ruleset whose files did not change is not checked again. Over a real `jux lsp` (the client of
tests/test_lsp.py), and the queue (lsp/schedule.py) alone with a check that waits to be let go."""
from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
import shutil
import threading
from pathlib import Path

from jux.interpreter.lsp import reports, schedule

from test_lsp import TILE, Session, session_run

ROOT = Path(__file__).resolve().parent.parent
MARK = "order_unknown_name"


def broken(text: str, n: int) -> str:
    """A rule file's text with a procedure that uses an unknown name (n tells the texts apart)."""
    return text.replace("\nprocedures:\n", f"\nprocedures:\n  order_probe{n}: |\n    let x = {MARK}{n}\n", 1)


def rulesets(tmp_path: Path) -> dict:
    """Two rulesets (copies of Capital Jux; the second with a file of its own besides), a tile of
    the built-in Capital Jux and a YAML file that is no rule file: name -> (path, text)."""
    out = {}
    for name in ("a", "b"):
        shutil.copytree(ROOT / "rules" / "capital_jux", tmp_path / name,
                        ignore=shutil.ignore_patterns("scenarios", "__pycache__"))
        out[name] = tmp_path / name / "game.yaml"
    (tmp_path / "b" / "extra.yaml").write_text("constants:\n  order_extra: 1\n", encoding="utf-8")
    out["b_extra"] = tmp_path / "b" / "extra.yaml"
    (tmp_path / "tile.yaml").write_text(TILE, encoding="utf-8")
    out["tile"] = tmp_path / "tile.yaml"
    (tmp_path / "notes.yaml").write_text("- a\n- b\n", encoding="utf-8")
    out["notes"] = tmp_path / "notes.yaml"
    return {k: (p, p.read_text(encoding="utf-8")) for k, p in out.items()}


def test_every_open_file_is_told_and_the_file_edited_last_first(tmp_path):
    files = rulesets(tmp_path)

    async def body(s: Session, init):
        uris = {k: s.open(p, text) for k, (p, text) in files.items()}
        told = await asyncio.wait_for(_all_told(s, set(uris.values())), 120)
        assert set(told) == set(uris.values())
        assert all(ds == [] for ds in told.values())  # (all of them good)

        # an error in each ruleset: a's game first, then b's own file, at once
        since = len(s.published)
        s.change(uris["a"], 2, broken(files["a"][1], 1))
        s.change(uris["b_extra"], 2, "constants: [1]\n")
        await s.diagnostics(uris["a"], lambda ds: any(f"{MARK}1" in d.message for d in ds))
        after = [u for u, _ in s.published[since:]]
        # b's files first (the one edited first of them), then a's; the tile and the notes are not
        # checked again (nothing they read changed)
        assert after[:3] == [uris["b_extra"], uris["b"], uris["a"]], after
        assert uris["tile"] not in after and uris["notes"] not in after
        b_said = dict(s.published[since:since + 2])
        assert "constants" in b_said[uris["b_extra"]][0].message and b_said[uris["b"]] == []

    session_run(tmp_path, body)


async def _all_told(s: Session, uris: set) -> dict:
    while True:
        told = {u: ds for u, ds in s.published if u in uris}
        if set(told) == uris:
            return told
        async with s.arrived:
            await s.arrived.wait()


def test_a_text_replaced_before_its_check_ends_is_never_published(tmp_path):
    files = rulesets(tmp_path)
    path, text = files["a"]

    async def body(s: Session, init):
        uri = s.open(path, text)  # checked at once ...
        for version in range(2, 6):  # ... but changed while it is: four texts in a row
            s.change(uri, version, broken(text, version) if version % 2 else text)
        await s.diagnostics(uri, lambda ds: any(f"{MARK}5" in d.message for d in ds))
        await asyncio.sleep(2)  # (time for a stale result to come, if one came)
        mine = [ds for u, ds in s.published if u == uri]
        assert mine and all(any(f"{MARK}5" in d.message for d in ds) for ds in mine), mine

    session_run(tmp_path, body)


# ---------------------------------------------------------------- the queue alone


class FakeServer:
    """What schedule.Checks asks of the server, with a check that waits to be let go."""

    def __init__(self, texts: dict):
        self.texts = texts
        self.checker = ThreadPoolExecutor(1)
        self.published: list = []  # (the text the report was made of, [files])
        self.go = threading.Event()
        self.started = threading.Event()
        self.checked: list = []

    def open_texts(self) -> dict:
        return dict(self.texts)

    def check_one(self, path, target, texts, stop=None):
        self.checked.append(texts[path])
        self.started.set()
        self.go.wait(30)  # (a check with no stop point left: it ends, stale)
        return (texts[path],)  # (a report: what it was made of)

    def publish(self, report, docs):
        self.published.append((report[0], list(docs)))


def test_a_check_overtaken_by_an_edit_is_not_published_and_the_newer_text_is(tmp_path):
    folder = tmp_path / "g"
    folder.mkdir()
    game = folder / "game.yaml"
    game.write_text("game: {name: g}\n", encoding="utf-8")
    path = reports.real(game)
    server = FakeServer({path: "game: {name: g}\n"})

    async def main():
        checks = schedule.Checks(server)
        worker = asyncio.get_running_loop().create_task(checks.run())
        checks.touch(path, server.texts[path])
        await asyncio.get_running_loop().run_in_executor(None, server.started.wait, 30)
        server.texts[path] = "game: {name: g2}\n"  # the author types while it is checked
        checks.touch(path, server.texts[path], schedule.DELAY, edit=True)
        server.go.set()
        for _ in range(300):
            if server.published:
                break
            await asyncio.sleep(0.05)
        await asyncio.sleep(0.3)
        # the same texts again: kept by content, told again (it was touched), not checked again
        server.texts[path] = "game: {name: g}\n"
        checks.touch(path, server.texts[path], 0, edit=True)
        for _ in range(100):
            if len(server.published) > 1:
                break
            await asyncio.sleep(0.05)
        worker.cancel()
        return checks

    asyncio.run(main())
    assert server.checked == ["game: {name: g}\n", "game: {name: g2}\n"]  # (each text once)
    assert server.published == [("game: {name: g2}\n", [path]), ("game: {name: g}\n", [path])]
