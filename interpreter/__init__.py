"""The engine of jux (installed as jux.interpreter), one folder per stage of its pipeline:
rule files -> reading -> checks -> compiler -> engine -> bots -> study and authoring -> cli,
with language/ (the effect language's parser) and runtime/ (what compiled rules call) serving
them. Imports flow one way, down the pipeline (docs/architecture.md; tests/test_layout.py).
The public API is the package above it: `from jux import load_ruleset, Game`.
"""
