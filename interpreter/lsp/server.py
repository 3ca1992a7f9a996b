"""`jux lsp`: a language server (pygls) for rule and variant files. As the author types it reports
what `jux validate` reports (reports), and from the loaded files (names) completes names,
shows a procedure's rule text or a built-in's description, and jumps to definitions."""
from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
import re

from lsprotocol import types as lsp
from pygls.lsp.server import LanguageServer
from pygls.uris import from_fs_path, to_fs_path
from pygls.workspace import PositionCodec

from . import reports, protocol, schedule, words
from ..files import Stopped

_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_ITEM_KINDS = {"constant": lsp.CompletionItemKind.Constant, "card kind": lsp.CompletionItemKind.Class,
               "zone": lsp.CompletionItemKind.Variable, "counter": lsp.CompletionItemKind.Variable,
               "mark": lsp.CompletionItemKind.Property, "slot": lsp.CompletionItemKind.Module,
               "function": lsp.CompletionItemKind.Function, "procedure": lsp.CompletionItemKind.Function,
               "table value": lsp.CompletionItemKind.Value}


def _lines(text: str) -> list:
    """A text's lines as the loader counts them (\\r\\n and \\r are line breaks too)."""
    return text.replace("\r\n", "\n").replace("\r", "\n").split("\n")


