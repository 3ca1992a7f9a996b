"""What compiled rule code calls at run time: moving cards, chance, decisions, threads, the log.

Everything here works on a State and knows nothing of any game.
"""
from __future__ import annotations

import functools
# the C Mersenne Twister under random.Random: the same numbers, without random.Random's Python-level
# __init__ and seed() (a fifth of the cost of seeding one, and a shuffle seeds one)
from _random import Random as _Random

from ..errors import StepBudgetExceeded
from ..limits import MAX_ITEMS, MAX_RANGE
from ..limits import MAX_STEPS as STEP_BUDGET
from .state import DECIDE, JOIN, MAX_SEATS, RUN, SEATS, Card, Seat

M64 = (1 << 64) - 1
WAIT, CALL, RET = "wait", "call", "ret"


class RuleRuntimeError(Exception):
    """An error raised by rule code while it runs (mapped to a rule position by the engine)."""


# ------------------------------------------------------------------ chance


def seed_rng(seed: int) -> int:
    return (int(seed) * 0x9E3779B97F4A7C15 + 0x632BE59BD9B4E019) & M64


def rand_below(S, n: int) -> int:
    return (next_seed(S) * n) >> 64


def next_seed(S) -> int:
    """Advance the state's generator (splitmix64) and return 64 fresh bits."""
    x = (S.rng + 0x9E3779B97F4A7C15) & M64
    S.rng = x
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & M64
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & M64
    return x ^ (x >> 31)


def random_item(S, xs):
    """An item of xs chosen with the game's generator (none if xs is empty)."""
    xs = list(xs)
    return xs[rand_below(S, len(xs))] if xs else None


@functools.lru_cache(maxsize=64)
def _bit_lengths(n: int) -> tuple:
    """The bit length of n, n - 1, ..., 2: how many random bits shuffling n items draws at a time."""
    return tuple(m.bit_length() for m in range(n, 1, -1))


def shuffle(S, zi: int):
    """Shuffle a zone: Fisher-Yates drawing from a Mersenne Twister seeded from the game's
    generator. Written out here rather than random.shuffle, so that a seed shuffles the same on
    every Python version (the same order random.shuffle gave on CPython 3.11)."""
    lst = S.z[zi]
    n = len(lst)
    if n > 1:
        bits = _Random(next_seed(S)).getrandbits
        for i, k in zip(range(n - 1, 0, -1), _bit_lengths(n)):
            j = bits(k)
            while j > i:
                j = bits(k)
            lst[i], lst[j] = lst[j], lst[i]
    mask = S.vis[zi]
    K = S.k
    for c in lst:
        K[c] = mask


# ------------------------------------------------------------------ cards

NO_CARDS = frozenset()
# the types of the values a card attribute in an index may have (compile.Compiler.indexed)
SCALARS = frozenset({int, bool, float, str, type(None), Card, Seat})


def drop_marks(S, cards, zi: int):
    """Take off the marks that a card keeps only in other zones (a token falls off a discarded card)."""
    names = S.vis.drop[zi]
    if not names:
        return
    M = S.m
    for c in cards:
        d = M.get(c)
        if d:
            for n in names:
                d.pop(n, None)
            if not d:
                del M[c]


def move(S, c, zi: int):
    """Move a card, a list of cards (each in turn) or nothing (none) to the top of zone zi."""
    Z, loc, K = S.z, S.loc, S.k
    if type(c) is Card:
        Z[loc[c]].remove(c)
        Z[zi].append(c)
        loc[c] = zi
        K[c] = S.vis[zi]
        if S.m:
            drop_marks(S, (c,), zi)
        return
    if c is None:
        return
    dest, mask = Z[zi], S.vis[zi]
    for x in tuple(c):
        Z[loc[x]].remove(x)
        dest.append(x)
        loc[x] = zi
        K[x] = mask
        if S.m:
            drop_marks(S, (x,), zi)


def move_under(S, c, zi: int):
    """Move a card, a list of cards (each in turn) or nothing (none) to the bottom of zone zi."""
    if c is None:
        return
    Z, loc, K = S.z, S.loc, S.k
    dest, mask = Z[zi], S.vis[zi]
    for x in ((c,) if type(c) is Card else tuple(c)):
        Z[loc[x]].remove(x)
        dest.insert(0, x)
        loc[x] = zi
        K[x] = mask
        if S.m:
            drop_marks(S, (x,), zi)


def move_all(S, src: int, zi: int, bottom: bool = False):
    cards = S.z[src]
    if not cards or src == zi:
        return
    S.z[src] = []
    dest = S.z[zi]
    if bottom:
        dest[0:0] = cards
    else:
        dest.extend(cards)
    loc, K, mask = S.loc, S.k, S.vis[zi]
    for c in cards:
        loc[c] = zi
        K[c] = mask
    if S.m:
        drop_marks(S, cards, zi)


