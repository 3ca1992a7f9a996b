"""Where jux finds rule files: rules/<game>/ and variants/<game>/, and the default ruleset."""
from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RULES_DIR = ROOT / "rules"
VARIANTS_DIR = ROOT / "variants"


def default_ruleset() -> str:
    """The ruleset opened when none is named: the name in rules/default."""
    try:
        return (RULES_DIR / "default").read_text().strip()
    except OSError:
        from .errors import JuxError

        raise JuxError(f"no ruleset named and no default: write a ruleset name in {RULES_DIR / 'default'}") from None
