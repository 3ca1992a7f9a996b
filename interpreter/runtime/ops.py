"""The rules' values at run time: min and max, the top and ends of a list, turn orders,
range(), lists and texts joined or repeated within MAX_ITEMS, and the step budget. Rule code that
fails raises RuleRuntimeError (the engine gives it its rule's file:line:col)."""
from __future__ import annotations

import sys
import threading

from ..errors import StepBudgetExceeded
from ..limits import MAX_COMBINATIONS, MAX_DEPTH, MAX_ITEMS, MAX_RANGE, MAX_STEPS as STEP_BUDGET
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


def _charge(S, where: str, what: str, n: int) -> None:
    """Charge n lists made to the step budget, after refusing more than MAX_COMBINATIONS."""
    if n > MAX_COMBINATIONS:
        raise RuleRuntimeError(f"{what} would make {n:,} lists: at most {MAX_COMBINATIONS:,}")
    S.steps += n
    if S.steps > STEP_BUDGET:
        budget(S, where)


def combinations(S, where: str, xs, k) -> list:
    """The lists of k items of xs (in xs's order), in order: combinations([a, b, c], 2) is
    [[a, b], [a, c], [b, c]]."""
    from itertools import combinations as combos
    from math import comb

    if type(k) is not int and (not isinstance(k, int) or isinstance(k, bool)):
        raise RuleRuntimeError(f"combinations() takes a whole number of items, not {k!r}")
    xs = list(xs)
    if k < 0 or k > len(xs):
        return []
    _charge(S, where, f"combinations of {len(xs)} items {k} at a time", comb(len(xs), k))
    return [list(c) for c in combos(xs, k)]


def subsets(S, where: str, xs) -> list:
    """Every list of items of xs (in xs's order): the empty one first, then by size, then by
    position: subsets([a, b]) is [[], [a], [b], [a, b]]."""
    from itertools import combinations as combos

    xs = list(xs)
    _charge(S, where, f"subsets of {len(xs)} items", 2 ** len(xs) if len(xs) < 64 else 2 ** 64)
    return [list(c) for k in range(len(xs) + 1) for c in combos(xs, k)]


_NESTED = threading.local()  # .depth: the rules' calls nested now, in this thread (a server runs
# several tables' games at once, in threads, over one loaded ruleset)
_FRAMES_PER_CALL = 8  # Python frames one nested rule call may take (its comprehensions, lambdas)


def too_deep(name: str):
    """Raise the error of calls of the rules nested more than MAX_DEPTH deep (name: the routine's)."""
    raise RuleRuntimeError(f"the rules call '{name}' more than {MAX_DEPTH} deep (a function "
                           "that calls itself must reach a case that does not)")


def _room() -> None:
    """Make Python's own recursion limit roomy enough that MAX_DEPTH nested rule calls, from here,
    reach MAX_DEPTH before it: the bound is the same whatever calls the rules (a test, the terminal
    UI, a server's thread). The limit is only raised, never lowered (other threads may rely on it)."""
    f, frames = sys._getframe(), 0
    while f is not None:
        f, frames = f.f_back, frames + 1
    need = frames + MAX_DEPTH * _FRAMES_PER_CALL + 100
    if sys.getrecursionlimit() < need:
        sys.setrecursionlimit(need)


def bounded_depth(fn, name: str):
    """fn, a function or procedure of the rules that can call itself (its plain Python version),
    counting how deep the rules' calls are nested in this thread: past MAX_DEPTH the rules stop
    (the engine adds the place of the call), whatever Python's own limit."""
    def call(*args):
        d = getattr(_NESTED, "depth", 0) + 1
        if d == 1:
            _room()
        elif d > MAX_DEPTH:
            too_deep(name)
        _NESTED.depth = d
        try:
            return fn(*args)
        finally:
            _NESTED.depth = d - 1
    return call


def flatten(xss) -> list:
    """The items of a list of lists, in order."""
    out = []
    for xs in xss:
        if not isinstance(xs, (list, tuple)):
            raise RuleRuntimeError(f"flatten() takes a list of lists, and one item is {xs!r}")
        out.extend(xs)
    return out


_SEQUENCES = (list, tuple, str)


def _too_long(n: int):
    raise RuleRuntimeError(f"a list or text of {n:,} items: at most {MAX_ITEMS:,} (does a loop keep doubling it?)")


def cat(a, b) -> list:
    """Two lists (zones, tuples) joined, as the rules' `+` of lists, at most MAX_ITEMS long."""
    r = [*a, *b]  # (one list made, not three)
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
