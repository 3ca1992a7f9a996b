"""What a bot's sample keeps of where the rules stopped (bots/sample.py, docs/bots.md steps 5 and 6):
the secret counters' start values put back (`secret_counters`), each stopped frame's locals that
are not read again dropped (`forget`), those that may hold a value worked out from a secret worked
out again or set to none (`work_out_again`), and the other seats' pending decisions asked again
from the sample's values (`ask_again`); and the threads a secret test sent where they wait made
dead ends (`secret_branches`, `dead_ends`)."""
from __future__ import annotations

from ..compiler.layout import counter_start
from ..runtime.state import DECIDE


def secret_counters(game, seat: int) -> list:
    """(slot in state.v, its start value) of every counter value ``seat`` may not see: another
    seat's counter declared `visible: owner`, and every slot of a counter `visible: none`. A sample
    puts the start value there: what the seat knows of a secret number is that it exists (and how
    it started), so the samples of two games that differ only in secret numbers are the same."""
    lay = game.rules.layout
    out = []
    defs = lay.counter_def
    secret = {n: d["visible"] for n, d in defs.items() if isinstance(d, dict) and d.get("visible", "all") != "all"}
    if not secret:
        return out
    for ci, (name, key) in enumerate(lay.fixed_counters):
        if secret.get(name) == "none":
            out.append((ci, counter_start(defs[name])))
    for name in lay.player_counters:
        if name not in secret:
            continue
        start = counter_start(defs[name])
        for p in range(game.state.n):
            if p != seat or secret[name] == "none":
                out.extend((lay.counter(name, p, k), start) for k in (lay.player_keys.get(name) or (None,)))
    return out


def secret_branches(game, seat: int) -> frozenset:
    """The threads (by id) of game that wait where a test that ``seat`` may not know sent them
    (compiler/branches.py): where a frame waits tells which way the test went, so a sample of the
    seat cannot keep them (dead_ends)."""
    rules = game.rules
    if not rules.any_branch:
        return frozenset()
    branches, bit, out = rules.branches, 1 << seat, set()
    S = game.state
    for t in S.threads:
        for f in t[0]:
            tests = branches[f[0]] if f[0] >= 0 else None
            if tests and f[1] in tests:
                fn = tests[f[1]]
                if fn is None or not fn(S, t, f) & bit:
                    out.add(t[6])
                    break
    return frozenset(out)


def dead_ends(T, rules, seat: int, tids) -> None:
    """Make the threads tids of sample T dead ends (secret_branches): each waits in a frame that
    fails when it resumes (the bot values the sample where it stopped), and holds nothing of where
    the rules stopped. Another seat's decision there has no option (a playout stops at it); the
    seat's own keeps its options, which it sees, as plain values (not the `choose` they came
    from, which may be one of several that read alike)."""
    if not tids:
        return
    for t in T.threads:
        if t[6] in tids:
            d = t[2]
            if t[1] == DECIDE:
                t[2] = ([d[0], d[1], d[2], d[3], d[4], -1, -1] + ([-1] + list(d[8:]) if len(d) > 7 else [])
                        if d[0] == seat else [d[0], [], 1, 1, False, -1, -1])
            t[0] = [[rules.dead_end, 0, []]]
            t[3] = None


def forget(T, rules) -> None:
    """Drop from the threads of state T what the rules will not read again: each stopped frame's
    locals that are not live where it waits (compiler/liveness.py), and each thread's last answer
    (read once, when it resumes from a decision, or given back by a call that has returned). What
    is left is what the rules still need; a value worked out from something a seat may not see and
    kept only because nothing cleared it is gone."""
    drops = rules.resume_drops
    for t in T.threads:
        for f in t[0]:
            if f[0] >= 0:
                drop = drops[f[0]].get(f[1])
                if drop:
                    L = f[2]
                    for i in drop:
                        L[i] = None
        t[3] = None


def work_out_again(T, rules, seat: int) -> None:
    """Work out again, from state T's own values, what the rules keep where they stopped that may
    hold a value worked out from what a seat may not know (compiler/taint.py): in each frame, from
    the bottom of each thread up, the locals that follow from an answer to a `choose` when a seat
    other than ``seat`` gave one there (`RW` functions: set to none; the frame above, when its
    call was given such a value, is marked so too), its tainted locals (`RC` functions of the
    compiled rules: by their `let`, or set to none), then the tainted arguments of the call it
    waits in, given again to the frame above (`RA`). (`forget` keeps the locals not live that an `RC` reads; the `RC`
    drops them.)
    Where seat's own decision waits, the locals its labels and prompt read are kept: they show
    them to it."""
    calcs, pushes, shown = rules.recalcs, rules.pushes, rules.shown
    blinds, calls, masks = rules.blinds, rules.blind_calls, rules.masks
    bit = 1 << seat
    for t in T.threads:
        frames = t[0]
        last = len(frames) - 1
        top = frames[-1]
        keep = shown[top[0]].get(top[1]) if t[1] == DECIDE and t[2][0] == seat and top[0] >= 0 else None
        if keep:
            kept = [top[2][i] for i in keep]
        for j, f in enumerate(frames):
            if f[0] < 0:
                continue
            fn = blinds[f[0]].get(f[1])  # (what follows from an answer another seat gave: none)
            if fn is not None and fn(T, t, f, bit) and j < last and f[1] in calls[f[0]]:
                up = frames[j + 1]
                m = masks[up[0]] if up[0] >= 0 else None
                if m is not None:  # (the callee's parameters given such a value: none there too)
                    up[2][m] = -1
            fn = calcs[f[0]].get(f[1])
            if fn is not None:
                fn(T, t, f)
            if j < last:
                fn = pushes[f[0]].get(f[1])
                if fn is not None and frames[j + 1][0] >= 0:
                    fn(T, t, f, frames[j + 1])
        if keep:
            for i, x in zip(keep, kept):
                top[2][i] = x


def ask_again(T, rules, seat: int) -> bool:
    """Make again, from what state T holds, the decisions other seats have pending: their
    options (how many, which, what may be picked) can follow from what only they know (a bid of up
    to one's own secret chips); asked again in the sample they follow from the sample's values.
    False when one cannot be asked again there (no option left: the seat sees that seat deciding,
    so the sample is not a game it may be in; or an error in the rules on a blanked value): that
    decision is then a dead end, with no option (answering it fails, and a bot values the sample
    where it stopped), never the decision as the real game made it."""
    asks = rules.reasks
    ok = True
    for t in T.threads:
        d = t[2]
        if t[1] != DECIDE or d[0] == seat:
            continue
        F = t[0][-1]
        fn = asks[F[0]].get(F[1]) if F[0] >= 0 else None
        if fn is None:
            continue
        t[2] = None
        try:
            asked = fn(T, t, F)
        except Exception:  # (a rule reading a value the sample reset)
            asked = False
        t[1], t[3] = DECIDE, None
        if not asked or t[2] is None:
            t[2] = [d[0], [], 1, 1, False, d[5], d[6]]
            ok = False
    return ok
