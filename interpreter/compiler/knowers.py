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
  out where the caller waits at the call, `KA` functions of compiler/branches.py);
- cards of a zone no seat sees as a whole, read by a `let`: ("zone", name), noted as the `let` runs
  (the seats that know every card there then: compiler/branches.py `_record_at`), and read where
  the rules wait as ("mask", hidden slot). Anywhere else a zone's cards may have moved since.

The locals named must hold where the rules wait what they held when the test ran: not worked out
from a secret (the card a secret picked is itself one), and set by no statement inside the `if`
or loop whose test it is, or by one statement only. Anything else (a counter `visible: none`,
another seat's read through an expression, a sum over the seats, a card of a zone no seat sees, a
function calling itself) is known to no seat that can be named: `of` gives None. A test under which
a loop's `break` may run is read again each round, so only seats, not cards, are named there."""
from __future__ import annotations

from ..language.tree import (Assign, Attr, BinOp, Call, CallStmt, Choose, CondExpr, Const, For, GenCall, Index, Int,
                             Lambda, Let, ListComp, ListLit, Name, Simultaneously, Str, TupleLit, walk)
from .summaries import _SEEN, Summaries


class Knowers(Summaries):
    """The knowers of one routine's tests, for one taint (taint.Taint) over its secrets
    (taint.Secrets); summaries: a dict shared by the routines, of each function's summary."""

    def __init__(self, spec, secrets, taint, slots: dict, params: int, summaries: dict, recorded=None):
        self.spec, self.secrets, self.taint, self.slots = spec, secrets, taint, slots
        self.summaries = summaries
        self.recorded = recorded or {}  # (slot of a local -> the hidden slot noting who knew what its `let` read)
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
            if any(kind in ("cards", "zone") for kind, _ in got):
                return None
            out |= {code(kind, n, slots) for kind, n in got}
        return out

    def _reads(self, e, usable, seen: frozenset, comp: dict) -> set | None:
        """What expression e reads of the secrets, as (kind, name): ("seat", n), the seat local
        (or parameter) n holds; ("card", n), the card it holds; ("arg", n), what the caller gave
        parameter n; in a summary, ("cards", n), the cards of the list parameter n holds. None:
        something no named seat knows. usable(n): whether name n may be named; seen: the `let`
        locals being followed; comp: the names comprehensions around bind, to where the cards
        they take come from (`_zone_of`), or None."""
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
                    out.update(src)
                    return walk_e(o, comp)
                if o.id in comp:
                    status = comp[o.id]  # (where the cards it takes come from)
                    if status is not None:
                        out.update(status)
                    return status is not None
                if not usable(o.id):  # (a card a secret picked, held since: who knows which, and the card)
                    i = self.slots.get(o.id)
                    got = self._let(o.id, seen) if i in self.taint.tainted and i in self.once else None
                    if got is None:
                        return False
                    out.update(got)
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
                        inner[n] = status
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
                    if kind == "zone":
                        out.add((kind, i))
                        continue
                    a = x.args[i] if i < len(x.args) else None
                    if kind == "cards":  # (a comprehension over the list given there)
                        z = None if a is None else self._zone_of(a, usable, comp)
                        if z is None:
                            return False
                        out.update(z)
                    elif kind == "seat" and type(a) is Int:
                        out.add(("seat", a.value))
                    elif type(a) is not Name:  # (a card taken from a list, as an attribute's)
                        src = self._card_of(a, usable, comp) if kind == "card" else None
                        if src is None:
                            return False
                        out.update(src)
                    elif a.id in comp:
                        if kind == "seat" or comp[a.id] is None:
                            return False
                        out.update(comp[a.id])
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
        """Where the cards of expression e (a list, a card, a tuple of them) come from, as a set
        of ("seat", p) (a zone `visible: owner` of the seat local p names, e being `zone[p]`) and
        ("cards", n) (a summary's parameter n), every seat knowing the others (the empty set: a
        zone every seat sees, or no card at all); None when not known. A local
        holds what every statement setting it gives (a `let`'s value, some of a `choose`'s
        options, an item of a loop's list), a comprehension the cards of its lists, a function
        what it gives back; filters are not looked at (all the cards they could keep)."""
        if self.secrets.seen_zone(e, comp):
            return _SEEN
        t = type(e)
        if t is Name:
            if e.id in comp:
                return comp[e.id]
            if self.listed and self.slots.get(e.id) in self.fixed and usable(e.id):
                return frozenset({("cards", e.id)})
            i = self.slots.get(e.id)
            if i is None:
                return frozenset({("zone", e.id)}) if e.id in (self.spec.zones or {}) else None
            if i in seen:
                return _SEEN  # (what its other statements put in it)
            out, once = _SEEN, self.once
            for d, _ in self.taint.defs.get(i, ((None, None),)):
                if type(d) not in (Let, Assign, Choose, For) or getattr(d, "index", None) is not None:
                    return None
                src = d.options if type(d) is Choose else d.iter if type(d) is For else d.value
                out = _either(out, self._zone_of(src, lambda n: usable(n) and self.slots.get(n) in once, {}, seen | {i}))
            return out
        if t in (ListLit, TupleLit):
            out = _SEEN
            for x in e.items:
                out = _either(out, self._zone_of(x, usable, comp, seen))
            return out
        if t in (Int, Str, Const):
            return _SEEN
        if t is CondExpr or (t is BinOp and e.op == "+"):
            a, b = (e.then, e.orelse) if t is CondExpr else (e.left, e.right)
            return _either(self._zone_of(a, usable, comp, seen), self._zone_of(b, usable, comp, seen))
        if t is Call and (e.func in self.spec.functions or e.func in self.spec.procedures):
            src = self._source(e.func)
            out = src if src is None else _SEEN
            for kind, i in src or ():  # (a parameter's: what the call gives it)
                if kind == "zone":
                    out = _either(out, frozenset({(kind, i)}))
                    continue
                a = e.args[i] if i < len(e.args) else None
                n = _seat(a, usable, comp) if kind == "seat" else None
                out = _either(out, (None if a is None else self._zone_of(a, usable, comp, seen)) if kind == "cards"
                              else None if n is None else frozenset({(kind, n)}))
            return out
        if t is ListComp or (t is GenCall and e.func in ("first", "last")):
            inner = dict(comp)
            for f in e.fors:
                status = self._zone_of(f.iter, usable, inner, seen)
                for n in f.pattern.names:
                    inner[n] = status
            return self._zone_of(e.elt, usable, inner, seen)
        if t is Index and type(e.obj) is Name and _seat(e.index, usable, comp) is not None:
            z = (self.spec.zones or {}).get(e.obj.id)
            if isinstance(z, dict) and z.get("visible") == "owner" and z.get("per") == "player":
                return frozenset({("seat", _seat(e.index, usable, comp))})
        zone = e.obj if t is Index else e
        if type(zone) is Name and zone.id in (self.spec.zones or {}) and zone.id not in comp and zone.id not in self.slots:
            return frozenset({("zone", zone.id)})  # (every card of those zones: known where a `let` reads them)
        if t is Index:  # (an item of a list)
            return self._zone_of(e.obj, usable, comp, seen)
        if t is Call and e.func in ("first", "last", "top") and len(e.args) == 1:
            a = e.args[0]  # (the top card of a zone `visible: top` is seen by all)
            z = (self.spec.zones or {}).get((a.obj if type(a) is Index else a).id) if type(a) in (Name, Index) else None
            if e.func == "top" and isinstance(z, dict) and z.get("visible") == "top":
                return _SEEN
            return self._zone_of(a, usable, comp, seen)
        return None

    def _card_of(self, e, usable, comp):
        """Where a card taken from a list comes from (`_zone_of`): `cs[i]`, `first(cs)`, `top(pile)`,
        a local a `choose` set."""
        return self._zone_of(e, usable, comp)

    def _let(self, name: str, seen: frozenset) -> set | None:
        """What a tainted local reads of the secrets: set once by a `let`, what that reads (the
        locals it reads set once too: then the same wherever the local is read); set by several
        `let`s, assignments, `choose`s (an answer is no secret) and loops, what each reads and the
        secret tests each runs under (which of them ran last), naming seats, and cards only
        where a parameter holds them (a card a local names may be another by then: every card it
        may hold instead); noted as its `let` ran ("mask"); a parameter, what its caller gave it
        ("arg"). A local met again while it is being followed adds nothing more."""
        taint, slots = self.taint, self.slots
        i = slots[name]
        defs = taint.defs.get(i, ())
        if i in self.fixed:  # (a parameter: what its caller gave, known where the caller waits at the call)
            return {("arg", name)}
        if i in self.recorded:  # (who knew what its `let` read, noted as it ran)
            return {("mask", self.recorded[i])}
        if i in seen:  # (a local read while working out what it reads: what its other statements read)
            return set()
        if not defs or any(type(d) not in (Let, Assign, Choose, For) for d, _ in defs):
            return None  # (a tuple `let`'s part: what the whole reads, which tells no more than the part)
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
                        src = self._zone_of(Name(None, n), usable, {})
                        if src is None:
                            return None
                        out |= src
                    else:
                        out.add((kind, n))
        return out

    def _owned(self, name: str) -> bool:
        """Whether counter or zone name, per seat, is seen by its own seat (`visible: owner`)."""
        d = (self.spec.counters or {}).get(name)
        if d is None:
            d = (self.spec.zones or {}).get(name)
        return isinstance(d, dict) and d.get("visible") == "owner" and d.get("per") == "player"


_CODE = {"seat": "(1 << L[{}])", "card": "S.k[L[{}]]", "arg": "_argk(S, T, F, {})"}


def code(kind: str, n, slots: dict) -> str:
    """The generated part of a knower: kind of the local n names (a seat's number itself; "mask":
    the hidden slot n)."""
    if kind == "mask":
        return f"L[{n}]"
    return f"(1 << {n})" if type(n) is int else _CODE[kind].format(slots[n])


def _seat(e, usable, comp):
    """The seat expression e names: a number, or a local that may be named; else None."""
    if type(e) is Int:
        return e.value
    return e.id if type(e) is Name and e.id not in comp and usable(e.id) else None


def _either(a, b):
    """Where the cards of a list made of lists of a's and b's come from (`_zone_of`)."""
    return None if a is None or b is None else a | b
