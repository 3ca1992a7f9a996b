"""`jux lsp`: the language server for rule and variant files, over stdio (see docs/editors.md)."""
from __future__ import annotations

import logging
import sys


def cmd_lsp(args) -> int:
    from ..authoring.lsp_server import make_server

    logging.basicConfig(stream=sys.stderr, level=logging.WARNING)  # stdout carries the protocol
    make_server().start_io()
    return 0
