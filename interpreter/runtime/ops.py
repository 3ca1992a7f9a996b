"""The rules' values at run time: min and max, the top and ends of a list, turn orders,
range(), lists and texts joined or repeated within MAX_ITEMS, and the step budget. Rule code that
fails raises RuleRuntimeError (the engine gives it its rule's file:line:col)."""
from __future__ import annotations

from ..errors import StepBudgetExceeded
from ..limits import MAX_ITEMS, MAX_RANGE, MAX_STEPS as STEP_BUDGET
from .state import MAX_SEATS, SEATS, Seat


class RuleRuntimeError(Exception):
    """An error raised by rule code while it runs (mapped to a rule position by the engine)."""


# min and max as rules use them. The builtins parse their keyword arguments (default=, key=)
# at each call, which costs more than the work for the few items rules compare: these take
# positional arguments only, and give what the builtins give (the first of equal items).


def min2(a, b):
    return b if b < a else a


def max2(a, b):
    return b if b > a else a


# Up to this many items, min_of and max_of compare in a loop here (a few items: about half the
# builtin's time, which parses its arguments at each call); more, with the builtin.
SHORT = 16


def min_of(xs, key=None):
    """min(xs, key=key, default=None): each item's key worked out once, in order, and compared as
    the builtin compares them (an item replaces the least so far when its key is <)."""
    if type(xs) is not list and type(xs) is not tuple:
        xs = list(xs)
    if not xs:
        return None
    if len(xs) > SHORT:
        return min(xs) if key is None else min(xs, key=key)
    it = iter(xs)
    m = next(it)
    if key is None:
        for x in it:
            if x < m:
                m = x
        return m
    mk = key(m)
    for x in it:
        k = key(x)
        if k < mk:
            m = x
            mk = k
    return m


def max_of(xs, key=None):
    """max(xs, key=key, default=None), as min_of (an item replaces the greatest so far when its
    key is >)."""
    if type(xs) is not list and type(xs) is not tuple:
        xs = list(xs)
    if not xs:
        return None
    if len(xs) > SHORT:
        return max(xs) if key is None else max(xs, key=key)
    it = iter(xs)
    m = next(it)
    if key is None:
        for x in it:
            if x > m:
                m = x
        return m
    mk = key(m)
    for x in it:
        k = key(x)
        if k > mk:
            m = x
            mk = k
    return m


def top(zone):
    return zone[-1] if zone else None


def first(xs):
    for x in xs:
        return x
    return None


def last(xs):
    xs = tuple(xs)
    return xs[-1] if xs else None


# TURN_ORDERS[n][s]: the n seats in turn order from seat s
TURN_ORDERS = tuple(tuple(tuple(SEATS[(s + i) % n] for i in range(n)) for s in range(n))
                    for n in range(MAX_SEATS + 1))


def turn_order(S, start) -> tuple:
    return TURN_ORDERS[S.n][(+start if type(start) is Seat else int(start)) % S.n]  # (+: a Seat's int, fast)


def bounded_range(S, where: str, *args) -> range:
    """range(...) of the rules: whole numbers only, at most MAX_RANGE of them, each charged to the
    step budget (a loop or comprehension over them runs that many rounds)."""
    for a in args:
        if type(a) is not int and (not isinstance(a, int) or isinstance(a, bool)):  # (an int: at once)
            raise RuleRuntimeError(f"range() takes whole numbers, not {a!r}")
    r = range(*args)
    n = len(r)
    if n > MAX_RANGE:
        raise RuleRuntimeError(f"range() of {n:,} numbers: at most {MAX_RANGE:,}")
    S.steps += n
    if S.steps > STEP_BUDGET:
        budget(S, where)
    return r


_SEQUENCES = (list, tuple, str)


def _too_long(n: int):
    raise RuleRuntimeError(f"a list or text of {n:,} items: at most {MAX_ITEMS:,} (does a loop keep doubling it?)")


def cat(a, b) -> list:
    """Two lists (zones, tuples) joined, as the rules' `+` of lists, at most MAX_ITEMS long."""
    r = list(a) + list(b)
    if len(r) > MAX_ITEMS:
        _too_long(len(r))
    return r


def add(a, b):
    """The rules' `+` where either side may be a list or a text: their join is bounded."""
    r = a + b
    if type(r) in _SEQUENCES and len(r) > MAX_ITEMS:
        _too_long(len(r))
    return r


def mul(a, b):
    """The rules' `*`: a list or text repeated is bounded before it is made."""
    if type(a) not in _SEQUENCES and type(b) not in _SEQUENCES:  # numbers: nothing to bound
        return a * b
    for xs, n in ((a, b), (b, a)):
        if type(xs) in _SEQUENCES and type(n) is int and len(xs) * n > MAX_ITEMS:
            _too_long(len(xs) * n)
    return a * b


def budget(S, where: str):
    raise StepBudgetExceeded(f"{where}: the rules ran {STEP_BUDGET} steps without stopping at a "
                             "decision; a loop in this rule probably never ends")
