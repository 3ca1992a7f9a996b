"""The Lark Transformer from the effect language's parse tree to its AST (syntax_tree)."""
from __future__ import annotations

from dataclasses import dataclass

from lark import Token, Transformer, v_args

from ..errors import Pos, RuleError
from ..limits import MAX_DIGITS
from .source import Source
from .tree import (Assign, Attr, BinOp, BoolOp, Break, Call, CallStmt, Choose, Compare, CompFor, CondExpr, Const, Draw,
                   Expr, For, GenCall, If, Index, Int, Lambda, Let, ListComp, ListLit, Log, Move, Name, Neg, Not,
                   Pattern, Remove, Return, Reveal, SetMark, Show, Shuffle, Simultaneously, Str, TupleLit, While)


def _unescape(s: str) -> str:
    return s.encode("latin-1", "backslashreplace").decode("unicode_escape") if "\\" in s else s


@v_args(meta=True)
class _Build(Transformer):
    """Parse tree -> AST. parse_expr parses the code inside a string's "{...}" (parse.py gives it:
    the parser builds with this class, so this module does not import it)."""

    def __init__(self, src: Source, code: str, parse_expr):
        super().__init__()
        self.src = src
        self.code = code
        self.parse_expr = parse_expr

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

    def remove_stmt(self, meta, items):
        return Remove(self._p(meta), items[0])

    def reveal_to(self, meta, items):
        return items[0]

    def choose_stmt(self, meta, items):
        pattern, options, *opts = items
        kw = {"by": None, "prompt": None, "label": None, "count": None, "upto": None, "optional": False,
              "unavailable": None, "distinct": None, "hint": None, "named": None}
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

    def opt_named(self, meta, items):
        return ("named", str(items[0]), self._p(meta))

    def simul_stmt(self, meta, items):
        return Simultaneously(self._p(meta), items[0], items[1], items[2])

    def call_stmt(self, meta, items):
        args = items[1] if len(items) > 1 else ()
        return CallStmt(self._p(meta), str(items[0]), None, args)

    def slot_call_stmt(self, meta, items):
        args = items[2] if len(items) > 2 else ()
        return CallStmt(self._p(meta), str(items[0]), items[1], args)

    def log_stmt(self, meta, items):
        to, orelse = items[1] if len(items) > 1 else (None, None)
        return Log(self._p(meta), items[0], to, orelse)

    def log_to(self, meta, items):
        return (items[0], items[1] if len(items) > 1 else None)

    def log_else(self, meta, items):
        return items[0]

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
        """`if a then x elif b then y else z`: the elifs nest, `if a then x else (if b then y else z)`."""
        cond, then, *elifs, other = items
        for pos, c, v in reversed(elifs):
            other = CondExpr(pos, c, v, other)
        return CondExpr(self._p(meta), cond, then, other)

    def cond_elif(self, meta, items):
        return (self._p(meta), *items)

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
                end = _closing_brace(raw, i)
                if end < 0:
                    raise RuleError(where(i), "'{' in a string is not closed by '}' (write '{{' for a brace)")
                if buf:
                    parts.append(_unescape("".join(buf))); buf = []
                inner = _nested_quotes(raw[i + 1:end])
                if not inner.strip():
                    raise RuleError(where(i), "'{}' in a string needs an expression inside (write '{{' for a brace)")
                sub = self.src.sub(base + i + 1, tok.line, tok.column + 2 + i)
                parts.append(self.parse_expr(inner, sub, closing="'}'"))
                i = end + 1
                continue
            buf.append(ch)
            i += 1
        if buf:
            parts.append(_unescape("".join(buf)))
        return parts


def _closing_brace(raw: str, i: int) -> int:
    """Where the '}' that closes the '{' at raw[i] is (-1: nowhere), past the strings written
    inside the braces (\"{n} cards\": their own braces are theirs)."""
    j, quoted = i + 1, False
    while j < len(raw):
        if raw.startswith('\\"', j):
            quoted = not quoted
            j += 2
            continue
        if raw[j] == "}" and not quoted:
            return j
        j += 1
    return -1


def _nested_quotes(inner: str) -> str:
    """The code inside a string's braces with its escaped quotes as quotes, so a string may be
    written there: "{plural(n, \\"card\\")}". Each `\\"` becomes a quote and a space (a space, then
    the quote, when it opens a string), so positions in the code keep their columns."""
    out, opening, i = [], True, 0
    while i < len(inner):
        if inner.startswith('\\"', i):
            out.append(' "' if opening else '" ')
            opening = not opening
            i += 2
            continue
        out.append(inner[i])
        i += 1
    return "".join(out)


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
