"""Which seats know which way a test went (compiler/branches.py): what a test reads that some seat
may not know (taint.py's secrets), attributed to the seats that do know it, as the generated code
that works them out where the rules wait (a bit per seat).

- a counter `visible: owner`, or a zone's size `size: hidden` seen by its owner, read for the seat
  a local names (`chips[p]`, `len(won[p])`): that seat (`(1 << L[i])`);
- an attribute of the card a local holds (`card.colour`): the seats that know that card where the
  rules wait (`S.k[L[i]]`: a card's attributes do not change, and a seat that knows it now knows
  what the test read of it);
- an attribute of a card a comprehension takes from a zone every seat sees: every seat; from a
  zone `visible: owner` of the seat a local names (`[c for c in hand[p] if c.suit == led]`): that
  seat;
- a card taken from a list (`cs[0]`, `first(cs)`, `top(pile)`, a card a `choose` picked) as the
  list's cards (`_zone_of`: a zone, a local set from one, a comprehension keeping some of a list,
  a list a function gives back);
- the same through a local set once by a plain `let`; through a local set by several statements
  (what each reads, and the tests each runs under: which ran last), naming seats and parameters
  only there; through what a function or a procedure gives back (`_summary`: what each `return`
  reads and the tests it runs under, in terms of its parameters, followed to what the call gives
  them); and through a parameter of the routine to what its caller gave it (("arg", n): worked
  out where the caller waits at the call, `KA` functions of compiler/branches.py).

The locals named must hold where the rules wait what they held when the test ran: not worked out
from a secret (the card a secret picked is itself one), and set by no statement inside the `if`
or loop whose test it is, or by one statement only. Anything else (a counter `visible: none`,
another seat's read through an expression, a sum over the seats, a card of a zone no seat sees, a
function calling itself) is known to no seat that can be named: `of` gives None. A test under which
a loop's `break` may run is read again each round, so only seats, not cards, are named there."""
from __future__ import annotations

from ..language.tree import (Assign, Attr, BinOp, Call, CallStmt, Choose, CondExpr, For, GenCall, Index, Int, Lambda, Let,
                             ListComp, ListLit, Name, Return, Simultaneously, walk)
from .taint import Taint


