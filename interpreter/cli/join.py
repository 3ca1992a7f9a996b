"""`jux join CODE --server URL`: play a seat of a server's table in the terminal UI, the same UI as
local play (tui/remote.py gives it the seat through the session interface), or watch it with the
table's spectator code (read-only: the public view and log). A bad code, a server that cannot be
reached or a ruleset this jux cannot read is one line before the screen opens. Its parser is in
cli/server_args.py; websockets, the engine and Textual are imported only when the command runs."""
from __future__ import annotations

import os
import sys

from ..errors import JuxError


def cmd_join(args) -> int:
    from ...tui.joining import join

    code = args.code or os.environ.pop("JUX_CODE", "")  # (`jux serve --web` gives it so: not in `ps`)
    if not code:
        raise JuxError("join: give the seat's invitation code (CODE, or the environment variable JUX_CODE)")
    try:
        session = join(args.server, code, rules_path=args.rules)  # a bad code: one line, now
    except JuxError as e:
        hint = "; name its files with --rules PATH" if "table's ruleset" in str(e) else ""
        raise JuxError(f"join: {e}{hint}") from None
    if not (sys.stdout.isatty() and sys.stdin.isatty()) and not os.environ.get("TEXTUAL_DRIVER"):  # (web page)
        raise JuxError("join: the terminal UI needs a terminal")
    from ...tui import run

    return run(session=session)
