"""The effect language's parser (Lark) and its syntax errors: readable messages for what the parser
refuses, reserved words used as names, code nested too deep."""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path
import re
from typing import Optional

from lark import Lark, Token, Tree
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from ..errors import Pos, RuleError
from ..limits import MAX_NESTING
from .source import Source
from .tree import Node

# ---------------------------------------------------------------- parsing


@lru_cache(maxsize=1)
def parser() -> Lark:
    grammar = (Path(__file__).parent / "grammar.lark").read_text()
    return Lark(grammar, parser="lalr", propagate_positions=True, start=["start", "expr_start"],
                cache=True, maybe_placeholders=False)


_TOKEN_NAMES = {
    "NAME": "a name", "INT": "a number", "STRING": "a string", "$END": "the end of the code",
    "COMP_OP": "a comparison", "ADD_OP": "'+' or '-'", "MUL_OP": "'*', '//' or '%'",
    "AUGOP": "'+=' or '-='",
}
_STMT_START = {"LET", "SET", "IF", "FOR", "WHILE", "BREAK", "MOVE", "DRAW", "SHUFFLE", "REVEAL", "REMOVE",
               "CHOOSE", "SIMULTANEOUSLY", "LOG", "SHOW", "RETURN", "SEMICOLON", "NAME"}
_EXPR_START = {"INT", "STRING", "NAME", "LPAR", "LSQB", "MINUS", "TRUE", "FALSE", "NONE", "NOT", "IF"}
_OPERATORS = {"ADD_OP", "MUL_OP", "COMP_OP", "AND", "OR", "IN", "NOT", "DOT", "LSQB"}


@lru_cache(maxsize=1)
def _terminal_names() -> dict:
    names = {}
    for t in parser().terminals:
        if t.pattern.type == "str":
            names[t.name] = f"'{t.pattern.value}'"
    names.update(_TOKEN_NAMES)
    return names


def _token_name(t: str) -> str:
    return _terminal_names().get(t) or (f"'{t.lower()}'" if t.isupper() else t)


def expected_text(tokens, end_name: str = "the end of the code") -> str:
    """A readable list of what the parser would have accepted: 'a statement', 'an expression',
    'an operator' stand for the many tokens that can start or continue one."""
    left = set(tokens)
    groups = []
    if {"LET", "MOVE"} <= left:
        groups.append("a statement")
        left -= _STMT_START
    if {"INT", "STRING"} <= left:
        groups.append("an expression")
        left -= _EXPR_START
    if {"ADD_OP", "COMP_OP"} <= left:
        groups.insert(0, "an operator")
        left -= _OPERATORS
    end = "$END" in left
    left.discard("$END")
    names = sorted(_token_name(t) for t in left)
    items = names + groups + ([end_name] if end else [])
    if not items:
        return "something else"
    if len(items) > 8:
        items = items[:8] + ["..."]
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " or " + items[-1]


def _unexpected_token(e: UnexpectedToken, code: str, src: Source, closing: Optional[str]) -> RuleError:
    tok = e.token
    try:
        accepts = set(e.interactive_parser.accepts())
    except Exception:  # an older lark, or a state accepts() cannot explore
        accepts = set(e.expected)
    end_name = closing or "the end of the code"
    stray = _stray_word(e, code, src, accepts)
    if stray is not None:
        return stray
    if tok.type == "$END":
        end = len(code) if closing else len(code.rstrip())
        what = f"unexpected {closing}" if closing else "the code ends too early"
        return RuleError(src.at(end, tok.end_line or 1, (tok.end_column or 1)),
                         f"syntax error: {what}; expected {expected_text(accepts, end_name)}")
    pos = src.at(tok.start_pos, tok.line, tok.column)
    text = str(tok)
    got = f"'{text if len(text) <= 24 else text[:21] + '...'}'"
    hint = ""
    if tok.type == "COMP_OP" and text == ">" and tok.start_pos and code[tok.start_pos - 1] == "-":
        return RuleError(src.at(tok.start_pos - 1, tok.line, tok.column - 1),
                         "syntax error: a key 'x -> ...' is only allowed as the last argument of "
                         "max_by, min_by or sort_by")
    if tok.type == "COMP_OP" and "COMP_OP" not in accepts:
        hint = " (comparisons cannot be chained: write 'a < b and b < c')"
    elif tok.type == "EQUAL" and "COMP_OP" in accepts:
        hint = " (compare with '==')"
    return RuleError(pos, f"syntax error: unexpected {got}; expected {expected_text(accepts, end_name)}{hint}")


_NAME_STARTS = {"AUGOP", "EQUAL", "LPAR", "LSQB"}  # what may follow a name that starts a statement


def _stray_word(e: UnexpectedToken, code: str, src: Source, accepts: set) -> Optional[RuleError]:
    """A word that ends up alone as a statement of its own (an extra word after a statement, or a
    call without brackets) is told on its own line, not at whatever follows it."""
    if accepts != _NAME_STARTS:
        return None
    history = getattr(e, "token_history", None)
    if history:
        word = history[-1]
        if word.type != "NAME" or e.token.type != "$END" and e.token.line == word.line:
            return None
        offset, line, col = word.start_pos, word.line, word.column
    elif e.token.type == "$END":
        m = re.search(r"[A-Za-z_][A-Za-z0-9_]*\s*$", code)
        if m is None:
            return None
        offset = m.start()
        line = code.count("\n", 0, offset) + 1
        col = offset - (code.rfind("\n", 0, offset) + 1) + 1
        word = m.group().strip()
    else:
        return None
    return RuleError(src.at(offset, line, col), f"syntax error: unexpected '{word}' (a statement that starts with a "
                                                f"name is a call, {word}(...), or an assignment, {word} = ...)")


