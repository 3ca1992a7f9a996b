"""What a function or a procedure gives back, in terms of its parameters (compiler/knowers.py):
what it reads of the secrets (`summary_of`: what each `return EXPR` reads and the tests under which
each `return` runs, with its parameters taken as given, so that a call names what its arguments
name) and where the cards of what it gives back come from (`source_of`)."""
from __future__ import annotations

from ..language.tree import Return, walk
from .taint import Taint
from .taint_rules import routine_slots

_SEEN = frozenset()  # (`Knowers._zone_of`: cards every seat sees, or none at all)


class Summaries:
    """Methods of knowers.Knowers: the summaries of the functions and procedures a test calls,
    worked out once (memo: self.summaries)."""

    def _summary(self, name: str) -> tuple | None:
        """What function or procedure name gives back reads of the secrets, through its parameters
        only, as (kind, parameter number): ("seat", i), the seat parameter i holds; ("card", i),
        the card it holds; ("cards", i), the cards of the list it holds (a comprehension over it);
        ("zone", zone name), the cards of a zone no seat sees as a whole. None when it reads
        something else (or calls itself). A function of one expression: what it reads; of several
        statements, or a procedure: what each `return EXPR` reads, and the tests under which each
        `return` runs (which one ran tells them). What it is given is looked at where it is called
        (the arguments are read there as any expression is)."""
        return self._memo(name, name, summary_of)

    def _source(self, name: str):
        """Where the cards of what function or procedure name gives back come from, as `_zone_of`
        says (a parameter's by its number), from every `return`; None when not known."""
        return self._memo(("cards of", name), name, source_of)

    def _memo(self, key, name: str, work):
        memo = self.summaries
        if key not in memo:
            memo[key] = None  # (a routine calling itself: not known)
            f = self.spec.functions.get(name) or self.spec.procedures.get(name)
            if f is not None:
                memo[key] = work(self, f)
        return memo[key]


def _inner(k, f) -> tuple:
    """A Knowers over routine f's body alone, its parameters as given (summaries): (it, body)."""
    params = tuple(f.params)
    body = f.body if isinstance(f.body, tuple) else (Return(f.pos, f.body),)
    slots = routine_slots(params, body)
    inner = type(k)(k.spec, k.secrets, Taint(body, slots, k.secrets), slots, len(params), k.summaries)
    inner.listed = True
    return inner, body


def source_of(k, f):
    """Knowers._source of routine f: where the cards of what it gives back come from."""
    inner, body = _inner(k, f)
    params, slots = tuple(f.params), inner.slots
    out = _SEEN
    for r in walk(body):
        if type(r) is Return and r.value is not None:
            got = _by_number(inner._zone_of(r.value, lambda n: n in slots and slots[n] in inner.fixed, {}), params)
            if got is None:
                return None
            out = out | got
    return out


def summary_of(k, f) -> tuple | None:
    """Knowers._summary of routine f: what what it gives back reads of the secrets."""
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
            got = _by_number(inner._reads(e, usable, frozenset(), {}), params)
            if got is None:
                return None
            out |= got
    return tuple(sorted(out))


def _by_number(got, params: tuple) -> set | None:
    """What a summary's body reads (knowers.py's kinds), its parameters named by their numbers;
    None when it names a local that is no parameter (or got is None)."""
    if got is None or any((type(n) is not int and n not in params and kind != "zone") or kind == "arg" for kind, n in got):
        return None
    return {(kind, n if type(n) is int or kind == "zone" else params.index(n)) for kind, n in got}
