"""Code generation, fast paths: comprehensions over cards as map/filter over the cards' attribute
tables and indexes, and pairs as itertools.product (class FastPaths, part of compile.Compiler)."""
from __future__ import annotations

import ast
import re

from ..language.tree import Attr, Call, Compare, Const, Int, ListComp, ListLit, Name, Str, TupleLit
from .expr import Ctx
from .inline import inline_body, plain_args

_ZONE = re.compile(r"\d+|K\d+\[(v_\w+|L\[\d+\])\]")  # a zone's index: fixed, or a seat's (read twice: the same)


def _literal_scalar(code: str) -> bool:
    """Whether code is a Python literal of a scalar (a text, a number, a truth, none)."""
    try:
        value = ast.literal_eval(code)
    except (ValueError, SyntaxError, MemoryError, RecursionError):
        return False
    return type(value) in (str, int, float, bool, type(None))


class FastPaths:
    """Methods of compile.Compiler: expressions that need no Python code run per item."""

    def _members(self, e, ctx) -> str:
        """A list comprehension on the right of `in`: its items one by one, stopping at the first
        equal one (no list is built; functions change nothing, so fewer items computed is the same)."""
        fast = self._pipeline(e.elt, e.fors, ctx)
        if fast is not None:
            return fast
        fors, inner = self._fors(e.fors, ctx)
        return f"({self.ex(e.elt, inner)} {fors})"

    def _unless_empty(self, fors, ctx, code: str, empty: str) -> str:
        """code, a comprehension whose first `for` walks a zone, as its value when the zone is
        empty (a zone is a list: nothing is walked, no test run) unless the zone holds a card:
        Python makes no function for the comprehension then (about 1,000 instructions)."""
        zi = self.zone_index(fors[0].iter, ctx)
        if zi is None or not _ZONE.fullmatch(zi):
            return code
        return f"({code} if Z[{zi}] else {empty})"

    def _fused(self, fors, ctx):
        """(`for v_q in xs if a if b`, the context inside) for the one `for q in ys if b` of a
        comprehension when ys is a list comprehension `[q for q in xs if a]` of the same name, or
        a function compiled in place whose body is one: one comprehension, not two (a and b run
        on the same items in the same order, as `and`). Else None."""
        if len(fors) != 1 or fors[0].pattern.is_tuple:
            return None
        f = fors[0]
        var = f.pattern.names[0]
        inner, ictx = f.iter, ctx
        if isinstance(inner, Call) and inner.func in self.spec.functions and not self.coverage:
            texts = [self.ex(a, ctx) for a in inner.args]
            found = inline_body(self.spec, inner.func, self.inlinable)
            if not (found and plain_args(texts, found[1])):
                return None
            inner, ictx = found[0], Ctx(dict(zip(self.spec.functions[inner.func].params, texts)), ctx.resumable)
        if not (isinstance(inner, ListComp) and len(inner.fors) == 1 and inner.fors[0].pattern.names == (var,)
                and not inner.fors[0].pattern.is_tuple and isinstance(inner.elt, Name) and inner.elt.id == var):
            return None
        fast = self._pipeline(inner.elt, inner.fors, ictx)
        text = f"for v_{var} in {fast}" if fast is not None else self._fors(inner.fors, ictx)[0]
        env = dict(ctx.env)
        env[var] = f"v_{var}"
        octx = Ctx(env, ctx.resumable)
        if f.cond is not None:
            text += f" if {self.ex(f.cond, octx)}"
        return text, octx

    def _keeps(self, attr: str, value: str) -> str:
        """The test "has this attribute value" for filter(), from the index of attr (the value is
        plain: evaluating it twice changes nothing). Attributes in an index are scalars: a value
        of any other type (a list, a tuple) is no card's."""
        if self._scalar_code(value):
            return f"HX_{attr}.get({value}, _NONE)"
        return f"(HX_{attr}.get({value}, _NONE) if type({value}) in _SCALARS else _NONE)"

    def _cards_with(self, attr: str, value: str) -> str:
        """The set of the cards whose attr is value (HS_attr; empty for a value no card has, or
        one of another type than a scalar's): `value in map(AT_attr, zone)` as `not
        cards.isdisjoint(zone)` hashes each card and looks it up, where map called a getter."""
        if self._scalar_code(value):
            return f"HS_{attr}.get({value}, _NOSET)"
        return f"(HS_{attr}.get({value}, _NOSET) if type({value}) in _SCALARS else _NOSET)"

    def _scalar_code(self, value: str) -> bool:
        """Whether the Python expression value surely gives a scalar: a local known to hold one
        (inline_calls.py), or a literal ('vp_card')."""
        return value in self._scalar_codes or _literal_scalar(value)

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
        picked = getter = None
        if keep_elt and not (isinstance(elt, Name) and elt.id == var):
            picked = self._card_attr(elt, var, self.attrs)
            getter = f"AT_{picked}" if picked is not None else self._tuple_getter(elt, var)
            if getter is None:
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
                if self._scalar_code(value):
                    return f"map({table}.get({value}, _ZERO), {src})"
                return f"map(({table}.get({value}, _ZERO) if type({value}) in _SCALARS else _ZERO), {src})"
            src = f"filter({self._keeps(attr, value)}, {src})"
        return src if getter is None else f"map({getter}, {src})"

    def _as_set(self, e, ctx) -> str:
        """The list comprehension e as a set of the same items, for a local only asked whether
        it holds a value (members.py)."""
        fast = self._pipeline(e.elt, e.fors, ctx)
        if fast is not None:
            return f"set({fast})"
        fors, inner = self._fors(e.fors, ctx)
        return "{" + f"{self.ex(e.elt, inner)} {fors}" + "}"

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

    def _attr_names(self, e, var=None):
        """The attribute names when e is a tuple `(v.a, v.b, ...)` of card attributes that are no
        marks, all of one variable v (var, when given), else None."""
        if not (isinstance(e, TupleLit) and len(e.items) >= 2 and all(
                isinstance(x, Attr) and isinstance(x.obj, Name) and x.obj.id == e.items[0].obj.id
                and x.name in self.attrs and x.name not in self.marks for x in e.items)):
            return None
        if var is not None and e.items[0].obj.id != var:
            return None
        return tuple(x.name for x in e.items)

    def _tuple_table(self, names) -> int:
        """The number i of the table AA{i}: for each card, the tuple of its attributes names (made
        once when the rules are loaded; AAT{i} is its __getitem__, for map)."""
        return self.tuples.setdefault(names, len(self.tuples))

    def _tuple_getter(self, e, var):
        """`AAT{i}` when e is a tuple of attributes of the card var (see _attr_names), else None."""
        names = self._attr_names(e, var)
        return None if names is None else f"AAT{self._tuple_table(names)}"

    def _attr_tuple(self, e, ctx):
        """`(v.a, v.b)` of a local v as one read of the table of those attributes' tuples
        (`AA0[v_c]`: the same tuple, made when the rules are loaded), else None."""
        names = self._attr_names(e)
        var = None if names is None else e.items[0].obj.id
        if var is None or var not in ctx.env:
            return None
        return f"AA{self._tuple_table(names)}[{ctx.env[var]}]"

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
