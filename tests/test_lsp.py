"""`jux lsp`, the language server, driven for real over stdio (pygls's LanguageClient starts
`python -m jux lsp`): initialize, didOpen and didChange of an author's tile and of a
ruleset's file, the diagnostics `jux validate` gives (at exact LSP positions, UTF-16), completion,
hover and go to definition; bad input gives a diagnostic and the server stays up."""
from __future__ import annotations

import asyncio
import sys
from pathlib import Path

from lsprotocol import types as t
from pygls.lsp.client import LanguageClient
from pygls.uris import from_fs_path

from jux.interpreter.language.builtins import BUILTINS
from jux.interpreter.engine.ruleset import load_ruleset
from jux.interpreter.lsp.words import BUILTIN_DOCS, describe, keywords

ROOT = Path(__file__).resolve().parent.parent
GAME = ROOT / "rules" / "capital_jux" / "game.yaml"
POWER_TILES = ROOT / "variants" / "capital_jux" / "power_tiles.yaml"
TIMEOUT = 60

TILE = """\
variant:
  name: lsp_probe
  game: capital_jux
  requires: [power_tiles]
  overrides: [setup]
  text: A probe tile.
slots:
  power: {blue: probe_power}
procedures:
  setup: |
    previous()
    log "the probe is ready: {len(deck)} cards"
  probe_power(p, card):
    text: >
      PROBE: gain one gold
      from the pile.
    do: |
      gold[p] += 1
      log "🎲 {p} gains {gold[p]} gold"
"""


