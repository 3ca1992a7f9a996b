"""Which locals of a routine may hold a value worked out from something a seat may not know
(taint analysis, once per routine, to a fixed point), and which of them a bot's sample can work
out again from its own values (bots/sample.py, docs/bots.md step 6).

What a seat may not know, as the rules read it (`Secrets`): a counter not `visible: all`, a zone
whose size is hidden (`size: hidden`: its size, and so anything read of it), an attribute of a
card (the card may be one the seat cannot see: a sample deals another there, but a value read
from the real card stays; marks stay with the place, so they are no secret), and a function or
procedure that reads one of these (at any depth).

A local is tainted when a statement that sets it (a `let`, `x = ...`, `x += ...`, a `for` or
`simultaneously` over a list, a `choose` from options) reads a secret or a tainted local, or runs
only on a condition that does (inside an `if` or `while` whose test does, a `for` over a tainted
list, or a loop that a `break` under such a condition may end early). A `for`'s own list (kept in
a hidden slot while its body waits) is tainted when its list expression is.

A tainted local live where the routine waits is worked out again in the sample when one plain
`let` sets it (no other statement does, and its value calls no procedure that may stop; a `let`
holds only in its block, after it, so wherever its local is live it ran on the way there) and every local that `let` reads is live there too (and,
when tainted, worked out again first); every other tainted live local is set to none in the
sample (`blanks`): the bot does not know it, and a rule that then fails ends that sample's
playout (bots/ismcts.py, bots/greedy.py)."""
from __future__ import annotations

from ..language.tree import (Assign, Attr, Break, Call, CallStmt, Choose, CompFor, For, GenCall, If, Lambda, Let, Name,
                             Return, Simultaneously, While, walk)


class Secrets:
    """What a seat may not know, by name (see the module's text): names (counters and zones),
    attrs (card attributes, not marks) and routines (functions and procedures reading one)."""

    __slots__ = ("names", "attrs", "routines")

    def __init__(self, spec, secret_counters, hidden_zones, attrs):
        self.names = frozenset(secret_counters) | frozenset(hidden_zones)
        self.attrs = frozenset(attrs)
        self.routines = self._routines(spec)

    def _routines(self, spec) -> frozenset:
        bodies = {**{n: f.body for n, f in spec.functions.items()}, **{n: p.body for n, p in spec.procedures.items()}}
        calls, direct = {}, set()
        for n, body in bodies.items():
            called = set()
            for x in walk(body):
                t = type(x)
                if (t is Name and x.id in self.names) or (t is Attr and x.name in self.attrs):
                    direct.add(n)
                elif t in (Call, GenCall, CallStmt) and isinstance(x.func, str) and x.func in bodies:
                    called.add(x.func)
            calls[n] = called
        out = set(direct)
        while True:
            more = {n for n, cs in calls.items() if n not in out and cs & out}
            if not more:
                return frozenset(out)
            out |= more

    def reads(self, e, slots: dict, tainted) -> bool:
        """Whether expression e reads a secret or a local (by name, in slots) that is tainted."""
        if e is None:
            return False
        names, attrs, routines = self.names, self.attrs, self.routines
        for x in walk(e):
            t = type(x)
            if t is Name:
                s = slots.get(x.id)
                if s is not None:
                    if s in tainted:
                        return True
                elif x.id in names:
                    return True
            elif t is Attr:
                if x.name in attrs:
                    return True
            elif t in (Call, GenCall, CallStmt) and x.func in routines:
                return True
        return False


