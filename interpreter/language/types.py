"""The types `jux validate` infers for the effect language's values.

A type is one of: a plain type (number, text, true/false, none, seat, card), a list of T, a
tuple of given types, a union of these (a value that is one or another: `number or none`), `any`
(nothing is known: every use is allowed) and `never` (no value: the items of the empty list `[]`).
Unions are what makes the checks lenient: a use is wrong only when no type the value may have
allows it, so `top(deck).value` passes (deck may hold a card) and `top([]).value` does not.
"""
from __future__ import annotations

from functools import lru_cache

MAX_DEPTH = 4  # lists and tuples nested deeper are `any` (the rules nest at most 3)


class Ty:
    """A type. Each is made once (hash-consed): two types are equal only when they are the same
    object, so comparing, hashing and the memos of join and fits cost a pointer, not a walk of
    the two types (the checks compare types tens of thousands of times a ruleset). setdefault
    keeps one of each even when two threads make the same type at once (the language server)."""

    __slots__ = ()

    def __setattr__(self, name, value):
        raise AttributeError(f"{type(self).__name__} is immutable")

    def __reduce__(self):  # (a copy or a pickle is made again, so it is the same object)
        return type(self), (self.key,)

    def __repr__(self):
        return f"{type(self).__name__}({self.key!r})"


def _made(cls, key, depth: int):
    t = object.__new__(cls)
    object.__setattr__(t, "key", key)
    object.__setattr__(t, "depth", depth)
    return t


class Prim(Ty):
    __slots__ = ("key", "depth")
    _all: dict = {}

    def __new__(cls, name: str):  # number text bool none seat card any never
        t = cls._all.get(name)
        if t is None:
            t = cls._all.setdefault(name, _made(cls, name, 0))
        return t

    @property
    def name(self) -> str:
        return self.key


class ListT(Ty):
    __slots__ = ("key", "depth")
    _all: dict = {}

    def __new__(cls, item: Ty):
        t = cls._all.get(item)
        if t is None:
            t = cls._all.setdefault(item, _made(cls, item, 1 + item.depth))
        return t

    @property
    def item(self) -> Ty:
        return self.key


class TupleT(Ty):
    __slots__ = ("key", "depth")
    _all: dict = {}

    def __new__(cls, items: tuple):
        items = tuple(items)
        t = cls._all.get(items)
        if t is None:
            t = cls._all.setdefault(items, _made(cls, items, 1 + max((i.depth for i in items), default=0)))
        return t

    @property
    def items(self) -> tuple:
        return self.key


class Union(Ty):
    """members: a frozenset of Prim, ListT and TupleT; at least two; never any or never."""

    __slots__ = ("key", "depth", "listed")
    _all: dict = {}

    def __new__(cls, members: frozenset):
        members = frozenset(members)
        t = cls._all.get(members)
        if t is None:
            t = _made(cls, members, max(m.depth for m in members))
            object.__setattr__(t, "listed", tuple(members))
            t = cls._all.setdefault(members, t)
        return t

    @property
    def members(self) -> frozenset:
        return self.key


NUMBER, TEXT, BOOL, NONE, SEAT, CARD = (Prim(n) for n in ("number", "text", "bool", "none", "seat", "card"))
ANY, NEVER = Prim("any"), Prim("never")
CARDS = ListT(CARD)


def members(t: Ty) -> tuple:
    return t.listed if type(t) is Union else (t,)


def depth(t: Ty) -> int:
    return t.depth


def join(a: Ty, b: Ty) -> Ty:
    """The type of a value that is of type a or of type b."""
    if a is b or b is NEVER:
        return a
    if a is NEVER:
        return b
    if a is ANY or b is ANY:
        return ANY
    t = _JOINS.get((a, b))
    if t is None:
        t = _JOINS[a, b] = _join(a, b)
    return t


_JOINS: dict = {}  # (a, b) -> join(a, b): types are made once, so this is a lookup by two pointers