class JuxServer(LanguageServer):
    def __init__(self):
        from importlib.metadata import PackageNotFoundError, version

        try:
            v = version("jux")
        except PackageNotFoundError:
            v = "0"
        super().__init__("jux", v, protocol_cls=protocol.Protocol)
        self.lost: dict = {}  # uri of an open file -> the change the server could not apply (protocol)
        self.said: dict = {}  # uri -> the diagnostics of the checks it was last given
        self.reports: dict = {}  # real path of an open file -> its last reports.Report
        self.good: dict = {}  # real path -> the last parse of it that worked (for names while typing)
        self.shown: dict = {}  # what was checked (Report.target) -> real paths given diagnostics
        self.checker = ThreadPoolExecutor(1, thread_name_prefix="jux-check")  # one check at a time
        self.checks = schedule.Checks(self)
        self.worker = None  # the task that runs the checks (schedule), once a file is open

    # ------------------------------------------------------------ the open files

    def open_texts(self) -> dict:
        out = {}
        for uri, doc in list(self.workspace.text_documents.items()):
            path = to_fs_path(uri) if uri.startswith("file:") else None
            if path and path.endswith((".yaml", ".yml")):
                out[reports.real(path)] = doc.source
        return out

    def lines_of(self, path: str) -> list:
        doc = self.workspace.text_documents.get(from_fs_path(path))
        if doc is not None:
            return _lines(doc.source)
        try:
            with open(path, encoding="utf-8", errors="replace") as f:
                return _lines(f.read())
        except OSError:
            return [""]

    def codec(self) -> PositionCodec:
        return self.workspace.position_codec

    def point(self, lines: list, line: int, col: int) -> lsp.Position:
        """The editor's position of a 1-based line and column (in characters) of jux."""
        n = min(max(line - 1, 0), max(len(lines) - 1, 0))
        c = min(max(col - 1, 0), len(lines[n]) if lines else 0)
        return self.codec().position_to_client_units(lines, lsp.Position(line=n, character=c))

    def span(self, path: str, line: int, col: int, lines: list | None = None) -> lsp.Range:
        """The range from a 1-based line:col over the name (or the character) there."""
        lines = self.lines_of(path) if lines is None else lines
        start = self.point(lines, line, col)
        n = min(max(line - 1, 0), len(lines) - 1)
        c = min(max(col - 1, 0), len(lines[n]))
        m = _WORD.match(lines[n], c)
        end_c = m.end() if m else min(c + 1, len(lines[n]))
        return lsp.Range(start=start, end=self.point(lines, n + 1, end_c + 1))

    # ------------------------------------------------------------ checking (when: schedule)

    def touch(self, uri: str, delay: float = 0.0, edit: bool = False) -> None:
        """The open file at uri was opened, edited or saved: its target is checked first."""
        path = self.path_of(uri)
        if path is None:
            return
        doc = self.workspace.text_documents.get(uri)
        self.clear(self.checks.touch(path, doc.source if doc is not None else None, delay, edit))
        self.start()

    def start(self) -> None:
        if self.worker is None:
            self.worker = asyncio.get_running_loop().create_task(self.checks.run())

    def clear(self, target) -> None:
        """No open file belongs to target any more: its diagnostics go."""
        if target is None:
            return
        for file in self.shown.pop(target[1], set()) | ({target[1]} if target[0] != "ruleset" else set()):
            self.tell(from_fs_path(file), [])

    @staticmethod
    def path_of(uri: str):
        path = to_fs_path(uri) if uri.startswith("file:") else None
        return reports.real(path) if path and path.endswith((".yaml", ".yml")) else None

    def check_one(self, path: str, target: tuple, texts: dict, stop=None):
        """The report of target (run in the checking thread: one at a time); None when stop said
        to set it aside (files.stop_point)."""
        try:
            return reports.check(path, texts, self.good, target, stop)
        except Stopped:
            return None
        except Exception as e:  # never let a file stop the server: say it where it is seen
            problem = reports.Problem(None, 1, 1, f"jux could not check this file: {type(e).__name__}: {e}")
            last = self.reports.get(path)  # (its names stay as they were)
            index = last.index if last is not None else reports.names.build([])
            return reports.Report(target[1], target[0] != "ruleset", (problem,), index)

    def publish(self, report, docs: list) -> None:
        """The diagnostics of a report: to its open files (docs, in order: the one touched last
        first), then to the other files it found errors in, and none to those it no longer does."""
        found: dict = {}
        texts: dict = {}  # file -> its lines, read once
        own = docs[0]  # (a variant's errors in the files it loads are told on the variant's file)
        for p in report.problems:
            file, line, col, message = p.file or own, p.line, p.col, p.message
            if report.variant and file != report.target:
                message, file, line, col = f"{p.file}:{p.line}:{p.col}: {message}", own, 1, 1
            found.setdefault(file, []).append(lsp.Diagnostic(
                range=self.span(file, line, col, texts.get(file) or texts.setdefault(file, self.lines_of(file))),
                message=message, source="jux", severity=lsp.DiagnosticSeverity.Error))
        for doc in docs:
            self.reports[doc] = report
        order = list(dict.fromkeys([*docs, *found, *sorted(self.shown.get(report.target, ()))]))
        for file in order:
            self.tell(from_fs_path(file), found.get(file, []))
        self.shown[report.target] = set(found)

    def tell(self, uri: str, diagnostics: list) -> None:
        """Publish a file's diagnostics (with, first, that its text is lost, when it is)."""
        self.said[uri] = diagnostics
        lost = self.lost.get(uri)
        if lost:
            diagnostics = [lsp.Diagnostic(
                range=lsp.Range(start=lsp.Position(0, 0), end=lsp.Position(0, 0)), source="jux",
                severity=lsp.DiagnosticSeverity.Error,
                message=f"jux lost this file's text: the editor sent a change with {lost}, which it could "
                        "not apply; the errors shown are those of the text before it. Close the file and "
                        "open it again")] + diagnostics
        self.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(uri=uri, diagnostics=diagnostics))

    def out_of_step(self, uri: str, why: str) -> None:
        """The editor sent a change to the open file at uri that cannot be applied (protocol)."""
        self.lost[uri] = why
        self.tell(uri, self.said.get(uri, []))

    # ------------------------------------------------------------ names

    def word_at(self, uri: str, pos: lsp.Position):
        """(real path, 1-based line, the word's 1-based column, the word, the text before it on the
        line) at an editor's position, or None."""
        path = to_fs_path(uri) if uri.startswith("file:") else None
        if not path:
            return None  # (an unsaved, untitled buffer: nothing is loaded for it)
        path = reports.real(path)
        lines = self.lines_of(path)
        if pos.line >= len(lines):
            return None
        text = lines[pos.line]
        c = self.codec().position_from_client_units(lines, pos).character
        for m in _WORD.finditer(text):
            if m.start() <= c <= m.end():
                return path, pos.line + 1, m.start() + 1, m.group(), text[:m.start()]
        return path, pos.line + 1, c + 1, "", text[:c]

    def location(self, d) -> lsp.Location:
        return lsp.Location(uri=from_fs_path(d.file), range=self.span(d.file, d.line, d.col))


def _describe(d) -> str:
    out = [f"```\n{d.signature}\n```", f"{d.kind}"]
    if d.text:
        out.append(d.text)
    out.append(f"defined at {d.file}:{d.line}:{d.col}")
    return "\n\n".join(out)


def definition(ls: JuxServer, uri: str, pos: lsp.Position):
    """Where the name at pos is defined (for `previous`: what the routine around it replaces)."""
    at = ls.word_at(uri, pos)
    report = ls.reports.get(at[0]) if at else None
    if report is None or not at[3]:
        return None
    path, line, col, word, before = at
    index = report.index
    if word == "previous":
        here = index.enclosing(path, line, col)
        target = index.replaced(here) if here else None
    else:
        target = index.effective(word)
        own = next((d for d in index.defs.get(word, ()) if d.file == path and d.line == line and d.col == col), None)
        if own is not None:  # on a definition itself: what it overrides
            target = index.replaced(own)
    return ls.location(target) if target else None