class Taint:
    """The taint of one routine's locals (see the module's text).

    tainted: the slots that may hold a secret; defs: slot -> [(statement, under a tainted
    condition)] for every statement that sets it; loops: id(For) -> whether its list is tainted."""

    def __init__(self, body, slots: dict, secrets: Secrets):
        self.slots, self.secrets = slots, secrets
        self.tainted: set = set()
        self.loops: dict = {}
        while True:
            self.defs: dict = {}
            before = (len(self.tainted), sum(self.loops.values()))
            self._block(tuple(body), False)
            if (len(self.tainted), sum(self.loops.values())) == before:
                break

    def _reads(self, e) -> bool:
        return self.secrets.reads(e, self.slots, self.tainted)

    def _set(self, names, stmt, value_tainted: bool, ctl: bool) -> None:
        for x in names:
            s = self.slots.get(x)
            if s is None:
                continue
            self.defs.setdefault(s, []).append((stmt, ctl))
            if value_tainted or ctl:
                self.tainted.add(s)

    def _block(self, stmts, ctl: bool) -> None:
        for s in stmts:
            self._stmt(s, ctl)

    def _stmt(self, s, ctl: bool) -> None:
        t = type(s)
        if t is Let:
            self._set(s.pattern.names, s, self._reads(s.value), ctl)
        elif t is Assign:
            if s.name in self.slots:
                self._set((s.name,), s, self._reads(s.value) or self._reads(s.index) or self._reads(s.key), ctl)
        elif t is If:
            c = ctl
            for cond, body in s.branches:
                c = c or self._reads(cond)  # (a later branch runs only when the earlier tests fail)
                self._block(tuple(body), c)
            if s.orelse is not None:
                self._block(tuple(s.orelse), c)
        elif t is While:
            c = ctl or self._reads(s.cond) or self._breaks_on_secret(s.body)
            self._block(tuple(s.body), c)
        elif t is For:
            it = self._reads(s.iter)
            self.loops[id(s)] = it
            c = ctl or it or self._breaks_on_secret(s.body)
            self._set(s.pattern.names, s, it, c)
            self._block(tuple(s.body), c)
        elif t is Simultaneously:
            it = self._reads(s.iter)
            self._set(s.pattern.names, s, it, ctl)
            self._block(tuple(s.body), ctl or it)
        elif t is Choose:
            self._set(s.pattern.names, s, self._reads(s.options) or self._reads(s.count) or self._reads(s.upto), ctl)

    def _breaks_on_secret(self, body) -> bool:
        """Whether a `break` or `return` of this loop's body runs under a tainted condition (then how
        many rounds ran, and so what its locals hold, depends on it)."""
        def look(stmts, c) -> bool:
            for s in stmts:
                t = type(s)
                if t in (Break, Return) and c:
                    return True
                if t is If:
                    cc = c
                    for cond, b in s.branches:
                        cc = cc or self._reads(cond)
                        if look(tuple(b), cc):
                            return True
                    if s.orelse is not None and look(tuple(s.orelse), cc):
                        return True
                elif t is Return and c:
                    return True
            return False
        return look(tuple(body), False)

    def plan(self, live, suspending, loops) -> tuple:
        """What a sample does where the routine waits with live (slots) live, inside loops (the
        For statements around it in this frame, outermost first), run before the sample drops
        what is not live: (blanks, steps). blanks: the tainted live slots set to none; steps, in
        order: ("let", slot, Let) a local worked out again by its `let`, ("list", For) a loop's
        list worked out again, ("var", For) a loop's variable taken again from its list, and
        ("none", For) a loop's list set to none. A step reads the sample's values, and locals
        that are not tainted (live or not: the sample drops the others after) or worked out again
        by an earlier step."""
        ok: dict = {}  # slot -> True, False, or None while being looked at
        steps: list = []
        lists: dict = {}  # id(For) -> whether its list is the sample's own (not tainted, or worked out again)
        for f in loops:
            if not self.loops.get(id(f)):
                lists[id(f)] = True

        def can(i) -> bool:
            if i not in self.tainted:
                return True
            if i in ok:
                return ok[i] is True
            ok[i] = None
            x, f = self._one_def(i, suspending, loops)
            good = False
            if x is not None:
                good = all(can(j) for j in self._local_reads(x.value))
                if good:
                    steps.append(("let", i, x))
            elif f is not None:
                good = list_ok(f)
                if good and ("var", f) not in steps:
                    steps.append(("var", f))
            ok[i] = good
            return good

        def list_ok(f) -> bool:
            got = lists.get(id(f))
            if got is None:
                lists[id(f)] = False
                got = lists[id(f)] = all(can(j) for j in self._local_reads(f.iter))
                steps.append(("list" if got else "none", f))
            return got

        for f in loops:
            if self.loops.get(id(f)):
                list_ok(f)
        blanks = [i for i in sorted(self.tainted) if i in live and not can(i)]
        return blanks, steps

    def _one_def(self, slot: int, suspending, loops) -> tuple:
        """(the one plain `let` that sets slot, None), (None, the one loop of loops whose variable
        it is), or (None, None). (Under a tainted condition or not: a `let` holds in its block,
        after it, and a loop's variable in its body, so wherever the local is read the `let` or the
        loop's head ran on the way there, under the same conditions.)"""
        defs = self.defs.get(slot, ())
        if len(defs) != 1:
            return None, None
        stmt = defs[0][0]
        if type(stmt) is Let and not stmt.pattern.is_tuple and not suspending(stmt.value):
            return stmt, None
        if type(stmt) is For and any(f is stmt for f in loops):
            return None, stmt
        return None, None

    def _local_reads(self, e) -> set:
        """The slots of the routine's locals that expression e reads (not names its own
        comprehensions and lambdas bind)."""
        bound, out = set(), set()
        for x in walk(e):
            t = type(x)
            if t is CompFor:
                bound.update(x.pattern.names)
            elif t is Lambda:
                bound.add(x.param)
        for x in walk(e):
            if type(x) is Name and x.id not in bound:
                s = self.slots.get(x.id)
                if s is not None:
                    out.add(s)
        return out

def rule_secrets(spec, cards: list, marks) -> Secrets:
    """The Secrets of a checked ruleset: its counters not `visible: all`, its zones `size: hidden`,
    and the attributes of its cards that some card does not show on its back (cards: each card's
    attributes, as the compiler makes them; marks are no secret)."""
    from ..checks.secrets import secret_counters

    hidden = [n for n, z in (spec.zones or {}).items() if isinstance(z, dict) and z.get("size") == "hidden"]
    shown: dict = {}  # attribute -> whether every card having it shows it on its back
    for a in cards:
        back = set((spec.cards.get(a.get("kind")) or {}).get("back") or ()) | {"kind"}
        for k in a:
            shown[k] = shown.get(k, True) and k in back
    attrs = [k for k, every in shown.items() if not every and k not in (marks or {})]
    return Secrets(spec, secret_counters(spec), hidden, attrs)
