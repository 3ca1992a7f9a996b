"""Type inference of a ruleset's effect code, for `jux validate` (see types.py for the types).

Every expression gets a type; a use that no type of its value allows is an error at the
expression's file:line:col. What a routine's parameters hold is learnt from its calls (and, for
the entry points, from what the engine passes: `score(p)` a seat, `worth(c)` a card); what a local,
a counter that starts as none or a mark holds, from everything assigned to it. These are worked
out together, round after round, until nothing changes; the last round reports.
"""
from __future__ import annotations

from ..errors import RuleError
from ..language.builtins import BY_NAME
from ..language.tree import (Assign, Attr, BinOp, BoolOp, Break, Call, CallStmt, Choose, Compare, CondExpr, Const, Draw,
                             For, GenCall, If, Index, Int, Lambda, Let, ListComp, ListLit, Log, Move, Name, Neg, Not,
                             Remove, Return, Reveal, SetMark, Show, Shuffle, Simultaneously, Str, TupleLit, While)
from ..language.types import (ANY, BOOL, CARD, CARDS, NEVER, NONE, NUMBER, SEAT, TEXT, ListT, TupleT, describe, join,
                              join_all, members, of_value)
from .operators import Ops
from .reach import reached, sort_functions
from .versions import tightened

MAX_ROUNDS = 8
ENTRY_PARAMS = {"score": SEAT, "tiebreak": SEAT, "value": SEAT, "standing": SEAT, "worth": CARD}


