"""The effect language: Lark parse tree -> AST of frozen dataclasses, each carrying its Pos."""
from __future__ import annotations

from dataclasses import dataclass, field, replace
import re
from functools import lru_cache
from pathlib import Path
from typing import Optional, Union

from lark import Lark, Token, Transformer, Tree, v_args
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken, VisitError

from .errors import Pos, RuleError
from .limits import MAX_DIGITS, MAX_NESTING

# ---------------------------------------------------------------- AST


@dataclass(frozen=True)
class Node:
    pos: Pos


# expressions
@dataclass(frozen=True)
class Int(Node):
    value: int


@dataclass(frozen=True)
class Str(Node):
    parts: tuple  # str pieces and expressions, from "text {expr} text"


@dataclass(frozen=True)
class Const(Node):
    value: object  # true, false, none


@dataclass(frozen=True)
class Name(Node):
    id: str


@dataclass(frozen=True)
class ListLit(Node):
    items: tuple


@dataclass(frozen=True)
class TupleLit(Node):
    items: tuple


@dataclass(frozen=True)
class Pattern(Node):
    names: tuple
    is_tuple: bool


@dataclass(frozen=True)
class CompFor(Node):
    pattern: Pattern
    iter: "Expr"
    cond: Optional["Expr"]


@dataclass(frozen=True)
class ListComp(Node):
    elt: "Expr"
    fors: tuple


@dataclass(frozen=True)
class GenCall(Node):
    func: str
    elt: "Expr"
    fors: tuple


@dataclass(frozen=True)
class CondExpr(Node):
    cond: "Expr"
    then: "Expr"
    orelse: "Expr"


@dataclass(frozen=True)
class BinOp(Node):
    op: str
    left: "Expr"
    right: "Expr"


@dataclass(frozen=True)
class BoolOp(Node):
    op: str  # "and" / "or"
    items: tuple


@dataclass(frozen=True)
class Not(Node):
    operand: "Expr"


@dataclass(frozen=True)
class Neg(Node):
    operand: "Expr"


@dataclass(frozen=True)
class Compare(Node):
    op: str  # == != < <= > >= in notin
    left: "Expr"
    right: "Expr"


@dataclass(frozen=True)
class Attr(Node):
    obj: "Expr"
    name: str
    name_pos: Optional[Pos] = field(default=None, compare=False)  # where the name after '.' is


@dataclass(frozen=True)
class Index(Node):
    obj: "Expr"
    index: "Expr"


@dataclass(frozen=True)
class Call(Node):
    func: str
    args: tuple


@dataclass(frozen=True)
class Lambda(Node):
    param: str
    body: "Expr"


Expr = Union[Int, Str, Const, Name, ListLit, TupleLit, ListComp, GenCall, CondExpr, BinOp, BoolOp,
             Not, Neg, Compare, Attr, Index, Call, Lambda]


# statements
@dataclass(frozen=True)
class Let(Node):
    pattern: Pattern
    value: Expr


@dataclass(frozen=True)
class Assign(Node):
    name: str
    index: Optional[Expr]
    op: str  # "=", "+=", "-="
    value: Expr
    key: Optional[Expr] = None  # the second index of a counter per player and per key: n[p][key]


@dataclass(frozen=True)
class SetMark(Node):
    target: Attr
    value: Expr


@dataclass(frozen=True)
class If(Node):
    branches: tuple  # ((cond, body), ...)
    orelse: Optional[tuple]


@dataclass(frozen=True)
class For(Node):
    pattern: Pattern
    iter: Expr
    body: tuple


@dataclass(frozen=True)
class While(Node):
    cond: Expr
    body: tuple


@dataclass(frozen=True)
class Break(Node):
    pass


@dataclass(frozen=True)
class Move(Node):
    what: Expr
    dest: Expr
    bottom: bool


@dataclass(frozen=True)
class Draw(Node):
    count: Expr
    src: Expr
    dest: Expr


@dataclass(frozen=True)
class Shuffle(Node):
    zone: Expr


@dataclass(frozen=True)
class Reveal(Node):
    what: Expr
    to: Optional[Expr]


