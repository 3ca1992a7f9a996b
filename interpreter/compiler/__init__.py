"""The compiler: a checked RuleSpec -> Python source, compiled once per ruleset and variants
(program.py is its entry)."""