class Infer(Ops):
    def __init__(self, spec, attrs: set, cards: list, found=None):
        """found: reached(spec), when it is known."""
        self.spec = spec
        self.errors: dict = {}  # (pos, message) -> RuleError, in order
        self.warnings: dict = {}  # the same, for checks tightened since the file's language (versions.py)
        self.report = False
        self.changed = False
        kinds = {}
        for c in cards:
            kinds.setdefault(c["kind"], []).append(c)
        self.attr_types = {}
        for a in attrs:
            self.attr_types[a] = join_all(of_value(c.get(a)) for c in cards)
        self.marks = {n: join(of_value((m or {}).get("default")), self.attr_types.get(n, NEVER))
                      for n, m in spec.marks.items()}
        # a mark with a default holds values of its type (or none); one without, what is set
        self.mark_declared = {n for n, m in spec.marks.items() if (m or {}).get("default") is not None}
        self.consts = {n: of_value(v) for n, v in spec.constants.items()}
        self.counters = {}  # name -> (type, declared: a value of another type is an error)
        for n, c in spec.counters.items():
            d = c if isinstance(c, dict) else {"start": c}
            t = of_value(d.get("start"))
            if d.get("seat"):
                t = join(SEAT, NONE) if t == NONE else SEAT
            self.counters[n] = (t, t != NONE)
        routines = {**spec.functions, **spec.procedures}
        found = reached(spec) if found is None else found
        self.order = list(found) + [n for n in routines if n not in found]
        self.params = {n: [NEVER] * len(r.params) for n, r in routines.items()}
        for n, t in ENTRY_PARAMS.items():
            if n in spec.functions and len(spec.functions[n].params) == 1:
                self.params[n] = [t]
        for n in sort_functions(spec):  # a zone's sort key: a function of one card
            if len(spec.functions[n].params) == 1:
                self.params[n] = [CARD]
        self.rets = {n: NEVER for n in self.params}
        self.widen: dict = {}  # (routine, local) -> every type assigned to it
        self.routine = ""

    # ------------------------------------------------------------ running

    def run(self) -> list:
        for _ in range(MAX_ROUNDS):
            self.changed = False
            self.all_routines()
            if not self.changed:
                break
        self.report = True
        self.all_routines()
        return list(self.errors.values())

    def all_routines(self):
        """One round over the flow and every routine, callers first (what they pass is known
        sooner); the order of the errors does not matter (they are sorted by place)."""
        spec = self.spec
        if spec.flow is not None:
            self.routine = "__flow__"
            self.block(spec.flow.body, {})
        for name in self.order:
            r = spec.functions.get(name)
            self.routine = name
            if r is None:
                r = spec.procedures[name]
                self.block(r.body, self.param_env(name, r.params))
                continue
            env = self.param_env(name, r.params)
            if isinstance(r.body, tuple):
                self.block(r.body, env)
            else:
                self.ret(self.expr(r.body, env))

    def param_env(self, name, params) -> dict:
        """The parameters' types: what the calls pass (while rounds go on, nothing yet is `never`,
        which lets every use pass and joins into nothing; a routine nothing calls takes any value)."""
        return {p: (ANY if t is NEVER and self.report else t) for p, t in zip(params, self.params.get(name, ()))}

    def err(self, pos, msg):
        if self.report and (pos, msg) not in self.errors:
            self.errors[(pos, msg)] = RuleError(pos, msg)

    def tight(self, pos, msg, fix, error=None):
        """What a check tightened in language 2 finds: an error in a file written in it, else a
        warning with the fix (versions.py)."""
        if self.report and (pos, msg) not in self.errors and (pos, msg) not in self.warnings:
            is_error, e = tightened(self.spec, pos, msg, fix, error=error)
            (self.errors if is_error else self.warnings)[(pos, msg)] = e

    def grow(self, table: dict, key, t):
        if self.report:  # (the last round only reports what the rounds before found)
            return
        old = table.get(key, NEVER)
        new = join(old, t)
        if new != old:
            table[key] = new
            self.changed = True

    def ret(self, t):
        self.grow(self.rets, self.routine, t)

    def observe_args(self, name, types):
        ps = self.params.get(name)
        if ps is None or self.report or len(ps) != len(types):
            return
        for i, t in enumerate(types):
            new = join(ps[i], t)
            if new != ps[i]:
                ps[i] = new
                self.changed = True

    def result_of(self, name):
        t = self.rets.get(name, ANY)
        return ANY if t is NEVER else t

    # ------------------------------------------------------------ statements

    def block(self, stmts, env):
        for s in stmts:
            self.stmt(s, env)

    def bind(self, pattern, t, env, pos=None):
        """Bind a let/for/choose pattern to a value of type t (a tuple pattern takes it apart)."""
        names = pattern.names
        if not pattern.is_tuple:
            parts = [t]
        else:
            parts = self.unpack(t, names, pos or pattern.pos)
        for n, p in zip(names, parts):
            key = (self.routine, n)
            env[n] = join(p, self.widen.get(key, NEVER))

    def unpack(self, t, names, pos):
        n = len(names)
        parts = [NEVER] * n
        fits = False
        for m in members(t):
            if m is ANY or m is NEVER:
                parts = [join(p, m) for p in parts]
                fits = True
            elif isinstance(m, TupleT) and len(m.items) == n:
                parts = [join(p, i) for p, i in zip(parts, m.items)]
                fits = True
            elif isinstance(m, ListT):
                parts = [join(p, m.item) for p in parts]
                fits = True
        if not fits:
            self.err(pos, f"({', '.join(names)}) takes apart a tuple of {n} values, not {describe(t)}")
            return [ANY] * n
        return [ANY if p is NEVER else p for p in parts]

    def stmt(self, s, env):
        t = type(s)
        if t is Let:
            self.bind(s.pattern, self.value(s.value, env), env, s.value.pos)
        elif t is Assign:
            self.assign(s, env)
        elif t is Return:
            self.ret(NONE if s.value is None else self.expr(s.value, env))
        elif t is If:
            for cond, body in s.branches:
                self.expr(cond, env)
                self.block(body, dict(env))
            if s.orelse is not None:
                self.block(s.orelse, dict(env))
        elif t is While:
            self.expr(s.cond, env)
            self.block(s.body, dict(env))
        elif t is For or t is Simultaneously:
            inner = dict(env)
            self.bind(s.pattern, self.walked(s.iter, env, "'for'" if t is For else "'simultaneously for'"), inner)
            self.block(s.body, inner)
        elif t is Move:
            self.cards_arg(s.what, env, "'move' moves")
            self.expr(s.dest, env)
        elif t is Draw:
            self.want(s.count, env, NUMBER, "'draw' takes a number of cards")
            self.expr(s.src, env)
            self.expr(s.dest, env)
        elif t is Shuffle or t is Remove:
            self.expr(s.zone, env)
        elif t is Reveal:
            self.cards_arg(s.what, env, "'reveal' shows")
            if s.to is not None:
                self.want(s.to, env, SEAT, "'reveal ... to' names a player (a seat)")
        elif t is Choose:
            self.choose(s, env)
        elif t is CallStmt:
            self.call_stmt(s, env)
        elif t is SetMark:
            obj = self.expr(s.target.obj, env)
            self.attr_of(obj, s.target, "'set' puts a mark on a card")
            name, v = s.target.name, self.expr(s.value, env)
            if name not in self.mark_declared:
                self.grow(self.marks, name, v)
            elif name in self.marks and not self.fits(v, join(self.marks[name], NONE)):
                self.tight(s.value.pos, f"mark '{name}' holds {describe(self.marks[name])}, not {describe(v)}",
                           f"drop the default of mark '{name}' (a mark without one holds what is set)")
        elif t is Log:
            self.expr(s.message, env)
            if s.to is not None:
                self.want(s.to, env, join(SEAT, ListT(SEAT)), "'log ... to' names a player (a seat) or a list of players")
            if s.orelse is not None:
                self.expr(s.orelse, env)
        elif t is Show:
            self.expr(s.title, env)
            self.walked(s.columns, env, "'columns'")
            self.walked(s.rows, env, "'rows'")
        elif t is not Break:
            raise AssertionError(f"unknown statement {t.__name__}")

    def value(self, e, env):
        """A let's or an assignment's value: an expression, or what a procedure returns."""
        if type(e) is Call and e.func in self.spec.procedures:
            self.observe_args(e.func, [self.expr(a, env) for a in e.args])
            return self.result_of(e.func)
        return self.expr(e, env)

    def assign(self, s, env):
        v = self.value(s.value, env)
        if s.name in env:  # a local
            if s.op != "=":
                v = self.binop(s.op[0], env[s.name], v, s.pos, target=f"'{s.name}'")
            self.grow(self.widen, (self.routine, s.name), v)
            env[s.name] = join(env[s.name], v) if not self.report else env[s.name]
            return
        if s.name not in self.counters:
            return  # (the checker says what is wrong)
        self.counter_keys(s.name, s.index, s.key, env)
        held, declared = self.counters[s.name]
        if s.op != "=":
            self.binop(s.op[0], held, v, s.value.pos, target=f"counter '{s.name}'")
        elif declared and not self.fits(v, join(held, NONE)):
            msg = f"counter '{s.name}' holds {describe(held)}, not {describe(v)}"
            if self.fits(v, SEAT) and held == NUMBER:
                self.tight(s.value.pos, msg, f"add seat: true to counter '{s.name}'",
                           error=msg + " (a counter that holds a seat says seat: true)")
            else:
                self.tight(s.value.pos, msg, f"start counter '{s.name}' at none (it then holds what is put in it)")
        elif not declared and not self.report:
            old = held
            new = join(old, v)
            if new != old:
                self.counters[s.name] = (new, False)
                self.changed = True

    def choose(self, s, env):
        item = self.walked(s.options, env, "'choose ... from'")
        if s.by is not None:
            self.want(s.by, env, SEAT, "'by' names the player who decides (a seat)")
        if s.prompt is not None:
            self.expr(s.prompt, env)
        for e, what in ((s.count, "'pick'"), (s.upto, "'pick up to'")):
            if e is not None:
                self.want(e, env, NUMBER, f"{what} takes a number")
        if s.unavailable is not None:
            pairs = self.walked(s.unavailable, env, "'unavailable'")
            if not self.fits(pairs, TupleT((ANY, ANY))):
                self.err(s.unavailable.pos, "'unavailable' lists (thing, reason) pairs, not "
                                            f"{describe(pairs, plural=True)}")
        if s.distinct is not None:
            self.expr(s.distinct.body, {**env, s.distinct.param: item})
        several = s.count is not None or s.upto is not None
        inner = dict(env)
        self.bind(s.pattern, ListT(item) if several else item, inner, s.options.pos)
        for e in (s.label, s.hint):
            if e is not None:
                self.expr(e, dict(inner))
        for n in s.pattern.names:  # (after the choice: none when there was nothing to choose)
            env[n] = inner[n] if several else join(inner[n], NONE)

    def call_stmt(self, s, env):
        args = [self.expr(a, env) for a in s.args]
        if s.slot_key is None:
            self.observe_args(s.func, args)
            return
        table = self.slot_key(s.func, s.slot_key, env)
        for proc in set(table.values()):
            self.observe_args(proc, args)

    def slot_key(self, slot, e, env) -> dict:
        """Check a key of a slot (its type is that of the slot's keys); the slot's table."""
        key = self.expr(e, env)
        table = self.spec.slots.get(slot) or {}
        keys = join_all(of_value(k) for k in table)
        if table and not self.fits(key, keys):
            self.err(e.pos, f"the keys of slot '{slot}' are {describe(keys, plural=True)}, "
                            f"not {describe(key, plural=True)}")
        return table

    # ------------------------------------------------------------ expressions

    def expr(self, e, env):
        t = type(e)
        if t is Int:
            return NUMBER
        if t is Str:
            for p in e.parts:
                if not isinstance(p, str):
                    self.expr(p, env)
            return TEXT
        if t is Const:
            return BOOL if isinstance(e.value, bool) else NONE
        if t is Name:
            return self.name(e, env)
        if t is ListLit:
            return ListT(join_all(self.expr(i, env) for i in e.items))
        if t is TupleLit:
            return TupleT(tuple(self.expr(i, env) for i in e.items))
        if t is ListComp or t is GenCall:
            inner = dict(env)
            for f in e.fors:
                item = self.walked(f.iter, inner, "'for'")
                inner = dict(inner)
                names = f.pattern.names
                parts = self.unpack(item, names, f.iter.pos) if f.pattern.is_tuple else [item]
                inner.update(zip(names, parts))
                if f.cond is not None:
                    self.expr(f.cond, inner)
            elt = self.expr(e.elt, inner)
            return ListT(elt) if t is ListComp else self.builtin(e, [(ListT(elt), e.elt.pos)], e.func, env)
        if t is CondExpr:
            self.expr(e.cond, env)
            return join(self.expr(e.then, env), self.expr(e.orelse, env))
        if t is BinOp:
            return self.binop(e.op, self.expr(e.left, env), self.expr(e.right, env), e.pos)
        if t is BoolOp:
            return join_all(self.expr(i, env) for i in e.items)
        if t is Not:
            self.expr(e.operand, env)
            return BOOL
        if t is Neg:
            return self.unary_minus(self.expr(e.operand, env), e.pos)
        if t is Compare:
            self.compare(e.op, self.expr(e.left, env), self.expr(e.right, env), e.pos)
            return BOOL
        if t is Attr:
            return self.attr_of(self.expr(e.obj, env), e)
        if t is Index:
            return self.index(e, env)
        if t is Call:
            return self.call(e, env)
        if t is Lambda:
            return ANY  # (only as a key of max_by, min_by, sort_by: the checker says so)
        raise AssertionError(f"unknown expression {t.__name__}")

    def name(self, e, env):
        n = e.id
        if n in env:
            return env[n]
        if n == "players":
            return ListT(SEAT)
        if n in self.consts:
            return self.consts[n]
        if n in self.counters:
            return self.counters[n][0]
        if n in self.spec.zones:
            return CARDS
        return ANY

    def call(self, e, env):
        f = e.func
        spec = self.spec
        if f in spec.functions or f in spec.procedures:
            self.observe_args(f, [self.expr(a, env) for a in e.args if type(a) is not Lambda])
            return self.result_of(f)
        if f == "slot_name":
            if len(e.args) == 2 and type(e.args[0]) is Name:
                self.slot_key(e.args[0].id, e.args[1], env)
            return join(TEXT, NONE)
        if f not in BY_NAME:
            return ANY
        args = [(None, a.pos) if type(a) is Lambda else (self.expr(a, env), a.pos) for a in e.args]
        return self.builtin(e, args, f, env)
