"""Which locals of a routine may hold a value worked out from something a seat may not know
(taint analysis, once per routine, to a fixed point), and which of them a bot's sample can work
out again from its own values (bots/sample.py, docs/bots.md step 6).

What a seat may not know, as the rules read it (`Secrets`): a counter not `visible: all`, a zone
whose size is hidden (`size: hidden`: its size, and so anything read of it), an attribute of a
card (the card may be one the seat cannot see: a sample deals another there, but a value read
from the real card stays; marks stay with the place, so they are no secret) unless the card is
taken from a zone `visible: all` or the attribute shows on every card's back, and a function
that reads one of these (at any depth).

A local is tainted when a statement that sets it (a `let`, `x = ...`, `x += ...`, a `for` or
`simultaneously` over a list) reads a secret or a tainted local, or when several statements set it
and one runs only on a condition that does (inside an `if` or `while` whose test does, a `for`
over a tainted list, or a loop that a `break` or `return` under such a condition may end early, a
`return` in a loop inside it included: which of them ran tells the secret; one statement alone ran
wherever its local is read). A parameter is tainted
when some call gives it a tainted argument (`param_taint`), and `let x = f(...)` when a `return`
of procedure f may give a tainted value. A `for`'s own list (kept in a hidden slot while its body
waits) is tainted when its list expression is. An answer to a `choose` is not: the deciding seat
knows it, the others what the rules do with it (docs/bots.md, step 6, "Limits").

A tainted local live where the routine waits is worked out again in the sample (`plan`) when one
plain `let` sets it (no other statement does, its value calls no procedure that may stop, and what
it reads can be had: locals not tainted, or worked out again first), or when it is the variable of
a loop around the stop whose list can be worked out again (then it is that list's item at the
loop's count), or a parameter (the caller's frame gives it again: compiler/sampling.py). A `let`
holds only in its block, after it, so wherever its local is live it ran on the way there, under
the same conditions: working it out again on the sample's values is what it would hold there.
Every other tainted live local (set by several statements, by a procedure that may stop) is set
to none in the sample: the bot does not know it, and a rule that then fails ends that sample's
playout (bots/ismcts.py, bots/greedy.py). A `for`'s tainted list is worked out again, or set to
none when it cannot be."""
from __future__ import annotations

from ..language.tree import (Assign, Attr, Break, Call, CallStmt, Choose, For, GenCall, If, Index, Lambda, Let,
                             ListComp, Name, Node, Return, Simultaneously, While, walked)
from .liveness import local_reads


_STOPS = (Choose, Simultaneously, CallStmt, Let, Assign)  # (the statements a routine may stop at)