@dataclass(frozen=True)
class Choose(Node):
    pattern: Pattern
    options: Expr
    by: Optional[Expr]
    prompt: Optional[Expr]
    label: Optional[Expr]
    count: Optional[Expr]  # exactly this many
    upto: Optional[Expr]  # at most this many
    optional: bool  # may be declined
    unavailable: Optional[Expr] = None  # (thing, reason) pairs: what cannot be chosen now, and why
    distinct: Optional["Lambda"] = None  # `distinct x -> key`: no two options with the same key picked
    hint: Optional[Expr] = None  # what an option would do, shown beside its label


@dataclass(frozen=True)
class Simultaneously(Node):
    pattern: Pattern
    iter: Expr
    body: tuple


@dataclass(frozen=True)
class CallStmt(Node):
    func: str
    slot_key: Optional[Expr]  # power[c.colour](...) calls the procedure a slot names
    args: tuple


@dataclass(frozen=True)
class Log(Node):
    message: Expr


@dataclass(frozen=True)
class Show(Node):
    """A table in the log: a title, column headings, rows of values."""
    title: Expr
    columns: Expr
    rows: Expr


@dataclass(frozen=True)
class Return(Node):
    value: Optional[Expr] = None  # `return EXPR`: what a function or procedure gives its caller


Stmt = Union[Let, Assign, SetMark, If, For, While, Break, Move, Draw, Shuffle, Reveal, Choose,
             Simultaneously, CallStmt, Log, Show, Return]


# ---------------------------------------------------------------- where code sits in a file