def hover(ls: JuxServer, uri: str, pos: lsp.Position):
    at = ls.word_at(uri, pos)
    if not at or not at[3]:
        return None
    path, line, col, word, before = at
    report = ls.reports.get(path)
    text = None
    if report is not None:
        index = report.index
        if word == "previous":
            here = index.enclosing(path, line, col)
            older = index.replaced(here) if here else None
            text = words.describe(word) + (f"\n\nit replaces:\n\n{_describe(older)}" if older else "")
        elif before.rstrip().endswith(".") and word in index.attributes:
            text = f"card attribute `{word}`, of: {', '.join(index.attributes[word])}"
        elif word in index.defs:
            text = _describe(index.effective(word))
    text = text or words.describe(word)
    if text is None:
        return None
    return lsp.Hover(contents=lsp.MarkupContent(kind=lsp.MarkupKind.Markdown, value=text))


def completion(ls: JuxServer, uri: str, pos: lsp.Position) -> lsp.CompletionList:
    at = ls.word_at(uri, pos)
    report = ls.reports.get(at[0]) if at else None
    items: dict = {}
    index = report.index if report is not None else None
    after_dot = bool(at) and at[4].rstrip().endswith(".")
    if index is not None:
        for a, kinds in index.attributes.items():
            items[a] = lsp.CompletionItem(label=a, kind=lsp.CompletionItemKind.Field,
                                          detail=f"card attribute ({', '.join(kinds)})")
        for name, ds in index.defs.items():
            d = ds[-1]
            if after_dot and d.kind != "mark":
                continue
            items[name] = lsp.CompletionItem(
                label=name, kind=_ITEM_KINDS.get(d.kind, lsp.CompletionItemKind.Text), detail=f"{d.kind} {d.signature}".strip(),
                documentation=lsp.MarkupContent(kind=lsp.MarkupKind.Markdown, value=_describe(d)))
    if not after_dot:
        for name, (call, gives) in {**words.BUILTIN_DOCS, **words.OTHER_DOCS}.items():
            items.setdefault(name, lsp.CompletionItem(label=name, kind=lsp.CompletionItemKind.Function,
                                                      detail=f"built-in {call}", documentation=gives))
        for word in words.keywords():
            items.setdefault(word, lsp.CompletionItem(label=word, kind=lsp.CompletionItemKind.Keyword))
    return lsp.CompletionList(is_incomplete=False, items=list(items.values()))


def make_server() -> JuxServer:
    server = JuxServer()

    @server.feature(lsp.INITIALIZE)
    def on_initialize(ls: JuxServer, params: lsp.InitializeParams):
        ls.checker.submit(reports.warm)  # (made while the editor sends its files)

    @server.feature(lsp.TEXT_DOCUMENT_DID_OPEN)
    async def did_open(ls: JuxServer, params: lsp.DidOpenTextDocumentParams):
        ls.touch(params.text_document.uri, schedule.OPENED)

    @server.feature(lsp.TEXT_DOCUMENT_DID_CHANGE)
    async def did_change(ls: JuxServer, params: lsp.DidChangeTextDocumentParams):
        ls.touch(params.text_document.uri, schedule.DELAY, edit=True)

    @server.feature(lsp.TEXT_DOCUMENT_DID_SAVE)
    async def did_save(ls: JuxServer, params: lsp.DidSaveTextDocumentParams):
        ls.touch(params.text_document.uri)

    @server.feature(lsp.TEXT_DOCUMENT_DID_CLOSE)
    async def did_close(ls: JuxServer, params: lsp.DidCloseTextDocumentParams):
        ls.lost.pop(params.text_document.uri, None)
        path = ls.path_of(params.text_document.uri)
        if path:
            ls.reports.pop(path, None)
            ls.clear(ls.checks.close(path))
            ls.start()

    @server.feature(lsp.TEXT_DOCUMENT_COMPLETION, lsp.CompletionOptions(trigger_characters=["."]))
    def on_completion(ls: JuxServer, params: lsp.CompletionParams):
        return completion(ls, params.text_document.uri, params.position)

    @server.feature(lsp.TEXT_DOCUMENT_HOVER)
    def on_hover(ls: JuxServer, params: lsp.HoverParams):
        return hover(ls, params.text_document.uri, params.position)

    @server.feature(lsp.TEXT_DOCUMENT_DEFINITION)
    def on_definition(ls: JuxServer, params: lsp.DefinitionParams):
        return definition(ls, params.text_document.uri, params.position)

    return server