class Knowers:
    """The knowers of one routine's tests, for one taint (taint.Taint) over its secrets
    (taint.Secrets); summaries: a dict shared by the routines, of each function's summary."""

    def __init__(self, spec, secrets, taint, slots: dict, params: int, summaries: dict):
        self.spec, self.secrets, self.taint, self.slots = spec, secrets, taint, slots
        self.summaries = summaries
        defs = taint.defs
        self.fixed = set(range(params)) - set(defs)  # (the parameters no statement sets again)
        self.once = {i for i, d in defs.items() if len(d) == 1} | self.fixed
        self.listed = False  # (a summary's: a comprehension over a parameter names it, "cards")

    def of(self, tests) -> set | None:
        """The generated parts (each a bit mask of seats; all of them AND-ed) of the seats that know
        every test of tests ((construct, test, whether a `break` runs under it), taint.under), or
        None when some test is known to no seat the rules' locals name."""
        slots, tainted = self.slots, self.taint.tainted
        out: set = set()
        for construct, test, exits in tests:
            changed = {n for x in walk(construct) if type(x) in (Let, For, Choose, Simultaneously)
                       for n in x.pattern.names} | {x.name for x in walk(construct) if type(x) is Assign}
            got = self._reads(test, lambda n: n in slots and slots[n] not in tainted and (
                n not in changed or slots[n] in self.once), frozenset(), {})
            if got is None or (exits and any(kind == "card" for kind, _ in got)):
                return None
            if any(kind == "cards" for kind, _ in got):
                return None
            out |= {code(kind, n, slots) for kind, n in got}
        return out

    def _reads(self, e, usable, seen: frozenset, comp: dict) -> set | None:
        """What expression e reads of the secrets, as (kind, name): ("seat", n), the seat local
        (or parameter) n holds; ("card", n), the card it holds; ("arg", n), what the caller gave
        parameter n; in a summary, ("cards", n), the cards of the list parameter n holds. None:
        something no named seat knows. usable(n): whether name n may be named; seen: the `let`
        locals being followed; comp: the names comprehensions around bind, to "seen" (a card of
        a zone every seat sees), a kind as above (of the zone of the seat n names, of parameter n's
        list) or None."""
        secrets = self.secrets
        out: set = set()

        def walk_e(x, comp) -> bool:
            t = type(x)
            if t is tuple:
                return all(walk_e(y, comp) for y in x)
            if t is Name:
                if x.id in comp:
                    return True
                if x.id in self.slots:
                    if self.slots[x.id] in self.taint.tainted:
                        got = self._let(x.id, seen)
                        if got is None:
                            return False
                        out.update(got)
                    return True
                return x.id not in secrets.names
            if t is Attr and x.name in secrets.attrs:
                o = x.obj
                if type(o) is not Name:  # (a card taken from a list: `cs[0]`, `first(cs)`, `top(deck)`)
                    src = self._card_of(o, usable, comp)
                    if src is None:
                        return False
                    if src != "seen":
                        out.add(src)
                    return walk_e(o, comp)
                if o.id in comp:
                    status = comp[o.id]
                    if type(status) is tuple:  # (a card of the zone of the seat a local names)
                        out.add(status)
                    return status is not None
                if not usable(o.id):
                    return False
                out.add(("card", o.id))
                return True
            if t in (ListComp, GenCall):
                if t is GenCall and (x.func in secrets.routines or x.func in secrets.returns):
                    return False
                inner = dict(comp)
                for f in x.fors:
                    if not walk_e(f.iter, inner):
                        return False
                    status = self._zone_of(f.iter, usable, inner)
                    for n in f.pattern.names:
                        inner[n] = status if not f.pattern.is_tuple else None
                    if f.cond is not None and not walk_e(f.cond, inner):
                        return False
                return walk_e(x.elt, inner)
            if t is Lambda:
                return walk_e(x.body, {**comp, x.param: None})
            if t is CallStmt and x.func in secrets.returns:
                return False
            if t is Call and (x.func in secrets.routines or x.func in secrets.returns):
                summary = self._summary(x.func)
                if summary is None:
                    return False
                for kind, i in summary:
                    a = x.args[i] if i < len(x.args) else None
                    if kind == "cards":  # (a comprehension over the list given there)
                        z = None if a is None else self._zone_of(a, usable, comp)
                        if z is None:
                            return False
                        if z != "seen":
                            out.add(z)
                    elif kind == "seat" and type(a) is Int:
                        out.add(("seat", a.value))
                    elif type(a) is not Name:  # (a card taken from a list, as an attribute's)
                        src = self._card_of(a, usable, comp) if kind == "card" else None
                        if src is None:
                            return False
                        if src != "seen":
                            out.add(src)
                    elif a.id in comp:
                        if kind == "seat" or comp[a.id] is None:
                            return False
                        if type(comp[a.id]) is tuple:
                            out.add(comp[a.id])
                    elif not usable(a.id):
                        return False
                    else:
                        out.add((kind, a.id))
            if t is Index and type(x.obj) is Name and x.obj.id in secrets.names and x.obj.id not in comp:
                n = _seat(x.index, usable, comp)
                if n is None or not self._owned(x.obj.id):
                    return False
                out.add(("seat", n))
                return True
            return all(walk_e(getattr(x, f), comp) for f in getattr(t, "__dataclass_fields__", None) or ()
                       if f != "pos")

        return out if walk_e(e, comp) else None

    def _zone_of(self, e, usable, comp, seen: frozenset = frozenset()):
        """What the cards of list expression e are: "seen" (every seat sees them), ("seat", p) (a
        zone `visible: owner` of the seat local p names, e being `zone[p]`), ("cards", n) (a
        summary's parameter n), or None. A local set once by a plain `let` holds its value's
        cards, and a comprehension that only keeps some of a list's items holds that list's."""
        if self.secrets.seen_zone(e, comp):
            return "seen"
        t = type(e)
        if t is Name and e.id not in comp:
            if self.listed and self.slots.get(e.id) in self.fixed and usable(e.id):
                return ("cards", e.id)
            i = self.slots.get(e.id)
            if i in seen:
                return "seen"  # (what its other statements put in it)
            out, once = "seen", self.once
            for d, _ in self.taint.defs.get(i, ((None, None),)):
                if type(d) not in (Let, Assign, Choose) or (type(d) is not Assign and d.pattern.is_tuple) or \
                        getattr(d, "index", None) is not None:
                    return None
                out = _either(out, self._zone_of(d.options if type(d) is Choose else d.value,  # (a choose: its options)
                                                 lambda n: usable(n) and self.slots.get(n) in once, {}, seen | {i}))
            return out
        if t is ListLit:  # (cards each taken from a list)
            out = "seen"
            for x in e.items:
                out = _either(out, self._card_of(x, usable, comp, seen))
            return out
        if t is CondExpr or (t is BinOp and e.op == "+"):
            a, b = (e.then, e.orelse) if t is CondExpr else (e.left, e.right)
            return _either(self._zone_of(a, usable, comp, seen), self._zone_of(b, usable, comp, seen))
        if t is Call and (e.func in self.spec.functions or e.func in self.spec.procedures):
            src = self._source(e.func)
            if type(src) is tuple:  # (a parameter's: what the call gives it)
                kind, i = src
                a = e.args[i] if i < len(e.args) else None
                if kind == "cards":
                    return None if a is None else self._zone_of(a, usable, comp, seen)
                n = _seat(a, usable, comp) if kind == "seat" else None
                return None if n is None else (kind, n)
            return src
        if t is ListComp and len(e.fors) == 1 and not e.fors[0].pattern.is_tuple and type(e.elt) is Name \
                and e.elt.id == e.fors[0].pattern.names[0]:
            return self._zone_of(e.fors[0].iter, usable, comp, seen)
        if t is Index and type(e.obj) is Name and _seat(e.index, usable, comp) is not None:
            z = (self.spec.zones or {}).get(e.obj.id)
            if isinstance(z, dict) and z.get("visible") == "owner" and z.get("per") == "player":
                return ("seat", _seat(e.index, usable, comp))
        return None

    def _source(self, name: str):
        """Where the cards of the list function or procedure name gives back come from, as
        `_zone_of` says (a parameter's by its number), from every `return`; None when not known."""
        key = ("cards of", name)
        memo = self.summaries
        if key not in memo:
            memo[key] = None
            f = self.spec.functions.get(name) or self.spec.procedures.get(name)
            if f is not None:
                memo[key] = _source(self, f)
        return memo[key]

    def _card_of(self, e, usable, comp, seen: frozenset = frozenset()):
        """What a card taken from a list is (`_zone_of` of the list): `cs[i]`, `first(cs)`,
        `last(cs)`, `top(zone)`, a local one `choose` set (one of its options)."""
        if type(e) is Index:
            return self._zone_of(e.obj, usable, comp, seen)
        if type(e) is Call and e.func in ("first", "last", "top") and len(e.args) == 1:
            return self._zone_of(e.args[0], usable, comp, seen)
        if type(e) is Name and e.id not in comp and e.id in self.slots:  # (every card it may hold)
            i, once = self.slots[e.id], self.once
            defs = self.taint.defs.get(i, ())
            if i in seen or not defs or any(type(d) not in (Choose, For) or d.pattern.is_tuple for d, _ in defs):
                return None
            out = "seen"
            for d, _ in defs:
                out = _either(out, self._zone_of(d.options if type(d) is Choose else d.iter,
                                                 lambda n: usable(n) and self.slots.get(n) in once, {}, seen | {i}))
            return out
        return None

    def _let(self, name: str, seen: frozenset) -> set | None:
        """What a tainted local reads of the secrets: set once by a plain `let`, what that reads
        (the locals it reads set once too: then the same wherever the local is read); set by
        several plain `let`s, assignments and `choose`s (an answer is no secret), what each reads
        and the secret tests each runs under (which of them ran last), seats, and cards only a
        parameter holds (a card a local names may be another by then); a
        parameter, what its caller gave it ("arg")."""
        taint, slots = self.taint, self.slots
        i = slots[name]
        defs = taint.defs.get(i, ())
        if i in self.fixed:  # (a parameter: what its caller gave, known where the caller waits at the call)
            return {("arg", name)}
        if i in seen:  # (a local read while working out what it reads: what its other statements read)
            return set()
        if not defs or any(type(d) not in (Let, Assign, Choose, For) for d, _ in defs):
            return None  # (a tuple's part: what the whole reads, which tells no more than the part)
        usable = lambda n: n in slots and slots[n] in self.once and slots[n] not in taint.tainted  # noqa: E731
        if len(defs) == 1 and type(defs[0][0]) is Let:
            return self._reads(defs[0][0].value, usable, seen | {i}, {})
        out: set = set()
        for d, _ in defs:
            for e in (getattr(d, "value", None), getattr(d, "index", None), getattr(d, "key", None), getattr(d, "iter", None),
                      *(test for _, test, _ in taint.under.get(id(d), ()))):
                got = self._reads(e, usable, seen | {i}, {}) if e is not None else set()
                if got is None:
                    return None
                for kind, n in got:  # (a card a local names: every card it may hold, as it may be another now)
                    if kind == "card" and slots[n] not in self.fixed:
                        src = self._card_of(Name(None, n), usable, {}, seen | {i})
                        if src is None:
                            return None
                        out |= set() if src == "seen" else {src}
                    else:
                        out.add((kind, n))
        return out

    def _summary(self, name: str) -> tuple | None:
        """What function or procedure name gives back reads of the secrets, through its parameters
        only, as (kind, parameter number): ("seat", i), the seat parameter i holds; ("card", i),
        the card it holds; ("cards", i), the cards of the list it holds (a comprehension over it).
        None when it reads something else (or calls itself). A function of one expression: what
        it reads; of several statements, or a procedure: what each `return EXPR` reads, and the
        tests under which each `return` runs (which one ran tells them). What it is given is
        looked at where it is called (the arguments are read there as any expression is)."""
        memo = self.summaries
        if name not in memo:
            memo[name] = None
            f = self.spec.functions.get(name) or self.spec.procedures.get(name)
            if f is not None:
                memo[name] = _summary(self, f)
        return memo[name]

    def _owned(self, name: str) -> bool:
        """Whether counter or zone name, per seat, is seen by its own seat (`visible: owner`)."""
        d = (self.spec.counters or {}).get(name)
        if d is None:
            d = (self.spec.zones or {}).get(name)
        return isinstance(d, dict) and d.get("visible") == "owner" and d.get("per") == "player"


