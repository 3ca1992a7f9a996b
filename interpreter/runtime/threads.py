"""Decisions and threads: a thread stops at a decision (choose) until it is answered, starts
threads (simultaneously) and waits for them to join."""
from __future__ import annotations

from .ops import RuleRuntimeError
from .state import DECIDE, JOIN, RUN, Seat

WAIT, CALL, RET = "wait", "call", "ret"


def decide(S, T, F, player, options, count, upto, optional, label_id, prompt_id, unavailable_id=-1,
           key=None) -> bool:
    """Stop thread T at a decision; False (with the answer set) when there is nothing to decide.
    key: a choose's `distinct` clause, the key of an option (no two options of one key picked)."""
    if not 0 <= player < S.n:
        raise RuleRuntimeError(f"'choose ... by' names player {player!r}, but the seats are 0 to {S.n - 1}")
    if type(options) is not list:
        options = list(options)
    n = len(options)
    keys = None if key is None else option_groups(key, options)
    lo, hi, many = bounds(n if keys is None else len(set(keys)), count, upto, optional)
    if n == 0 or hi == 0:
        T[3] = [] if many else None
        return False
    T[1] = DECIDE
    T[2] = [+player if type(player) is Seat else int(player), options, lo, hi, many, label_id, prompt_id]
    if S.fresh:  # a choice made here may move any card there is (runtime/moves.py _mix)
        S.fresh.clear()
    if unavailable_id >= 0 or keys is not None:  # only a choose with these clauses has them (saves stay as they were)
        T[2].append(unavailable_id)
        if keys is not None:
            T[2].append(keys)
    T[3] = None
    return True


def option_groups(key, options) -> list:
    """A `distinct` choose's key of each option as a group number (options alike share one), in
    order of first use: the groups are 0 to the largest."""
    groups: dict = {}
    return [groups.setdefault(tuple(k) if type(k) is list else k, len(groups)) for k in map(key, options)]


def dead_end(S, T, F):
    """The routine of a bot's sample where it may not go on (bots/stopped.py): resuming it fails,
    and the bot values the sample where it stopped."""
    raise RuleRuntimeError("a bot's sample cannot go on here: which way the rules went depends on what its seat "
                           "may not know")


def deciding(T) -> int:
    """The bit of the seat whose decision thread T waits at (0: it waits at none)."""
    return 1 << T[2][0] if T[1] == DECIDE and T[2] else 0


def known_all(S, zones) -> int:
    """The bits of the seats that know every card now in zones (zone indices): who knows what a
    rule reads of them (compiler/branches.py records it where a `let` reads them)."""
    k, m = S.k, -1
    for zi in zones:
        for c in S.z[zi]:
            m &= k[c]
    return m


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
    if S.fresh:
        S.fresh.clear()
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
