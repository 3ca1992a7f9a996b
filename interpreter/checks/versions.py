"""Language versions: a check tightened after a release warns, and refuses only in files that ask
for the newer language.

A rule file says which version of the language it is written in: `language: 2` in the game
section (for every file of the ruleset) or in a variant's head (for that file); without it, version
1. A check that would refuse what an earlier release accepted reports through `tightened`: in a
file of an older version it is a warning whose message says the fix, and the game still loads; in
a file of the version that made it strict, it is an error (docs/language.md, Language versions).
"""
from __future__ import annotations

from ..errors import RuleError

LATEST = 2  # the newest version of the language


def language_of(spec, file: str) -> int:
    """The language version a file of the ruleset is written in (1 when it does not say)."""
    return (getattr(spec, "languages", None) or {}).get(file, 1)


def tightened(spec, pos, message: str, fix: str, since: int = 2, error: str | None = None) -> tuple:
    """(is_error, RuleError) for what a check tightened in language `since` found at pos: the error
    (worded as `error`, else as the message) in a file of that version or later, else a warning
    that says the fix and that the file still loads."""
    if pos is not None and language_of(spec, pos.file) >= since:
        return True, RuleError(pos, error or message)
    return False, RuleError(pos, f"{message}; {fix} (a warning in language {since - 1}, an error in a "
                                 f"file that says language: {since})")