_CODE = {"seat": "(1 << L[{}])", "card": "S.k[L[{}]]", "arg": "_argk(S, T, F, {})"}


def code(kind: str, n, slots: dict) -> str:
    """The generated part of a knower: kind of the local n names (a seat's number itself)."""
    return f"(1 << {n})" if type(n) is int else _CODE[kind].format(slots[n])


def _seat(e, usable, comp):
    """The seat expression e names: a number, or a local that may be named; else None."""
    if type(e) is Int:
        return e.value
    return e.id if type(e) is Name and e.id not in comp and usable(e.id) else None


def _either(a, b):
    """The cards of a list made of lists of a's and b's (`_zone_of`)."""
    if a == "seen" or a == b:
        return b
    return a if b == "seen" else None


def _inner(k: Knowers, f) -> tuple:
    """A Knowers over routine f's body alone, its parameters as given (summaries): (it, body)."""
    from .taint_rules import routine_slots

    params = tuple(f.params)
    body = f.body if isinstance(f.body, tuple) else (Return(f.pos, f.body),)
    slots = routine_slots(params, body)
    inner = Knowers(k.spec, k.secrets, Taint(body, slots, k.secrets), slots, len(params), k.summaries)
    inner.listed = True
    return inner, body


def _source(k: Knowers, f):
    """Knowers._source of routine f."""
    inner, body = _inner(k, f)
    params, slots = tuple(f.params), inner.slots
    out = None
    for r in walk(body):
        if type(r) is Return:
            got = inner._zone_of(r.value, lambda n: n in slots and slots[n] in inner.fixed, {}) \
                if r.value is not None else "seen"
            if got is None:
                return None
            if type(got) is tuple and type(got[1]) is not int:
                got = (got[0], params.index(got[1]))
            out = got if out is None else _either(out, got)
            if out is None:
                return None
    return out


def _summary(k: Knowers, f) -> tuple | None:
    """Knowers._summary of routine f."""
    inner, body = _inner(k, f)
    params, slots, taint = tuple(f.params), inner.slots, inner.taint
    usable = lambda n: n in slots and slots[n] in inner.fixed  # noqa: E731 (the parameters as given)
    out: set = set()
    for r in walk(body):
        if type(r) is not Return:
            continue
        exprs = [test for _, test, _ in taint.under.get(id(r), ())]
        if r.value is not None and taint.reads_tainted(r.value):
            exprs.append(r.value)
        for e in exprs:
            got = inner._reads(e, usable, frozenset(), {})
            if got is None or any((n not in params and type(n) is not int) or kind == "arg" for kind, n in got):
                return None
            out |= {(kind, n if type(n) is int else params.index(n)) for kind, n in got}
    return tuple(sorted(out))
