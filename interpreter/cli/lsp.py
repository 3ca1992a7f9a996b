"""`jux lsp`: the language server for rule and variant files, over stdio (see docs/editors.md).
What the editor sends passes the transport's guard first (lsp/transport.py): broken frames
are skipped or answered, never left to the server."""
from __future__ import annotations

import logging
import os
import sys
import threading


def cmd_lsp(args) -> int:
    from ..lsp.transport import LockedWriter, pump
    from ..lsp.protocol import vetter
    from ..lsp.server import make_server

    logging.basicConfig(stream=sys.stderr, level=logging.WARNING)  # stdout carries the protocol
    out = LockedWriter(sys.stdout.buffer)
    r, w = os.pipe()
    server_in, server_out = os.fdopen(w, "wb"), os.fdopen(r, "rb")

    def warn(text: str) -> None:
        print(text, file=sys.stderr, flush=True)

    # (the raw descriptor, not sys.stdin's buffer: a daemon thread blocked in the buffer's read
    # would hold its lock when the server exits)
    stdin = _Fd(sys.stdin.fileno())
    server = make_server()
    threading.Thread(target=pump, args=(stdin, server_in, out, warn, vetter(server)), daemon=True).start()
    server.start_io(stdin=server_out, stdout=out)
    return 0


class _Fd:
    """A file descriptor read as a stream: read1(n) gives what is there (b"" at its end)."""

    def __init__(self, fd: int):
        self.fd = fd

    def read1(self, n: int) -> bytes:
        try:
            return os.read(self.fd, n)
        except OSError:
            return b""
