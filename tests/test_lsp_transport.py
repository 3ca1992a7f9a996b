"""The language server never goes deaf (lsp/transport.py): after any broken frame it reads
the next good one and answers it; every request gets an answer (JSON-RPC errors -32700, -32600,
-32602, -32002 where the protocol asks for them); no length is trusted past its bound. `jux lsp`
runs for real in a subprocess: bytes in, frames out, stdin closed to end it."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest

from jux.interpreter.lsp.transport import MAX_BODY, Frames, Gate, _decode

INIT = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}}}


def frame(msg, length=None, sep=b"\r\n\r\n", name=b"Content-Length") -> bytes:
    body = msg if isinstance(msg, bytes) else json.dumps(msg).encode()
    return name + b": " + str(len(body) if length is None else length).encode() + sep + body


def talk(*chunks: bytes, timeout: float = 60) -> tuple:
    """Run `jux lsp`, send the chunks, close stdin; (the messages it sent, its stderr)."""
    p = subprocess.run([sys.executable, "-m", "jux", "lsp"], input=b"".join(chunks), capture_output=True,
                       timeout=timeout)
    out, frames = p.stdout, []
    f = Frames(_Bytes(out))
    while (item := f.next()) is not None:
        assert item[0] == "body", item
        frames.append(json.loads(item[1]))
    return frames, p.stderr.decode()


class _Bytes:
    def __init__(self, data: bytes):
        self.data = data

    def read(self, n):
        out, self.data = self.data[:n], self.data[n:]
        return out


def by_id(frames) -> dict:
    return {m.get("id"): m for m in frames if "id" in m}


@pytest.mark.parametrize("bad", [
    b"Content-Length: abc\r\n\r\n{}",
    b"Content-Length: -5\r\n\r\n{}",
    b"Content-Lenght: 2\r\n\r\n{}",
    b"Content-Length 2\r\n\r\n{}",
    b"Content-Length: 99999999999999\r\n\r\n{}",
    frame({"jsonrpc": "2.0", "id": 7, "method": "initialize", "params": {}}, length=5),
])
def test_after_a_broken_header_the_next_frame_is_answered(bad):
    frames, err = talk(bad, frame(INIT))
    assert "capabilities" in by_id(frames)[1]["result"]
    assert "Traceback" not in err


def test_lf_only_separators_are_read():
    frames, _ = talk(frame(INIT, sep=b"\n\n"))
    assert "capabilities" in by_id(frames)[1]["result"]


def test_a_length_one_short_is_a_parse_error_and_the_next_request_is_answered():
    hover = {"jsonrpc": "2.0", "id": 2, "method": "shutdown"}
    frames, _ = talk(frame(INIT, length=len(json.dumps(INIT)) - 1), frame(INIT), frame(hover))
    ids = by_id(frames)
    assert ids[None]["error"]["code"] == -32700
    assert "capabilities" in ids[1]["result"] and ids[2]["result"] is None


def test_a_length_past_the_body_loses_neither_message():
    body = json.dumps(INIT).encode()
    shutdown = {"jsonrpc": "2.0", "id": 2, "method": "shutdown"}
    frames, _ = talk(frame(body, length=len(body) + 10), frame(shutdown))
    ids = by_id(frames)
    assert "capabilities" in ids[1]["result"] and ids[2]["result"] is None


@pytest.mark.parametrize("params, code", [
    ({"textDocument": {"uri": "file:///x.yaml"}, "position": {"line": -1, "character": 0}}, -32602),
    ({"textDocument": {"uri": "file:///x.yaml"}, "position": {"line": "1", "character": 0}}, -32602),
    ({"textDocument": {"uri": "file:///x.yaml"}, "position": {"line": 2 ** 64, "character": 0}}, -32602),
    ({"textDocument": {"uri": "file:///x.yaml"}}, -32602),
    ([1, 2], -32602),
])
def test_a_request_with_invalid_params_is_answered_with_an_error(params, code):
    hover = {"jsonrpc": "2.0", "id": 5, "method": "textDocument/hover", "params": params}
    frames, err = talk(frame(INIT), frame(hover))
    assert by_id(frames)[5]["error"]["code"] == code
    assert "Traceback" not in err


def test_a_message_without_a_method_is_an_invalid_request():
    frames, _ = talk(frame(INIT), frame({"jsonrpc": "2.0", "id": 6}), frame({"jsonrpc": "2.0", "id": 8, "params": {}}))
    assert by_id(frames)[6]["error"]["code"] == -32600 and by_id(frames)[8]["error"]["code"] == -32600


def test_before_initialize_a_request_is_refused_as_not_initialized_and_shutdown_too():
    hover = {"jsonrpc": "2.0", "id": 3, "method": "textDocument/hover",
             "params": {"textDocument": {"uri": "file:///x.yaml"}, "position": {"line": 0, "character": 0}}}
    frames, _ = talk(frame(hover), frame({"jsonrpc": "2.0", "id": 4, "method": "shutdown"}), frame(INIT))
    ids = by_id(frames)
    assert ids[3]["error"]["code"] == -32002 and ids[4]["error"]["code"] == -32002
    assert "capabilities" in ids[1]["result"]  # and it still starts


def test_after_shutdown_a_request_is_an_invalid_request():
    frames, _ = talk(frame(INIT), frame({"jsonrpc": "2.0", "id": 2, "method": "shutdown"}),
                     frame({"jsonrpc": "2.0", "id": 3, "method": "textDocument/hover", "params": {}}))
    ids = by_id(frames)
    assert ids[2]["result"] is None and ids[3]["error"]["code"] == -32600


def test_the_gate_and_the_frames_alone():
    g = Gate()
    assert g.check(INIT) == (True, None)
    assert g.check([1])[1]["error"]["code"] == -32600
    assert _decode(b'{"a": 1}Content-Le') == ({"a": 1}, b"Content-Le")
    with pytest.raises(ValueError):
        _decode(b'{"a": ')
    f = Frames(_Bytes(b"Content-Length: %d\r\n\r\n{}" % (MAX_BODY + 1)))
    assert f.next()[0] == "big" and f.next() is None  # (over the bound: answered, tests/test_lsp_protocol.py)


def test_an_open_file_over_the_bound_gets_the_diagnostic_jux_validate_gives(tmp_path):
    from jux.interpreter.lsp.reports import check
    from jux.interpreter.limits import MAX_FILE_BYTES

    game = tmp_path / "rules" / "big" / "game.yaml"
    game.parent.mkdir(parents=True)
    text = "game: {name: big, players: {min: 2, max: 2}}\n" + "# padding\n" * (MAX_FILE_BYTES // 10 + 1)
    game.write_text("game: {name: big, players: {min: 2, max: 2}}\n")  # on disk: small
    report = check(game, {str(game): text}, {})
    assert [(p.line, p.col) for p in report.problems] == [(1, 1)]
    assert report.problems[0].message == f"the file is {len(text.encode()):,} bytes: at most {MAX_FILE_BYTES:,}"