class Secrets:
    """What a seat may not know, by name (see the module's text): names (counters and zones),
    attrs (card attributes, not marks), routines (functions reading one), returns (procedures whose
    `return EXPR` may give a tainted value: param_taint) and
    public (zones `visible: all`: an attribute of a card taken from one, as `c` in
    `sum(c.value for c in table[p])` or `for c in table[p]` with `table` seen by all, is no secret)."""

    __slots__ = ("names", "attrs", "public", "routines", "returns")

    def none(self) -> "Secrets":
        """No secret at all, as the taint of the sealed answers reads them (Taint with answers:
        what follows from an answer given in a `simultaneously` only, compiler/sampling.py)."""
        out = Secrets.__new__(Secrets)
        out.names = out.attrs = out.routines = frozenset()
        out.public = self.public
        out.returns = set()
        return out

    def numbers(self, spec) -> "Secrets":
        """The secret numbers alone: the counters and the zones of hidden size, not the cards'
        attributes (which branch a secret number chose: compiler/branches.py)."""
        out = Secrets.__new__(Secrets)
        out.names, out.attrs, out.public = self.names, frozenset(), self.public
        out.routines = out._routines(spec)
        out.returns = set()
        return out

    def __init__(self, spec, secret_counters, hidden_zones, attrs, public=()):
        self.names = frozenset(secret_counters) | frozenset(hidden_zones)
        self.attrs = frozenset(attrs)
        self.public = frozenset(public)
        self.routines = self._routines(spec)
        self.returns: set = set()  # the procedures whose `return EXPR` may give a tainted value (param_taint)

    def _routines(self, spec) -> frozenset:
        bodies = {n: (f.params, f.body) for n, f in spec.functions.items()}
        calls, direct = {}, set()
        for n, (params, body) in bodies.items():
            called = set()
            local = {p: i for i, p in enumerate(params)}
            for x in walked(body):
                if type(x) in (Let, For, Simultaneously, Choose):
                    for y in x.pattern.names:
                        local.setdefault(y, len(local))
                elif type(x) is Assign:
                    local.setdefault(x.name, len(local))
            seen = {local[x.pattern.names[0]] for x in walked(body) if type(x) is For and not x.pattern.is_tuple
                    and self.seen_zone(x.iter, local)}
            seen -= {local[y] for x in walked(body) if type(x) in (Let, Choose, Simultaneously) or
                     (type(x) is For and not self.seen_zone(x.iter, local)) for y in x.pattern.names}
            seen -= {local[x.name] for x in walked(body) if type(x) is Assign}
            seen -= set(range(len(params)))
            if self.reads(body, local, (), seen, names_only=True):
                direct.add(n)
            for x in walked(body):
                if type(x) in (Call, GenCall, CallStmt) and isinstance(x.func, str) and x.func in bodies:
                    called.add(x.func)
            calls[n] = called
        out = set(direct)
        while True:
            more = {n for n, cs in calls.items() if n not in out and cs & out}
            if not more:
                return frozenset(out)
            out |= more

    def seen_zone(self, e, slots) -> bool:
        """Whether e names a zone every seat sees (`visible: all`), not a local."""
        if type(e) is Index:
            e = e.obj
        return type(e) is Name and e.id in self.public and e.id not in slots

    def reads(self, e, slots: dict, tainted, seen=(), names_only: bool = False) -> bool:
        """Whether expression (or block) e reads a secret or a local (by name, in slots) that is
        tainted. seen: the slots that only ever hold a card of a zone every seat sees. (With
        names_only, calls of routines reading a secret are not looked at.)"""
        if e is None:
            return False
        return self._reads(e, slots, tainted, seen, frozenset(), names_only)

    def _reads(self, e, slots, tainted, seen, comp: frozenset, names_only) -> bool:
        """reads, with comp the names a comprehension around binds to a card of a zone every seat
        sees (and every other name it binds not in it, and shadowing a local)."""
        t = type(e)
        if t is tuple:
            return any(self._reads(x, slots, tainted, seen, comp, names_only) for x in e)
        if t is Name:
            if e.id in comp:
                return False
            s = slots.get(e.id)
            return (s in tainted) if s is not None else e.id in self.names
        if t is Attr:
            o = e.obj
            if e.name in self.attrs and not (type(o) is Name and (
                    o.id in comp or (o.id not in comp and slots.get(o.id, -1) in seen))):
                return True
            return self._reads(o, slots, tainted, seen, comp, names_only)
        if t in (ListComp, GenCall):
            if t is GenCall and not names_only and (e.func in self.routines or e.func in self.returns):
                return True
            inner = comp
            for f in e.fors:
                if self._reads(f.iter, slots, tainted, seen, inner, names_only):
                    return True
                names = frozenset(f.pattern.names)
                shadow = {n: -1 for n in names}  # (a name it binds is no local here)
                slots = {**slots, **shadow} if names & slots.keys() else slots
                inner = (inner | names) if (not f.pattern.is_tuple and self.seen_zone(f.iter, ())) else (inner - names)
                if f.cond is not None and self._reads(f.cond, slots, tainted, seen, inner, names_only):
                    return True
            return self._reads(e.elt, slots, tainted, seen, inner, names_only)
        if t is Lambda:
            return self._reads(e.body, {**slots, e.param: -1}, tainted, seen, comp - {e.param}, names_only)
        if t in (Call, CallStmt) and not names_only and (e.func in self.routines or e.func in self.returns):
            return True
        fields = getattr(t, "__dataclass_fields__", None)
        if fields is None:
            return False
        for f in fields:
            if f == "pos":
                continue
            v = getattr(e, f)
            if isinstance(v, (tuple, Node)) and self._reads(v, slots, tainted, seen, comp, names_only):
                return True
        return False