def _join(a: Ty, b: Ty) -> Ty:
    out: list = []
    for m in members(a) + members(b):
        for i, o in enumerate(out):
            if isinstance(m, ListT) and isinstance(o, ListT):
                out[i] = ListT(join(o.item, m.item))
                break
            if isinstance(m, TupleT) and isinstance(o, TupleT) and len(m.items) == len(o.items):
                out[i] = TupleT(tuple(join(x, y) for x, y in zip(o.items, m.items)))
                break
            if m == o:
                break
        else:
            out.append(m)
    t = out[0] if len(out) == 1 else Union(frozenset(out))
    return ANY if depth(t) > MAX_DEPTH else t


def join_all(types) -> Ty:
    out = NEVER
    for t in types:
        out = join(out, t)
    return out


def without_none(t: Ty) -> Ty:
    return join_all(m for m in members(t) if m != NONE)


def of_value(v) -> Ty:
    """The type of a value written in the YAML (a constant, a card's attribute, a counter's start)."""
    if v is None:
        return NONE
    if isinstance(v, bool):
        return BOOL
    if isinstance(v, (int, float)):
        return NUMBER
    if isinstance(v, str):
        return TEXT
    if isinstance(v, (list, tuple)):
        return ListT(join_all(of_value(x) for x in v))
    return ANY


def items_of(t: Ty):
    """The type of the items of t when t can be walked through (a list, a tuple, a text), else None."""
    if t is ANY or t is NEVER:
        return t
    if isinstance(t, ListT):
        return t.item
    if isinstance(t, TupleT):
        return join_all(t.items)
    if t == TEXT:
        return TEXT
    return None


_NAMES = {"number": "a number", "text": "a text", "bool": "true or false", "none": "none", "seat": "a seat",
          "card": "a card", "any": "a value", "never": "nothing"}
_PLURAL = {"number": "numbers", "text": "texts", "bool": "true/false values", "none": "none", "seat": "seats",
           "card": "cards", "any": "values", "never": "nothing"}


def describe(t: Ty, plural: bool = False) -> str:
    """t in words: 'a number', 'a list of cards', 'a tuple (card, text)', 'a number or none'."""
    if isinstance(t, Prim):
        return (_PLURAL if plural else _NAMES)[t.name]
    if isinstance(t, ListT):
        inner = "nothing" if t.item is NEVER else describe(t.item, plural=True)
        return ("lists of " if plural else "a list of ") + inner if t.item is not NEVER else (
            "empty lists" if plural else "an empty list")
    if isinstance(t, TupleT):
        return ("tuples" if plural else "a tuple") + " (" + ", ".join(short(i) for i in t.items) + ")"
    ms = sorted(members(t), key=lambda m: (m == NONE, describe(m)))
    return " or ".join(describe(m, plural) for m in ms)


def short(t: Ty) -> str:
    """t in a word or two, inside a tuple's description."""
    if isinstance(t, Prim):
        return {"bool": "true/false", "any": "any"}.get(t.name, t.name)
    if isinstance(t, ListT):
        return f"list of {describe(t.item, plural=True)}"
    if isinstance(t, TupleT):
        return "tuple"
    return " or ".join(sorted(short(m) for m in members(t)))


# ---------------------------------------------------------------- signatures (builtins.py)

def parse_type(text: str, tvars: dict) -> Ty:
    """A type of a signature: 'number', 'list[T]', 'T?'; type variables are looked up in tvars
    (a missing one is ANY)."""
    text = text.strip()
    if text.endswith("?"):
        return join(parse_type(text[:-1], tvars), NONE)
    if text.startswith("list[") and text.endswith("]"):
        return ListT(parse_type(text[5:-1], tvars))
    if text in ("number", "text", "bool", "none", "seat", "card"):
        return Prim(text)  # (the one made above)
    if text == "any":
        return ANY
    return tvars.get(text, ANY)


@lru_cache(maxsize=None)
def signature(sig: str) -> tuple:
    """'list[T], T -> any -> T?' -> (('list[T]', 'T -> any'), 'T?', repeats last)."""
    # the last '->' gives the result (a key parameter has an arrow of its own: 'T -> any')
    parts = [p.strip() for p in sig.split(",")]
    last = parts[-1]
    arrow = last.rfind("->")
    parts[-1], result = last[:arrow].strip(), last[arrow + 2:].strip()
    repeat = parts[-1] == "..."
    if repeat:
        parts.pop()
    params = tuple(p for p in parts if p)
    return params, result, repeat