_CHAR_HINTS = {
    "'": " (strings are written in double quotes)", "&": " (write 'and')", "|": " (write 'or')",
    "!": " (write 'not', or '!=' to compare)",
}


# an operator at the end of a line (a comment after it aside): the expression goes on on the next line
_TRAILING_OPERATOR = re.compile(r"(\+|-|\*|//|/|%|==|!=|<=|>=|<|(?<!-)>|\band|\bor|\bnot|\bin)\s*(#[^\n]*)?$")


def _dangling_operator(e: UnexpectedToken, code: str, src: Source) -> Optional[RuleError]:
    """An expression left unfinished at a line's end (`let n = a +`): the next line is read as its
    right-hand side, so the parser stumbles there; the error is told at the operator instead."""
    history = getattr(e, "token_history", None) or ()
    lines_at = [t.line for t in (e.token, *history[-1:]) if getattr(t, "line", None)]
    if not lines_at or min(lines_at) < 2:
        return None
    lines = code.split("\n")
    k = min(lines_at) - 2  # (the line before the first token that went wrong)
    while k >= 0 and not lines[k].split("#")[0].strip():
        k -= 1
    m = _TRAILING_OPERATOR.search(lines[k]) if k >= 0 else None
    after = re.match(r"\s*([A-Za-z_]\w*)", lines[k + 1]) if m is not None else None
    if after is None or after.group(1) not in keywords():  # (the next line reads as a statement of its own)
        return None
    offset = sum(len(x) + 1 for x in lines[:k]) + m.start(1)
    return RuleError(src.at(offset, k + 1, m.start(1) + 1),
                     f"syntax error: '{m.group(1)}' ends the line, so the next line is read as what it applies "
                     "to: finish the expression on this line")


def _syntax_error(e: UnexpectedInput, code: str, src: Source, closing: Optional[str] = None) -> RuleError:
    if isinstance(e, UnexpectedToken):
        return _dangling_operator(e, code, src) or _unexpected_token(e, code, src, closing)
    pos = src.at(getattr(e, "pos_in_stream", None), getattr(e, "line", 1) or 1, getattr(e, "column", 1) or 1)
    if isinstance(e, UnexpectedCharacters):
        ch = e.char
        if ch == '"':
            return RuleError(pos, "syntax error: a string is not closed by '\"' on the same line")
        return RuleError(pos, f"syntax error: unexpected character {ch!r}{_CHAR_HINTS.get(ch, '')}")
    if isinstance(e, UnexpectedEOF):
        return RuleError(pos, "syntax error: the code ends too early")
    return RuleError(pos, f"syntax error: {e}")


@lru_cache(maxsize=1)
def keywords() -> frozenset:
    """The words of the language (the grammar's keywords: let, from, to, ...)."""
    import re

    return frozenset(t.pattern.value for t in parser().terminals
                     if t.pattern.type == "str" and re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", t.pattern.value))


@lru_cache(maxsize=1)
def reserved_words() -> frozenset:
    """The keywords that cannot name anything: those that can begin an expression (true, false,
    none, not, if), since reading such a name would read the keyword. The other keywords may name
    a local or a parameter where a statement cannot take them for the keyword (docs/language.md)."""
    starts = parser().parse_interactive("", start="expr_start").accepts()
    return frozenset(t.pattern.value for t in parser().terminals
                     if t.name in starts and t.pattern.value in keywords())


def _word_error(pos: Pos, word: str) -> RuleError:
    return RuleError(pos, f"'{word}' is a word of the language and cannot name anything: choose another name")


def _check_words(tree, src: Source) -> None:
    """Refuse a reserved word used as a name (`let true = 1`: the parser reads it as a name after
    `let`, but everywhere else it is the keyword)."""
    for tok in tree.scan_values(lambda v: isinstance(v, Token) and v.type == "NAME"):
        if str(tok) in reserved_words():
            raise _word_error(src.at(tok.start_pos, tok.line, tok.column), str(tok))


def _check_depth(tree, src: Source) -> None:
    """Refuse code nested deeper than MAX_NESTING levels of the parse tree (brackets, blocks,
    operators), at the first place past it: what reads the tree after this, and Python compiling
    the generated code, would run out of stack (the games of rules/ nest at most 16 deep)."""
    stack = [(tree, 1)]
    while stack:
        node, depth = stack.pop()
        if isinstance(node, (list, tuple)):
            stack.extend((c, depth) for c in node)
            continue
        if isinstance(node, Tree):
            children = node.children
        elif isinstance(node, Node):
            children = [getattr(node, f) for f in node.__dataclass_fields__ if f != "pos"]
        else:
            continue
        if depth > MAX_NESTING:
            if isinstance(node, Node):
                pos = node.pos or src.at(0)
            else:
                meta = node.meta
                pos = src.at(0) if getattr(meta, "empty", True) else src.at(meta.start_pos, meta.line, meta.column)
            raise RuleError(pos, f"the code is nested more than {MAX_NESTING} levels deep here: "
                                 "split it into functions or procedures")
        stack.extend((c, depth + 1) for c in children)
