"""The effect language: Lark parse tree -> AST of frozen dataclasses, each carrying its Pos.

The entry points: parse_block, parse_expr, parse_function_body, parse_signature. The AST and its
helpers are in tree.py, a code's place in its file in source.py, the parser's error messages, its
keywords and reserved words in parse_errors.py."""
from __future__ import annotations

import re
from typing import Optional

from lark.exceptions import UnexpectedInput, VisitError

from ..errors import RuleError
from .parse_errors import _check_depth, _check_words, _syntax_error, _word_error, parser, reserved_words
from .source import Source
from .transform import _Build
from .tree import Expr


def _parse(code: str, src: Source, start: str, closing: Optional[str] = None):
    if not isinstance(code, str):
        raise RuleError(src.at(0), "expected effect code (a string)")
    try:
        tree = parser().parse(code, start=start)
    except UnexpectedInput as e:
        raise _syntax_error(e, code, src, closing) from None
    _check_depth(tree, src)
    _check_words(tree, src)
    try:
        built = _Build(src, code, parse_expr).transform(tree).children
    except VisitError as e:  # a RuleError raised while building the AST
        if isinstance(e.orig_exc, RuleError):
            raise e.orig_exc from None
        raise
    _check_depth(built, src)  # (a chain of operators, flat in the parse tree, nests in the AST)
    return built


def parse_block(code: str, src: Source) -> tuple:
    """Parse a block of statements; returns a tuple of Stmt. Raises RuleError."""
    return tuple(_parse(code, src, "start"))


def parse_expr(code: str, src: Source, closing: Optional[str] = None) -> Expr:
    """Parse one expression. Raises RuleError. closing: what ends the code in its file, when it is
    not the end of a YAML value (the '}' of a "{...}" in a string)."""
    return _parse(code, src, "expr_start", closing)[0]


_BLOCK_WORDS = ("let", "for", "while", "return")


def parse_function_body(code: str, src: Source):
    """A function's body: one expression, or a block of statements that computes a value with
    locals (`let`), `if`, loops and `return EXPR`. Raises RuleError (the expression's error,
    unless the code plainly is a block)."""
    try:
        return parse_expr(code, src)
    except RuleError as as_expr:
        try:
            return parse_block(code, src)
        except RuleError as as_block:
            words = code.split() if isinstance(code, str) else []
            plainly_block = bool(words) and (words[0] in _BLOCK_WORDS or "return" in words)
            raise (as_block if plainly_block else as_expr) from None


def parse_signature(text: str, src: Source) -> tuple[str, tuple]:
    """'name(a, b)' or 'name' -> (name, params)."""
    m = re.fullmatch(r"\s*([A-Za-z_][A-Za-z0-9_]*)\s*(?:\(\s*([A-Za-z_][A-Za-z0-9_]*(?:\s*,\s*[A-Za-z_][A-Za-z0-9_]*)*)?\s*\))?\s*", text)
    if not m:
        raise RuleError(src.pos(1, 1), f"'{text}' is not a name with parameters, like 'name(a, b)'")
    params = tuple(p.strip() for p in (m.group(2) or "").split(",") if p.strip())
    for word in (m.group(1),) + params:
        if word in reserved_words():
            raise _word_error(src.at(text.index(word), 1, 1 + text.index(word)), word)
    if len(set(params)) != len(params):
        raise RuleError(src.pos(1, 1), f"'{text}' repeats a parameter name")
    return m.group(1), params
