"""The language server's transport, guarded: what an editor sends is read here before the server
sees it, so no frame, however broken, leaves the server deaf or takes it down.

- Frames: `Content-Length: N` headers (any case, CRLF or LF line ends) and a body of N bytes, N at
  most MAX_BODY. A header block without a valid length (`abc`, `-5`, a misspelt name, no colon,
  a length past the bound) is skipped up to the next `Content-Length:` line, and reading goes on
  there (resynchronised); a length past the bound is answered -32600, with the request's id when
  the bytes that came with the header show it. A body that is not one JSON value (a length too short or too long) is
  answered with a parse error (-32700), and reading goes on at the next header after it; when the
  body holds a whole message followed by more bytes, the message is taken and the rest read again.
- Messages (JSON-RPC 2.0, LSP): one that is not an object with a method (or a response) gets
  -32600 Invalid Request when it has an id; params that are not an object, or a position that is
  not two whole numbers from 0 to 2**31 - 1, get -32602 Invalid params; a request before
  `initialize` gets -32002 (server not initialized); after `shutdown`, every request but `exit`
  gets -32600. Then the server's own look (protocol.vetter): a method it does not have gets
  -32601, params its method does not take -32602 (a notification is left out, said on stderr).
  Every request gets an answer.
- Only well-formed messages go on to the server (pygls), through a pipe, re-framed.
"""
from __future__ import annotations

import json
import re
import threading

MAX_BODY = 8_000_000  # bytes of one message: a rule file is at most 4,000,000 (limits.py), as JSON text
MAX_HEADER = 8192  # bytes of a frame's header block
MAX_POSITION = 2 ** 31 - 1
_LENGTH = re.compile(rb"^content-length[ \t]*:[ \t]*(\d{1,20})[ \t]*$", re.I)
_NEXT = re.compile(rb"content-length[ \t]*:", re.I)
_POSITION_METHODS = {"textDocument/completion", "textDocument/hover", "textDocument/definition"}


class Frames:
    """The bodies of the frames read from a binary stream, and the errors found between them."""

    def __init__(self, stream, chunk: int = 65536):
        self.stream = stream
        self.chunk = chunk
        self.buf = b""
        self.eof = False

    def _more(self) -> bool:
        if self.eof:
            return False
        data = self.stream.read1(self.chunk) if hasattr(self.stream, "read1") else self.stream.read(self.chunk)
        if not data:
            self.eof = True
            return False
        self.buf += data
        return True

    def _resync(self, start: int = 1) -> None:
        """Drop bytes up to the next `Content-Length:` after position start (or all but a tail that
        could begin one)."""
        while True:
            m = _NEXT.search(self.buf, start)
            if m:
                self.buf = self.buf[m.start():]
                return
            keep = len("content-length:")
            self.buf = self.buf[-keep:] if len(self.buf) > keep else self.buf
            start = 0
            if not self._more():
                self.buf = b""
                return

    def next(self):
        """("body", bytes), ("bad", why) for something skipped, ("big", (why, the request's id or
        None)) for a frame over the bound (skipped), or None at the end of the stream."""
        while True:
            end = self._header_end()
            if end is None:
                if len(self.buf) > MAX_HEADER:
                    self._resync()
                    return ("bad", "a frame header longer than its bound")
                if not self._more():
                    return None
                continue
            head, sep_len = end
            lines = [ln.strip() for ln in self.buf[:head].replace(b"\r\n", b"\n").split(b"\n") if ln.strip()]
            length = None
            for ln in lines:
                m = _LENGTH.match(ln)
                if m:
                    length = int(m.group(1))
            if length is None or not 0 < length <= MAX_BODY:
                self.buf = self.buf[head + sep_len:]
                id_ = _peek_id(self.buf) if length else None  # (of what came with the header: never waited for)
                self._resync(0)
                why = "no Content-Length" if length is None else f"a Content-Length of {length} (1 to {MAX_BODY})"
                if length and length > MAX_BODY:
                    return ("big", (f"a frame of {length:,} bytes (at most {MAX_BODY:,})", id_))
                return ("bad", f"a frame header with {why}")
            self.buf = self.buf[head + sep_len:]
            while len(self.buf) < length and self._more():
                pass
            body, self.buf = self.buf[:length], self.buf[length:]
            return ("body", body)

    def _header_end(self):
        """(index of the blank line ending the header block, its length), or None if not read yet."""
        crlf, lf = self.buf.find(b"\r\n\r\n"), self.buf.find(b"\n\n")
        found = [(i, n) for i, n in ((crlf, 4), (lf, 2)) if i >= 0]
        return min(found) if found else None


_ID = re.compile(rb'\s*\{\s*(?:"(?:jsonrpc|method)"\s*:\s*"[^"\\]{0,200}"\s*,\s*)*"id"\s*:\s*(-?\d{1,15}|"[^"\\]{0,200}")')


def _peek_id(body: bytes):
    """The id of a request from the start of its body, when it comes before the params (as editors
    write it), else None."""
    m = _ID.match(body[:4096])
    if not m:
        return None
    try:
        return json.loads(m.group(1))
    except ValueError:
        return None


def _error(id_, code: int, message: str) -> dict:
    return {"jsonrpc": "2.0", "id": id_, "error": {"code": code, "message": message}}


