"""jux: a rules-as-data engine for card games.

The names below are imported when first used, so `import interpreter.errors` (the command line,
the terminal UI's first screen) does not load the rules engine and its parser.
"""
from importlib import import_module

_EXPORTS = {"load_ruleset": "engine", "Game": "engine", "Decision": "engine", "Option": "engine",
            "Ruleset": "engine", "JuxError": "errors", "RuleError": "errors", "RuleErrors": "errors",
            "IllegalAnswer": "errors", "RecordError": "errors"}

__all__ = list(_EXPORTS)


def __getattr__(name):
    if name in _EXPORTS:
        return getattr(import_module(f".{_EXPORTS[name]}", __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