def draw(S, n: int, src: int, zi: int):
    """Move the top n cards of src to zi, one at a time (fewer if src runs out)."""
    from_ = S.z[src]
    dest = S.z[zi]
    loc, K, mask = S.loc, S.k, S.vis[zi]
    for _ in range(n):
        if not from_:
            return
        c = from_.pop()
        dest.append(c)
        loc[c] = zi
        K[c] = mask
        if S.m:
            drop_marks(S, (c,), zi)


def reveal(S, what, to=None):
    if what is None:
        return
    cards = (what,) if type(what) is Card else tuple(what)
    mask = ((1 << S.n) - 1) if to is None else (1 << int(to))
    for c in cards:
        S.k[c] |= mask


# min and max as rules use them. The builtins parse their keyword arguments (default=, key=)
# at each call, which costs more than the work for the few items rules compare: these take
# positional arguments only, and give what the builtins give (the first of equal items).


def min2(a, b):
    return b if b < a else a


def max2(a, b):
    return b if b > a else a


def _of(f):
    def of(xs, key=None):
        """f(xs, key=key, default=None)."""
        if type(xs) is not list and type(xs) is not tuple:
            xs = list(xs)
        if not xs:
            return None
        return f(xs) if key is None else f(xs, key=key)
    return of


min_of, max_of = _of(min), _of(max)


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
        if not isinstance(a, int) or isinstance(a, bool):
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
    for xs, n in ((a, b), (b, a)):
        if type(xs) in _SEQUENCES and type(n) is int and len(xs) * n > MAX_ITEMS:
            _too_long(len(xs) * n)
    return a * b


def budget(S, where: str):
    raise StepBudgetExceeded(f"{where}: the rules ran {STEP_BUDGET} steps without stopping at a "
                             "decision; a loop in this rule probably never ends")


# ------------------------------------------------------------------ decisions and threads


def decide(S, T, F, player, options, count, upto, optional, label_id, prompt_id, unavailable_id=-1,
           key=None) -> bool:
    """Stop thread T at a decision; False (with the answer set) when there is nothing to decide.
    key: a choose's `distinct` clause, the key of an option (no two options of one key picked)."""
    if not 0 <= player < S.n:
        raise RuleRuntimeError(f"'choose ... by' names player {player!r}, but the seats are 0 to {S.n - 1}")
    if type(options) is not list:
        options = list(options)
    n = len(options)
    keys = None
    if key is not None:  # each option's key as a group number (options alike share one), in order of first use
        groups: dict = {}
        keys = [groups.setdefault(tuple(k) if type(k) is list else k, len(groups)) for k in map(key, options)]
    lo, hi, many = bounds(n if keys is None else len(set(keys)), count, upto, optional)
    if n == 0 or hi == 0:
        T[3] = [] if many else None
        return False
    T[1] = DECIDE
    T[2] = [+player if type(player) is Seat else int(player), options, lo, hi, many, label_id, prompt_id]
    if unavailable_id >= 0 or keys is not None:  # only a choose with these clauses has them (saves stay as they were)
        T[2].append(unavailable_id)
        if keys is not None:
            T[2].append(keys)
    T[3] = None
    return True


def bounds(n: int, count, upto, optional: bool) -> tuple:
    """(fewest, most, many) options to choose of n (for a `distinct` choose: n different keys):
    `pick count`, `pick up to upto`, `optional`; many: the answer is a list."""
    if count is None and upto is None:
        return (0 if optional else 1), 1, False
    if count is not None:
        hi = min(int(count), n)
        return (0 if optional else hi), hi, True
    hi = min(int(upto), n)
    return (0 if optional else min(1, hi)), hi, True


def distinct_picks(order, keys, k: int) -> list:
    """The first k options of order (option numbers) whose keys differ: each is taken unless one of
    its key is taken already (how bots answer a `distinct` choose)."""
    out, taken = [], set()
    for i in order:
        if len(out) == k:
            break
        if keys[i] not in taken:
            taken.add(keys[i])
            out.append(i)
    return out


def alike(keys, picks):
    """The first two of picks (option numbers) whose keys are the same, or None."""
    seen = {}
    for i in picks:
        k = keys[i]
        if k in seen:
            return seen[k], i
        seen[k] = i
    return None


def decide_one(S, T, player, options, label_id, prompt_id) -> bool:
    """decide for the commonest choose: one option, not optional, no `unavailable` clause."""
    if not 0 <= player < S.n:
        raise RuleRuntimeError(f"'choose ... by' names player {player!r}, but the seats are 0 to {S.n - 1}")
    if type(options) is not list:
        options = list(options)
    if not options:
        T[3] = None
        return False
    T[1] = DECIDE
    T[2] = [+player if type(player) is Seat else int(player), options, 1, 1, False, label_id, prompt_id]
    T[3] = None
    return True


