"""Every request to `jux lsp` gets its JSON-RPC answer, never silence or a traceback on stderr
(issue 38): an unknown method -32601, a request without the params its method takes -32602, a
frame over the size bound an error with its id; a `didChange` with a range it cannot apply
(past the end of the text, negative, ending before it starts) gives its file a diagnostic, and a
notification without its params is left out. `jux lsp` runs for real in a subprocess."""
from __future__ import annotations

import json
import re
import subprocess
import sys
import threading
import time

import pytest

from jux.interpreter.lsp.transport import MAX_BODY, Frames

INIT = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}}}
INITIALIZED = {"jsonrpc": "2.0", "method": "initialized", "params": {}}
SHUTDOWN = {"jsonrpc": "2.0", "id": 99, "method": "shutdown"}


def frame(msg, length=None) -> bytes:
    body = msg if isinstance(msg, bytes) else json.dumps(msg).encode()
    return b"Content-Length: %d\r\n\r\n" % (len(body) if length is None else length) + body


class _Bytes:
    def __init__(self, data: bytes):
        self.data = data

    def read(self, n):
        out, self.data = self.data[:n], self.data[n:]
        return out


def talk(*messages, pause: float = 0.0, timeout: float = 120, until=None) -> tuple:
    """Run `jux lsp`, send the messages (dicts, or bytes as they are), wait `pause` seconds (for
    checks to publish; with until, until until(the messages it sent so far) holds, at most 60 s),
    then shut it down; (the messages it sent, its stderr)."""
    p = subprocess.Popen([sys.executable, "-m", "jux", "lsp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE)
    got = bytearray()
    reader = threading.Thread(target=lambda: got.extend(p.stdout.read()) if until is None else _drain(p.stdout, got),
                              daemon=True)
    try:
        p.stdin.write(b"".join(m if isinstance(m, bytes) else frame(m) for m in (INIT, INITIALIZED, *messages)))
        p.stdin.flush()
        reader.start()
        if until is None:
            time.sleep(pause)
        else:
            end = time.monotonic() + 60
            while time.monotonic() < end and not until(_sent_so_far(bytes(got))):
                time.sleep(0.1)
        p.stdin.write(frame(SHUTDOWN) + frame({"jsonrpc": "2.0", "method": "exit"}))
        p.stdin.close()
        reader.join(timeout)
        err = p.stderr.read()
        p.wait(timeout)
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()
    frames, f = [], Frames(_Bytes(bytes(got)))
    while (item := f.next()) is not None:
        assert item[0] == "body", item
        frames.append(json.loads(item[1]))
    assert p.returncode == 0
    return frames, err.decode()


def _drain(stream, into: bytearray) -> None:
    """Read stream into `into` as it comes, to its end."""
    while chunk := stream.read1(65536):
        into.extend(chunk)


def _sent_so_far(data: bytes) -> list:
    """The whole messages in data (a last one still coming left out)."""
    out = []
    while (head := data.find(b"\r\n\r\n")) >= 0:
        length = int(re.search(rb"Content-Length: *(\d+)", data[:head]).group(1))
        if len(data) < head + 4 + length:
            break
        out.append(json.loads(data[head + 4:head + 4 + length]))
        data = data[head + 4 + length:]
    return out


def by_id(frames) -> dict:
    return {m.get("id"): m for m in frames if "id" in m and "method" not in m}


def clean(err: str) -> None:
    assert "Traceback" not in err and "Exception" not in err, err


def test_an_unknown_method_is_method_not_found_with_or_without_params():
    frames, err = talk({"jsonrpc": "2.0", "id": 2, "method": "no/such", "params": {}},
                       {"jsonrpc": "2.0", "id": 3, "method": "no/such"},
                       {"jsonrpc": "2.0", "id": 4, "method": "textDocument/documentSymbol"})
    ids = by_id(frames)
    assert [ids[i]["error"]["code"] for i in (2, 3, 4)] == [-32601] * 3
    assert "no/such" in ids[2]["error"]["message"]
    assert ids[99]["result"] is None  # (and it shuts down as asked)
    assert not [m for m in frames if m.get("method") == "window/showMessage"]
    clean(err)


@pytest.mark.parametrize("method", ["textDocument/completion", "textDocument/hover", "textDocument/definition",
                                    "workspace/executeCommand", "initialize"])
def test_a_request_without_params_is_invalid_params(method):
    frames, err = talk({"jsonrpc": "2.0", "id": 2, "method": method})
    assert by_id(frames)[2]["error"]["code"] == -32602
    assert not [m for m in frames if m.get("method") == "window/showMessage"]
    clean(err)


def test_params_of_the_wrong_shape_are_invalid_params_and_say_where():
    frames, err = talk({"jsonrpc": "2.0", "id": 2, "method": "textDocument/completion", "params": {
        "textDocument": {"uri": "file:///x.yaml"}, "position": {"line": 0, "character": 0},
        "context": {"triggerKind": 99}}})
    e = by_id(frames)[2]["error"]
    assert e["code"] == -32602 and "$.params.context.triggerKind" in e["message"]
    clean(err)


def test_a_notification_without_its_params_is_left_out_and_said_in_one_line():
    frames, err = talk({"jsonrpc": "2.0", "method": "textDocument/didOpen"},
                       {"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {}},
                       {"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {"contentChanges": []}},
                       {"jsonrpc": "2.0", "id": 5, "method": "textDocument/hover", "params": {
                           "textDocument": {"uri": "file:///nowhere.yaml"}, "position": {"line": 0, "character": 0}}})
    assert by_id(frames)[5]["result"] is None  # (still answering)
    assert not [m for m in frames if m.get("method") == "window/showMessage"]
    assert err.count("left out a textDocument/didOpen notification") == 2 and "didChange" in err
    clean(err)


def test_a_frame_over_the_bound_is_answered_with_its_id():
    head = b'{"jsonrpc": "2.0", "id": 7, "method": "textDocument/hover", "params": {"x": "'
    frames, err = talk(frame(head + b"y" * 100 + b'"}}', length=MAX_BODY + 1),
                       {"jsonrpc": "2.0", "id": 8, "method": "no/such"})
    ids = by_id(frames)
    assert ids[7]["error"]["code"] == -32600 and f"{MAX_BODY:,}" in ids[7]["error"]["message"]
    assert ids[8]["error"]["code"] == -32601  # (and what follows is read)
    clean(err)


def test_a_frame_over_the_bound_without_a_visible_id_is_answered_with_null():
    frames, err = talk(frame(b'{"params": {}, "id": 7}', length=MAX_BODY * 2))
    answered = [m for m in frames if "error" in m]
    assert [(m["id"], m["error"]["code"]) for m in answered] == [(None, -32600)]
    clean(err)


def _open(uri, text):
    return {"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {
        "uri": uri, "languageId": "yaml", "version": 1, "text": text}}}


def _change(uri, version, start, end, text="zz"):
    return {"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {
        "textDocument": {"uri": uri, "version": version}, "contentChanges": [{"range": {
            "start": {"line": start[0], "character": start[1]}, "end": {"line": end[0], "character": end[1]}},
            "text": text}]}}


@pytest.mark.parametrize("start, end, said", [
    ((50, 0), (60, 3), "past the end"),
    ((-1, 0), (0, 3), "negative"),
    ((1, 0), (0, 3), "ends (line 0, character 3) before it starts (line 1, character 0)"),
])
def test_a_change_it_cannot_apply_gives_its_file_a_diagnostic(tmp_path, start, end, said):
    uri = (tmp_path / "notes.yaml").as_uri()
    frames, err = talk(_open(uri, "a: 1\nb: 2\n"), _change(uri, 2, start, end),
                       _change(uri, 3, (0, 0), (0, 0), "c: 3\n"),  # (relative to a text it does not have: not applied)
                       {"jsonrpc": "2.0", "id": 5, "method": "textDocument/hover", "params": {
                           "textDocument": {"uri": uri}, "position": {"line": 0, "character": 0}}}, pause=3)
    told = [m["params"]["diagnostics"] for m in frames
            if m.get("method") == "textDocument/publishDiagnostics" and m["params"]["uri"] == uri]
    lost = [d for ds in told for d in ds if "lost this file's text" in d["message"]]
    assert lost and said in lost[0]["message"] and lost[0]["range"]["start"] == {"line": 0, "character": 0}
    assert by_id(frames)[5]["result"] is None
    assert not [m for m in frames if m.get("method") == "window/showMessage"]
    clean(err)


def test_the_whole_text_again_puts_the_file_back_in_step(tmp_path):
    uri = (tmp_path / "notes.yaml").as_uri()
    whole = {"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {
        "textDocument": {"uri": uri, "version": 3}, "contentChanges": [{"text": "a: 1\n"}]}}

    def told(frames) -> list:
        return [m["params"]["diagnostics"] for m in frames
                if m.get("method") == "textDocument/publishDiagnostics" and m["params"]["uri"] == uri]

    # (until its last word on the file is that nothing is wrong, or a minute: a loaded machine is slow)
    frames, err = talk(_open(uri, "a: 1\nb: 2\n"), _change(uri, 2, (9, 0), (9, 1)), whole,
                       until=lambda fs: told(fs) and told(fs)[-1] == [])
    told = told(frames)
    assert any(ds and "lost" in ds[0]["message"] for ds in told)
    assert told[-1] == []  # (a file that is no rule file: nothing to say, once in step)
    clean(err)


def test_a_change_to_a_file_not_open_is_left_out():
    frames, err = talk({"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {
        "textDocument": {"uri": "file:///nowhere/x.yaml", "version": 2}, "contentChanges": [{"text": "a: 1"}]}})
    assert not [m for m in frames if m.get("method") in ("window/showMessage", "textDocument/publishDiagnostics")]
    clean(err)
