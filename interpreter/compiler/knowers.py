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
- the same through a local set once by a plain `let`, and through a function of one expression
  of such parameters (`rich(p): chips[p] > 1`, `val(c): c.value`).

The locals named must hold where the rules wait what they held when the test ran: not worked out
from a secret (the card a secret picked is itself one), and set by no statement inside the `if`
or loop whose test it is, or by one statement only. Anything else (a counter `visible: none`,
another seat's read through an expression, a sum over the seats, a card on top of a pile, what a
procedure gives back) is known to no seat that can be named: `of` gives None. A test under which a
loop's `break` may run is read again each round, so only seats, not cards, are named there."""
from __future__ import annotations

from ..language.tree import (Assign, Attr, Call, CallStmt, Choose, For, GenCall, Index, Lambda, Let, ListComp, Name,
                             Simultaneously, walk)


class Knowers:
    """The knowers of one routine's tests, for one taint (taint.Taint) over its secrets
    (taint.Secrets); summaries: a dict shared by the routines, of each function's summary."""

    def __init__(self, spec, secrets, taint, slots: dict, params: int, summaries: dict):
        self.spec, self.secrets, self.taint, self.slots = spec, secrets, taint, slots
        self.summaries = summaries
        defs = taint.defs
        self.once = {i for i, d in defs.items() if len(d) == 1} | (set(range(params)) - set(defs))

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
            out |= {f"(1 << L[{slots[n]}])" if kind == "seat" else f"S.k[L[{slots[n]}]]" for kind, n in got}
        return out

    def _reads(self, e, usable, seen: frozenset, comp: dict, params: tuple | None = None) -> set | None:
        """What expression e reads of the secrets, as (kind, name): ("seat", n), the seat local
        (or parameter) n holds; ("card", n), the card it holds. None: something no named seat
        knows. usable(n): whether name n may be named; seen: the `let` locals being followed;
        comp: the names comprehensions around bind, to "seen" (a card of a zone every seat
        sees), ("seat", n) (of the zone of the seat n names) or None; params: e is the body of a function
        with those parameters."""
        secrets = self.secrets
        out: set = set()

        def walk_e(x, comp) -> bool:
            t = type(x)
            if t is tuple:
                return all(walk_e(y, comp) for y in x)
            if t is Name:
                if x.id in comp:
                    return True
                if params is None and x.id in self.slots:
                    if self.slots[x.id] in self.taint.tainted:
                        got = self._let(x.id, seen)
                        if got is None:
                            return False
                        out.update(got)
                    return True
                return not (x.id in secrets.names and (params is None or x.id not in params))
            if t is Attr and x.name in secrets.attrs:
                o = x.obj
                if type(o) is not Name:
                    return False
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
            if t in (Call, CallStmt) and x.func in secrets.returns:
                return False
            if t is Call and x.func in secrets.routines:
                summary = self._function(x.func)
                if summary is None:
                    return False
                for kind, i in summary:
                    a = x.args[i] if i < len(x.args) else None
                    if type(a) is not Name:
                        return False
                    if a.id in comp:
                        if kind == "seat" or comp[a.id] is None:
                            return False
                    elif not usable(a.id):
                        return False
                    else:
                        out.add((kind, a.id))
            if t is Index and type(x.obj) is Name and x.obj.id in secrets.names and x.obj.id not in comp:
                i = x.index
                if not (self._owned(x.obj.id) and type(i) is Name and i.id not in comp and usable(i.id)):
                    return False
                out.add(("seat", i.id))
                return True
            return all(walk_e(getattr(x, f), comp) for f in getattr(t, "__dataclass_fields__", None) or ()
                       if f != "pos")

        return out if walk_e(e, comp) else None

    def _zone_of(self, e, usable, comp):
        """What the cards of zone expression e are: "seen" (every seat sees them), ("seat", p) (a
        zone `visible: owner` of the seat local p names, e being `zone[p]`), or None."""
        if self.secrets.seen_zone(e, comp):
            return "seen"
        if type(e) is Index and type(e.obj) is Name and type(e.index) is Name and e.index.id not in comp:
            z = (self.spec.zones or {}).get(e.obj.id)
            if isinstance(z, dict) and z.get("visible") == "owner" and z.get("per") == "player" and usable(e.index.id):
                return ("seat", e.index.id)
        return None

    def _let(self, name: str, seen: frozenset) -> set | None:
        """What a tainted local set once by a plain `let` reads of the secrets (the locals that
        let reads set once too: then the same wherever the local is read)."""
        taint, slots = self.taint, self.slots
        i = slots[name]
        defs = taint.defs.get(i, ())
        if i in seen or len(defs) != 1 or type(defs[0][0]) is not Let or defs[0][0].pattern.is_tuple:
            return None
        return self._reads(defs[0][0].value, lambda n: n in slots and slots[n] in self.once
                           and slots[n] not in taint.tainted, seen | {i}, {})

    def _function(self, name: str) -> tuple | None:
        """What function name reads of the secrets, as (kind, parameter number), when it reads
        them only through its parameters (a function of one expression), else None."""
        memo = self.summaries
        if name not in memo:
            memo[name] = None  # (a function calling itself: none)
            f = self.spec.functions[name]
            if not isinstance(f.body, tuple):
                got = self._reads(f.body, lambda n: n in f.params, frozenset(), {}, tuple(f.params))
                memo[name] = None if got is None else tuple(sorted((k, list(f.params).index(n)) for k, n in got))
        return memo[name]

    def _owned(self, name: str) -> bool:
        """Whether counter or zone name, per seat, is seen by its own seat (`visible: owner`)."""
        d = (self.spec.counters or {}).get(name)
        if d is None:
            d = (self.spec.zones or {}).get(name)
        return isinstance(d, dict) and d.get("visible") == "owner" and d.get("per") == "player"
