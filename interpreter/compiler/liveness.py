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

from ..language.tree import (Assign, Break, CallStmt, Choose, For, If, Let, Name, Return, Simultaneously,
                             While, walk)


def live_after(body, slots: dict, suspends) -> dict:
    """id(statement) -> frozenset of the slots live where the routine waits at that statement.
    slots: local name -> slot; suspends(stmt) -> whether the statement itself may stop there
    (not one only containing one)."""
    out: dict = {}
    _block(tuple(body), frozenset(), _Walk(slots, suspends, out), frozenset())
    return out


class _Walk:
    __slots__ = ("slots", "suspends", "out")

    def __init__(self, slots, suspends, out):
        self.slots, self.suspends, self.out = slots, suspends, out

    def reads(self, *nodes) -> frozenset:
        slots = self.slots
        got = set()
        for node in nodes:
            if node is None:
                continue
            for n in walk(node):
                if type(n) is Name and n.id in slots:
                    got.add(slots[n.id])
        return frozenset(got)

    def names(self, pattern) -> frozenset:
        return frozenset(self.slots[x] for x in pattern.names if x in self.slots)


def _block(stmts: tuple, live: frozenset, w: _Walk, brk: frozenset) -> frozenset:
    for s in reversed(stmts):
        live = _stmt(s, live, w, brk)
    return live


def _loop(head: frozenset, body: tuple, live: frozenset, w: _Walk, kill: frozenset = frozenset()) -> frozenset:
    """Live before a loop whose test reads head and whose body runs again and again (its
    pattern, kill, set at the top of each round); live is what is live after the loop."""
    top = head | live
    while True:
        again = head | live | (_block(body, top, w, live) - kill)
        if again == top:
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
        return _loop(w.reads(s.cond), tuple(s.body), live, w)
    if t is For:
        return w.reads(s.iter) | _loop(frozenset(), tuple(s.body), live, w, w.names(s.pattern))
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

