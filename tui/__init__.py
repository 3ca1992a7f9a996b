"""The jux terminal UI (Textual): plays any ruleset from what the ruleset declares.

Textual is imported only when the app runs (``run``), so importing this package is cheap.
"""
from __future__ import annotations


def run(**options) -> None:
    """Open the app. options: see tui.app.JuxApp."""
    from .app import JuxApp

    JuxApp(**options).run()


__all__ = ["run"]
