"""When the threads of a `simultaneously` are independent: each could run alone, to its end.

The driver runs the threads of `simultaneously for x in players { body }` together: each to its
first decision, then each on from there as it is answered. Run one after another instead, each
answered where it asks, they leave the game the same when no thread reads what another writes:

- what a thread writes is its own: zones and counters indexed by its x (`hand[x]`), and the cards
  it takes from its own zones (a move of a card from a shared zone would empty it for the others);
- what it reads is its own, or shared and written by no thread (fixed zones, global counters);
- it draws no chance (shared generator), logs nothing (the log's order), calls no procedure or
  function (they may read or write anything), and starts no threads;
- the items are the seats (`players` or `turn_order(...)`): distinct, so no two threads share
  an own zone.

Only the order of the answers could then tell the two ways apart, and it is the same: the driver
answers the first waiting thread first and runs it on, so thread 1's answers all come before
thread 2's. Game.autoplay with a pick (nothing sees the game between answers) runs such blocks
alone (compile_direct.DirectRoutines.s_Simultaneously); everything else runs as the driver would.
"""
from __future__ import annotations

from ..language.tree import (Assign, Break, Call, Choose, CompFor, For, GenCall, If, Index, Lambda, Let, Move,
                             Name, Simultaneously, While, walk)

SEAT_LISTS = ("turn_order",)  # builtins whose items are distinct seats


def independent(s: Simultaneously, layout, spec, outer: set) -> bool:
    """Whether the threads of s are independent (see the module's text). outer: the names of the
    locals of the routine around s (each thread starts with a copy of them)."""
    if s.pattern.is_tuple:
        return False
    seats = (isinstance(s.iter, Name) and s.iter.id == "players") or (
        isinstance(s.iter, Call) and s.iter.func in SEAT_LISTS)
    return seats and _Threads(s.pattern.names[0], s.body, layout, spec, outer).body(s.body)


def bound_outside(body, params, s: Simultaneously) -> set:
    """The locals of a routine (its body and params) that s may start with a value of: its
    params and the names bound anywhere in the routine but inside s."""
    inside = {id(n) for n in walk(s.body)}
    rest = [n for n in walk(body) if id(n) not in inside]
    return set(params) | {name for names, _ in _bindings(rest) for name in names}


def _bindings(stmts):
    """(names, value) of each statement under stmts (or of each node of a list) that binds
    locals; value None when what the names get is not a value of the thread's own (a `+=`)."""
    for n in (stmts if isinstance(stmts, list) else walk(stmts)):
        if isinstance(n, Let):
            yield n.pattern.names, n.value
        elif isinstance(n, Assign) and n.index is None:
            yield (n.name,), n.value if n.op == "=" else None
        elif isinstance(n, Choose):
            yield n.pattern.names, n.options
        elif isinstance(n, For):
            yield n.pattern.names, n.iter


class _Threads:
    def __init__(self, var: str, body, layout, spec, outer: set):
        self.var = var
        self.lay = layout
        self.spec = spec
        self.outer = set(outer)  # locals copied from the routine: may hold anything
        binds = list(_bindings(body))
        self.bound = {n for names, _ in binds for n in names}  # locals bound in the body
        # the locals that only ever hold values of the thread's own zones (wherever they are
        # bound: a loop may bind one after a use), found as a fixed point
        self.own = self.bound - self.outer - {var}
        changed = True
        while changed:
            changed = False
            for names, value in binds:
                if any(n in self.own for n in names) and (value is None or not self.reads(value, own_only=True)):
                    self.own -= set(names)
                    changed = True

    # ------------------------------------------------------------ expressions

    def _own(self, e) -> bool:
        """e is `zone[x]` or `counter[x]`, per player, for the thread's own x."""
        lay = self.lay
        return (isinstance(e, Index) and isinstance(e.obj, Name)
                and (e.obj.id in lay.player_zones or e.obj.id in lay.player_counters)
                and isinstance(e.index, Name) and e.index.id == self.var and self.var not in self.bound)

    def reads(self, e, own_only: bool = False) -> bool:
        """Whether e reads only what no other thread writes. own_only: and nothing shared either
        (no fixed zone, no local that may hold something else), so that the cards it gives are
        the thread's own."""
        lay, spec = self.lay, self.spec
        locals_ = self.bound | self.outer
        inner = {n for x in walk(e) if isinstance(x, CompFor) for n in x.pattern.names}
        inner |= {x.param for x in walk(e) if isinstance(x, Lambda)}
        inner -= locals_  # (a name both is checked as the local)
        owned = {id(x.obj) for x in walk(e) if self._own(x)}  # `hand` in `hand[x]`
        for x in walk(e):
            if isinstance(x, (Call, GenCall)) and (x.func in spec.functions or x.func in ("random", "make")):
                return False
            if not isinstance(x, Name) or id(x) in owned:
                continue
            n = x.id
            if n == self.var or n in inner or n in spec.constants or n == "players":
                continue
            if n in locals_:
                if own_only and n not in self.own:
                    return False
                continue
            if n in lay.player_zones or n in lay.player_counters:
                return False  # another seat's, or indexed by what the thread cannot tell is its own
            if n in lay.zone_index:
                if own_only:
                    return False
                continue
            if n in lay.counter_index:
                continue  # threads write only their own counters: a global one stays as it is
            return False  # (a name this check does not know: not independent)
        return True

    # ------------------------------------------------------------ statements

    def body(self, stmts) -> bool:
        return all(self.stmt(s) for s in stmts)

    def stmt(self, s) -> bool:
        if isinstance(s, Let):
            return self.reads(s.value)
        if isinstance(s, Assign):
            if not self.reads(s.value) or any(x is not None and not self.reads(x) for x in (s.index, s.key)):
                return False
            if s.name in self.lay.player_counters or s.name in self.lay.counter_index:
                return self._own(Index(s.pos, Name(s.pos, s.name), s.index))
            return s.index is None
        if isinstance(s, Choose):
            return all(p is None or self.reads(p)
                       for p in (s.options, s.by, s.prompt, s.label, s.count, s.upto, s.unavailable))
        if isinstance(s, Move):
            return self._own(s.dest) and s.dest.obj.id in self.lay.player_zones and self.reads(s.what, own_only=True)
        if isinstance(s, If):
            return all(self.reads(c) and self.body(b) for c, b in s.branches) and (
                s.orelse is None or self.body(s.orelse))
        if isinstance(s, For):
            return self.reads(s.iter) and self.body(s.body)
        if isinstance(s, While):
            return self.reads(s.cond) and self.body(s.body)
        if isinstance(s, Break):
            return True
        return False  # draw, shuffle, reveal, marks, log, show, calls, return, nested threads