class Taint:
    """The taint of one routine's locals (see the module's text).

    tainted: the slots that may hold a secret; defs: slot -> [(statement, under a tainted
    condition)] for every statement that sets it; loops: id(For) -> whether its list is tainted."""

    def __init__(self, body, slots: dict, secrets: Secrets, params=(), answers: int = 0):
        # answers: 0, no answer is a secret; 1, those given in a `simultaneously` body (sealed: no
        # other seat sees them while it runs); 2, every answer (a procedure run in such a body)
        self.slots, self.secrets, self.answers, self._sealed = slots, secrets, answers, answers > 1
        # the locals that only ever hold a card of a zone every seat sees (`for c in table[p]`, `table` seen by all)
        fors = [x for x in walked(tuple(body)) if type(x) is For]
        self.seen = {slots[x.pattern.names[0]] for x in fors if not x.pattern.is_tuple and secrets.seen_zone(x.iter, slots)}
        self.seen -= {slots[y] for x in walked(tuple(body)) for y in (
            x.pattern.names if type(x) in (Let, Choose, Simultaneously) or (type(x) is For and x.pattern.is_tuple)
            or (type(x) is For and not secrets.seen_zone(x.iter, slots)) else
            ((x.name,) if type(x) is Assign and x.name in slots else ()))}
        self.tainted: set = set(params)  # (the parameters some call gives a tainted value: param_taint)
        self.loops: dict = {}
        while True:
            self.defs: dict = {}
            self.calls: list = []  # (a call statement or `let x = f(...)`'s call, under a tainted condition)
            self.returns: list = []  # (`return EXPR`, under a tainted condition)
            self.under: dict = {}  # id(a statement that may stop, or a `return`) -> the tainted tests it runs under
            self._tests: list = []  # (the construct, a tainted test, whether it is one a `break` runs under)
            before = (len(self.tainted), sum(self.loops.values()))
            self._block(tuple(body), False)
            for slot, defs in self.defs.items():  # (one statement alone: wherever it is read it ran)
                if len(defs) > 1 and any(c for _, c in defs):
                    self.tainted.add(slot)
            if (len(self.tainted), sum(self.loops.values())) == before:
                break

    def _reads(self, e) -> bool:
        return self.secrets.reads(e, self.slots, self.tainted, self.seen)

    def reads_tainted(self, e) -> bool:
        """Whether expression e reads a secret or a tainted local."""
        return self._reads(e)

    def _set(self, names, stmt, value_tainted: bool, ctl: bool) -> None:
        for x in names:
            s = self.slots.get(x)
            if s is None:
                continue
            self.defs.setdefault(s, []).append((stmt, ctl))
            if value_tainted:
                self.tainted.add(s)

    def _block(self, stmts, ctl: bool) -> None:
        for s in stmts:
            self._stmt(s, ctl)

    def _stmt(self, s, ctl: bool) -> None:
        t = type(s)
        if self._tests and (t in _STOPS or t is Return):  # (a `return`: what a procedure gives back, knowers.py)
            self.under[id(s)] = tuple(self._tests)
        if t is CallStmt:
            self.calls.append((s, ctl))
        elif t in (Let, Assign) and type(s.value) is Call:
            self.calls.append((s.value, ctl))
        if t is Let:
            self._set(s.pattern.names, s, self._reads(s.value), ctl)
        elif t is Assign:
            if s.name in self.slots:
                self._set((s.name,), s, self._reads(s.value) or self._reads(s.index) or self._reads(s.key), ctl)
        elif t is If:
            c, n = ctl, len(self._tests)
            for cond, body in s.branches:
                if self._reads(cond):  # (a later branch runs only when the earlier tests fail)
                    c = True
                    self._tests.append((s, cond, False))
                self._block(tuple(body), c)
            if s.orelse is not None:
                self._block(tuple(s.orelse), c)
            del self._tests[n:]
        elif t is While:
            n = self._loop_tests(s, s.cond if self._reads(s.cond) else None)
            self._block(tuple(s.body), ctl or len(self._tests) > n)
            del self._tests[n:]
        elif t is For:
            it = self._reads(s.iter)
            self.loops[id(s)] = it
            n = self._loop_tests(s, s.iter if it else None)
            c = ctl or len(self._tests) > n
            self._set(s.pattern.names, s, it, c)
            self._block(tuple(s.body), c)
            del self._tests[n:]
        elif t is Simultaneously:
            it = self._reads(s.iter)
            self._set(s.pattern.names, s, it, ctl)
            sealed, self._sealed = self._sealed, self.answers > 0
            if it:
                self._tests.append((s, s.iter, False))
            self._block(tuple(s.body), ctl or it)
            if it:
                self._tests.pop()
            self._sealed = sealed
        elif t is Choose:  # (an answer: see the module's text; with answers, a sealed one)
            self._set(s.pattern.names, s, self._sealed, ctl)
        elif t is Return and s.value is not None:
            self.returns.append((s, ctl))

    def _loop_tests(self, loop, test) -> int:
        """Note the tests a loop's body runs under: its own (test: its test or list, when that
        reads a secret or a tainted local) and those under which a `break` or `return` of its body
        may run (how many rounds ran then follows from them: _exit_tests), marked as such. Gives
        how many were noted before."""
        n = len(self._tests)
        if test is not None:
            self._tests.append((loop, test, False))
        self._tests.extend((loop, e, True) for e in self._exit_tests(loop.body))
        return n

    def _exit_tests(self, body) -> list:
        """The tests reading a secret or a tainted local under which a `break` or `return` of this
        loop's body may run (a `return` in a loop inside it too, under that loop's own such test
        or list); [] when none does."""
        out: list = []

        def look(stmts, tests, inner) -> None:
            for s in stmts:
                t = type(s)
                if tests and (t is Return or (t is Break and not inner)):
                    out.extend(x for x in tests if not any(x is y for y in out))
                elif t is If:
                    cc = tests
                    for cond, b in s.branches:
                        if self._reads(cond):
                            cc = cc + [cond]
                        look(tuple(b), cc, inner)
                    if s.orelse is not None:
                        look(tuple(s.orelse), cc, inner)
                elif t in (For, While):
                    test = s.iter if t is For else s.cond
                    look(tuple(s.body), tests + [test] if self._reads(test) else tests, True)
        look(tuple(body), [], False)
        return out

    def plan(self, live, suspending, loops, given=()) -> tuple:
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
            if i not in self.tainted or i in given:  # (given: parameters the caller gives again)
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

    def local_reads(self, e) -> set:
        """The slots of the routine's locals that expression e (or a tuple of them, None for none)
        reads."""
        return self._local_reads(e)

    def _local_reads(self, e) -> set:
        """The slots of the routine's locals that expression e reads (not names its own
        comprehensions and lambdas bind there: liveness.local_reads)."""
        return local_reads(e, self.slots)
