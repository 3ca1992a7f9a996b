"""jux: a rules-as-data engine for card games.

    from jux import load_ruleset, Game

The package holds the engine (jux.interpreter), the terminal UI (jux.tui) and, as data, the
rulesets (jux.rules) and their variants (jux.variants). In a checkout these are the folders
interpreter/, tui/, rules/ and variants/ at the top; pyproject.toml maps them into this package.

The names below are imported when first used, so `import jux` (the command line, the terminal UI's
first screen) does not load the rules engine and its parser.
"""
from importlib import import_module

__version__ = "0.2.0"  # (pyproject.toml's version: tests/test_cli.py checks they agree)

_EXPORTS = {"load_ruleset": "engine.ruleset", "Game": "engine.game", "Decision": "engine.decisions",
            "Option": "engine.decisions", "Ruleset": "engine.ruleset", "JuxError": "errors", "RuleError": "errors",
            "RuleErrors": "errors",
            "IllegalAnswer": "errors", "RecordError": "errors"}

__all__ = list(_EXPORTS)


def __getattr__(name):
    if name in _EXPORTS:
        return getattr(import_module(f".interpreter.{_EXPORTS[name]}", __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
