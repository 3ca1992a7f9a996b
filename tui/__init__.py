"""The jux terminal UI (Textual): plays any ruleset from what the ruleset declares.

Textual is imported only when the app runs (``run``), so importing this package is cheap.
"""
from __future__ import annotations


def run(**options) -> int:
    """Open the app (options: see tui.app.JuxApp); its exit status when it ends. When the rules'
    code failed in a game, the last failure is printed on one line and the status is 1."""
    import sys

    from .app import JuxApp

    app = JuxApp(**options)
    app.run()
    if app.failure:
        print("jux: " + " ".join(app.failure.split()), file=sys.stderr)
        return 1
    return app.return_code or 0


__all__ = ["run"]