class Session:
    """A client talking to `jux lsp` in a subprocess; diagnostics kept as they arrive."""

    def __init__(self):
        self.client = LanguageClient("jux-test", "1")
        self.published: list = []  # (uri, diagnostics) in order
        self.arrived = asyncio.Condition()

        @self.client.feature(t.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        async def on_diagnostics(params: t.PublishDiagnosticsParams):
            async with self.arrived:
                self.published.append((params.uri, list(params.diagnostics)))
                self.arrived.notify_all()

    async def start(self, cwd: Path) -> t.InitializeResult:
        await self.client.start_io(sys.executable, "-m", "jux", "lsp", cwd=str(cwd))
        result = await asyncio.wait_for(self.client.initialize_async(t.InitializeParams(
            capabilities=t.ClientCapabilities(), root_uri=from_fs_path(str(cwd)))), TIMEOUT)
        self.client.initialized(t.InitializedParams())
        return result

    async def diagnostics(self, uri: str, fits) -> list:
        """The first diagnostics published for uri (from now on) for which fits(diagnostics)."""
        seen = len(self.published)

        def found():
            return next((ds for u, ds in self.published[seen:] if u == uri and fits(ds)), None)

        async with self.arrived:
            await asyncio.wait_for(self.arrived.wait_for(lambda: found() is not None), TIMEOUT)
        return found()

    def open(self, path: Path, text: str) -> str:
        uri = from_fs_path(str(path))
        self.client.text_document_did_open(t.DidOpenTextDocumentParams(
            t.TextDocumentItem(uri=uri, language_id="yaml", version=1, text=text)))
        return uri

    def change(self, uri: str, version: int, text: str) -> None:
        self.client.text_document_did_change(t.DidChangeTextDocumentParams(
            t.VersionedTextDocumentIdentifier(uri=uri, version=version),
            [t.TextDocumentContentChangeWholeDocument(text=text)]))

    async def completion(self, uri, line, character) -> list:
        r = await asyncio.wait_for(self.client.text_document_completion_async(t.CompletionParams(
            t.TextDocumentIdentifier(uri), t.Position(line, character))), TIMEOUT)
        return r.items if isinstance(r, t.CompletionList) else r

    async def hover(self, uri, line, character):
        return await asyncio.wait_for(self.client.text_document_hover_async(t.HoverParams(
            t.TextDocumentIdentifier(uri), t.Position(line, character))), TIMEOUT)

    async def definition(self, uri, line, character):
        return await asyncio.wait_for(self.client.text_document_definition_async(t.DefinitionParams(
            t.TextDocumentIdentifier(uri), t.Position(line, character))), TIMEOUT)

    async def stop(self) -> None:
        try:
            await asyncio.wait_for(self.client.shutdown_async(None), TIMEOUT)
            self.client.exit(None)
            await asyncio.wait_for(self.client.stop(), TIMEOUT)
        finally:  # a test that failed leaves no server behind
            server = self.client._server
            if server is not None and server.returncode is None:
                server.kill()
                await server.wait()


def session_run(tmp_path, body):
    async def main():
        s = Session()
        try:
            await body(s, await s.start(tmp_path))
            assert s.client._server.returncode is None  # still up after all that
        finally:
            await s.stop()
        assert s.client._server.returncode == 0
        said = (await s.client._server.stderr.read()).decode()
        assert "Traceback" not in said and "Error" not in said, said  # nothing failed inside
    asyncio.run(main())


def where(text: str, needle: str, nth: int = 0) -> tuple:
    """0-based (line, character in code points) of the nth occurrence of needle in text."""
    at = -1
    for _ in range(nth + 1):
        at = text.index(needle, at + 1)
    line = text.count("\n", 0, at)
    return line, at - (text.rfind("\n", 0, at) + 1)


def validate(path: Path, capsys) -> list:
    """What `jux validate PATH` prints on stderr for the saved file, one line each."""
    from jux.interpreter.cli.main import main

    capsys.readouterr()
    main(["validate", str(path)])
    return capsys.readouterr().err.splitlines()


def test_a_tile_is_checked_completed_hovered_and_followed(tmp_path, capsys):
    tile = tmp_path / "probe.yaml"
    broken = TILE.replace("{gold[p]} gold", "{gold[q]} gold")
    tile.write_text(broken, encoding="utf-8")
    said = validate(tile, capsys)
    assert said[0].startswith(f"{tile}:19:30: ") and "'q'" in said[0]  # 1-based, in characters
    tile.write_text(TILE, encoding="utf-8")
    rules = load_ruleset("capital_jux", [str(tile)])  # what the tile loads with (its defaults too)
    tile.write_text(broken, encoding="utf-8")
    game, tiles = GAME.read_text(encoding="utf-8"), POWER_TILES.read_text(encoding="utf-8")

    async def body(s: Session, init: t.InitializeResult):
        caps = init.capabilities
        assert caps.hover_provider and caps.definition_provider
        assert "." in caps.completion_provider.trigger_characters
        uri = s.open(tile, broken)
        ds = await s.diagnostics(uri, lambda ds: len(ds) > 0)
        assert [d.message for d in ds] == [said[0].split(": ", 1)[1]]  # what `jux validate` says
        # line 19, column 30 of jux; in LSP 0-based UTF-16 units, the die (one character, two units) counts 2
        assert ds[0].range == t.Range(t.Position(18, 30), t.Position(18, 31))
        assert ds[0].severity == t.DiagnosticSeverity.Error and ds[0].source == "jux"

        # the unsaved text is checked (the file on disk keeps its error): fixed, then broken elsewhere
        s.change(uri, 2, TILE)
        assert await s.diagnostics(uri, lambda ds: ds == []) == []
        half = TILE.replace("gold[p] += 1", "gold[p] += len(")
        s.change(uri, 3, half)
        ds = await s.diagnostics(uri, lambda ds: len(ds) > 0)
        assert len(ds) == 1 and ds[0].message.startswith("syntax error")
        assert ds[0].range.start.line == where(half, "log \"🎲")[0]  # the code ends where 'log' is met
        s.change(uri, 4, TILE)
        assert await s.diagnostics(uri, lambda ds: ds == []) == []

        # completion: the ruleset's and the tiles' names, the attributes, built-ins and keywords
        line, col = where(TILE, "gold[p] += 1")
        labels = {i.label: i for i in await s.completion(uri, line, col + 2)}
        for name in [*rules.spec.zones, *rules.spec.counters, *rules.spec.marks, *rules.spec.procedures,
                     *rules.spec.functions, *BUILTINS, *keywords(), "probe_power", "value", "colour"]:
            if "__prev" not in name:
                assert name in labels, name
        variables = {name for name, i in labels.items() if i.kind == t.CompletionItemKind.Variable}
        assert variables == set(rules.spec.zones) | set(rules.spec.counters)  # (none a variant removes)
        assert labels["hand"].kind == t.CompletionItemKind.Variable and labels["hand"].detail == "zone hand"
        assert labels["probe_power"].detail == "procedure probe_power(p, card)"
        assert labels["choose"].kind == t.CompletionItemKind.Keyword
        # after a dot: the card attributes and marks only
        dotted = TILE.replace("gold[p] += 1", "gold[p] += card.")
        s.change(uri, 5, dotted)
        line, col = where(dotted, "card.")
        after = {i.label for i in await s.completion(uri, line, col + 5)}
        assert {"value", "colour", "kind"} <= after and "hand" not in after and "len" not in after
        s.change(uri, 6, TILE)
        await s.diagnostics(uri, lambda ds: ds == [])

        # hover: a procedure's rule text, a built-in's description, a zone
        line, col = where(TILE, "power: {blue: probe_power}")
        h = await s.hover(uri, line, col + 16)
        assert "probe_power(p, card)" in h.contents.value and "PROBE: gain one gold from the pile." in h.contents.value
        line, col = where(TILE, "len(deck)")
        assert (await s.hover(uri, line, col + 1)).contents.value == describe("len")
        assert "The number of items" in describe("len")

        # definition: a counter used in the tile is in the ruleset's file, at its key
        line, col = where(TILE, "gold[p] += 1")
        loc = await s.definition(uri, line, col + 1)
        gl, _ = where(game, "\n  gold:")
        assert loc.uri == from_fs_path(str(GAME))
        assert loc.range == t.Range(t.Position(gl + 1, 2), t.Position(gl + 1, 6))
        # a zone the power tiles' edition defines again: the definition in effect, in that file
        line, col = where(TILE, "len(deck)")
        loc = await s.definition(uri, line, col + 5)
        zl, _ = where(tiles, "\n  deck:")
        assert loc.uri == from_fs_path(str(POWER_TILES))
        assert loc.range == t.Range(t.Position(zl + 1, 2), t.Position(zl + 1, 6))
        # `previous` in the tile's setup: the setup it replaces (the power tiles' edition's)
        line, col = where(TILE, "previous()")
        loc = await s.definition(uri, line, col + 3)
        pl, _ = where(tiles, "\n  setup:")
        assert loc.uri == from_fs_path(str(POWER_TILES))
        assert loc.range == t.Range(t.Position(pl + 1, 2), t.Position(pl + 1, 7))
        h = await s.hover(uri, line, col + 3)
        assert f"{POWER_TILES}:{pl + 2}:3" in h.contents.value
        # on the tile's own definition of setup: what it overrides, too
        line, col = where(TILE, "  setup: |")
        assert (await s.definition(uri, line, col + 3)).range.start.line == pl + 1

    session_run(tmp_path, body)


def test_a_rule_file_of_a_ruleset_is_checked_from_the_editors_text(tmp_path, capsys):
    game = GAME.read_text(encoding="utf-8")
    line, col = where(game, "shuffle deck")
    broken = game.replace("shuffle deck", "shuffle dek", 1)
    copy = tmp_path / "rules" / "mine" / "game.yaml"
    copy.parent.mkdir(parents=True)
    copy.write_text(broken, encoding="utf-8")
    said = validate(copy, capsys)[0]
    assert said.startswith(f"{copy}:{line + 1}:{col + 9}: ") and "'dek'" in said
    message = said.split(": ", 1)[1]

    async def body(s: Session, init):
        uri = s.open(GAME, broken)  # the file on disk is right; the editor's text is not
        ds = await s.diagnostics(uri, lambda ds: len(ds) > 0)
        assert [(d.range, d.message) for d in ds] == [
            (t.Range(t.Position(line, col + 8), t.Position(line, col + 11)), message)]
        s.change(uri, 2, game)
        await s.diagnostics(uri, lambda ds: ds == [])
        # hover on a procedure of the ruleset that has a rule text
        proc = next(r for r in load_ruleset("capital_jux").spec.procedures.values() if r.text)
        pl, pc = where(game, f"\n  {proc.name}")
        h = await s.hover(uri, pl + 1, 3)
        assert proc.text in h.contents.value

    session_run(tmp_path, body)


def test_bad_input_is_a_diagnostic_and_the_server_stays_up(tmp_path):
    tile = tmp_path / "probe.yaml"
    tile.write_text(TILE, encoding="utf-8")

    async def body(s: Session, init):
        uri = s.open(tile, "variant: [unclosed\n  game: x: y\n")
        ds = await s.diagnostics(uri, lambda ds: len(ds) > 0)
        assert ds[0].message.startswith("YAML syntax error")
        s.change(uri, 2, "- a\n- b\n")  # not a rule file (no variant, no ruleset above it): not checked
        assert await s.diagnostics(uri, lambda ds: True) == []
        for version, text in enumerate(["variant:\t\x00", "variant: {name: x, game: nosuchgame}\n", "variant: [a]\n",
                                        TILE.replace("gold[p] += 1", "if if if ((("), "variant:\n" * 3,
                                        TILE.replace("capital_jux", "../../etc")], start=3):
            s.change(uri, version, text)
            ds = await s.diagnostics(uri, lambda ds: len(ds) > 0)
            assert all(d.range.start.line >= 0 and d.message for d in ds)
        assert await s.definition(uri, 50, 50) is None  # past the end: no answer, no crash
        # a YAML error while typing: names still complete (from the last text that parsed), hover answers
        s.change(uri, 18, TILE)
        assert await s.diagnostics(uri, lambda ds: ds == []) == []
        typing = TILE + "  more: [\n"
        s.change(uri, 19, typing)
        ds = await s.diagnostics(uri, lambda ds: len(ds) > 0)
        assert ds[0].message.startswith("YAML syntax error")
        assert ds[0].range.start == t.Position(where(typing, "  more")[0] + 1, 0)  # (the stream ends there)
        assert {"hand", "probe_power", "len"} <= {i.label for i in await s.completion(uri, 0, 0)}
        line, col = where(typing, "len(deck)")
        assert (await s.hover(uri, line, col)).contents.value == describe("len")
        s.change(uri, 20, TILE)
        assert await s.diagnostics(uri, lambda ds: ds == []) == []

    session_run(tmp_path, body)


def test_every_built_in_has_a_description():
    assert set(BUILTIN_DOCS) == set(BUILTINS)
    assert {"let", "choose", "simultaneously", "true", "none"} <= set(keywords())


def test_every_half_typed_text_of_a_tile_is_checked_without_failing(tmp_path):
    """Each prefix of a tile (as typed from the top) checks to a report: errors at places inside
    the text, never an exception (the server would have to catch it)."""
    from jux.interpreter.lsp import reports

    tile = tmp_path / "probe.yaml"
    tile.write_text(TILE, encoding="utf-8")
    path, good = reports.real(tile), {}
    seen = set()
    for end in range(0, len(TILE) + 1, 5):
        text = TILE[:end]
        report = reports.check(path, {path: text}, good)
        lines = text.count("\n") + 1
        for p in report.problems:
            assert p.file in (None, path) or p.file.endswith(".yaml"), p
            if p.file == path:
                assert 1 <= p.line <= lines + 1 and p.col >= 1, (end, p)
            seen.add(p.message.split(":")[0])
    assert reports.check(path, {path: TILE}, good).problems == ()
    assert any(m.startswith("YAML syntax error") for m in seen) and any(m.startswith("syntax error") for m in seen)
