"""What the language server takes from an editor, checked against the protocol (pygls, lsprotocol)
before it is acted on, so that nothing an editor sends ends in silence or a traceback:

- vet(msg), for the transport's guard (transport.Gate): a request for a method the server does
  not have is answered -32601 (Method not found); a message whose params are not what its method
  takes (lsprotocol's types: a request without params, a field missing or of the wrong type) is
  answered -32602 (Invalid params), or, a notification, left out with one line on stderr. A
  `didChange` whose range has a negative position or ends before it starts is passed on as
  `jux/badChange`: its file gets a diagnostic.
- Protocol: pygls's, but for `didChange`: a change to a file not open is left out; a change whose
  range lies past the end of the text is not applied, and its file gets a diagnostic (as for
  `jux/badChange`): the server's text is no longer the editor's until the editor sends it whole
  (a change without a range) or opens the file again.
"""
from __future__ import annotations

import re

from cattrs import transform_error
from lsprotocol import types as lsp
from pygls.protocol import LanguageServerProtocol, default_converter
from pygls.protocol.language_server import lsp_method

BAD_CHANGE = "jux/badChange"  # (the guard's: a didChange it could not pass on as it came)
_FIELD = re.compile(r"_([a-z])")


def _camel(text: str) -> str:
    return _FIELD.sub(lambda m: m.group(1).upper(), text)


def _position(p) -> bool:
    return isinstance(p, dict) and all(type(p.get(k)) is int for k in ("line", "character"))


def _range_fault(change) -> str | None:
    """Why a content change's range cannot be applied to any text (negative, or ending before it
    starts), or None. (Past the end: only the text tells: Protocol.)"""
    r = change.get("range") if isinstance(change, dict) else None
    if not isinstance(r, dict) or not _position(r.get("start")) or not _position(r.get("end")):
        return None  # (no range: the whole text; a broken one: the params are invalid)
    start, end = (r["start"]["line"], r["start"]["character"]), (r["end"]["line"], r["end"]["character"])
    if min(*start, *end) < 0:
        return f"a range with a negative position ({_shown(start)} to {_shown(end)})"
    if end < start:
        return f"a range that ends ({_shown(end)}) before it starts ({_shown(start)})"
    return None


def _shown(pos: tuple) -> str:
    return f"line {pos[0]}, character {pos[1]}"


def vetter(server):
    """vet(msg) for transport.Gate: None when the server may take msg as it is; ("unknown", why),
    ("invalid", why) or ("instead", message to pass on, why)."""
    protocol = server.protocol
    converter = default_converter()  # (its own: the guard runs in a thread of its own)
    fm = protocol.fm

    def vet(msg: dict):
        method = msg["method"]
        if method not in fm.builtin_features and method not in fm.features:
            return "unknown", f"Method not found: {method}"
        if method == lsp.TEXT_DOCUMENT_DID_CHANGE:
            params = msg.get("params") or {}
            doc = params.get("textDocument") if isinstance(params, dict) else None
            uri = doc.get("uri") if isinstance(doc, dict) else None
            changes = params.get("contentChanges") if isinstance(params, dict) else None
            for change in changes if isinstance(changes, list) and isinstance(uri, str) else ():
                why = _range_fault(change)
                if why:
                    return "instead", {"jsonrpc": "2.0", "method": BAD_CHANGE,
                                       "params": {"uri": uri, "why": why}}, why
        kind = protocol.get_message_type(method)
        if kind is None:
            return None
        try:
            converter.structure(msg, kind)
        except Exception as e:  # (cattrs says where: "required field missing @ $.params")
            try:
                said = "; ".join(transform_error(e))
            except Exception:
                said = type(e).__name__
            return "invalid", f"Invalid params: {_camel(said)[:500]}"
        return None
    return vet


class Protocol(LanguageServerProtocol):
    @lsp_method(lsp.TEXT_DOCUMENT_DID_CHANGE)
    def lsp_text_document__did_change(self, params: lsp.DidChangeTextDocumentParams):
        uri = params.text_document.uri
        doc = self.workspace.text_documents.get(uri)
        if doc is None:
            return  # (a file not open: nothing to change)
        for change in params.content_changes:
            if isinstance(change, lsp.TextDocumentContentChangePartial):
                if self._server.lost.get(uri):
                    return  # (what it changes is not the text the server has)
                end = change.range.end
                if end.line > len(doc.lines) or (end.line == len(doc.lines) and end.character > 0):
                    self._server.out_of_step(uri, f"a range past the end of the text ({_shown((end.line, end.character))}; "
                                                  f"it has {len(doc.lines)} lines)")
                    return
            else:
                self._server.lost.pop(uri, None)  # (the whole text: in step again)
            self.workspace.update_text_document(params.text_document, change)
        if (user_handler := self.fm.features.get(lsp.TEXT_DOCUMENT_DID_CHANGE)) is not None:
            yield user_handler, (params,), None

    @lsp_method(lsp.TEXT_DOCUMENT_DID_OPEN)
    def lsp_text_document__did_open(self, params: lsp.DidOpenTextDocumentParams):
        self._server.lost.pop(params.text_document.uri, None)
        yield from super().lsp_text_document__did_open(params)

    @lsp_method(BAD_CHANGE)
    def jux_bad_change(self, params):
        uri = getattr(params, "uri", None)
        if isinstance(uri, str) and uri in self.workspace.text_documents:
            self._server.out_of_step(uri, str(getattr(params, "why", "a change it cannot apply")))
