"""The AST of the effect language (frozen dataclasses, each carrying its Pos) and helpers that walk
and rewrite it."""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Optional, Union

from ..errors import Pos

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
class Remove(Node):
    """`remove meld[m]`: the zone m of a family made during play (`per: made`) is removed (it
    must be empty)."""
    zone: Expr


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
    named: Optional[str] = None  # `named NAME`: the decision is ROUTINE.NAME (compiler/decision_names.py)


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
    """`log TEXT`, or `log TEXT to SEATS [else TEXT]`: a line only those seats read (and the
    others read the `else` text, or nothing)."""
    message: Expr
    to: Optional[Expr] = None
    orelse: Optional[Expr] = None


@dataclass(frozen=True)
class Show(Node):
    """A table in the log: a title, column headings, rows of values."""
    title: Expr
    columns: Expr
    rows: Expr


@dataclass(frozen=True)
class Return(Node):
    value: Optional[Expr] = None  # `return EXPR`: what a function or procedure gives its caller


Stmt = Union[Let, Assign, SetMark, If, For, While, Break, Move, Draw, Shuffle, Reveal, Remove, Choose,
             Simultaneously, CallStmt, Log, Show, Return]


# ---------------------------------------------------------------- tree helpers


def walk(node):
    """Yield every AST node under node (itself included), depth first."""
    stack = [node]
    pop, push = stack.pop, stack.append
    children = _CHILDREN
    while stack:
        n = pop()
        fields = children.get(type(n))
        if fields is None:
            fields = children[type(n)] = _children_of(type(n))
        if fields is _TUPLE:
            stack.extend(reversed(n))
            continue
        if fields is _LEAF:
            continue
        yield n
        for f in fields:
            v = getattr(n, f)
            if isinstance(v, (Node, tuple)):
                push(v)


_WALKED: dict = {}  # id(node) -> (node, the nodes walk yields): kept, so the id stays the node's
WALKED_KEPT = 8192


def walked(node) -> tuple:
    """What walk(node) yields, as a tuple made once for that node (nodes never change): the checks
    and the compiler look through the same routine bodies for each combination of tiles."""
    got = _WALKED.get(id(node))
    if got is not None and got[0] is node:
        return got[1]
    out = tuple(walk(node))
    if len(_WALKED) >= WALKED_KEPT:
        _WALKED.clear()
    _WALKED[id(node)] = (node, out)
    return out


_TUPLE, _LEAF = ("(a tuple)",), ("(not a node)",)
_CHILDREN: dict = {}  # a class -> the fields walk looks in (every field but pos), or _TUPLE, or _LEAF


def _children_of(cls) -> tuple:
    if issubclass(cls, tuple):
        return _TUPLE
    if not issubclass(cls, Node):
        return _LEAF
    return tuple(f for f in cls.__dataclass_fields__ if f != "pos")


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


def moved(node, lines: int):
    """node with every position in it (`pos`, `name_pos`) `lines` lines further down its file (the
    same code, with lines added or removed above it)."""
    if isinstance(node, tuple):
        return tuple(moved(n, lines) for n in node)
    if not isinstance(node, Node):
        return node
    changes = {}
    for f in node.__dataclass_fields__:
        v = getattr(node, f)
        if isinstance(v, Pos):
            changes[f] = Pos(v.file, v.line + lines, v.col)
        elif isinstance(v, (Node, tuple)):
            changes[f] = moved(v, lines)
    return replace(node, **changes)
