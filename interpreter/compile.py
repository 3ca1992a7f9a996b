"""Checked rules -> executable Python, generated once per ruleset from the AST (never from raw text).

Functions and procedures that never stop at a decision become plain Python functions. Those that
may stop (a `choose`, `simultaneously`, or a call of such a procedure) become resumable state
machines: `def R(S, T, F)` runs from the resume point F[1] with its locals in the list F[2], and
returns WAIT at a decision, CALL after pushing a callee frame, RET when done. So where the rules
stopped is plain data (a stack of [routine, resume point, locals]) that copies and saves like the
rest of the state.
"""
from __future__ import annotations

import itertools
import string
from dataclasses import dataclass, field, replace

from . import runtime
from .builtins import BUILTINS, IMPURE_BUILTINS, LAMBDA_BUILTINS  # noqa: F401  (the one table)
from .errors import Pos
from .independence import bound_outside, independent
from .state import PLAYERS, RUN, SEATS, Card
from .syntax import (Assign, Attr, BinOp, Call, CallStmt, Choose, Compare, CondExpr, Const, For, GenCall, Index, Int,
                     Lambda, Let, ListComp, ListLit, Log, Neg, Name, Node, Return, Show, Simultaneously, Str, TupleLit,
                     author_name, returns_value, walk)


def procedures_that(spec, does) -> set:
    """The procedures with a node in their body for which does(node) is true, or that call one
    (by name or through a slot)."""
    out, calls = set(), {}
    for name, r in spec.procedures.items():
        cs = calls[name] = set()
        for n in walk(r.body):
            if does(n):
                out.add(name)
            elif isinstance(n, CallStmt):
                cs.update([n.func] if n.slot_key is None else spec.slots.get(n.func, {}).values())
            elif isinstance(n, Call) and n.func in spec.procedures:  # let x = f(...): f's value
                cs.add(n.func)
    changed = True
    while changed:
        changed = False
        for n, cs in calls.items():
            if n not in out and cs & out:
                out.add(n)
                changed = True
    return out


def log_only_lets(body, procedures=()) -> set:
    """Names a routine binds with `let` and reads only in `log` and `show` statements.

    Such a let is worked out only when the game keeps a log: a simulation without a log skips
    what only the log would say. A let whose value draws from the generator (random) is always
    run, so a game is the same with or without its log. In a routine that may stop, the value is
    kept beside the log (State.lv), not among the routine's locals, so the game's state does not
    depend on its log either.
    """
    lets, other, read = set(), set(), set()

    def visit(n, quiet):
        if isinstance(n, tuple):
            for x in n:
                visit(x, quiet)
            return
        if not isinstance(n, Node):
            return
        if isinstance(n, (Log, Show)):
            quiet = True
        if isinstance(n, Name) and not quiet:
            read.add(n.id)
        elif isinstance(n, Assign):
            other.add(n.name)
        elif isinstance(n, Let):
            if any(isinstance(x, Call) and (x.func in IMPURE_BUILTINS or x.func in procedures) for x in walk(n.value)):
                other.update(n.pattern.names)
            else:
                lets.update(n.pattern.names)
        elif isinstance(n, (For, Choose, Simultaneously)):
            other.update(n.pattern.names)
        for f in n.__dataclass_fields__:
            if f != "pos":
                visit(getattr(n, f), quiet)

    visit(body, False)
    return lets - other - read


@dataclass
class Layout:
    """Where zones and counters sit in the state's flat lists.

    Counters: the fixed ones first (single, or one per item of a list constant), then a block per
    seat holding each per-player counter, one slot each, or one slot per key for a counter
    `per: [player, LIST]` (player_keys: name -> {key: offset within the counter})."""

    fixed_zones: list  # [(name, key or None)]
    zone_index: dict  # name -> index (single zone) or {key: index} (per constant list)
    player_zones: list  # names of per-player zones, in order
    zone_def: dict  # name -> zone definition (dict)
    fixed_counters: list
    counter_index: dict
    player_counters: list  # names of per-player counters, in order
    counter_def: dict
    player_keys: dict = field(default_factory=dict)  # per-player counter -> {key: offset} when keyed too
    player_offset: dict = field(default_factory=dict)  # per-player counter -> its first slot in a seat's block
    player_block: int = 0  # slots of per-player counters in each seat's block

    def __post_init__(self):
        if not self.player_offset:
            at = 0
            for name in self.player_counters:
                self.player_offset[name] = at
                at += len(self.player_keys.get(name) or (None,))
            self.player_block = at

    def zone_count(self, n: int) -> int:
        return len(self.fixed_zones) + n * len(self.player_zones)

    def player_zone(self, name: str, p: int) -> int:
        return len(self.fixed_zones) + p * len(self.player_zones) + self.player_zones.index(name)

    def counter(self, name: str, p: int | None = None, key=None) -> int:
        """The slot of a counter: counter(name), counter(name, key=k) for one per item of a
        list, counter(name, p), or counter(name, p, k) for one per player and per key."""
        if name in self.player_offset:
            i = len(self.fixed_counters) + p * self.player_block + self.player_offset[name]
            return i + self.player_keys[name][key] if name in self.player_keys else i
        ci = self.counter_index[name]
        return ci[key] if isinstance(ci, dict) else ci

    def counter_slots(self) -> list:
        """(name, key or None) of each slot of a seat's block of per-player counters, in order."""
        return [(name, key) for name in self.player_counters for key in (self.player_keys.get(name) or (None,))]

    def zone_names_plain(self, n: int) -> list:
        """The declared zone name of every zone index (without its key), e.g. 'hand'."""
        return [name for name, _ in self.fixed_zones] + list(self.player_zones) * n

    def zone_names(self, n: int) -> list:
        """Display name of every zone index, e.g. 'hand[1]' or 'modifiers[blue]'."""
        out = [f"{name}[{key}]" if key is not None else name for name, key in self.fixed_zones]
        for p in range(n):
            out.extend(f"{z}[{p}]" for z in self.player_zones)
        return out

    def zone_of(self, zi: int):
        """(name, key, owner seat or None) of a zone index."""
        f = len(self.fixed_zones)
        if zi < f:
            name, key = self.fixed_zones[zi]
            return name, key, None
        p, k = divmod(zi - f, len(self.player_zones))
        return self.player_zones[k], p, p


def per_keys(per):
    """(per player?, the list constant named or None) of a zone's or counter's `per`: 'player',
    'LIST', or [player, LIST] (one per player and per item of LIST)."""
    if isinstance(per, list):
        return True, per[1]
    if per == "player":
        return True, None
    return False, per or None


def make_layout(spec) -> Layout:
    def place(defs):
        """Lay out zones or counters: single ones and one per list item get fixed places in
        order; per-player ones are listed apart (their places depend on the number of players)."""
        fixed, index, per_player, keys = [], {}, [], {}
        for name, d in defs.items():
            player, listed = per_keys(d.get("per") if isinstance(d, dict) else None)
            if player:
                per_player.append(name)
                if listed:
                    keys[name] = {k: i for i, k in enumerate(spec.constants[listed])}
            elif listed:
                index[name] = {}
                for key in spec.constants[listed]:
                    index[name][key] = len(fixed)
                    fixed.append((name, key))
            else:
                index[name] = len(fixed)
                fixed.append((name, None))
        return fixed, index, per_player, keys

    zones, counters = place(spec.zones), place(spec.counters)
    return Layout(zones[0], zones[1], zones[2], spec.zones, counters[0], counters[1], counters[2], spec.counters,
                  player_keys=counters[3])


def card_counts(spec) -> dict:
    """kind -> how many cards it makes (worked out without making them)."""
    out = {}
    for kind, d in spec.cards.items():
        n = 1
        for v in d["attributes"].values():
            n *= len(v) if isinstance(v, list) else 1
        out[kind] = n * max(1, len(d.get("list") or ())) * int(d.get("copies", 1))
    return out


def _surely_number(e) -> bool:
    """Whether expression e can only be a number (then `+` and `*` need no length bound)."""
    if isinstance(e, Int):
        return True
    if isinstance(e, Neg):
        return _surely_number(e.operand)
    if isinstance(e, BinOp):
        return e.op in ("-", "//", "%") or (e.op in ("+", "*") and _surely_number(e.left) and _surely_number(e.right))
    if isinstance(e, GenCall):
        return e.func in ("count", "sum")
    return isinstance(e, Call) and e.func in ("len", "count", "sum", "abs")


