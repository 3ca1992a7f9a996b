"""`jux join CODE --server URL`: play a seat of a server's table in the terminal UI, the same UI as
local play (tui/remote.py gives it the seat through the session interface). A bad code, a server
that cannot be reached or a ruleset this jux cannot read is one line before the screen opens. Its
parser is in cli/server_args.py; websockets, the engine and Textual are imported only
when the command runs."""
from __future__ import annotations

import os
import sys

from ..errors import JuxError


def cmd_join(args) -> int:
    from ..engine.ruleset import load_ruleset
    from ..server.client import request

    code = args.code or os.environ.pop("JUX_CODE", "")  # (`jux serve --web` gives it so: not in `ps`)
    if not code:
        raise JuxError("join: give the seat's invitation code (CODE, or the environment variable JUX_CODE)")
    welcome = request(args.server, "hello", "welcome", code=code)  # a bad code: one line, now
    if welcome.get("seat") is None:
        raise JuxError("join: this is a spectator's code; the terminal UI plays a seat's code")
    name, tiles = str(welcome.get("ruleset")), [str(t) for t in welcome.get("tiles") or []]
    try:
        rules = load_ruleset(args.rules or name, tiles)
    except JuxError as e:
        raise JuxError(f"join: cannot read the table's ruleset '{name}' here ({e}); "
                       "name its files with --rules PATH") from None
    if not (sys.stdout.isatty() and sys.stdin.isatty()) and not os.environ.get("TEXTUAL_DRIVER"):  # (web page)
        raise JuxError("join: the terminal UI needs a terminal")
    from ...tui import run
    from ...tui.remote import RemoteSession

    run(session=RemoteSession(args.server, code, rules, welcome))
    return 0
