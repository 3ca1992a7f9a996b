"""Which locals of a routine that may stop are still to be read where it stops (live), worked out
once per routine from its statements (backward data flow, loops to a fixed point).

A bot's sample of a game (bots/sample.py) keeps only those: every other local of a stopped
frame is a value the rules will never read again, and may have been worked out from something
the sampling seat may not see (a sealed bid, a card it cannot see), so the sample drops it.
Dropping a local that is never read again changes nothing in how the game plays on.

`live_after(params, body, slots)` gives, for each statement at which the routine may stop (a
`choose`, a call of a procedure that may stop, a `simultaneously`), the slots live where it
resumes (while it waits): for a `choose` also every local its expressions read (its labels and
prompt are worked out from the locals while it waits, and a sample may ask it again)."""
from __future__ import annotations

from ..language.tree import (Assign, Break, CallStmt, Choose, For, GenCall, If, Lambda, Let, ListComp, Name, Node,
                             Return, Simultaneously, While)


def live_after(body, slots: dict, suspends, heads: dict | None = None) -> dict:
    """id(statement) -> frozenset of the slots live where the routine waits at that statement.
    slots: local name -> slot; suspends(stmt) -> whether the statement itself may stop there
    (not one only containing one). heads, when given, gets id(loop) -> the slots live at the top
    of each round of each `for` and `while` (a `for`'s variable, set there, left out)."""
    out: dict = {}
    _block(tuple(body), frozenset(), _Walk(slots, suspends, out, {} if heads is None else heads), frozenset())
    return out


class _Walk:
    __slots__ = ("slots", "suspends", "out", "heads")

    def __init__(self, slots, suspends, out, heads):
        self.slots, self.suspends, self.out, self.heads = slots, suspends, out, heads

    def reads(self, *nodes) -> frozenset:
        """The slots of the locals nodes read (a name a comprehension or lambda binds is its own
        there, not the local of that name)."""
        return frozenset(local_reads(nodes, self.slots))

    def names(self, pattern) -> frozenset:
        return frozenset(self.slots[x] for x in pattern.names if x in self.slots)


def _block(stmts: tuple, live: frozenset, w: _Walk, brk: frozenset) -> frozenset:
    for s in reversed(stmts):
        live = _stmt(s, live, w, brk)
    return live


def _loop(s, head: frozenset, body: tuple, live: frozenset, w: _Walk, kill: frozenset = frozenset()) -> frozenset:
    """Live before loop s whose test reads head and whose body runs again and again (its
    pattern, kill, set at the top of each round); live is what is live after the loop."""
    top = head | live
    while True:
        again = head | live | (_block(body, top, w, live) - kill)
        if again == top:
            w.heads[id(s)] = top
            return top
        top = again


def _stmt(s, live: frozenset, w: _Walk, brk: frozenset) -> frozenset:
    t = type(s)
    if t is If:
        out = live if s.orelse is None else _block(tuple(s.orelse), live, w, brk)
        for cond, body in s.branches:
            out = out | _block(tuple(body), live, w, brk) | w.reads(cond)
        return out
    if t is While:
        return _loop(s, w.reads(s.cond), tuple(s.body), live, w)
    if t is For:
        return w.reads(s.iter) | _loop(s, frozenset(), tuple(s.body), live, w, w.names(s.pattern))
    if t is Simultaneously:  # the body runs in threads of their own, on a copy of the locals
        inner = _block(tuple(s.body), frozenset(), w, frozenset()) - w.names(s.pattern)
        w.out[id(s)] = live
        return live | inner | w.reads(s.iter)
    if t is Break:
        return brk
    if t is Return:
        return w.reads(s.value)
    if t is Choose:
        mine = w.names(s.pattern)  # (its label, hint, key and unavailable read an option by that name)
        waiting = ((live | w.reads(s.label, s.unavailable, s.distinct, s.hint)) - mine) | w.reads(
            s.options, s.by, s.prompt, s.count, s.upto)
        w.out[id(s)] = waiting
        return waiting
    if t is Let:
        after = live - w.names(s.pattern)
        if w.suspends(s):
            w.out[id(s)] = after
        return after | w.reads(s.value)
    if t is Assign:
        mine = w.slots.get(s.name)
        after = live
        if mine is not None:
            after = live - {mine} if s.op == "=" else live | {mine}
        if w.suspends(s):
            w.out[id(s)] = after
        return after | w.reads(s.index, s.key, s.value)
    if t is CallStmt:
        if w.suspends(s):
            w.out[id(s)] = live
        return live | w.reads(s.slot_key, *s.args)
    return live | w.reads(s)  # a statement that neither stops nor sets a local



def local_reads(node, slots: dict) -> set:
    """The slots of the locals (slots: name -> slot) that node (an expression, a statement, or a
    tuple of them, None for none) reads; a name a comprehension or lambda binds is its own there."""
    got: set = set()
    _free(node, frozenset(), slots, got)
    return got


def _free(node, bound: frozenset, slots: dict, got: set) -> None:
    """Add to got the slots of the locals node reads, bound the names bound around it."""
    t = type(node)
    if t is Name:
        if node.id not in bound and node.id in slots:
            got.add(slots[node.id])
    elif t is tuple:
        for x in node:
            _free(x, bound, slots, got)
    elif t is ListComp or t is GenCall:
        for f in node.fors:  # (a `for`'s list is read outside its own name, inside the earlier ones)
            _free(f.iter, bound, slots, got)
            bound = bound | frozenset(f.pattern.names)
            if f.cond is not None:
                _free(f.cond, bound, slots, got)
        _free(node.elt, bound, slots, got)
    elif t is Lambda:
        _free(node.body, bound | {node.param}, slots, got)
    elif isinstance(node, Node):
        for f in type(node).__dataclass_fields__:
            if f != "pos":
                v = getattr(node, f)
                if isinstance(v, (Node, tuple)):
                    _free(v, bound, slots, got)
