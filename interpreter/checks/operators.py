"""What each operator, index, attribute and built-in of the effect language takes and gives, for
infer.py (the built-ins' signatures are the table of builtins.py).

A use is wrong when no type its values may have allows it (see types.py): the message says what
the operator needs and what it got, in the words of the language.
"""
from __future__ import annotations

from ..language.builtins import BY_NAME
from ..language.tree import Index, Int, Lambda, Name
from ..language.types import (ANY, BOOL, CARD, CARDS, NEVER, NONE, NUMBER, SEAT, TEXT, ListT, Prim, TupleT, describe,
                              items_of, join, join_all, members, parse_type, signature)

_OPEN = (ANY, NEVER)  # nothing known: every use is allowed

_OP_NEEDS = {
    "+": "'+' adds two numbers, joins two texts or two lists",
    "-": "'-' subtracts numbers", "//": "'//' divides numbers", "%": "'%' takes numbers",
    "*": "'*' multiplies numbers (or repeats a list or a text a number of times)",
}


def _compat(m, x) -> bool:
    """Whether a value of plain type m may be used where plain type x is wanted."""
    if m in _OPEN or x in _OPEN or m == x or (m == NUMBER and x == SEAT):  # (seats are numbered: hand[0])
        return True
    if isinstance(x, ListT) and isinstance(m, (ListT, TupleT)):
        item = m.item if isinstance(m, ListT) else join_all(m.items)
        return fits(item, x.item)
    if isinstance(x, TupleT) and isinstance(m, TupleT):
        return len(m.items) == len(x.items) and all(fits(a, b) for a, b in zip(m.items, x.items))
    if isinstance(x, TupleT) and isinstance(m, ListT):
        return all(fits(m.item, b) for b in x.items)
    return False


def fits(t, expected) -> bool:
    """Whether some value of type t is a value of type expected."""
    ok = _FITS.get((t, expected))
    if ok is None:
        ok = _FITS[t, expected] = any(_compat(m, x) for m in members(t) for x in members(expected))
    return ok


_FITS: dict = {}  # (t, expected) -> fits(t, expected) (types are made once: a lookup by two pointers)


def _sequence(m) -> bool:
    return isinstance(m, (ListT, TupleT))


def _arith(op, a, b):
    """The type of `a op b` for plain types a and b, or None when Python would refuse it."""
    if a is NEVER or b is NEVER:
        return NEVER
    if a in _OPEN or b in _OPEN:
        return NUMBER if (a == NUMBER or b == NUMBER) and op in ("-", "//", "%") else ANY
    if a == NUMBER and b == NUMBER:
        return NUMBER
    if op == "+":
        if a == TEXT and b == TEXT:
            return TEXT
        if _sequence(a) and _sequence(b):
            return ListT(join(items_of(a), items_of(b)))
    if op == "*":
        for xs, n in ((a, b), (b, a)):
            if n == NUMBER and (xs == TEXT or _sequence(xs)):
                return TEXT if xs == TEXT else ListT(items_of(xs))
    return None


_NUMBERED = {NUMBER, SEAT}


def _equal_compat(a, b) -> bool:
    if a in _OPEN or b in _OPEN or a == NONE or b == NONE or a == b or {a, b} == _NUMBERED:
        return True
    return _sequence(a) and _sequence(b)


def _order_compat(a, b) -> bool:
    if a in _OPEN or b in _OPEN:
        return True
    if a == b and isinstance(a, Prim):
        return a in (NUMBER, TEXT, SEAT, BOOL)
    if {a, b} == _NUMBERED:
        return True
    return _sequence(a) and _sequence(b)


_PLAIN = {p: parse_type(p, {}) for p in ("number", "text", "bool", "none", "seat", "card", "any")}


