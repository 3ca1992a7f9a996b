"""The engine of jux (installed as jux.interpreter): rule files -> loader -> checks -> compiled
rules -> game -> players. The public API is the package above it: `from jux import load_ruleset, Game`.
"""