def thread(S, T) -> list:
    """A thread of a `simultaneously` in a D_ routine (Game.autoplay direct), its body run as a
    generator: in S.threads, so its decision is pending while it waits, with the id it would have."""
    tid = S.next_tid
    S.next_tid += 1
    t = [[[-1, 0, None]], RUN, None, None, T[6], 0, tid]
    S.threads.append(t)
    return t


_DONE = object()


def join(S, gs):
    """Run the threads of a `simultaneously` (generator, thread) as the driver runs threads: each
    to its first decision in turn; then the first one waiting is answered (S.direct) and runs on
    to its next decision or its end, until all have ended. A generator yields its locals (for the
    decision's labels) at each decision."""
    live = []
    for g, t in gs:
        L = next(g, _DONE)
        if L is _DONE:
            S.threads.remove(t)
        else:
            t[0][-1][2] = L
            live.append((g, t))
    while live:
        g, t = live[0]
        S.direct(t, None, True)
        L = next(g, _DONE)
        if L is _DONE:
            S.threads.remove(t)
            del live[0]
        else:
            t[0][-1][2] = L


def spawn(S, T, body_id, L, items, slots, tuple_pattern) -> bool:
    """Start one thread per item running body_id with a copy of the locals L; T waits for them."""
    items = tuple(items)
    if not items:
        return False
    for item in items:
        locs = L[:]
        if tuple_pattern:
            for s, v in zip(slots, item):
                locs[s] = v
        else:
            locs[slots[0]] = item
        tid = S.next_tid
        S.next_tid += 1
        S.threads.append([[[body_id, 0, locs]], RUN, None, None, T[6], 0, tid])
    T[1] = JOIN
    T[5] = len(items)
    return True


def set_mark(S, c, name, value, default=None):
    """Set a mark on a card; setting it to its default takes it off (a token returned)."""
    if c is None:
        return
    d = S.m.get(c)
    if value == default and type(value) is type(default):
        if d is not None:
            d.pop(name, None)
            if not d:
                del S.m[c]
        return
    if d is None:
        d = S.m[c] = {}
    d[name] = value


def get_mark(S, c, name, default):
    d = S.m.get(c)
    if d is None:
        return default
    return d.get(name, default)


TABLE = "\x00table"  # first item of a table event in the log


def table_event(S, title, columns, rows):
    """A table for the log: title parts, column headings, and each cell as event parts (a list
    of cards as its cards with commas), cards with their knowers at this moment."""
    def cell(v):
        if type(v) in (list, tuple):
            parts = []
            for i, x in enumerate(v):
                if i:
                    parts.append(", ")
                parts.extend(cell(x))
            return parts
        return event(S, (v,))

    return [TABLE, event(S, title), [str(c) for c in columns],
            [[cell(v) for v in (r if type(r) in (list, tuple) else (r,))] for r in rows]]


class Known(tuple):
    """A card in a log event: (card id, bit mask of the seats that knew it when the line was
    written). What each seat reads of a line is fixed then, whatever it learns later. The mask's
    BURIED bit: the card lay under the top card of a zone its kind is `stacked_in`, so its back
    was not seen either."""
    __slots__ = ()


BURIED = 1 << 30  # (above every seat's bit: state.MAX_SEATS)


def buried(S, c) -> bool:
    """Whether card c lies under the top card of a zone its kind is `stacked_in` (its back unseen)."""
    zi = S.loc[c]
    cs = S.vis.buried.get(zi)
    return cs is not None and c in cs and S.z[zi][-1] != c


def _fixed_piles(S, v):
    """_fixed, for rules with a kind `stacked_in` zones: a card under the top of one is BURIED."""
    t = type(v)
    if t is Card:
        return Known((int(v), S.k[v] | BURIED if buried(S, v) else S.k[v]))
    if t is list:
        return [_fixed_piles(S, x) for x in v]
    if t is tuple:
        return tuple([_fixed_piles(S, x) for x in v])
    return v


def _fixed(k, v):
    """v with every card in it (also in lists and tuples, at any depth) as a Known, and each list
    and tuple copied: a logged value never changes after it is written."""
    t = type(v)
    if t is Card:
        return Known((int(v), k[v]))
    if t is list:
        return [_fixed(k, x) for x in v]
    if t is tuple:
        return tuple([_fixed(k, x) for x in v])
    return v


def event(S, parts):
    """A log event: its parts, with each card's knowers at the moment it was logged."""
    if getattr(S.vis, "buried", None):
        return [_fixed_piles(S, p) if type(p) in _NESTED else p for p in parts]
    k = S.k
    return [_fixed(k, p) if type(p) in _NESTED else p for p in parts]


_NESTED = frozenset({Card, list, tuple})
