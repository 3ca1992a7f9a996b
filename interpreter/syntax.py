"""The effect language: Lark parse tree -> AST of frozen dataclasses, each carrying its Pos."""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Optional, Tuple, Union

from lark import Lark, Token, Transformer, v_args
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from .errors import Pos, RuleError

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
class Return(Node):
    pass


Stmt = Union[Let, Assign, SetMark, If, For, While, Break, Move, Draw, Shuffle, Reveal, Choose,
             Simultaneously, CallStmt, Log, Return]


# ---------------------------------------------------------------- where code sits in a file


@dataclass(frozen=True)
class Source:
    """Where a piece of effect code sits in its file, to give errors file positions.

    line, col: the file position of the code's first character. block: the code is a YAML block
    scalar whose every line is indented by col-1 (otherwise only the first line is shifted).
    """

    file: str
    line: int = 1
    col: int = 1
    block: bool = False

    def pos(self, line: int, col: int) -> Pos:
        if self.block or line == 1:
            col = col + self.col - 1
        return Pos(self.file, self.line + line - 1, col)


# ---------------------------------------------------------------- parsing


@lru_cache(maxsize=1)
def parser() -> Lark:
    grammar = (Path(__file__).parent / "grammar.lark").read_text()
    return Lark(grammar, parser="lalr", propagate_positions=True, start=["start", "expr_start"],
                cache=True, maybe_placeholders=False)


_TOKEN_NAMES = {
    "LBRACE": "'{'", "RBRACE": "'}'", "LPAR": "'('", "RPAR": "')'", "LSQB": "'['", "RSQB": "']'",
    "COMMA": "','", "DOT": "'.'", "EQUAL": "'='", "SEMICOLON": "';'", "NAME": "a name", "INT": "a number",
    "STRING": "a string", "$END": "the end of the code", "COMP_OP": "a comparison", "ADD_OP": "'+' or '-'",
    "MUL_OP": "'*', '//' or '%'", "AUGOP": "'+=' or '-='", "MINUS": "'-'", "__ANON_0": "'->'",
}


def _token_name(t: str) -> str:
    if t in _TOKEN_NAMES:
        return _TOKEN_NAMES[t]
    return f"'{t.lower()}'" if t.isupper() else t


def _syntax_error(e: UnexpectedInput, src: Source) -> RuleError:
    pos = src.pos(getattr(e, "line", 1) or 1, getattr(e, "column", 1) or 1)
    if isinstance(e, UnexpectedToken):
        tok = e.token
        got = "the end of the code" if tok.type == "$END" else f"'{tok}'"
        expected = sorted({_token_name(t) for t in e.expected})
        if len(expected) > 8:
            expected = expected[:8] + ["..."]
        return RuleError(pos, f"syntax error: unexpected {got}; expected {', '.join(expected)}")
    if isinstance(e, UnexpectedCharacters):
        return RuleError(pos, f"syntax error: unexpected character {e.char!r}")
    if isinstance(e, UnexpectedEOF):
        return RuleError(pos, "syntax error: the code ends too early")
    return RuleError(pos, f"syntax error: {e}")


def parse_block(code: str, src: Source) -> tuple:
    """Parse a block of statements; returns a tuple of Stmt. Raises RuleError."""
    try:
        tree = parser().parse(code, start="start")
    except UnexpectedInput as e:
        raise _syntax_error(e, src) from None
    return tuple(_Build(src, code).transform(tree).children)


def parse_expr(code: str, src: Source) -> Expr:
    try:
        tree = parser().parse(code, start="expr_start")
    except UnexpectedInput as e:
        raise _syntax_error(e, src) from None
    return _Build(src, code).transform(tree).children[0]


def parse_signature(text: str, src: Source) -> tuple[str, tuple]:
    """'name(a, b)' or 'name' -> (name, params)."""
    import re

    m = re.fullmatch(r"\s*([A-Za-z_][A-Za-z0-9_]*)\s*(?:\(\s*([A-Za-z_][A-Za-z0-9_]*(?:\s*,\s*[A-Za-z_][A-Za-z0-9_]*)*)?\s*\))?\s*", text)
    if not m:
        raise RuleError(src.pos(1, 1), f"'{text}' is not a name with parameters, like 'name(a, b)'")
    params = tuple(p.strip() for p in (m.group(2) or "").split(",") if p.strip())
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
            return self.src.pos(1, 1)
        return self.src.pos(meta.line, meta.column)

    def _tp(self, tok: Token) -> Pos:
        return self.src.pos(tok.line, tok.column)

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
        kw = {"by": None, "prompt": None, "label": None, "count": None, "upto": None, "optional": False}
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

    def opt_count(self, meta, items):
        return ("count", items[0], self._p(meta))

    def opt_upto(self, meta, items):
        return ("upto", items[0], self._p(meta))

    def opt_optional(self, meta, items):
        return ("optional", True, self._p(meta))

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

    def return_stmt(self, meta, items):
        return Return(self._p(meta))

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
        return Attr(self._p(meta), items[0], str(items[1]))

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
                    raise RuleError(self.src.pos(tok.line, tok.column + 1 + i), "'{' in a string is not closed by '}'")
                if buf:
                    parts.append(_unescape("".join(buf))); buf = []
                inner = raw[i + 1:end]
                sub = Source(self.src.file, *self._file_lc(tok.line, tok.column + 1 + i + 1))
                parts.append(parse_expr(inner, sub))
                i = end + 1
                continue
            buf.append(ch)
            i += 1
        if buf:
            parts.append(_unescape("".join(buf)))
        return parts

    def _file_lc(self, line, col):
        p = self.src.pos(line, col)
        return p.line, p.col


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
