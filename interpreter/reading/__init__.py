"""Reading rule files: YAML with line marks, checked against the JSON Schema, variants composed
into the base game, effect code parsed. Hands the checks a RuleSpec (spec.py)."""
