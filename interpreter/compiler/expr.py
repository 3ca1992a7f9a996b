"""Code generation, expressions: how the rules' expressions read as Python (class Expressions,
part of compile.Compiler), and what the generated lines are written into (Emitter, Ctx)."""
from __future__ import annotations

from dataclasses import dataclass, field
import re

from ..errors import Pos
from .layout import seat_indices
from .inline import inline_body, plain_args
from ..language.tree import Attr, BinOp, Call, CondExpr, GenCall, Index, Int, Lambda, ListComp, ListLit, Name, Neg, Str

# compiled expressions that give the same value read twice, at little cost: a local, the length of a zone
TWICE = re.compile(r"v_\w+|L\[\d+\]|len\(Z\[(\d+|K\d+\[(v_\w+|L\[\d+\])\])\]\)")


def _key_of(e, keys: dict) -> bool:
    """Whether e is a text written out (no {..}) that is one of keys."""
    return isinstance(e, Str) and len(e.parts) == 1 and isinstance(e.parts[0], str) and e.parts[0] in keys


class Emitter:
    def __init__(self):
        self.lines: list = []
        self.pos: list = []  # Pos per line

    def emit(self, indent: int, text: str, pos: Pos | None):
        self.lines.append("    " * indent + text)
        self.pos.append(pos)


@dataclass
class Ctx:
    """How names are spelled in the routine being compiled."""

    env: dict  # local name -> Python expression
    resumable: bool
    brk: str = "break"  # what `break` compiles to here
    slots: dict = field(default_factory=dict)
    direct: bool = False  # a routine that may stop, as a plain function (its D_ version)
    spawned: bool = False  # the body of a `simultaneously`: its decisions wait for the others
    alone: bool = False  # the body of an independent `simultaneously`, run thread by thread


def surely_number(e, known=None) -> bool:
    """Whether expression e can only be a number (then `+` and `*` need no length bound). known(x),
    if given, says it of a name, a call of the rules' own function or an attribute (numbers.py)."""
    if isinstance(e, Int):
        return True
    if isinstance(e, Neg):
        return surely_number(e.operand, known)
    if isinstance(e, BinOp):
        if e.op == "+":  # (a number and anything else: a number, or an error)
            return surely_number(e.left, known) or surely_number(e.right, known)
        return e.op in ("-", "//", "%") or (e.op == "*" and surely_number(e.left, known) and surely_number(e.right, known))
    if isinstance(e, GenCall):
        return e.func in ("count", "sum")
    if isinstance(e, Call) and e.func in ("len", "count", "sum", "abs"):
        return True
    if known is None:
        return False
    if isinstance(e, CondExpr):
        return surely_number(e.then, known) and surely_number(e.orelse, known)
    return isinstance(e, (Name, Call, Attr)) and known(e)


def is_text(e) -> bool:
    """Whether e is plainly a text: a string, or a choice or a join of texts."""
    if isinstance(e, Str):
        return True
    if isinstance(e, CondExpr):
        return is_text(e.then) and is_text(e.orelse)
    return isinstance(e, BinOp) and e.op == "+" and (is_text(e.left) or is_text(e.right))