def make_cards(spec):
    """The card table: (attrs per card, kind per card, label template per kind)."""
    table, kinds = [], []
    for kind, d in spec.cards.items():
        attrs = d["attributes"]
        names = list(attrs)
        lists = [v if isinstance(v, list) else [v] for v in attrs.values()]
        for combo in itertools.product(*lists):
            for own in d.get("list") or ({},):
                for _ in range(int(d.get("copies", 1))):
                    a = dict(zip(names, combo))
                    a.update(own)
                    a["kind"] = kind
                    table.append(a)
                    kinds.append(kind)
    return table, kinds


def counter_start(c):
    if isinstance(c, dict):
        v = c.get("start")
        return SEATS[v] if c.get("seat") and isinstance(v, int) and not isinstance(v, bool) else v
    return c


# ------------------------------------------------------------------ code generation


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


class Compiler:
    def __init__(self, spec, suspends: set, coverage: bool = False):
        self.spec = spec
        self.coverage = coverage  # count each statement, function and choose as it runs
        self.sites: list = []  # with coverage: (pos, what) of each counted statement or function
        self.chooses: list = []  # with coverage: the pos of each choose
        self.layout = make_layout(spec)
        self.cards, self.kinds = make_cards(spec)
        self.attrs = sorted({a for c in self.cards for a in c})
        self.marks = spec.marks
        # card attributes whose values can key an index (HX_attr: value -> "is one of its cards")
        self.indexed = [a for a in self.attrs if a not in self.marks and all(
            isinstance(c.get(a), (int, str, float, type(None))) for c in self.cards)]
        self.suspends = suspends  # names of procedures that may stop
        self.out = Emitter()
        self.consts: dict = {}
        self.routines: list = []  # resumable routine function names, by id
        self.routine_ids: dict = {}
        self.labels: list = []
        self.hints: dict = {}  # label id -> (pos, code) of its choose's hint
        self.prompts: list = []
        self.unavailables: list = []
        self.uid = itertools.count()
        self._quiet: set = set()  # the routine's lets read only by the log (log_only_lets)
        self.masked: set = set()  # (summed attribute, filtering attribute): MS_ tables to make
        self.direct: set = set()  # procedures that may stop and also get a plain D_ version
        self._choose_fns: dict = {}  # id(choose) -> (label, prompt, unavailable function ids)
        self._locals_list = "None"  # in a D_ version: its locals as the routine's slots, for labels
        self._valued = False  # the resumable routine being compiled returns a value (`return EXPR`)

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
                return f"({base}+{len(lay.player_zones)}*({self.ex(e.index, ctx)}))"
            if name in lay.zone_index and isinstance(lay.zone_index[name], dict):
                return f"{self.const(lay.zone_index[name])}[{self.ex(e.index, ctx)}]"
        return None

    def counter_ref(self, name, index, ctx, key=None) -> str:
        lay = self.layout
        if name in lay.player_offset:
            base = len(lay.fixed_counters) + lay.player_offset[name]
            at = f"{base}+{lay.player_block}*({self.ex(index, ctx)})"
            if name in lay.player_keys:
                at += f"+{self.const(lay.player_keys[name])}[{self.ex(key, ctx)}]"
            return f"V[{at}]"
        ci = lay.counter_index[name]
        if isinstance(ci, dict):
            return f"V[{self.const(ci)}[{self.ex(index, ctx)}]]"
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
        if isinstance(e, BinOp) and e.op == "+" and (_is_text(e.left) or _is_text(e.right)):
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
        return "(" + "".join(self.ex(i, ctx) + ", " for i in e.items) + ")"

    def _fors(self, fors, ctx):
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
        pairs = self._product(e, ctx)
        if pairs is not None:
            return pairs
        fors, inner = self._fors(e.fors, ctx)
        return f"[{self.ex(e.elt, inner)} {fors}]"

    def _members(self, e, ctx) -> str:
        """A list comprehension on the right of `in`: its items one by one, stopping at the first
        equal one (no list is built; functions change nothing, so fewer items computed is the same)."""
        fast = self._pipeline(e.elt, e.fors, ctx)
        if fast is not None:
            return fast
        fors, inner = self._fors(e.fors, ctx)
        return f"({self.ex(e.elt, inner)} {fors})"

    def _keeps(self, attr: str, value: str) -> str:
        """The test "has this attribute value" for filter(), from the index of attr (the value is
        plain: evaluating it twice changes nothing). Attributes in an index are scalars: a value
        of any other type (a list, a tuple) is no card's."""
        return f"(HX_{attr}.get({value}, _NONE) if type({value}) in _SCALARS else _NONE)"

    def _pipeline(self, elt, fors, ctx, keep_elt=True, summed=False):
        """A comprehension over one source that yields its items or an attribute of each, keeping
        those whose attribute equals a value (`c.value for c in zone if c.colour == d`), as
        map/filter over the cards' attribute tuples and indexes: no Python code runs per item.
        None when the comprehension is not of that form (or keep_elt is False: elt is ignored).
        summed: the items are added up, so those of the cards left out may count as 0 instead:
        `sum(c.value for c in zone if c.colour == d)` is one map over a table of each card's value
        if its colour is d, else 0 (MS_value_colour[d], called with a card)."""
        if len(fors) != 1 or fors[0].pattern.is_tuple:
            return None
        f = fors[0]
        var = f.pattern.names[0]
        if not keep_elt:
            picked = None
        elif isinstance(elt, Name) and elt.id == var:
            picked = None
        else:
            picked = self._card_attr(elt, var, self.attrs)
            if picked is None:
                return None
        src = self.it(f.iter, Ctx(dict(ctx.env), ctx.resumable))
        if f.cond is not None:
            match = self._attr_equals(f.cond, var, ctx)
            if match is None:
                return None
            attr, value = match
            if summed and picked is not None:
                self.masked.add((picked, attr))
                table = f"MS_{picked}_{attr}"
                return f"map(({table}.get({value}, _ZERO) if type({value}) in _SCALARS else _ZERO), {src})"
            src = f"filter({self._keeps(attr, value)}, {src})"
        return src if picked is None else f"map(AT_{picked}, {src})"

    def _product(self, e, ctx):
        """`[(a, b) for a in xs for b in ys]` with ys a literal list, a constant or a local other
        than a: every pair, as itertools.product (ys is read once, as nothing can change it)."""
        xs_ys = self._pairs(e, ctx)
        return None if xs_ys is None else f"list(_product({xs_ys[0]}, {xs_ys[1]}))"

    def _pairs(self, e, ctx):
        """(xs, ys) as Python when e is a list comprehension that _product makes, else None."""
        if not isinstance(e, ListComp) or len(e.fors) != 2 or any(
                f.cond is not None or f.pattern.is_tuple for f in e.fors):
            return None
        a, b = (f.pattern.names[0] for f in e.fors)
        if a == b or not (isinstance(e.elt, TupleLit) and len(e.elt.items) == 2 and all(
                isinstance(x, Name) and x.id == n for x, n in zip(e.elt.items, (a, b)))):
            return None
        ys = e.fors[1].iter
        if isinstance(ys, ListLit) and all(isinstance(x, (Int, Const)) or (
                isinstance(x, Str) and all(isinstance(p, str) for p in x.parts)) for x in ys.items):
            inner = self.ex(TupleLit(ys.pos, ys.items), ctx)
        elif isinstance(ys, Name) and ys.id != a and (ys.id in ctx.env or ys.id in self.spec.constants):
            inner = self.ex(ys, ctx)
        else:
            return None
        return self.it(e.fors[0].iter, ctx), inner

    def _card_attr(self, e, var, allowed):
        """The attribute name when e is `var.attr` for a card attribute in allowed that is not a mark."""
        if (isinstance(e, Attr) and isinstance(e.obj, Name) and e.obj.id == var and e.name in allowed
                and e.name not in self.marks):
            return e.name
        return None

    def _attr_equals(self, e, var, ctx):
        """(attr, compiled value) when e is `var.attr == value` (either way round) for an indexed
        attribute and a value that cannot fail or change anything: a literal, constant or local."""
        if not isinstance(e, Compare) or e.op != "==":
            return None
        for a, b in ((e.left, e.right), (e.right, e.left)):
            attr = self._card_attr(a, var, self.indexed)
            if attr is not None and self._plain_value(b, var, ctx):
                return attr, self.ex(b, ctx)
        return None

    def _plain_value(self, e, var, ctx) -> bool:
        if isinstance(e, (Int, Const)) or (isinstance(e, Str) and all(isinstance(p, str) for p in e.parts)):
            return True
        if isinstance(e, Name) and e.id != var:
            return e.id in ctx.env or not isinstance(self.spec.constants.get(e.id, []), list)
        return False

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
                return f"({value} in map(AT_{attr}, {self.it(e.fors[0].iter, ctx)}))"
        fors, inner = self._fors(e.fors, ctx)
        elt = self.ex(e.elt, inner)
        # list comprehensions run faster than generators in CPython; `first`, `any` and `all`
        # keep generators so they stop at the first item that settles them
        if f == "count":
            return f"len([1 {fors}])"
        if f in ("min", "max"):
            return f"_{f}_of([{elt} {fors}])"
        if f == "sum":
            return f"sum([{elt} {fors}])"
        if f == "first":
            return f"next(({elt} {fors}), None)"
        return f"{f}({elt} {fors})"

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
        if e.op == "+" and not (_surely_number(e.left) or _surely_number(e.right)):
            return f"_add({left}, {right})"
        if e.op == "*" and not (_surely_number(e.left) and _surely_number(e.right)):
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
        if e.op in ("in", "notin") and isinstance(e.right, ListComp):
            right = self._members(e.right, ctx)
        else:
            right = self.it(e.right, ctx) if e.op in ("in", "notin") else self.ex(e.right, ctx)
        return f"({self.ex(e.left, ctx)} {op} {right})"

    def x_Attr(self, e, ctx):
        obj = self.ex(e.obj, ctx)
        if e.name in self.marks:
            default = (self.marks[e.name] or {}).get("default")
            if e.name in self.attrs:
                return f"_get_mark(S, {obj}, {e.name!r}, A_{e.name}[{obj}])"
            return f"_get_mark(S, {obj}, {e.name!r}, {default!r})"
        return f"A_{e.name}[{obj}]"

    def x_Index(self, e, ctx):
        zi = self.zone_index(e, ctx)
        if zi is not None:
            return f"list(Z[{zi}])"
        inner = e.obj
        if (isinstance(inner, Index) and isinstance(inner.obj, Name) and inner.obj.id in self.layout.player_keys
                and inner.obj.id not in ctx.env):  # a counter per player and per key: n[p][key]
            return self.counter_ref(inner.obj.id, inner.index, ctx, key=e.index)
        if isinstance(e.obj, Name) and e.obj.id not in ctx.env and (
                e.obj.id in self.layout.counter_index or e.obj.id in self.layout.player_counters):
            return self.counter_ref(e.obj.id, e.index, ctx)
        return f"{self.ex(e.obj, ctx)}[{self.ex(e.index, ctx)}]"

    def x_Lambda(self, e, ctx):
        env = dict(ctx.env)
        env[e.param] = f"v_{e.param}"
        return f"(lambda v_{e.param}: {self.ex(e.body, Ctx(env, ctx.resumable))})"

    def x_Call(self, e, ctx):
        f, args = e.func, e.args
        if f in self.spec.functions:
            return f"F_{f}(S" + "".join(", " + self.ex(a, ctx) for a in args) + ")"
        if f in self.spec.procedures:  # let x = f(...): the value f returns (checked: nowhere else)
            if f in self.suspends:  # (in a routine that may stop, l_Let calls it; here: its D_ version)
                return f"D_{f}(S, T" + "".join(", " + self.ex(a, ctx) for a in args) + ")"
            return f"P_{f}(S" + "".join(", " + self.ex(a, ctx) for a in args) + ")"
        if f == "slot_name":  # the name of the procedure a slot's key calls (a tile's name)
            return f"SLOTNAME_{args[0].id}.get({self.ex(args[1], ctx)})"
        a = [self.it(x, ctx) for x in args]
        if f == "len":
            return f"len({a[0]})"
        if f in ("min", "max"):
            if len(a) == 1:
                return f"_{f}_of({a[0]})"
            return f"_{f}2({a[0]}, {a[1]})" if len(a) == 2 else f"{f}({', '.join(a)})"
        if f == "sum":
            return f"sum({a[0]})"
        if f == "count":
            return f"len({a[0]})"
        if f in ("any", "all"):
            return f"{f}({a[0]})"
        if f in ("first", "last", "top"):
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
            return f"_turn_order(S, {a[0]})"
        if f == "next_seat":
            return f"SEATS[({a[0]} + 1) % S.n]"
        if f == "prev_seat":
            return f"SEATS[({a[0]} - 1) % S.n]"
        if f == "abs":
            return f"abs({a[0]})"
        if f == "reverse":
            return f"list(reversed({a[0]}))"
        if f == "random":
            return f"_random(S, {a[0]})"
        raise AssertionError(f"unchecked call {f}")

    # ---------------------------------------------------------- statements (plain)

    def plain(self, stmts, ctx, ind):
        """Emit statements that never stop at a decision."""
        for s in stmts:
            if self.coverage and s.pos is not None:  # (not the `return` a valued routine ends with)
                self._emit(ind, self._count(s), s)
            getattr(self, "s_" + type(s).__name__)(s, ctx, ind)

    def _count(self, s, what: str | None = None) -> str:
        """With coverage: the line that counts a run of statement s (or of a function)."""
        self.sites.append((s.pos, what or type(s).__name__.lower()))
        return f"_C[{len(self.sites) - 1}] += 1"

    def _emit(self, ind, text, s):
        self.out.emit(ind, text, s.pos)

    def s_Let(self, s, ctx, ind):
        self._declare(s.pattern, ctx)
        guard = "if S.log is not None: " if set(s.pattern.names) <= self._quiet else ""
        self._emit(ind, f"{guard}{self._pat(s.pattern, ctx.env)} = {self.ex(s.value, ctx)}", s)

    def _declare(self, pattern, ctx):
        for n in pattern.names:
            if n not in ctx.env:
                if ctx.resumable:
                    ctx.env[n] = f"L[{ctx.slots[n]}]"
                else:
                    ctx.env[n] = f"v_{n}"

    def s_Assign(self, s, ctx, ind):
        if s.name in ctx.env:
            target = ctx.env[s.name]
        else:
            target = self.counter_ref(s.name, s.index, ctx, key=s.key)
        if s.op == "+=" and not _surely_number(s.value):  # xs += xs: bounded as `+` is
            self._emit(ind, f"{target} = _add({target}, {self.ex(s.value, ctx)})", s)
        else:
            self._emit(ind, f"{target} {s.op} {self.ex(s.value, ctx)}", s)

    def s_SetMark(self, s, ctx, ind):
        default = (self.marks.get(s.target.name) or {}).get("default")
        self._emit(ind, f"_set_mark(S, {self.ex(s.target.obj, ctx)}, {s.target.name!r}, {self.ex(s.value, ctx)}, "
                        f"{default!r})", s)

    def s_If(self, s, ctx, ind):
        for i, (cond, body) in enumerate(s.branches):
            self._emit(ind, f"{'if' if i == 0 else 'elif'} {self.ex(cond, ctx)}:", s)
            self._body(body, ctx, ind + 1, s.pos)
        if s.orelse is not None:
            self._emit(ind, "else:", s)
            self._body(s.orelse, ctx, ind + 1, s.pos)

    def _body(self, body, ctx, ind, pos):
        n = len(self.out.lines)
        self.plain(body, ctx, ind)
        if len(self.out.lines) == n:
            self.out.emit(ind, "pass", pos)

    def walked(self, e, ctx) -> str:
        """e as the items a plain-Python `for` walks: a copy taken first (the body may move the
        cards of a zone it walks), unless e is made afresh (a call, a comprehension) or constant."""
        if isinstance(e, Call) and e.func == "range":
            return self._range(e, ctx)
        fresh = (isinstance(e, (ListComp, ListLit)) or (isinstance(e, Call) and e.func in (
            "turn_order", "reverse", "sort_by")) or (isinstance(e, Name) and e.id not in ctx.env and (
                e.id == "players" or e.id in self.spec.constants)))
        return self.it(e, ctx) if fresh else f"tuple({self.it(e, ctx)})"

    def _range(self, e, ctx) -> str:
        """range(...): its numbers are charged to the step budget (a loop over them, or a
        comprehension, is as many steps), and there are at most MAX_RANGE of them."""
        return f"_range(S, {str(e.pos)!r}{''.join(', ' + self.it(x, ctx) for x in e.args)})"

    @staticmethod
    def _counts_rounds(s) -> bool:
        """Whether a `for` counts its rounds against the step budget (a range was charged already)."""
        return not (isinstance(s.iter, Call) and s.iter.func == "range")

    def s_For(self, s, ctx, ind):
        self._declare(s.pattern, ctx)
        self._emit(ind, f"for {self._pat(s.pattern, ctx.env)} in {self.walked(s.iter, ctx)}:", s)
        if self._counts_rounds(s):
            self._emit(ind + 1, "S.steps += 1", s)
            self._emit(ind + 1, f"if S.steps > BUDGET: _budget(S, {str(s.pos)!r})", s)
        self._body(s.body, replace(ctx, brk="break"), ind + 1, s.pos)

    def s_While(self, s, ctx, ind):
        self._emit(ind, f"while {self.ex(s.cond, ctx)}:", s)
        self._emit(ind + 1, "S.steps += 1", s)
        self._emit(ind + 1, f"if S.steps > BUDGET: _budget(S, {str(s.pos)!r})", s)
        self._body(s.body, replace(ctx, brk="break"), ind + 1, s.pos)

    def s_Break(self, s, ctx, ind):
        for line in ctx.brk.split("\n"):
            self._emit(ind, line, s)

    def s_Move(self, s, ctx, ind):
        dest = self.zone_index(s.dest, ctx)
        src = self.zone_index(s.what, ctx)
        if src is not None:
            self._emit(ind, f"_move_all(S, {src}, {dest}, {s.bottom})", s)
        else:
            self._emit(ind, f"{'_move_under' if s.bottom else '_move'}(S, {self.ex(s.what, ctx)}, {dest})", s)

    def s_Draw(self, s, ctx, ind):
        self._emit(ind, f"_draw(S, {self.ex(s.count, ctx)}, {self.zone_index(s.src, ctx)}, "
                        f"{self.zone_index(s.dest, ctx)})", s)

    def s_Shuffle(self, s, ctx, ind):
        self._emit(ind, f"_shuffle(S, {self.zone_index(s.zone, ctx)})", s)

    def s_Reveal(self, s, ctx, ind):
        to = self.ex(s.to, ctx) if s.to is not None else "None"
        self._emit(ind, f"_reveal(S, {self.it(s.what, ctx)}, {to})", s)

    def s_Log(self, s, ctx, ind):
        self._emit(ind, f"if S.log is not None: S.log.append(_event(S, {self.text(s.message, ctx)}))", s)

    def s_Show(self, s, ctx, ind):
        self._emit(ind, f"if S.log is not None: S.log.append(_table(S, {self.text(s.title, ctx)}, "
                        f"{self.ex(s.columns, ctx)}, {self.ex(s.rows, ctx)}))", s)

    def s_Return(self, s, ctx, ind):
        value = "None" if s.value is None else self.ex(s.value, ctx)
        if ctx.resumable:  # the value for the caller's `let x = f(...)` is left in the thread
            self._emit(ind, f"T[3] = {value}; return RET" if self._valued else "return RET", s)
        else:
            self._emit(ind, "return" if s.value is None else f"return {value}", s)

    def s_CallStmt(self, s, ctx, ind):
        args = "".join(", " + self.ex(a, ctx) for a in s.args)
        if ctx.direct and self.stmt_suspends(s):  # a routine that may stop, run as a plain function
            if s.slot_key is None:
                self._emit(ind, f"D_{s.func}(S, T{args})", s)
            else:
                self._emit(ind, f"_t = SLOT_{s.func}[{self.ex(s.slot_key, ctx)}]; "
                                f"(_t[2](S{args}) if _t[0] < 0 else _t[3](S, T{args}))", s)
            return
        if s.slot_key is None:
            self._emit(ind, f"P_{s.func}(S{args})", s)
        elif self.coverage:  # count the slot's use and the score change of the seat it is for
            self._emit(ind, f"_k = {self.ex(s.slot_key, ctx)}; _a = ({args[2:]}{',' if args else ''})", s)
            self._emit(ind, f"_b = _SLOT_IN(S, {s.func!r}, _k, _a); SLOT_{s.func}[_k][2](S, *_a); _SLOT_OUT(S, _b)", s)
        else:
            self._emit(ind, f"SLOT_{s.func}[{self.ex(s.slot_key, ctx)}][2](S{args})", s)

    def s_Choose(self, s, ctx, ind):
        """A choose in a D_ version: answered at once (Game.autoplay with direct=True)."""
        label_id, prompt_id, unavailable_id = self._choose_fns[id(s)]
        by = self.ex(s.by, ctx) if s.by is not None else "0"
        count = self.ex(s.count, ctx) if s.count is not None else "None"
        upto = self.ex(s.upto, ctx) if s.upto is not None else "None"
        options = self.ex(s.options, ctx)
        # the locals, for the decision's labels (none when alone: a pick answers, reading no labels)
        L = "" if self._locals_list == "None" or ctx.alone else ", " + self._locals_list
        one = count == upto == "None" and not s.optional and unavailable_id < 0
        optional_one = count == upto == "None" and s.optional and unavailable_id < 0
        pairs = self._pairs(s.options, ctx) if one else None  # (xs, ys): the options are xs x ys
        key = "" if s.distinct is None else ", " + self.ex(s.distinct, ctx)
        if one:
            call = f"_decide_one(S, T, {by}, {options}, {label_id}, {prompt_id})"
        else:
            call = (f"_decide(S, T, None, {by}, {options}, {count}, {upto}, {s.optional}, {label_id}, "
                    f"{prompt_id}, {unavailable_id}{key})")
        if ctx.spawned:  # a thread run as a generator: _join has the decision answered
            self._emit(ind, f"if {call}: yield {self._locals_list}", s)
        elif pairs:  # the same, without making every pair when it can
            self._emit(ind, f"S.direct_pairs(T, {by}, {pairs[0]}, {pairs[1]}, {label_id}, {prompt_id}{L})", s)
        elif one:  # Game.autoplay's answer at once, given the locals for the decision's labels
            self._emit(ind, f"S.direct_one(T, {by}, {options}, {label_id}, {prompt_id}{L})", s)
        elif optional_one:  # the same, for a choose of one that may be declined
            self._emit(ind, f"S.direct_one(T, {by}, {options}, {label_id}, {prompt_id}{L or ', None'}, True)", s)
        elif ctx.alone:  # answered now by a pick: the other threads need not reach their decisions first
            self._emit(ind, f"S.direct_many(T, {by}, {options}, {count}, {upto}, {s.optional}, {label_id}, "
                            f"{prompt_id}, {unavailable_id}{key})", s)
        else:  # (with a pick that answers alone, as in a thread run alone)
            self._emit(ind, f"if S.direct_many: S.direct_many(T, {by}, {options}, {count}, {upto}, {s.optional}, "
                            f"{label_id}, {prompt_id}, {unavailable_id}{key})", s)
            self._emit(ind, f"elif {call}: S.direct(T{L})", s)
        self._declare(s.pattern, ctx)
        if s.pattern.is_tuple:
            none = "(" + ", ".join("None" for _ in s.pattern.names) + ")"
            self._emit(ind, f"{self._pat(s.pattern, ctx.env)} = T[3] if T[3] is not None else {none}", s)
        else:
            self._emit(ind, f"{self._pat(s.pattern, ctx.env)} = T[3]", s)

    def direct_routine(self, name: str, params: tuple, body: tuple, pos):
        """The D_ version of a routine that may stop (compiled after its R_ version, whose slots
        and label functions it shares): a plain function whose decisions are answered where
        they are asked, for Game.autoplay with direct=True."""
        o = self.out
        names = list(self._slots)  # in slot order
        labelled = any(isinstance(n, Choose) and max(self._choose_fns[id(n)]) >= 0 for n in walk(body))
        threads = any(isinstance(n, Simultaneously) for n in walk(body))
        self._locals_list = "[" + ", ".join(f"v_{n}" for n in names) + "]" if labelled else "None"
        o.emit(0, f"def D_{name}(S, T{''.join(', v_' + p for p in params)}):", pos)
        o.emit(1, "Z = S.z; V = S.v", pos)
        unset = [n for n in names if n not in params]
        if (labelled or threads) and unset:  # a label, or a thread's copy of the locals, may read one not set yet
            o.emit(1, " = ".join(f"v_{n}" for n in unset) + " = None", pos)
        self._generators = []
        self._routine = (body, params)  # (for independence.bound_outside)
        self._body(body, Ctx({p: f"v_{p}" for p in params}, False, direct=True), 1, pos)
        o.emit(0, "", None)
        for g in self._generators:
            o.lines.extend(g.lines)
            o.pos.extend(g.pos)
        self._locals_list = "None"

    def s_Simultaneously(self, s, ctx, ind):
        """A `simultaneously` in a D_ version: each thread's body is a generator that stops (yields
        its locals, for labels) at each decision; _join runs them all to their first decision, then
        has the first waiting one answered and run on, as the driver does with threads.

        Independent threads (independence.py) also get a plain function, run for each item in turn
        when Game.autoplay answers with a pick (S.alone): the same game, without generators."""
        uid = next(self.uid)
        gname = f"G{uid}"
        names = list(self._slots)  # the body's locals start as a copy of the routine's
        var = s.pattern.names[0]
        args = ", ".join("_it" if n == var else f"v_{n}" for n in names)
        if independent(s, self.layout, self.spec, bound_outside(*self._routine, s)):
            self._emit(ind, "if S.alone:", s)
            self._emit(ind + 1, "_t = [[], RUN, None, None, T[6], 0, -1]  # a thread of T's block, each in turn", s)
            self._emit(ind + 1, f"for _it in {self.walked(s.iter, ctx)}:", s)
            self._emit(ind + 2, "S.next_tid += 1  # (the id the driver's thread would have had)", s)
            self._emit(ind + 2, f"Q{uid}(S, _t, {args})", s)
            self._emit(ind, "else:", s)
            ind += 1
            outer, self.out = self.out, Emitter()
            self.out.emit(0, f"def Q{uid}(S, T, {', '.join('v_' + n for n in names)}):", s.pos)
            self.out.emit(1, "Z = S.z; V = S.v", s.pos)
            self._body(s.body, Ctx({n: f"v_{n}" for n in names}, False, direct=True, alone=True), 1, s.pos)
            self.out.emit(0, "", None)
            self._generators.append(self.out)
            self.out = outer
        self._emit(ind, "_gs = []", s)
        self._emit(ind, f"for _it in {self.walked(s.iter, ctx)}:", s)
        self._emit(ind + 1, f"_t = _thread(S, T); _gs.append(({gname}(S, _t, {args}), _t))", s)
        self._emit(ind, "_join(S, _gs)", s)
        outer, self.out = self.out, Emitter()
        self.out.emit(0, f"def {gname}(S, T, {', '.join('v_' + n for n in names)}):", s.pos)
        self.out.emit(1, "Z = S.z; V = S.v", s.pos)
        self._body(s.body, Ctx({n: f"v_{n}" for n in names}, False, direct=True, spawned=True), 1, s.pos)
        self.out.emit(1, "yield from ()  # (a generator even with no choose)", s.pos)
        self.out.emit(0, "", None)
        self._generators.append(self.out)
        self.out = outer

    def in_generators(self, s) -> bool:
        """Whether a `simultaneously` can run as generators in a D_ version: one name per item,
        and no `simultaneously` or procedure that may stop inside it."""
        return not s.pattern.is_tuple and not any(
            isinstance(n, Simultaneously) or self.suspending_call(n) for n in walk(s.body))

    def spawning(self) -> set:
        """The procedures that start `simultaneously` threads that cannot run as generators
        (in_generators), themselves or through a call."""
        return procedures_that(self.spec, lambda n: isinstance(n, Simultaneously) and not self.in_generators(n))

    # ---------------------------------------------------------- resumable routines

    def stmt_suspends(self, s) -> bool:
        for n in walk(s):
            if isinstance(n, (Choose, Simultaneously)) or self.suspending_call(n):
                return True
        return False

    def suspending_call(self, n) -> bool:
        """Whether n calls a procedure that may stop (a call statement, or `let x = f(...)`)."""
        if isinstance(n, CallStmt):
            if n.slot_key is None:
                return n.func in self.suspends
            return any(p in self.suspends for p in self.spec.slots[n.func].values())
        return isinstance(n, Call) and n.func in self.suspends

    def resumable(self, fname: str, params: tuple, body: tuple):
        """Compile a routine that may stop, and the bodies of its `simultaneously` blocks."""
        slots = {}
        for p in params:
            slots.setdefault(p, len(slots))
        for n in walk(body):
            names = ()
            if isinstance(n, (Let, For, Choose, Simultaneously)):
                names = n.pattern.names
            for x in names:
                slots.setdefault(x, len(slots))
        self._hidden = len(slots)
        self._slots = slots
        self._valued = returns_value(body)
        if self._valued:  # ending without `return EXPR` gives the caller none
            body = tuple(body) + (Return(None, None),)
        ctx = Ctx({p: f"L[{slots[p]}]" for p in params}, True, "", slots)
        for n in self._quiet:  # kept beside the log, by thread, frame depth and slot
            ctx.env[n] = f"S.lv[(T[6], len(T[0]), {slots[n]})]"
        rid = self._register(fname)
        blocks: list = [[]]  # each block: list of (indent, text, pos)
        self._lower(body, ctx, blocks)
        self._flush_routine(fname, blocks)
        return rid, self._hidden

    def _register(self, fname):
        rid = len(self.routines)
        self.routines.append(fname)
        self.routine_ids[fname] = rid
        return rid

    def _new_slot(self) -> int:
        self._hidden += 1
        return self._hidden - 1

    def _flush_routine(self, fname, blocks):
        o = self.out
        o.emit(0, f"def {fname}(S, T, F):", None)
        o.emit(1, "L = F[2]; Z = S.z; V = S.v; pc = F[1]", None)
        o.emit(1, "while True:", None)
        for i, b in enumerate(self._thread_jumps(blocks)):
            o.emit(2, f"if pc == {i}:", None)
            for k, (ind, text, pos) in enumerate(b):
                if k == len(b) - 1:
                    # the block's last jump: a later block is reached by the tests below it,
                    # an earlier one by going round the loop again
                    head, sep, target = text.rpartition("pc = ")
                    if sep and target.endswith("; continue") and target[:-10].isdigit() and int(target[:-10]) > i:
                        text = head + f"pc = {target[:-10]}"
                o.emit(3 + ind, text, pos)
        o.emit(0, "", None)

    @staticmethod
    def _thread_jumps(blocks) -> list:
        """The blocks of a routine, each ending in a jump or a return, with jumps to blocks
        that only jump on going straight to where those lead, and nothing after a block's last
        jump or return."""
        last = len(blocks) - 1
        ends = ("return", "pc = ", "continue")
        out = []
        for i, b in enumerate(blocks):
            b = list(b)
            for k, (ind, text, _) in enumerate(b):
                if ind == 0 and not text.startswith("if ") and (text.startswith(ends) or text.endswith("; continue")):
                    del b[k + 1:]  # unreachable
                    break
            else:
                b.append((0, "return RET" if i == last else f"pc = {i + 1}; continue", None))
            out.append(b)

        def target(i, seen=()):
            b = out[i]
            if len(b) == 1 and b[0][1].startswith("pc = ") and b[0][1].endswith("; continue") and i not in seen:
                return target(int(b[0][1][5:-10]), seen + (i,))
            return i

        def rewrite(text):
            head, sep, rest = text.rpartition("pc = ")
            if sep and rest.endswith("; continue") and rest[:-10].isdigit():
                return f"{head}pc = {target(int(rest[:-10]))}; continue"
            return text

        return [[(ind, rewrite(text), pos) for ind, text, pos in b] for b in out]

    def _plain_into(self, stmts, ctx, block):
        """Compile plain statements into the current block."""
        start = len(self.out.lines)
        self.plain(stmts, ctx, 0)
        lines, poss = self.out.lines[start:], self.out.pos[start:]
        del self.out.lines[start:], self.out.pos[start:]
        for text, pos in zip(lines, poss):
            stripped = text.lstrip(" ")
            block.append(((len(text) - len(stripped)) // 4, stripped, pos))

    def _lower(self, stmts, ctx, blocks):
        """Lower statements that may stop into numbered blocks of the routine's state machine."""
        pending = []
        for s in stmts:
            if not self.stmt_suspends(s):
                pending.append(s)
                continue
            if pending:
                self._plain_into(pending, ctx, blocks[-1])
                pending = []
            if self.coverage:
                blocks[-1].append((0, self._count(s), s.pos))
            getattr(self, "l_" + type(s).__name__)(s, ctx, blocks)
        if pending:
            self._plain_into(pending, ctx, blocks[-1])

    def _goto(self, blocks, target_index_ref, pos):
        blocks[-1].append((0, f"pc = {target_index_ref}; continue", pos))

    def _open(self, blocks) -> int:
        blocks.append([])
        return len(blocks) - 1

    def _ctx_in_loop(self, ctx, exit_ref):
        return replace(ctx, brk=f"pc = {exit_ref}; continue")

    def l_Choose(self, s, ctx, blocks):
        cur = blocks[-1]
        label_id = self._label_fn(s, ctx)
        prompt_id = self._prompt_fn(s, ctx)
        unavailable_id = self._unavailable_fn(s, ctx)
        self._choose_fns[id(s)] = (label_id, prompt_id, unavailable_id)
        by = self.ex(s.by, ctx) if s.by is not None else "0"
        count = self.ex(s.count, ctx) if s.count is not None else "None"
        upto = self.ex(s.upto, ctx) if s.upto is not None else "None"
        nxt = len(blocks)
        cur.append((0, f"F[1] = {nxt}", s.pos))
        decide = "_decide"
        if self.coverage:
            self.chooses.append(s.pos)
            decide = f"_CHOSEN[{len(self.chooses) - 1}]"
        # stop, unless the game answers at once (Game.autoplay: a decision outside `simultaneously`)
        if decide == "_decide" and count == upto == "None" and not s.optional and unavailable_id < 0:
            call = f"_decide_one(S, T, {by}, {self.ex(s.options, ctx)}, {label_id}, {prompt_id})"
        else:
            key = "" if s.distinct is None else ", " + self.ex(s.distinct, ctx)
            call = (f"{decide}(S, T, F, {by}, {self.ex(s.options, ctx)}, {count}, {upto}, "
                    f"{s.optional}, {label_id}, {prompt_id}, {unavailable_id}{key})")
        if ctx.spawned:  # (Game.autoplay answers them after the other threads have run)
            cur.append((0, f"if {call}: return WAIT", s.pos))
        else:
            cur.append((0, f"if {call} and not (S.auto and S.auto(T)): return WAIT", s.pos))
        cur.append((0, f"pc = {nxt}; continue", s.pos))
        b = blocks[self._open(blocks)]
        self._declare(s.pattern, ctx)
        if s.pattern.is_tuple:
            none = "(" + ", ".join("None" for _ in s.pattern.names) + ")"
            b.append((0, f"{self._pat(s.pattern, ctx.env)} = T[3] if T[3] is not None else {none}", s.pos))
        else:
            b.append((0, f"{self._pat(s.pattern, ctx.env)} = T[3]", s.pos))

    def _label_fn(self, s, ctx) -> int:
        """The label (and hint) of a choose's options, as functions of the locals and the option,
        worked out only when a player looks; -1 when the options read as their values."""
        if s.label is None and s.hint is None:
            return -1
        lid = len(self.labels)
        env = dict(ctx.env)
        if s.pattern.is_tuple:
            for i, n in enumerate(s.pattern.names):
                env[n] = f"o[{i}]"
        else:
            env[s.pattern.names[0]] = "o"
        code = self.text(s.label, Ctx(env, True)) if s.label is not None else "(o,)"
        self.labels.append((s.pos, code))
        if s.hint is not None:
            self.hints[lid] = (s.hint.pos, self.text(s.hint, Ctx(env, True)))
        return lid

    def _prompt_fn(self, s, ctx) -> int:
        if s.prompt is None:
            return -1
        pid = len(self.prompts)
        self.prompts.append((s.pos, self.text(s.prompt, Ctx(dict(ctx.env), True))))
        return pid

    def _unavailable_fn(self, s, ctx) -> int:
        """The `unavailable` clause as a function of the locals, worked out only when asked for."""
        if s.unavailable is None:
            return -1
        uid = len(self.unavailables)
        self.unavailables.append((s.pos, self.ex(s.unavailable, Ctx(dict(ctx.env), True))))
        return uid

    def l_Let(self, s, ctx, blocks):
        """`let x = f(...)` with f a procedure that may stop: the call, then x is what it returned."""
        self.l_CallStmt(CallStmt(s.pos, s.value.func, None, s.value.args), ctx, blocks, value=True)
        self._declare(s.pattern, ctx)
        blocks[-1].append((0, f"{self._pat(s.pattern, ctx.env)} = T[3]", s.pos))

    def l_Assign(self, s, ctx, blocks):
        """`x = f(...)` (or `+=`, `-=`) with f a procedure that may stop."""
        self.l_CallStmt(CallStmt(s.pos, s.value.func, None, s.value.args), ctx, blocks, value=True)
        target = ctx.env[s.name] if s.name in ctx.env else self.counter_ref(s.name, s.index, ctx, key=s.key)
        step = f"{target} = _add({target}, T[3])" if s.op == "+=" else f"{target} {s.op} T[3]"
        blocks[-1].append((0, step, s.pos))

    def l_CallStmt(self, s, ctx, blocks, value=False):
        cur = blocks[-1]
        args = [self.ex(a, ctx) for a in s.args]
        nxt = len(blocks)
        cur.append((0, f"F[1] = {nxt}", s.pos))
        # (endless recursion needs no step count: Python's recursion limit stops it, reported
        # by the engine at this call.) Push the callee's frame and run it at once; only if it stops does the driver take over.
        call = (f"_f = [_t[0], 0, [{', '.join(args)}] + [None] * _t[1]]; T[0].append(_f); "
                f"_r = ROUT[_t[0]](S, T, _f)")
        counted = None
        at_once = f"(S, T{''.join(', ' + a for a in args)}); pc = {nxt}; continue"
        if s.slot_key is None:
            if s.func in self.direct:  # autoplay(direct=True): on the main thread, as a plain function
                keep = "T[3] = " if value else ""  # (what it returns, for `let x = f(...)`)
                cur.append((0, f"if S.direct and T[4] < 0: {keep}D_{s.func}{at_once}", s.pos))
            cur.append((0, f"_t = RS_{s.func}", s.pos))
        elif self.coverage:  # count the slot's use and the score change of the seat it is for
            counted = self._new_slot()  # holds what _SLOT_IN saw until the slot's procedure ends
            cur.append((0, f"_k = {self.ex(s.slot_key, ctx)}; _a = ({''.join(a + ', ' for a in args)})", s.pos))
            cur.append((0, f"L[{counted}] = _SLOT_IN(S, {s.func!r}, _k, _a); _t = SLOT_{s.func}[_k]", s.pos))
            cur.append((0, f"if _t[0] < 0: _t[2](S, *_a); pc = {nxt}; continue", s.pos))
            call = "_f = [_t[0], 0, list(_a) + [None] * _t[1]]; T[0].append(_f); _r = ROUT[_t[0]](S, T, _f)"
        else:
            cur.append((0, f"_t = SLOT_{s.func}[{self.ex(s.slot_key, ctx)}]", s.pos))
            cur.append((0, f"if _t[0] < 0: _t[2](S{''.join(', ' + a for a in args)}); pc = {nxt}; continue", s.pos))
            if any(p in self.direct for p in self.spec.slots[s.func].values()):
                cur.append((0, f"if S.direct and T[4] < 0 and _t[3] is not None: _t[3]{at_once}", s.pos))
        cur.append((0, call, s.pos))
        cur.append((0, "if _r is not RET: return _r", s.pos))
        cur.append((0, f"T[0].pop(); pc = {nxt}; continue", s.pos))
        after = blocks[self._open(blocks)]
        if counted is not None:
            after.append((0, f"_SLOT_OUT(S, L[{counted}]); L[{counted}] = None", s.pos))

    def l_If(self, s, ctx, blocks):
        mark = f"@I{next(self.uid)}@"
        cur = blocks[-1]
        for cond, body in s.branches:
            bi = len(blocks)
            cur.append((0, f"if {self.ex(cond, ctx)}:", s.pos))
            cur.append((1, f"pc = {bi}; continue", s.pos))
            self._open(blocks)
            self._lower(body, ctx, blocks)
            blocks[-1].append((0, f"pc = {mark}; continue", s.pos))
        if s.orelse is not None:
            bi = len(blocks)
            cur.append((0, f"pc = {bi}; continue", s.pos))
            self._open(blocks)
            self._lower(s.orelse, ctx, blocks)
            blocks[-1].append((0, f"pc = {mark}; continue", s.pos))
        else:
            cur.append((0, f"pc = {mark}; continue", s.pos))
        after = self._open(blocks)
        self._patch(blocks, mark, after)

    def _patch(self, blocks, mark, value):
        for b in blocks:
            for i, (ind, text, pos) in enumerate(b):
                if text and mark in text:
                    b[i] = (ind, text.replace(mark, str(value)), pos)

    def l_While(self, s, ctx, blocks):
        mark = f"@W{next(self.uid)}@"
        head = self._open_from(blocks, s)
        blocks[head].append((0, "S.steps += 1", s.pos))
        blocks[head].append((0, f"if S.steps > BUDGET: _budget(S, {str(s.pos)!r})", s.pos))
        blocks[head].append((0, f"if not {self.ex(s.cond, ctx)}: pc = {mark}; continue", s.pos))
        self._lower(s.body, self._ctx_in_loop(ctx, mark), blocks)
        blocks[-1].append((0, f"pc = {head}; continue", s.pos))
        after = self._open(blocks)
        self._patch(blocks, mark, after)

    def _open_from(self, blocks, s) -> int:
        nb = len(blocks)
        blocks[-1].append((0, f"pc = {nb}; continue", s.pos))
        self._open(blocks)
        return nb

    def l_For(self, s, ctx, blocks):
        mark = f"@F{next(self.uid)}@"
        lst, ix = self._new_slot(), self._new_slot()
        blocks[-1].append((0, f"L[{lst}] = tuple({self.it(s.iter, ctx)}); L[{ix}] = 0", s.pos))
        head = self._open_from(blocks, s)
        self._declare(s.pattern, ctx)
        blocks[head].append((0, f"if L[{ix}] >= len(L[{lst}]): pc = {mark}; continue", s.pos))
        blocks[head].append((0, f"{self._pat(s.pattern, ctx.env)} = L[{lst}][L[{ix}]]; L[{ix}] += 1", s.pos))
        if self._counts_rounds(s):
            blocks[head].append((0, "S.steps += 1", s.pos))
            blocks[head].append((0, f"if S.steps > BUDGET: _budget(S, {str(s.pos)!r})", s.pos))
        self._lower(s.body, self._ctx_in_loop(ctx, mark), blocks)
        blocks[-1].append((0, f"pc = {head}; continue", s.pos))
        after = self._open(blocks)
        blocks[after].append((0, f"L[{lst}] = None", s.pos))
        self._patch(blocks, mark, after)

    def l_Simultaneously(self, s, ctx, blocks):
        body_name = f"B{next(self.uid)}"
        # the body runs as its own routine, with the same slots for locals
        self._declare(s.pattern, ctx)
        body_blocks: list = [[]]
        body_ctx = replace(ctx, env=dict(ctx.env), brk="", spawned=True)
        self._lower(s.body, body_ctx, body_blocks)
        rid = self._register(body_name)
        self._pending_bodies.append((body_name, body_blocks))
        nxt = len(blocks)
        slots = [ctx.slots[n] for n in s.pattern.names]
        cur = blocks[-1]
        cur.append((0, f"F[1] = {nxt}", s.pos))
        cur.append((0, f"if _spawn(S, T, {rid}, L, {self.it(s.iter, ctx)}, {slots}, {s.pattern.is_tuple}): return WAIT", s.pos))
        cur.append((0, f"pc = {nxt}; continue", s.pos))
        self._open(blocks)

    # ---------------------------------------------------------- whole ruleset

    def build(self):
        spec = self.spec
        o = self.out
        self._pending_bodies = []
        if not self.coverage:
            self.direct = (self.suspends & set(spec.procedures)) - self.spawning()
        # functions
        for name, r in spec.functions.items():
            env = {p: f"v_{p}" for p in r.params}
            o.emit(0, f"def F_{name}(S{''.join(', v_' + p for p in r.params)}):", r.pos)
            o.emit(1, "Z = S.z; V = S.v", r.pos)
            if isinstance(r.body, tuple):  # a block computing the value (locals, if, loops, return)
                if self.coverage:
                    o.emit(1, self._count(r.body[0] if r.body else r, f"function {author_name(name)}"), r.pos)
                self._body(r.body, Ctx(env, False), 1, r.pos)
            else:
                if self.coverage:
                    o.emit(1, self._count(r.body, f"function {author_name(name)}"), r.body.pos)
                o.emit(1, f"return {self.ex(r.body, Ctx(env, False))}", r.body.pos)
            o.emit(0, "", None)
        # procedures
        resumable_info = {}
        routines = [(n, r.params, r.body, r.pos) for n, r in spec.procedures.items()]
        routines.append(("__flow__", (), spec.flow.body, spec.flow.pos))
        for name, params, body, pos in routines:
            # (a `simultaneously` body runs in threads of its own: its routine keeps every let)
            nested = any(isinstance(n, Simultaneously) for n in walk(body))
            self._quiet = set() if nested else log_only_lets(body, spec.procedures)
            if name in self.suspends or name == "__flow__":
                rid, nslots = self.resumable(f"R_{name}", params, body)
                resumable_info[name] = (rid, nslots - len(params))
                if name in self.direct:
                    self.direct_routine(name, params, body, pos)
                while self._pending_bodies:
                    bname, bblocks = self._pending_bodies.pop(0)
                    self._flush_routine(bname, bblocks)
            else:
                ctx = Ctx({p: f"v_{p}" for p in params}, False)
                o.emit(0, f"def P_{name}(S{''.join(', v_' + p for p in params)}):", pos)
                o.emit(1, "Z = S.z; V = S.v", pos)
                self._body(body, ctx, 1, pos)
                o.emit(0, "", None)
        self.resumable_info = resumable_info
        # labels and prompts
        for i, (pos, code) in enumerate(self.labels):
            o.emit(0, f"def LBL{i}(S, L, o):", pos)
            o.emit(1, "Z = S.z; V = S.v", pos)
            o.emit(1, f"return {code}", pos)
        for i, (pos, code) in self.hints.items():
            o.emit(0, f"def HNT{i}(S, L, o):", pos)
            o.emit(1, "Z = S.z; V = S.v", pos)
            o.emit(1, f"return {code}", pos)
        for i, (pos, code) in enumerate(self.prompts):
            o.emit(0, f"def PR{i}(S, L):", pos)
            o.emit(1, "Z = S.z; V = S.v", pos)
            o.emit(1, f"return {code}", pos)
        for i, (pos, code) in enumerate(self.unavailables):
            o.emit(0, f"def UN{i}(S, L):", pos)
            o.emit(1, "Z = S.z; V = S.v", pos)
            o.emit(1, f"return {code}", pos)
        return "\n".join(o.lines) + "\n"


def _is_text(e) -> bool:
    """Whether e is plainly a text: a string, or a choice or a join of texts."""
    if isinstance(e, Str):
        return True
    if isinstance(e, CondExpr):
        return _is_text(e.then) and _is_text(e.orelse)
    return isinstance(e, BinOp) and e.op == "+" and (_is_text(e.left) or _is_text(e.right))


def card_label_fn(templates: dict):
    """kind -> format template; returns label(attrs) using only the card's own attributes."""
    fmt = string.Formatter()

    def label(attrs: dict) -> str:
        t = templates.get(attrs["kind"])
        if not t:
            return attrs["kind"]
        try:
            return fmt.vformat(t, (), attrs)
        except (KeyError, ValueError, IndexError, AttributeError):
            return attrs["kind"]

    return label


FACE_DOWN = "a face-down card"  # how a hidden card reads (a card whose kind has no back, or under a pile)


def card_backs(spec, cards: list):
    """Per card: its back ({attribute: value} of the kind's `back`, as printed: marks never show)
    or None; how it reads when hidden (`back_label`, else "a face-down card (blue)"); and the key
    of its back for the bots' samples ((kind,) or (kind, values...))."""
    fmt = string.Formatter()
    backs, hidden, keys = [], [], []
    for a in cards:
        d = spec.cards[a["kind"]]
        names = d.get("back")
        if not names:
            backs.append(None)
            hidden.append(FACE_DOWN)
            keys.append((a["kind"],))
            continue
        b = {n: a.get(n) for n in names}
        text = None
        if d.get("back_label"):
            try:
                text = fmt.vformat(d["back_label"], (), b)
            except (KeyError, ValueError, IndexError, AttributeError, TypeError):
                text = None
        if text is None:
            shown = ("yes" if v is True else "no" if v is False else str(v) for v in b.values())
            text = f"{FACE_DOWN} ({', '.join(shown)})"
        backs.append(b)
        hidden.append(text)
        keys.append((a["kind"], *b.values()))
    return tuple(backs), tuple(hidden), tuple(keys)


def compile_ruleset(spec, suspends: set, coverage: bool = False):
    """Generate and load the Python of a checked ruleset; returns a dict of what the engine needs.

    With coverage the code also counts each statement and function as it runs, and each choose
    (see coverage.py); the counts are in the returned "coverage"."""
    c = Compiler(spec, suspends, coverage)
    source = c.build()
    cards = tuple(Card(i) for i in range(len(c.cards)))
    ns: dict = {
        "PLAYERS": PLAYERS, "SEATS": SEATS, "BUDGET": runtime.STEP_BUDGET,
        "WAIT": runtime.WAIT, "CALL": runtime.CALL, "RET": runtime.RET, "RUN": RUN,
        "_range": runtime.bounded_range, "_move": runtime.move, "_move_under": runtime.move_under, "_move_all": runtime.move_all, "_draw": runtime.draw,
        "_shuffle": runtime.shuffle, "_reveal": runtime.reveal, "_top": runtime.top,
        "_first": runtime.first, "_last": runtime.last, "_turn_order": runtime.turn_order, "_budget": runtime.budget,
        "_decide": runtime.decide, "_decide_one": runtime.decide_one, "_thread": runtime.thread,
        "_join": runtime.join, "_spawn": runtime.spawn, "_set_mark": runtime.set_mark,
        "_get_mark": runtime.get_mark, "_event": runtime.event,
        "_NONE": runtime.NO_CARDS.__contains__, "_SCALARS": runtime.SCALARS,
        "_random": runtime.random_item, "_product": itertools.product, "_table": runtime.table_event,
        "_cat": runtime.cat, "_add": runtime.add, "_mul": runtime.mul,
        "_min2": runtime.min2, "_max2": runtime.max2, "_min_of": runtime.min_of, "_max_of": runtime.max_of,
    }
    label = card_label_fn({k: d.get("label", "") for k, d in spec.cards.items()})
    labels = tuple(label(a) for a in c.cards)
    backs, hidden, back_keys = card_backs(spec, c.cards)

    def _text(parts):
        """A string made in the rules (not a log text, rendered per viewer): labels, seats, lists."""
        def one(p):
            if type(p) is Card:
                return labels[p]
            if type(p).__name__ == "Seat":
                return f"Player {p + 1}"
            if type(p) is list:
                return ", ".join(map(one, p))
            return str(p)
        return "".join(map(one, parts))

    ns["_text"] = _text
    counts = None
    if coverage:
        from .coverage import Counts, counted_decide
        counts = Counts(c.sites, c.chooses)
        ns["_C"] = counts.runs
        ns["_CHOSEN"] = tuple(counted_decide(counts.choices[i]) for i in range(len(c.chooses)))
        ns["_SLOT_IN"], ns["_SLOT_OUT"] = counts.slot_hooks(lambda S, p: ns["F_score"](S, p))
    # Attribute tables are lists, never changed, and AT_attr is A_attr.__getitem__ made once (for
    # map and key=): list.__getitem__ is a plain C method, where a tuple's is a slot wrapper that
    # builds an argument tuple per call.
    for attr in c.attrs:
        ns[f"A_{attr}"] = [a.get(attr) for a in c.cards]
        ns[f"AT_{attr}"] = ns[f"A_{attr}"].__getitem__
    values = {}  # attribute in an index -> the values its cards have
    for attr in c.indexed:
        index = {}
        for card, a in zip(cards, c.cards):
            index.setdefault(a.get(attr), set()).add(card)
        ns[f"HX_{attr}"] = {v: frozenset(cs).__contains__ for v, cs in index.items()}
        values[attr] = list(index)
    for picked, attr in c.masked:  # MS_picked_attr[v](card): the card's picked if its attr is v, else 0
        ns[f"MS_{picked}_{attr}"] = {v: [a.get(picked) if a.get(attr) == v else 0 for a in c.cards].__getitem__
                                     for v in values[attr]}
    ns["_ZERO"] = ([0] * len(c.cards)).__getitem__
    for name, value in c.consts.values():
        ns[name] = value
    filename = f"<jux:{spec.name}>"
    code = compile(source, filename, "exec")
    exec(code, ns)
    ns["ROUT"] = tuple(ns[f] for f in c.routines)
    # slots: key -> (routine id or -1, extra locals, plain function or None, D_ version or None)
    for slot, table in spec.slots.items():
        ns[f"SLOT_{slot}"] = {}
        ns[f"SLOTNAME_{slot}"] = {key: str(proc).replace("_", " ") for key, proc in table.items()}
    for name, (rid, extra) in c.resumable_info.items():
        ns[f"RS_{name}"] = (rid, extra)
    for slot, table in spec.slots.items():
        for key, proc in table.items():
            if proc in c.resumable_info:
                rid, extra = c.resumable_info[proc]
                ns[f"SLOT_{slot}"][key] = (rid, extra, None, ns.get(f"D_{proc}"))
            else:
                ns[f"SLOT_{slot}"][key] = (-1, 0, ns[f"P_{proc}"], None)
    return {
        "source": source, "filename": filename, "line_pos": list(c.out.pos), "ns": ns,
        "routines": tuple(ns[f] for f in c.routines), "routine_names": tuple(c.routines),
        "flow": c.routine_ids["R___flow__"], "flow_locals": c.resumable_info["__flow__"][1],
        "layout": c.layout, "cards": cards, "card_attrs": c.cards, "card_labels": labels,
        "card_backs": backs, "hidden_labels": hidden, "back_keys": back_keys,
        "labels": tuple(ns[f"LBL{i}"] for i in range(len(c.labels))),
        "hints": {i: ns[f"HNT{i}"] for i in c.hints},
        "prompts": tuple(ns[f"PR{i}"] for i in range(len(c.prompts))),
        "unavailables": tuple(ns[f"UN{i}"] for i in range(len(c.unavailables))),
        "score": ns.get("F_score"), "tiebreak": ns.get("F_tiebreak"),
        "procedures": {name: (c.resumable_info[name] if name in c.resumable_info else ns[f"P_{name}"])
                       for name in spec.procedures},
        "functions": {name: ns[f"F_{name}"] for name in spec.functions},
        "coverage": counts,
    }