@dataclass(frozen=True)
class Source:
    """Where a piece of effect code sits in its file, to give errors file positions.

    spots: the file (line, col) of every character of the code, when the loader knows them (it
    does for every YAML string, whatever its style: plain, quoted with escapes, literal or folded
    block). Without spots: line, col is the file position of the code's first character, and
    block says the code is a YAML block scalar whose every line is indented by col-1 (otherwise
    only the first line is shifted).
    """

    file: str
    line: int = 1
    col: int = 1
    block: bool = False
    spots: Optional[tuple] = field(default=None, compare=False, repr=False)

    def pos(self, line: int, col: int) -> Pos:
        if self.block or line == 1:
            col = col + self.col - 1
        return Pos(self.file, self.line + line - 1, col)

    def at(self, offset: Optional[int], line: int = 1, col: int = 1) -> Pos:
        """The file position of the code's character at offset (line, col: the same place in the
        code, used when the spots are not known). An offset at the end points just after the code."""
        spots = self.spots
        if spots and offset is not None and offset >= 0:
            if offset < len(spots):
                ln, cl = spots[offset]
            else:
                ln, cl = spots[-1]
                cl += 1
            return Pos(self.file, ln, cl)
        return self.pos(line, col)

    def sub(self, offset: int, line: int, col: int) -> "Source":
        """The Source of a piece of this code starting at offset (the code of a "{...}" in a string)."""
        if self.spots:
            p = self.at(offset)
            return Source(self.file, p.line, p.col, spots=self.spots[offset:])
        p = self.pos(line, col)
        return Source(self.file, p.line, p.col)


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
_STMT_START = {"LET", "SET", "IF", "FOR", "WHILE", "BREAK", "MOVE", "DRAW", "SHUFFLE", "REVEAL",
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


def _syntax_error(e: UnexpectedInput, code: str, src: Source, closing: Optional[str] = None) -> RuleError:
    if isinstance(e, UnexpectedToken):
        return _unexpected_token(e, code, src, closing)
    pos = src.at(getattr(e, "pos_in_stream", None), getattr(e, "line", 1) or 1, getattr(e, "column", 1) or 1)
    if isinstance(e, UnexpectedCharacters):
        ch = e.char
        if ch == '"':
            return RuleError(pos, "syntax error: a string is not closed by '\"' on the same line")
        return RuleError(pos, f"syntax error: unexpected character {ch!r}{_CHAR_HINTS.get(ch, '')}")
    if isinstance(e, UnexpectedEOF):
        return RuleError(pos, "syntax error: the code ends too early")
    return RuleError(pos, f"syntax error: {e}")


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
        built = _Build(src, code).transform(tree).children
    except VisitError as e:  # a RuleError raised while building the AST
        if isinstance(e.orig_exc, RuleError):
            raise e.orig_exc from None
        raise
    _check_depth(built, src)  # (a chain of operators, flat in the parse tree, nests in the AST)
    return built


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


def _unescape(s: str) -> str:
    return s.encode("latin-1", "backslashreplace").decode("unicode_escape") if "\\" in s else s


@v_args(meta=True)
class _Build(Transformer):
    def __init__(self, src: Source, code: str):
        super().__init__()
        self.src = src
        self.code = code

    def _p(self, meta) -> Pos:
        if getattr(meta, "empty", True):
            return self.src.at(0)
        return self.src.at(meta.start_pos, meta.line, meta.column)

    def _tp(self, tok: Token) -> Pos:
        return self.src.at(tok.start_pos, tok.line, tok.column)

    # --- statements
    def start(self, meta, items):
        return _Seq([i for i in items if i is not None])

    def expr_start(self, meta, items):
        return _Seq(items)

    def block(self, meta, items):
        return tuple(i for i in items if i is not None)

    def empty(self, meta, items):
        return None

    def let_stmt(self, meta, items):
        return Let(self._p(meta), items[0], items[1])

    def assign_stmt(self, meta, items):
        return Assign(self._p(meta), str(items[0]), None, "=", items[1])

    def assign_index(self, meta, items):
        return Assign(self._p(meta), str(items[0]), items[1], "=", items[2])

    def aug_stmt(self, meta, items):
        return Assign(self._p(meta), str(items[0]), None, str(items[1]), items[2])

    def aug_index(self, meta, items):
        return Assign(self._p(meta), str(items[0]), items[1], str(items[2]), items[3])

    def assign_index2(self, meta, items):
        return Assign(self._p(meta), str(items[0]), items[1], "=", items[3], items[2])

    def aug_index2(self, meta, items):
        return Assign(self._p(meta), str(items[0]), items[1], str(items[3]), items[4], items[2])

    def set_stmt(self, meta, items):
        target = items[0]
        if not isinstance(target, Attr):
            raise RuleError(target.pos, "'set' needs a card mark, like 'set card.mark = value'")
        return SetMark(self._p(meta), target, items[1])

    def if_stmt(self, meta, items):
        cond, body, *rest = items
        branches = [(cond, body)]
        orelse = None
        for r in rest:
            if isinstance(r, _Elif):
                branches.append((r.cond, r.body))
            else:
                orelse = r.body
        return If(self._p(meta), tuple(branches), orelse)

    def elif_clause(self, meta, items):
        return _Elif(items[0], items[1])

    def else_clause(self, meta, items):
        return _Else(items[0])

    def for_stmt(self, meta, items):
        return For(self._p(meta), items[0], items[1], items[2])

    def while_stmt(self, meta, items):
        return While(self._p(meta), items[0], items[1])

    def break_stmt(self, meta, items):
        return Break(self._p(meta))

    def move_stmt(self, meta, items):
        return Move(self._p(meta), items[0], items[1], len(items) > 2)

    def bottom(self, meta, items):
        return True

    def draw_stmt(self, meta, items):
        return Draw(self._p(meta), *items)

    def shuffle_stmt(self, meta, items):
        return Shuffle(self._p(meta), items[0])

    def reveal_stmt(self, meta, items):
        return Reveal(self._p(meta), items[0], items[1] if len(items) > 1 else None)

    def reveal_to(self, meta, items):
        return items[0]

    def choose_stmt(self, meta, items):
        pattern, options, *opts = items
        kw = {"by": None, "prompt": None, "label": None, "count": None, "upto": None, "optional": False,
              "unavailable": None, "distinct": None, "hint": None}
        for name, value, pos in opts:
            if name != "optional" and kw[name] is not None:
                raise RuleError(pos, f"'choose' has two '{'pick' if name in ('count', 'upto') else name}' clauses")
            if name in ("count", "upto") and (kw["count"] is not None or kw["upto"] is not None):
                raise RuleError(pos, "'choose' has two 'pick' clauses")
            kw[name] = value
        return Choose(self._p(meta), pattern, options, **kw)

    def opt_by(self, meta, items):
        return ("by", items[0], self._p(meta))

    def opt_prompt(self, meta, items):
        return ("prompt", items[0], self._p(meta))

    def opt_label(self, meta, items):
        return ("label", items[0], self._p(meta))

    def opt_hint(self, meta, items):
        return ("hint", items[0], self._p(meta))

    def opt_unavailable(self, meta, items):
        return ("unavailable", items[0], self._p(meta))

    def opt_count(self, meta, items):
        return ("count", items[0], self._p(meta))

    def opt_upto(self, meta, items):
        return ("upto", items[0], self._p(meta))

    def opt_optional(self, meta, items):
        return ("optional", True, self._p(meta))

    def opt_distinct(self, meta, items):
        return ("distinct", Lambda(self._p(meta), str(items[0]), items[1]), self._p(meta))

    def simul_stmt(self, meta, items):
        return Simultaneously(self._p(meta), items[0], items[1], items[2])

    def call_stmt(self, meta, items):
        args = items[1] if len(items) > 1 else ()
        return CallStmt(self._p(meta), str(items[0]), None, args)

    def slot_call_stmt(self, meta, items):
        args = items[2] if len(items) > 2 else ()
        return CallStmt(self._p(meta), str(items[0]), items[1], args)

    def log_stmt(self, meta, items):
        return Log(self._p(meta), items[0])

    def show_stmt(self, meta, items):
        return Show(self._p(meta), items[0], items[1], items[2])

    def return_stmt(self, meta, items):
        return Return(self._p(meta), items[0] if items else None)

    # --- patterns
    def pat_name(self, meta, items):
        return Pattern(self._p(meta), (str(items[0]),), False)

    def pat_tuple(self, meta, items):
        names = tuple(str(i) for i in items)
        if len(set(names)) != len(names):
            raise RuleError(self._p(meta), "a pattern repeats a name")
        return Pattern(self._p(meta), names, True)

    # --- expressions
    def cond_expr(self, meta, items):
        return CondExpr(self._p(meta), *items)

    def or_expr(self, meta, items):
        return BoolOp(self._p(meta), "or", tuple(items))

    def and_expr(self, meta, items):
        return BoolOp(self._p(meta), "and", tuple(items))

    def not_op(self, meta, items):
        return Not(self._p(meta), items[0])

    def comparison(self, meta, items):
        return Compare(self._p(meta), str(items[1]), items[0], items[2])

    def in_op(self, meta, items):
        return Compare(self._p(meta), "in", items[0], items[1])

    def not_in_op(self, meta, items):
        return Compare(self._p(meta), "notin", items[0], items[1])

    def _chain(self, meta, items):
        left = items[0]
        for i in range(1, len(items), 2):
            left = BinOp(left.pos, str(items[i]), left, items[i + 1])
        return left

    sum_expr = _chain
    term = _chain

    def neg(self, meta, items):
        if isinstance(items[0], Int):
            return Int(self._p(meta), -items[0].value)
        return Neg(self._p(meta), items[0])

    def attr(self, meta, items):
        return Attr(self._p(meta), items[0], str(items[1]), self._tp(items[1]))

    def index(self, meta, items):
        return Index(self._p(meta), items[0], items[1])

    def call(self, meta, items):
        return Call(self._p(meta), str(items[0]), items[1] if len(items) > 1 else ())

    def gen_call(self, meta, items):
        return GenCall(self._p(meta), str(items[0]), items[1], tuple(items[2:]))

    def args(self, meta, items):
        return tuple(items)

    def lambda_(self, meta, items):
        return Lambda(self._p(meta), str(items[0]), items[1])

    def comp_for(self, meta, items):
        return CompFor(self._p(meta), items[0], items[1], items[2] if len(items) > 2 else None)

    def comp_if(self, meta, items):
        return items[0]

    def list_comp(self, meta, items):
        return ListComp(self._p(meta), items[0], tuple(items[1:]))

    def int_lit(self, meta, items):
        if len(items[0]) > MAX_DIGITS:
            raise RuleError(self._p(meta), f"a number of more than {MAX_DIGITS} digits")
        return Int(self._p(meta), int(items[0]))

    def true_lit(self, meta, items):
        return Const(self._p(meta), True)

    def false_lit(self, meta, items):
        return Const(self._p(meta), False)

    def none_lit(self, meta, items):
        return Const(self._p(meta), None)

    def name(self, meta, items):
        return Name(self._p(meta), str(items[0]))

    def list_lit(self, meta, items):
        return ListLit(self._p(meta), tuple(i for i in items if i is not None))

    def tuple_lit(self, meta, items):
        return TupleLit(self._p(meta), tuple(i for i in items if i is not None))

    def str_lit(self, meta, items):
        tok = items[0]
        return Str(self._tp(tok), tuple(self._interpolate(tok)))

    def _interpolate(self, tok: Token):
        """Split "text {expr} text" into pieces; {{ and }} stand for braces."""
        raw = str(tok)[1:-1]
        base = tok.start_pos + 1  # offset of raw[0] in the code

        def where(i):  # the file position of raw[i]
            return self.src.at(base + i, tok.line, tok.column + 1 + i)

        parts, buf, i = [], [], 0
        while i < len(raw):
            ch = raw[i]
            if ch == "{" and raw[i + 1:i + 2] == "{":
                buf.append("{"); i += 2; continue
            if ch == "}" and raw[i + 1:i + 2] == "}":
                buf.append("}"); i += 2; continue
            if ch == "{":
                end = raw.find("}", i)
                if end < 0:
                    raise RuleError(where(i), "'{' in a string is not closed by '}' (write '{{' for a brace)")
                if buf:
                    parts.append(_unescape("".join(buf))); buf = []
                inner = raw[i + 1:end]
                if not inner.strip():
                    raise RuleError(where(i), "'{}' in a string needs an expression inside (write '{{' for a brace)")
                sub = self.src.sub(base + i + 1, tok.line, tok.column + 2 + i)
                parts.append(parse_expr(inner, sub, closing="'}'"))
                i = end + 1
                continue
            buf.append(ch)
            i += 1
        if buf:
            parts.append(_unescape("".join(buf)))
        return parts


@dataclass
class _Seq:
    children: list


@dataclass
class _Elif:
    cond: Expr
    body: tuple


@dataclass
class _Else:
    body: tuple


def walk(node):
    """Yield every AST node under node (itself included), depth first."""
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, tuple):
            stack.extend(reversed(n))
            continue
        if not isinstance(n, Node):
            continue
        yield n
        for f in n.__dataclass_fields__:
            if f != "pos":
                v = getattr(n, f)
                if isinstance(v, (Node, tuple)):
                    stack.append(v)


def returns_value(body) -> bool:
    """Whether a routine's body gives a value (has a `return EXPR`)."""
    return any(isinstance(n, Return) and n.value is not None for n in walk(body))


def author_name(name: str) -> str:
    """A routine's name as its author wrote it: a definition an override replaces is kept under an
    inner name, name__prev1, ... (routines._chain), which no message or report shows."""
    return name.split("__prev", 1)[0]


def rename_calls(node, old: str, new: str):
    """node with every call of `old` (a function call or a procedure call) calling `new` instead."""
    if isinstance(node, tuple):
        return tuple(rename_calls(n, old, new) for n in node)
    if not isinstance(node, Node):
        return node
    changes = {}
    for f in node.__dataclass_fields__:
        if f == "pos":
            continue
        v = getattr(node, f)
        if isinstance(v, (Node, tuple)):
            w = rename_calls(v, old, new)
            if w is not v:
                changes[f] = w
    if isinstance(node, (Call, CallStmt)) and node.func == old and getattr(node, "slot_key", None) is None:
        changes["func"] = new
    return replace(node, **changes) if changes else node