class Ops:
    """Mixed into infer.Infer: needs self.expr, self.err, self.tight, self.spec, self.counters, self.consts,
    self.attr_types, self.marks."""

    fits = staticmethod(fits)

    def binop(self, op, left, right, pos, target=None):
        results = [r for a in members(left) for b in members(right) if (r := _arith(op, a, b)) is not None]
        if results:
            return join_all(results)
        if target is not None:
            verb = {"+": "add", "-": "subtract"}[op]
            self.err(pos, f"'{op}=' cannot {verb} {describe(right)} {'to' if op == '+' else 'from'} {target}, "
                          f"which holds {describe(left)}")
        elif set(members(left)) | set(members(right)) <= _NUMBERED:  # a seat is a number when the game runs
            self.tight(pos, f"{_OP_NEEDS[op]}, not {describe(left)} and {describe(right)}",
                       "a seat is not a number: next_seat(p) and prev_seat(p) give the seats beside p")
            return NUMBER
        else:
            self.err(pos, f"{_OP_NEEDS[op]}, not {describe(left)} and {describe(right)}")
        return ANY

    def unary_minus(self, t, pos):
        if fits(t, NUMBER):
            return NUMBER
        self.err(pos, f"'-' needs a number, not {describe(t)}")
        return ANY

    def compare(self, op, left, right, pos):
        ls, rs = members(left), members(right)
        if op in ("==", "!="):
            if not any(_equal_compat(a, b) for a in ls for b in rs):
                never = "never equal" if op == "==" else "always different"
                self.tight(pos, f"'{op}' compares {describe(left)} with {describe(right)}: they are {never}",
                           f"compare {describe(left)} with a value of its own type")
        elif op in ("in", "notin"):
            word = "'in'" if op == "in" else "'not in'"
            items = [i for m in rs if (i := items_of(m)) is not None]
            if not items:
                self.err(pos, f"{word} looks in a list (or a text), not in {describe(right)}")
                return
            inside = join_all(items)
            if not any(_equal_compat(a, b) for a in ls for b in members(inside)):
                self.tight(pos, f"{word} looks for {describe(left)} among {describe(inside, plural=True)}: "
                                "it is never there", f"look for one of the {describe(inside, plural=True)} it holds")
        elif not any(_order_compat(a, b) for a in ls for b in rs):
            self.err(pos, f"'{op}' cannot compare {describe(left)} with {describe(right)}")

    def attr_of(self, obj, e, what=None):
        """The type of `obj.name` (e: the Attr); an error when obj cannot be a card."""
        name = e.name
        if name not in self.attr_types and name not in self.marks:
            return ANY  # (the checker reports an attribute no card kind has)
        if not any(m in _OPEN or m == CARD for m in members(obj)):
            pos = e.name_pos or e.pos
            # a seat or a number read (or marked) the card of that number when the game ran: tightened
            report = self.tight if set(members(obj)) <= _NUMBERED else (lambda at, msg, fix: self.err(at, msg))
            fix = "name the card (a seat or a number is no card)"
            if what is not None:
                report(pos, f"{what}, not on {describe(obj)}", fix)
            elif obj == NONE:
                self.err(pos, f"this is always none: it has no attribute '{name}'")
            else:
                report(pos, f"{describe(obj)} has no attribute '{name}' (only cards have attributes)", fix)
            return ANY
        return self.marks[name] if name in self.marks else self.attr_types[name]

    def per_index(self, section, name, index, key, env):
        """Check the index (and key) of a zone or counter `per` player or per item of a list."""
        d = getattr(self.spec, section)[name]
        per = d.get("per") if isinstance(d, dict) else None
        if isinstance(per, list):  # [player, LIST]: n[p][key]
            wants = [(index, "player"), (key, per[1])]
        else:
            wants = [(index, per)]
        for e, by in wants:
            if e is None or not by:
                continue
            if by == "player":
                want, one = SEAT, "a seat"
            elif by == "made":  # a family made during play: by the keys make(F) gives
                want, one = NUMBER, "the key make(...) gave it"
            else:
                want, one = items_of(self.consts.get(by, ANY)) or ANY, f"an item of '{by}'"
            t = self.expr(e, env)
            if not fits(t, want):
                self.err(e.pos, f"{section[:-1]} '{name}' is indexed by {one}"
                                f"{'' if want == SEAT else f' ({describe(want)})'}, not {describe(t)}")

    def counter_keys(self, name, index, key, env):
        self.per_index("counters", name, index, key, env)

    def index(self, e, env):
        obj = e.obj
        if (type(obj) is Index and type(obj.obj) is Name and obj.obj.id not in env
                and obj.obj.id in self.counters):  # n[p][key]
            self.per_index("counters", obj.obj.id, obj.index, e.index, env)
            return self.counters[obj.obj.id][0]
        if type(obj) is Name and obj.id not in env:
            if obj.id in self.spec.zones:
                d = self.spec.zones[obj.id]
                if not (isinstance(d, dict) and d.get("per")):  # a single zone by position: trick[i]
                    t = self.expr(e.index, env)
                    if not fits(t, NUMBER):
                        self.err(e.index.pos, f"zone '{obj.id}' is read by position, a number, not {describe(t)}")
                    return CARD
                self.per_index("zones", obj.id, e.index, None, env)
                return CARDS
            if obj.id in self.counters:
                self.per_index("counters", obj.id, e.index, None, env)
                return self.counters[obj.id][0]
        ot, it = self.expr(obj, env), self.expr(e.index, env)
        out = []
        for m in members(ot):
            if m in _OPEN:
                out.append(m)
            elif isinstance(m, ListT):
                out.append(m.item)
            elif isinstance(m, TupleT):
                i = e.index.value if type(e.index) is Int else None
                if i is None:
                    out.append(join_all(m.items))
                elif -len(m.items) <= i < len(m.items):
                    out.append(m.items[i])
                elif len(members(ot)) == 1:
                    self.err(e.index.pos, f"{describe(m)} has no item {i} (its items are 0 to {len(m.items) - 1})")
                    return ANY
            elif m == TEXT:
                out.append(TEXT)
        if not out:
            self.err(e.pos, f"{describe(ot)} cannot be indexed")
            return ANY
        if not fits(it, join(NUMBER, SEAT)):
            self.err(e.index.pos, f"a list is indexed by a number (or a seat), not {describe(it)}")
        return join_all(out)

    def walked(self, e, env, what):
        """The type of the items of e, which a loop, a comprehension or a choice walks through."""
        t = self.expr(e, env)
        items = [i for m in members(t) if (i := items_of(m)) is not None]
        if not items:
            self.err(e.pos, f"{what} needs a list, not {describe(t)}")
            return ANY
        return join_all(items)

    def want(self, e, env, expected, what):
        t = self.expr(e, env)
        if not fits(t, expected):
            self.err(e.pos, f"{what}, not {describe(t)}")
        return t

    def cards_arg(self, e, env, what):
        t = self.expr(e, env)
        if not fits(t, join(join(CARD, NONE), CARDS)):
            self.err(e.pos, f"{what} a card or a list of cards, not {describe(t)}")
        return t

    def builtin(self, e, args, f, env):
        """The result of built-in f on arguments [(type, pos)] (a key `x -> ...` is (None, pos)),
        checked against the first of its signatures whose number of arguments fits."""
        b = BY_NAME.get(f)
        if b is None:
            return ANY
        fitting = [(params, result, repeat) for params, result, repeat in map(signature, b.signatures)
                   if len(args) == len(params) or (repeat and len(args) >= len(params))]
        if not fitting:
            return ANY  # (the checker reports the count)
        # the first signature the arguments fit (else the first, to say what is wrong)
        params, result, repeat = next((sig for sig in fitting if all(
            t is None or self.bind_param(sig[0][min(i, len(sig[0]) - 1)], t, {})
            for i, (t, _) in enumerate(args))), fitting[0])
        tvars: dict = {}
        lambdas = [a for a in getattr(e, "args", ()) if type(a) is Lambda]
        for i, (t, pos) in enumerate(args):
            p = params[min(i, len(params) - 1)]
            if t is None:  # a key: its parameter is an item
                if lambdas and "->" in p:
                    lam = lambdas[0]
                    self.expr(lam.body, {**env, lam.param: tvars.get(p.split("->")[0].strip(), ANY)})
                continue
            before = tvars.get(p)
            if not self.bind_param(p, t, tvars):
                self.err(pos, f"'{f}' takes {describe(parse_type(p, {}))}, not {describe(t)}")
            elif before is not None and not any(_order_compat(a, x) for a in members(t) for x in members(before)):
                self.err(pos, f"'{f}' compares its arguments, and {describe(before)} and {describe(t)} cannot be "
                              "compared")
        return parse_type(result, tvars)

    def bind_param(self, p, t, tvars) -> bool:
        """Whether a value of type t may be passed for parameter type p; binds its type variables."""
        p = p.strip()
        if p.startswith("list[") and p.endswith("]"):
            inner = p[5:-1]
            items = [items_of(m) for m in members(t) if not (m == TEXT)]
            items = [i for i in items if i is not None]
            if not items:
                return False
            return self.bind_param(inner, join_all(items), tvars)
        plain = _PLAIN.get(p)
        if plain is not None:
            return self.fits(t, plain)
        if p == "slot" or p == "family":  # (a name: calls.py checks it)
            return True
        tvars[p] = join(tvars.get(p, NEVER), t)  # a type variable
        return True
