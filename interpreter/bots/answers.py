"""The distinct answers a bot may try at a decision (greedy's, and the search's at each node)."""
from __future__ import annotations

from itertools import combinations
from math import comb

from ..runtime.ops import RuleRuntimeError
from ..runtime.threads import distinct_picks


def answers_of(decision, rng, cap: int = 64) -> list:
    """The distinct answers to a decision: option numbers; for a multi-pick every combination of
    min..max options (a sample of ``cap`` of them, drawn from rng, when there are more); None too
    when it may be declined (a single pick with min 0)."""
    n = len(decision.values)
    if n == 0:  # (a sample's dead end: ask_again)
        raise RuleRuntimeError("a decision with no option: this sample cannot go on")
    if not decision.many:
        out = list(range(n))
        if decision.min == 0:
            out.append(None)
        return out
    lo, hi = decision.min, min(decision.max, n)
    keys = getattr(decision, "keys", None)  # a `distinct` choose: no two options of one key together
    total = sum(comb(n, k) for k in range(lo, hi + 1))
    if total <= cap:
        if keys is None:
            return [list(c) for k in range(lo, hi + 1) for c in combinations(range(n), k)]
        return [list(c) for k in range(lo, hi + 1) for c in combinations(range(n), k)
                if len({keys[i] for i in c}) == len(c)]
    seen, out = set(), []
    sizes = list(range(lo, hi + 1))
    for _ in range(cap * 20):  # (a distinct choose may have fewer than cap answers)
        if len(out) >= cap:
            break
        k = rng.choice(sizes)
        c = tuple(sorted(rng.sample(range(n), k) if keys is None else distinct_picks(rng.sample(range(n), n), keys, k)))
        if c not in seen:
            seen.add(c)
            out.append(list(c))
    return out