def _position_ok(params) -> bool:
    pos = params.get("position")
    doc = params.get("textDocument")
    if not isinstance(pos, dict) or not isinstance(doc, dict) or not isinstance(doc.get("uri"), str):
        return False
    return all(type(pos.get(k)) is int and 0 <= pos[k] <= MAX_POSITION for k in ("line", "character"))


class Gate:
    """What each message does: forwarded to the server, or answered here with an error. vet: the
    server's own look at a message the gate passes (protocol.vetter): None, or ("unknown",
    why), ("invalid", why), ("instead", another message, why). warn: a line for stderr."""

    def __init__(self, vet=None, warn=lambda text: None):
        self.initialized = False
        self.shut_down = False
        self.vet = vet
        self.warn = warn

    def check(self, msg):
        """(forward: bool, error response or None) for one parsed message."""
        if not isinstance(msg, dict):
            return False, _error(None, -32600, "Invalid Request: a message is a JSON object")
        id_ = msg.get("id")
        has_id = "id" in msg
        if has_id and not (id_ is None or type(id_) is int or isinstance(id_, str)):
            return False, _error(None, -32600, "Invalid Request: an id is a number or a text")
        method = msg.get("method")
        if method is None and ("result" in msg or "error" in msg):
            return True, None  # a response to the server's own request
        if not isinstance(method, str) or msg.get("jsonrpc") != "2.0":
            return False, (_error(id_, -32600, "Invalid Request: a request has \"jsonrpc\": \"2.0\" and a method")
                           if has_id else None)
        params = msg.get("params")
        if "params" in msg and not isinstance(params, dict) and not (method == "shutdown" and params is None):
            return False, (_error(id_, -32602, "Invalid params: params is an object") if has_id else None)
        if method == "exit":
            return True, None
        if self.shut_down:
            return False, (_error(id_, -32600, "Invalid Request: the server is shutting down") if has_id else None)
        if method == "initialize":
            if not isinstance(params, dict):
                return False, _error(id_, -32602, "Invalid params: initialize takes an object")
            self.initialized = True
            return True, None
        if not self.initialized:
            return False, (_error(id_, -32002, "Server not initialized") if has_id else None)
        if method == "shutdown":
            self.shut_down = True
            return True, None
        if method in _POSITION_METHODS and not _position_ok(params or {}):
            return False, (_error(id_, -32602, "Invalid params: a text document and a position (line and "
                                  f"character, whole numbers from 0 to {MAX_POSITION})") if has_id else None)
        said = self.vet(msg) if self.vet is not None else None
        if said is None:
            return True, None
        if said[0] == "instead":
            self.warn(f"jux lsp: {method}: {said[2]}")
            return said[1], None
        if has_id:
            return False, _error(id_, -32601 if said[0] == "unknown" else -32602, said[1])
        if not method.startswith("$/"):  # (a notification: no answer; those of $/ may be left unsaid)
            self.warn(f"jux lsp: left out a {method} notification: {said[1]}")
        return False, None


class LockedWriter:
    """stdout for the server and for the gate's answers: one whole frame a write, never two mixed."""

    def __init__(self, out):
        self.out = out
        self.lock = threading.Lock()

    def write(self, data: bytes):
        with self.lock:
            try:
                self.out.write(data)
                self.out.flush()
            except (OSError, ValueError):  # the editor is gone, or the server has exited
                pass
        return len(data)

    def flush(self):
        with self.lock:
            self.out.flush()

    def close(self):  # (the server's `exit`)
        with self.lock:
            try:
                self.out.flush()
                self.out.close()
            except (OSError, ValueError):
                pass


def frame(msg: dict) -> bytes:
    body = json.dumps(msg, separators=(",", ":")).encode("utf-8")
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def pump(stdin, server_in, out: LockedWriter, warn=lambda text: None, vet=None) -> None:
    """Read frames from stdin until it ends; forward the good ones to server_in (then close it);
    answer the others on out. vet: as Gate's."""
    frames, gate = Frames(stdin), Gate(vet, warn)
    try:
        while True:
            item = frames.next()
            if item is None:
                break
            kind, value = item
            if kind == "bad":
                warn(f"jux lsp: skipped {value}")
                continue
            if kind == "big":  # (the id, when seen, says which request it was)
                warn(f"jux lsp: skipped {value[0]}")
                out.write(frame(_error(value[1], -32600, f"Invalid Request: {value[0]}")))
                continue
            try:
                msg, rest = _decode(value)
            except ValueError:
                warn("jux lsp: a frame whose body is not one JSON value (a wrong Content-Length?)")
                out.write(frame(_error(None, -32700, "Parse error: the body is not one JSON value")))
                frames._resync(0)
                continue
            if rest:
                frames.buf = rest + frames.buf  # a length past the body: what follows is read again
            forward, answer = gate.check(msg)
            if answer is not None:
                out.write(frame(answer))
            if forward:
                server_in.write(frame(forward if isinstance(forward, dict) else msg))
                server_in.flush()
    finally:
        try:
            server_in.close()
        except OSError:
            pass


def _decode(body: bytes):
    """(message, the bytes after it) of a body that begins with one JSON value; ValueError else.
    (A Content-Length past the body takes the start of the next frame: those bytes are read again.)"""
    text = body.decode("utf-8")
    start = len(text) - len(text.lstrip())
    value, end = json.JSONDecoder().raw_decode(text, start)
    rest = text[end:]
    return value, rest.encode("utf-8") if rest.strip() else b""
