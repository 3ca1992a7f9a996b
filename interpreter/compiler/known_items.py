"""Code generation: a list comprehension whose last `for` walks a short constant list of scalars
and whose condition compares that item with values written out (class KnownItems, part of
program.Compiler).

`[(a, c) for c in zone[p] for a in kinds if a == "first" or (if a == "second" then
t > 0 else ...)]` tests, for every card, each kind against the names written in the condition.
Each item of the constant list is known when the rules are compiled: its condition is worked out
with it (`a == "first"` is true for one item, false for the others), leaving for each item
either always (kept), never (left out) or what remains to test. The items are then listed in
order, each one left to test as `item if rest else ...` (Python's Ellipsis: no value of the
rules), and the ones that are Ellipsis skipped: the same items in the same order, each remaining
test run as before, without the comparisons. Only when the comprehension's element cannot fail
(names, values written out, tuples of them): the conditions are then all worked out before the
elements, which changes no value and no error."""
from __future__ import annotations

from dataclasses import fields, replace

from ..language.tree import BoolOp, CompFor, Compare, CondExpr, Const, Int, Lambda, Name, Node, Not, Str, TupleLit, walk

MOST_ITEMS = 16  # a longer list is walked as before


def _literal(e):
    """(True, value) of an expression written out (text without {..}, whole number, truth, none)."""
    if isinstance(e, Int):
        return True, e.value
    if isinstance(e, Const):
        return True, e.value
    if isinstance(e, Str) and all(isinstance(p, str) for p in e.parts):
        return True, "".join(e.parts)
    return False, None


def fold(e, name: str, value):
    """Condition e with name known to be value: its comparisons of name with a value written out,
    and the and, or, not and if-then-else over them, worked out. Only where e's value is read as
    true or false (every expression folded here is): Const(True) may stand for any true value."""
    if isinstance(e, Compare) and e.op in ("==", "!="):
        for a, b in ((e.left, e.right), (e.right, e.left)):
            ok, lit = _literal(b)
            if ok and isinstance(a, Name) and a.id == name:
                return Const(e.pos, (value == lit) == (e.op == "=="))
        return e
    if isinstance(e, Not):
        inner = fold(e.operand, name, value)
        if inner is e.operand:
            return e
        return Const(e.pos, not inner.value) if isinstance(inner, Const) else replace(e, operand=inner)
    if isinstance(e, CondExpr):
        cond = fold(e.cond, name, value)
        if isinstance(cond, Const):
            return fold(e.then if cond.value else e.orelse, name, value)
        then, orelse = fold(e.then, name, value), fold(e.orelse, name, value)
        if cond is e.cond and then is e.then and orelse is e.orelse:
            return e
        return replace(e, cond=cond, then=then, orelse=orelse)
    if isinstance(e, BoolOp):
        settles = e.op == "or"  # (a true item settles `or`, a false one `and`)
        items = []
        for i in e.items:
            i = fold(i, name, value)
            if isinstance(i, Const) and bool(i.value) != settles:
                continue  # (false in `or`, true in `and`: changes nothing)
            items.append(i)
            if isinstance(i, Const):
                break  # (the items after it are never read, as before)
        if not items:
            return Const(e.pos, not settles)
        if len(items) == 1:
            return items[0]
        if len(items) == len(e.items) and all(a is b for a, b in zip(items, e.items)):
            return e
        return replace(e, items=tuple(items))
    return e


def _written(value, pos):
    """The expression that writes value out (a text, a whole number, a truth, none), or None."""
    if type(value) is str:
        return Str(pos, (value,))
    if type(value) is int:
        return Int(pos, value)
    if value is None or type(value) is bool:
        return Const(pos, value)
    return None


def substitute(e, name: str, node):
    """e with every Name name read as node (name is bound again nowhere in e: checked before)."""
    if isinstance(e, Name):
        return node if e.id == name else e
    if isinstance(e, tuple):
        return tuple(substitute(x, name, node) for x in e)
    if not isinstance(e, Node):
        return e
    changes = {}
    for f in fields(e):
        if f.name != "pos":
            old = getattr(e, f.name)
            new = substitute(old, name, node)
            if new is not old and new != old:
                changes[f.name] = new
    return replace(e, **changes) if changes else e