class Expressions:
    """Methods of compile.Compiler: an expression as Python source (ex, it, text)."""

    # ---------------------------------------------------------- names

    def const(self, value) -> str:
        key = repr(value)
        if key not in self.consts:
            self.consts[key] = (f"K{len(self.consts)}", value)
        return self.consts[key][0]

    # ---------------------------------------------------------- expressions

    def zone_index(self, e, ctx) -> str | None:
        """Python expression of the zone index e names, or None if e is no zone."""
        lay = self.layout
        if isinstance(e, Name) and e.id in lay.zone_index and e.id not in ctx.env:
            zi = lay.zone_index[e.id]
            return str(zi) if isinstance(zi, int) else None
        if isinstance(e, Index) and isinstance(e.obj, Name) and e.obj.id not in ctx.env:
            name = e.obj.id
            if name in lay.player_zones:
                base = len(lay.fixed_zones) + lay.player_zones.index(name)
                return f"{self.const(seat_indices(base, len(lay.player_zones)))}[{self.ex(e.index, ctx)}]"
            if name in lay.families:  # a zone of a family made during play: made now, else an error
                base, _, slot = lay.families[name]
                return f"_zone_at(S, {slot}, {base}, {self.ex(e.index, ctx)}, {name!r})"
            if name in lay.zone_index and isinstance(lay.zone_index[name], dict):
                return f"{self.const(lay.zone_index[name])}[{self.ex(e.index, ctx)}]"
        return None

    def counter_ref(self, name, index, ctx, key=None) -> str:
        lay = self.layout
        if name in lay.player_offset:
            base = len(lay.fixed_counters) + lay.player_offset[name]
            at = f"{self.const(seat_indices(base, lay.player_block))}[{self.ex(index, ctx)}]"
            if name in lay.player_keys:
                keys = lay.player_keys[name]
                at += f"+{keys[key.parts[0]]}" if _key_of(key, keys) else f"+{self.const(keys)}[{self.ex(key, ctx)}]"
            return f"V[{at}]"
        ci = lay.counter_index[name]
        if isinstance(ci, dict):  # (a key written out: its place, worked out now)
            return f"V[{ci[index.parts[0]]}]" if _key_of(index, ci) else f"V[{self.const(ci)}[{self.ex(index, ctx)}]]"
        return f"V[{ci}]"

    def it(self, e, ctx) -> str:
        """e as something to iterate or measure (zones not copied)."""
        zi = self.zone_index(e, ctx)
        if zi is not None:
            return f"Z[{zi}]"
        return self.ex(e, ctx)

    def ex(self, e, ctx) -> str:
        m = getattr(self, "x_" + type(e).__name__)
        return m(e, ctx)

    def x_Int(self, e, ctx):
        return repr(e.value)

    def x_Const(self, e, ctx):
        return repr(e.value)

    def x_Str(self, e, ctx):
        if all(isinstance(p, str) for p in e.parts):
            return repr("".join(e.parts))
        return "_text((" + "".join(self._part(p, ctx) + ", " for p in e.parts) + "))"

    def _part(self, p, ctx):
        return repr(p) if isinstance(p, str) else self.ex(p, ctx)

    def text(self, e, ctx) -> str:
        """e as log/prompt/label text: a tuple of parts, rendered later for each viewer."""
        if isinstance(e, Str):
            return "(" + "".join(self._part(p, ctx) + ", " for p in e.parts) + ")"
        if isinstance(e, CondExpr):
            return f"({self.text(e.then, ctx)} if {self.ex(e.cond, ctx)} else {self.text(e.orelse, ctx)})"
        if isinstance(e, BinOp) and e.op == "+" and (is_text(e.left) or is_text(e.right)):
            return f"({self.text(e.left, ctx)} + {self.text(e.right, ctx)})"  # texts joined, each part kept
        return f"({self.ex(e, ctx)},)"

    def x_Name(self, e, ctx):
        if e.id in ctx.env:
            return ctx.env[e.id]
        spec, lay = self.spec, self.layout
        if e.id == "players":
            return "PLAYERS[S.n]"
        if e.id in spec.constants:
            v = spec.constants[e.id]
            return self.const(tuple(v) if isinstance(v, list) else v)
        if e.id in lay.counter_index or e.id in lay.player_counters:
            return self.counter_ref(e.id, None, ctx)
        zi = self.zone_index(e, ctx)
        if zi is not None:
            return f"list(Z[{zi}])"
        raise AssertionError(f"unchecked name {e.id}")

    def x_ListLit(self, e, ctx):
        return "[" + ", ".join(self.ex(i, ctx) for i in e.items) + "]"

    def x_TupleLit(self, e, ctx):
        table = self._attr_tuple(e, ctx)  # (a card's attributes: one read of a table, fast.py)
        if table is not None:
            return table
        return "(" + "".join(self.ex(i, ctx) + ", " for i in e.items) + ")"

    def _fors(self, fors, ctx):
        fused = self._fused(fors, ctx)  # (fast.py)
        if fused is not None:
            return fused
        env = dict(ctx.env)
        parts = []
        for f in fors:
            sub = Ctx(env, ctx.resumable)
            src = self.it(f.iter, sub)
            for n in f.pattern.names:
                env[n] = f"v_{n}"
            pat = self._pat(f.pattern, env)
            part = f"for {pat} in {src}"
            if f.cond is not None:
                part += f" if {self.ex(f.cond, Ctx(env, ctx.resumable))}"
            parts.append(part)
        return " ".join(parts), Ctx(env, ctx.resumable)

    def _pat(self, pattern, env) -> str:
        if pattern.is_tuple:
            return "(" + ", ".join(env[n] for n in pattern.names) + ")"
        return env[pattern.names[0]]

    def x_ListComp(self, e, ctx):
        fast = self._pipeline(e.elt, e.fors, ctx)
        if fast is not None:
            return f"list({fast})"
        pairs = self._product(e, ctx) or self.known_items(e, ctx) or self.unrolled(e, ctx)  # (known_items.py)
        if pairs is not None:
            return pairs
        fors, inner = self._fors(e.fors, ctx)
        return self._unless_empty(e.fors, ctx, f"[{self.ex(e.elt, inner)} {fors}]", "[]")  # (fast.py)

    def x_GenCall(self, e, ctx):
        f = e.func
        fast = self._pipeline(e.elt, e.fors, ctx, keep_elt=f != "count", summed=f == "sum")
        if fast is not None and f in ("count", "sum", "min", "max", "first"):
            return {"count": f"len(list({fast}))", "sum": f"sum({fast})", "min": f"_min_of({fast})",
                    "max": f"_max_of({fast})", "first": f"next(iter({fast}), None)"}[f]
        if f == "any" and len(e.fors) == 1 and e.fors[0].cond is None and not e.fors[0].pattern.is_tuple:
            match = self._attr_equals(e.elt, e.fors[0].pattern.names[0], ctx)
            if match is not None:  # any(c.colour == d for c in zone): d among the zone's colours
                attr, value = match
                return f"(not {self._cards_with(attr, value)}.isdisjoint({self.it(e.fors[0].iter, ctx)}))"
        written = self.unrolled(e, ctx, f) if f in ("count", "sum") else None
        if written is not None:
            return written
        fors, inner = self._fors(e.fors, ctx)
        elt = self.ex(e.elt, inner)
        # list comprehensions run faster than generators in CPython; `first`, `any` and `all`
        # keep generators so they stop at the first item that settles them
        if f in ("min", "max"):
            return f"_{f}_of([{elt} {fors}])"
        code = {"count": f"len([1 {fors}])", "sum": f"sum([{elt} {fors}])", "first": f"next(({elt} {fors}), None)"}
        empty = {"count": "0", "sum": "0", "first": "None", "any": "False", "all": "True"}.get(f)
        code = code.get(f, f"{f}({elt} {fors})")
        return code if empty is None else self._unless_empty(e.fors, ctx, code, empty)

    def x_CondExpr(self, e, ctx):
        return f"({self.ex(e.then, ctx)} if {self.ex(e.cond, ctx)} else {self.ex(e.orelse, ctx)})"

    def x_BinOp(self, e, ctx):
        left = self.it(e.left, ctx) if e.op == "+" else self.ex(e.left, ctx)
        right = self.it(e.right, ctx) if e.op == "+" else self.ex(e.right, ctx)
        if e.op == "+" and (self.zone_index(e.left, ctx) or self.zone_index(e.right, ctx)
                            or self._is_list(e.left, ctx) or self._is_list(e.right, ctx)):
            # lists join whatever holds the other side (a list constant is a tuple)
            return f"_cat({left}, {right})"
        # A list or text made longer (xs + xs, xs * n) is bounded (limits.MAX_ITEMS); plain
        # numbers need no check.
        if e.op == "+" and not (self.number(e.left, ctx) or self.number(e.right, ctx)):
            return f"_add({left}, {right})"
        if e.op == "*" and not (self.number(e.left, ctx) and self.number(e.right, ctx)):
            return f"_mul({left}, {right})"
        return f"({left} {e.op} {right})"

    def _is_list(self, e, ctx) -> bool:
        """Whether e is plainly a list: a list display or comprehension, or a list constant."""
        if isinstance(e, (ListLit, ListComp)):
            return True
        return isinstance(e, Name) and e.id not in ctx.env and isinstance(self.spec.constants.get(e.id), list)

    def x_BoolOp(self, e, ctx):
        return "(" + f" {e.op} ".join(self.ex(i, ctx) for i in e.items) + ")"

    def x_Not(self, e, ctx):
        return f"(not {self.ex(e.operand, ctx)})"

    def x_Neg(self, e, ctx):
        return f"(-{self.ex(e.operand, ctx)})"

    def x_Compare(self, e, ctx):
        op = {"notin": "not in"}.get(e.op, e.op)
        if (e.op in ("==", "!=", ">") and isinstance(e.right, Int) and e.right.value == 0
                and isinstance(e.left, Call) and e.left.func == "len" and len(e.left.args) == 1):
            zi = self.zone_index(e.left.args[0], ctx)
            if zi is not None:  # whether a zone is empty, without a call of len()
                return f"({'not' if e.op == '==' else 'not not'} Z[{zi}])"
        if e.op in ("in", "notin") and isinstance(e.right, ListComp):
            right = self._members(e.right, ctx)
        else:
            right = self.it(e.right, ctx) if e.op in ("in", "notin") else self.ex(e.right, ctx)
        return f"({self.ex(e.left, ctx)} {op} {right})"

    def x_Attr(self, e, ctx):
        obj = self.ex(e.obj, ctx)
        if e.name in self.marks:
            default = (self.marks[e.name] or {}).get("default")
            # (a card with no marks finds none in the empty moves.NO_MARKS)
            if e.name in self.attrs:
                return f"S.m.get({obj}, _NO_MARKS).get({e.name!r}, A_{e.name}[{obj}])"
            return f"S.m.get({obj}, _NO_MARKS).get({e.name!r}, {default!r})"
        return f"A_{e.name}[{obj}]"

    def x_Index(self, e, ctx):
        zi = self.zone_index(e, ctx)
        if zi is not None:
            return f"list(Z[{zi}])"
        inner = e.obj
        zi = self.zone_index(inner, ctx) if isinstance(inner, Name) else None
        if zi is not None:  # a single zone read by position, like a list: trick[i]
            return f"Z[{zi}][{self.ex(e.index, ctx)}]"
        if (isinstance(inner, Index) and isinstance(inner.obj, Name) and inner.obj.id in self.layout.player_keys
                and inner.obj.id not in ctx.env):  # a counter per player and per key: n[p][key]
            return self.counter_ref(inner.obj.id, inner.index, ctx, key=e.index)
        if isinstance(e.obj, Name) and e.obj.id not in ctx.env and (
                e.obj.id in self.layout.counter_index or e.obj.id in self.layout.player_counters):
            return self.counter_ref(e.obj.id, e.index, ctx)
        return f"{self.ex(e.obj, ctx)}[{self.ex(e.index, ctx)}]"

    def x_Lambda(self, e, ctx):
        attr = self._card_attr(e.body, e.param, self.attrs)  # (a card's attribute: its table's getter)
        getter = f"AT_{attr}" if attr is not None else self._tuple_getter(e.body, e.param)
        if getter is not None:
            return getter
        env = dict(ctx.env)
        env[e.param] = f"v_{e.param}"
        return f"(lambda v_{e.param}: {self.ex(e.body, Ctx(env, ctx.resumable))})"

    def x_Call(self, e, ctx):
        f, args = e.func, e.args
        if f in self.spec.functions:
            texts = [self.ex(a, ctx) for a in args]
            found = None if self.coverage else inline_body(self.spec, f, self.inlinable)
            if found and plain_args(texts, found[1]):  # compiled in place (inline.py)
                params = self.spec.functions[f].params
                return f"({self.ex(found[0], Ctx(dict(zip(params, texts)), ctx.resumable))})"
            return f"F_{f}(S" + "".join(", " + t for t in texts) + ")"
        if f in self.spec.procedures:  # let x = f(...): the value f returns (checked: nowhere else)
            if f in self.suspends:  # (in a routine that may stop, l_Let calls it; here: its D_ version)
                return f"D_{f}(S, T" + "".join(", " + self.ex(a, ctx) for a in args) + ")"
            return f"P_{f}(S" + "".join(", " + self.ex(a, ctx) for a in args) + ")"
        if f == "played_by":  # the seat that played a card into a `played_by` zone, or none
            return f"_played_by(S, {self.ex(args[0], ctx)})"
        if f in ("make", "made"):  # a family made during play: make a zone of it, or the keys made now
            base, most, slot = self.layout.families[args[0].id]
            return f"_make(S, {slot}, {most}, {args[0].id!r})" if f == "make" else f"list(S.v[{slot}])"
        if f == "slot_name":  # the name of the procedure a slot's key calls (a tile's name)
            return f"SLOTNAME_{args[0].id}.get({self.ex(args[1], ctx)})"
        a = [self.it(x, ctx) for x in args]
        if f == "len":
            return f"len({a[0]})"
        if f in ("min", "max"):
            if len(a) == 1:
                return f"_{f}_of({a[0]})"
            if len(a) == 2 and any(isinstance(x, Int) for x in args) and all(
                    isinstance(x, Int) or TWICE.fullmatch(t) for x, t in zip(args, a)):
                # ops.min2/max2 without a call: b if b < a else a (b > a), each read twice
                return f"({a[1]} if {a[1]} {'<' if f == 'min' else '>'} {a[0]} else {a[0]})"
            return f"_{f}2({a[0]}, {a[1]})" if len(a) == 2 else f"{f}({', '.join(a)})"
        if f == "sum":
            return f"sum({a[0]})"
        if f == "count":
            return f"len({a[0]})"
        if f in ("any", "all"):
            return f"{f}({a[0]})"
        if f in ("first", "last", "top"):
            zi = self.zone_index(args[0], ctx) if f == "top" else None
            if zi is not None and zi.isdigit():  # the top of a fixed zone, without a call
                return f"(Z[{zi}][-1] if Z[{zi}] else None)"
            return f"_{f}({a[0]})"
        if f in ("max_by", "min_by"):  # the first item with the highest (lowest) key
            key = a[1]
            lam = args[1]
            if isinstance(lam, Lambda):
                attr = self._card_attr(lam.body, lam.param, self.attrs)
                if attr is not None:
                    key = f"AT_{attr}"
            return f"_{f[:3]}_of({a[0]}, {key})"
        if f == "sort_by":
            return f"sorted({a[0]}, key={a[1]})"
        if f == "range":
            return f"list({self._range(e, ctx)})"
        if f == "turn_order":
            return f"TURN_ORDERS[S.n][({a[0]}) % S.n]"  # (ops.turn_order, without a call)
        if f == "next_seat":
            return f"SEATS[({a[0]} + 1) % S.n]"
        if f == "prev_seat":
            return f"SEATS[({a[0]} - 1) % S.n]"
        if f == "abs":
            return f"abs({a[0]})"
        if f == "reverse":
            return f"list(reversed({a[0]}))"
        if f in ("combinations", "subsets"):  # (bounded, and charged to the step budget: ops.py)
            return f"_{f}(S, {str(e.pos)!r}, {', '.join(a)})"
        if f == "flatten":
            return f"_flatten({a[0]})"
        if f == "random":
            return f"_random(S, {a[0]})"
        if f == "plural":
            return f"_plural({', '.join(a)})"
        if f == "knows":
            self.reads_knowledge = True
            return f"_knows(S, {a[0]}, {a[1]})"
        raise AssertionError(f"unchecked call {f}")
