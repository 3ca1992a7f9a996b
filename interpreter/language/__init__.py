"""The effect language: its grammar (grammar.lark), the parser that turns code into an AST of
frozen dataclasses (parse.py, tree.py), its built-in functions and the words of its types.
Knows nothing of rule files or games."""