def _cannot_fail(e) -> bool:
    if isinstance(e, TupleLit):
        return all(_cannot_fail(i) for i in e.items)
    return isinstance(e, (Name, Int, Const)) or (isinstance(e, Str) and all(isinstance(p, str) for p in e.parts))


class KnownItems:
    """Methods of program.Compiler: see the module's docstring."""

    def known_items(self, e, ctx) -> str | None:
        """List comprehension e as Python with its last `for`'s items worked out one by one, or
        None when it is not of that form (or folding changes nothing)."""
        last = e.fors[-1]
        if last.cond is None or last.pattern.is_tuple or not _cannot_fail(e.elt):
            return None
        if not isinstance(last.iter, Name) or any(last.iter.id in f.pattern.names for f in e.fors):
            return None
        items = self.spec.constants.get(last.iter.id)
        if not self.scalar_list(last.iter, ctx.env) or not 0 < len(items) <= MOST_ITEMS:
            return None
        name = last.pattern.names[0]
        if any(isinstance(n, CompFor) and name in n.pattern.names or isinstance(n, Lambda) and n.param == name
               for n in walk(last.cond)):
            return None  # (a name bound again inside the condition)
        folded = [fold(last.cond, name, v) for v in items]
        if all(f is last.cond for f in folded):
            return None
        written = [_written(v, last.pos) for v in items]
        if any(w is None and not isinstance(f, Const) for w, f in zip(written, folded)):
            return None
        # (a test left is worked out before the item is walked: the item written out in it)
        folded = [f if isinstance(f, Const) else substitute(f, name, w) for f, w in zip(folded, written)]
        fors, inner = self._fors(e.fors[:-1] + (replace(last, cond=None),), ctx)
        parts, tested = [], False
        for v, f in zip(items, folded):
            if isinstance(f, Const):
                if f.value:
                    parts.append(repr(v))
            else:
                parts.append(f"({v!r} if {self.ex(f, inner)} else ...)")
                tested = True
        head = fors.rsplit(" in ", 1)[0]  # (the last for, walking the items kept instead)
        kept = "(" + ", ".join(parts) + ("," if len(parts) == 1 else "") + ")"  # (() if none: the fors before still run)
        test = f" if {inner.env[name]} is not ..." if tested else ""
        return f"[{self.ex(e.elt, inner)} {head} in {kept}{test}]"

    def unrolled(self, e, ctx, func: str = "list") -> str | None:
        """A comprehension (e: a list comprehension, or `count`/`sum` of one, func) whose one `for`
        walks a short constant list of scalars, each item written out in place of the name: a
        list display (with a test: each item unpacked from a tuple of one or none), `sum` of a
        tuple display, `count` as a sum of 1s and 0s. The same items in the same order, worked
        out in the same order; no function made for the comprehension (about 1,000 instructions
        on CPython 3.11). None when e is not of that form."""
        if len(e.fors) != 1 or e.fors[0].pattern.is_tuple:
            return None
        f = e.fors[0]
        if (f.cond is None and func == "count") or (f.cond is not None and func == "sum"):
            return None
        if not isinstance(f.iter, Name) or not self.scalar_list(f.iter, ctx.env):
            return None
        items = self.spec.constants[f.iter.id]
        written = [_written(v, f.pos) for v in items]
        name = f.pattern.names[0]
        if not 0 < len(items) <= MOST_ITEMS or None in written or any(
                isinstance(n, CompFor) and name in n.pattern.names or isinstance(n, Lambda) and n.param == name
                for part in (e.elt, f.cond) if part is not None for n in walk(part)):
            return None  # (a name bound again inside: not written out)
        tests = [None if f.cond is None else self.ex(substitute(f.cond, name, w), ctx) for w in written]
        if func == "count":
            return "(" + " + ".join(f"(1 if {t} else 0)" for t in tests) + ")"
        elts = [self.ex(substitute(e.elt, name, w), ctx) for w in written]
        if func == "sum":
            return f"sum(({', '.join(elts)},))"
        return "[" + ", ".join(x if t is None else f"*(({x},) if {t} else ())" for x, t in zip(elts, tests)) + "]"
