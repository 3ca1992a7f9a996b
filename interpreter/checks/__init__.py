"""The static checks of a RuleSpec: names, calls, statements, declarations, types (infer.py),
what is never reached. Hands the compiler what suspends (checker.check)."""
