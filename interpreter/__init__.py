"""jux: a rules-as-data engine for card games."""
from .engine import Decision, Game, Option, Ruleset, load_ruleset
from .errors import IllegalAnswer, JuxError, RecordError, RuleError, RuleErrors

__all__ = ["load_ruleset", "Game", "Decision", "Option", "Ruleset", "JuxError", "RuleError",
           "RuleErrors", "IllegalAnswer", "RecordError"]
