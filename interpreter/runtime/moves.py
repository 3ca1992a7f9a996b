"""Moving cards between zones, drawing, revealing, and the marks put on cards.

Who knows a card after a move (docs/language.md, "Knowledge that follows the card"): the seats
that see the zone it enters, and those that knew it and could tell it was that card that left
its zone (`vis.follow`: every seat for a zone whose order no one may change unseen, only the
owner for an `owner` zone). When a card leaves an owner's zone to where a seat cannot see it,
that seat can no longer tell the cards left there apart, and forgets them (those that were there
when the rules last reached a choose or random(): a choice is what could have mixed them). A whole zone moved
keeps its cards' knowers. A shuffle (chance.py) leaves only the seats that see the zone. On a
`visible: top` zone everyone knows the top card and nobody a card under it."""
from __future__ import annotations

from .plans import DROP, FRESH, FRESH_IF, GAIN, GROW, KEEP, TOP, blind_table, plan_moves  # noqa: F401 (plan_moves, blind_table: for the engine)
from .marks import drop_marks, knows, set_mark  # noqa: F401 (knows, set_mark: for the rules and scenarios)
from .state import Card, Seat

NO_CARDS = frozenset()
# S.fresh is a list (an append costs less than a set's add, which hashes the card), looked up by
# mixing only, mostly empty or of a few cards; _mix makes a longer one a set to look it up (the
# mixing written out in move does not: a check of the length there costs more than the look-ups
# save in the games measured; a long run of moves with no choose makes its look-ups slower, not wrong)
FEW = 32
# The marks of a card that has none, as the compiled rules read a mark (compiler/expr.py x_Attr:
# `S.m.get(card, NO_MARKS).get(name, default)`, no call): never written.
NO_MARKS: dict = {}
# the types of the values a card attribute in an index may have (compiler/program.py, Compiler.indexed)
SCALARS = frozenset({int, bool, float, str, type(None), Card, Seat})


def _followed(S, x, src: int, zi: int, bottom: bool) -> bool:
    """After card x went from src to zi (a move whose plan is None): who knows it, S.fresh, the top
    of a `visible: top` zone. Returns whether the cards left in src are to be mixed (vis.mix)."""
    vis, K = S.vis, S.k
    if vis.mixable[zi]:
        S.fresh.append(x)
    if vis.blind is vis:  # (a blind game: S.o is not read)
        K[x] = vis[zi] | (K[x] & vis.follow[src])
    else:
        k = K[x] = vis[zi] | (K[x] & vis.follow[src])
        if k != vis[zi]:
            S.o[zi] |= k ^ vis[zi]
    if vis.top:
        _tops(S, src, zi, bottom)
    return bool(vis.mix[src][zi])


def move(S, c, zi: int):
    """Move a card, a list of cards (each in turn) or nothing (none) to the top of zone zi."""
    if type(c) is Card:
        loc = S.loc
        src = loc[c]
        S.z[src].remove(c)
        S.z[zi].append(c)
        loc[c] = zi
        how = S.vis.plan[src][zi]
        if how.__class__ is int:
            S.k[c] = how
        elif how is not None:
            mask, keep, mixers, unfollowed, seen = how
            o = S.o[src]
            if keep & (o | seen):  # (else no seat that may know a card of src keeps knowing it)
                K = S.k
                k = K[c] & keep
                K[c] = mask | k
                if k:
                    S.o[zi] |= k
                    if k & unfollowed:  # (a seat that cannot follow zi's cards knows it: S.fresh)
                        S.fresh.append(c)
            else:
                S.k[c] = mask
            if mixers & o:  # (a seat that sees src follows its cards: only S.o[src] may lose track)
                _mix(S, src, mixers)
        else:
            if _followed(S, c, src, zi, False):
                _mix(S, src, S.vis.mix[src][zi])
            if S.m:
                drop_marks(S, (c,), zi)
        return
    if c is None:
        return
    cards = tuple(c)
    Z = S.z
    loc = S.loc
    vis = S.vis
    plan = vis.plan
    if vis.blind is vis:  # (a blind game: nothing reads who knows which card, no zone mixes)
        dest = Z[zi]
        for x in cards:
            src = loc[x]
            Z[src].remove(x)
            dest.append(x)
            loc[x] = zi
            if plan[src][zi] is None:  # (a `top` zone's cards, marks: as seen, without mixing)
                _followed(S, x, src, zi, False)
        if S.m and vis.drop[zi]:
            drop_marks(S, cards, zi)
        return
    K = S.k
    dest = Z[zi]
    mixed = -1  # a zone left to where some seats lose track: mixed once, after the moves
    more = None  # (the others, when the cards came from several such zones)
    beyond = 0  # who may keep knowing a card moved beyond the seats that see zi (S.o[zi]), a bound
    src = -1  # the zone of the cards before, and what a move from it does (the cards of a list
    # are mostly of one zone): an int plan as the tuple (plan, 0, 0, _), a None plan as mask None
    for x in cards:
        at = loc[x]
        if at != src:
            src = at
            from_ = Z[src]
            how = plan[src][zi]
            if how.__class__ is int:
                mask = how
                keep = 0
            elif how is not None:  # (S.fresh: after the moves)
                mask, keep, mixers, unfollowed, seen = how
                # (a bound: with the seats a card moved before it keeps, should it come again from zi)
                o = S.o[src] | beyond
                if keep:
                    keep &= o | seen  # (a card of src is known at most by these)
                    beyond |= keep
                if mixers & o and mixed != src:
                    if mixed < 0:
                        mixed = src
                    elif more is None:
                        more = {src}
                    else:
                        more.add(src)
            else:
                mask = None
        from_.remove(x)
        dest.append(x)
        loc[x] = zi
        if mask is None:  # (marks: after the moves)
            if _followed(S, x, src, zi, False) and mixed != src:
                if mixed < 0:
                    mixed = src
                elif more is None:
                    more = {src}
                else:
                    more.add(src)
        elif keep:
            K[x] = mask | K[x] & keep
        else:  # (nobody keeps knowing it: an int plan, the commonest)
            K[x] = mask
    if beyond:
        S.o[zi] |= beyond
        if beyond & S.vis.unfollowed[zi]:  # (some card may be known by a seat that cannot follow
            # zi's cards: S.fresh, plan_moves; a card in S.fresh that none such knows is mixed the
            # same either way)
            S.fresh.extend(cards)
    if mixed >= 0:
        # (the same as mixing after each card: a card moved later in the list keeps only the
        # bits of follow[src], which the mixing never clears)
        left = Z[mixed]
        if left:  # (_mix(S, mixed, ...) written out: the commonest, in a draft)
            keep = S.vis.unmix[mixed][zi]
            fresh = S.fresh
            if fresh:  # (a list: see FEW)
                for x in left:
                    if x not in fresh:
                        K[x] &= keep
            else:
                for x in left:
                    K[x] &= keep
        if more:
            for src in more:
                if Z[src]:
                    _mix(S, src, S.vis.mix[src][zi])
    if S.m and S.vis.drop[zi]:
        drop_marks(S, cards, zi)


def move_under(S, c, zi: int):
    """Move a card, a list of cards (each in turn) or nothing (none) to the bottom of zone zi."""
    if c is None:
        return
    Z, loc = S.z, S.loc
    dest = Z[zi]
    for x in ((c,) if type(c) is Card else tuple(c)):
        src = loc[x]
        Z[src].remove(x)
        dest.insert(0, x)
        loc[x] = zi
        if _followed(S, x, src, zi, True):
            _mix(S, src, S.vis.mix[src][zi])
        if S.m:
            drop_marks(S, (x,), zi)


def move_all(S, src: int, zi: int, bottom: bool = False):
    """Move every card of zone src to zi: the whole zone moves, so whoever knew a card of it
    follows it (knows it in zi too)."""
    cards = S.z[src]
    if not cards or src == zi:
        return
    S.z[src] = []
    dest = S.z[zi]
    if bottom:
        dest[0:0] = cards
    else:
        dest.extend(cards)
    loc = S.loc
    for c in cards:
        loc[c] = zi
    vis = S.vis
    how = vis.whole[src][zi]
    if not how:  # (a blind game's: no seat learns a card, none can mix, no mark falls)
        return
    o = S.o[src]  # (who may know a card of src beyond its viewers: now of zi, and src is empty)
    if o:
        S.o[src] = 0
        S.o[zi] |= o
        if how & FRESH_IF and o & vis.unfollowed[zi]:  # (zi may mix: a hand taken up)
            S.fresh.extend(cards)
    if how < GROW:  # (most moves of a whole zone: no seat learns a card, none can mix, no mark falls)
        return
    if how & GAIN:
        S.o[zi] |= vis.gain[src][zi]
    if how & FRESH:
        S.fresh.extend(cards)
    if how & GROW:
        K, mask = S.k, vis[zi]
        for c in cards:
            K[c] |= mask
    if how & TOP:
        settle_top(S, zi)
    if how & DROP and S.m:
        drop_marks(S, cards, zi)


def draw(S, n: int, src: int, zi: int):
    """Move the top n cards of src to zi, one at a time (fewer if src runs out)."""
    if type(n) is not int:
        n = len(range(n))  # (a whole number, as range() takes it; the loops below: while, cheaper)
    from_ = S.z[src]
    dest = S.z[zi]
    loc, K = S.loc, S.k
    known = S.vis.plan[src][zi]
    if known.__class__ is int:
        if S.vis.blind is S.vis:  # (a blind game: nothing reads who knows which card)
            while n > 0 and from_:
                n -= 1
                c = from_.pop()
                dest.append(c)
                loc[c] = zi
            return
        while n > 0 and from_:
            n -= 1
            c = from_.pop()
            dest.append(c)
            loc[c] = zi
            K[c] = known
        return
    o = S.o[src]  # (a card of src is known at most by the seats of o and those that see src)
    if known is not None and src != zi and not known[2] & o:  # (no seat loses track of the cards left)
        mask, keep, _, unfollowed, seen = known
        start = len(dest)
        if keep & (o | seen):  # (some seat that may know a card of src keeps knowing it)
            extra = 0
            while n > 0 and from_:
                n -= 1
                c = from_.pop()
                dest.append(c)
                loc[c] = zi
                k = K[c] & keep
                K[c] = mask | k
                extra |= k
            if extra:
                S.o[zi] |= extra
                if extra & unfollowed:  # (S.fresh: see move)
                    S.fresh.extend(dest[start:])
            return
        else:
            while n > 0 and from_:
                n -= 1
                c = from_.pop()
                dest.append(c)
                loc[c] = zi
                K[c] = mask
        return
    vis = S.vis
    mask, keep, mixers, top = vis[zi], vis.follow[src], vis.mix[src][zi], vis.top
    fresh = S.fresh if vis.mixable[zi] else None
    tidy = known is None  # a `top` zone, or marks that may fall off in zi
    if keep & ~mask:
        S.o[zi] |= keep & ~mask  # (a bound: who may keep knowing a card drawn)
    while n > 0 and from_:
        n -= 1
        c = from_.pop()
        dest.append(c)
        loc[c] = zi
        if fresh is not None:
            fresh.append(c)
        K[c] = mask | (K[c] & keep)
        if mixers:
            _mix(S, src, mixers)
        if tidy:
            if top:
                _tops(S, src, zi, False)
            if S.m:
                drop_marks(S, (c,), zi)


def place(S, c, zi: int):
    """Put card c on top of zone zi as if dealt there (a scenario's position): the seats that see
    zi know it, nobody else (no one saw it come)."""
    src = S.loc[c]
    S.z[src].remove(c)
    S.z[zi].append(c)
    S.loc[c] = zi
    S.k[c] = S.vis[zi]
    for z in (src, zi):
        if z in S.vis.top:
            settle_top(S, z)


def _mix(S, src: int, mixers: int):
    """A card left zone src, which its owner holds, to where the seats of `mixers` cannot see
    it: they cannot tell which card went, so they no longer know the cards left in src that were
    there when the rules last reached a choose or random() (S.fresh: the cards moved since). A card that came
    since is told apart: no choice was made since it came (packs passed one after another)."""
    K = S.k
    keep = ~mixers
    fresh = S.fresh if len(S.fresh) <= FEW else set(S.fresh)
    for x in S.z[src]:
        if K[x] & mixers and x not in fresh:
            K[x] &= keep


def _tops(S, src: int, zi: int, bottom: bool):
    """After a card moved from src to zi: a card covered on a `visible: top` zone is forgotten by
    everyone, a card uncovered is seen by everyone."""
    top, K = S.vis.top, S.k
    if src in top and S.z[src]:
        K[S.z[src][-1]] |= (1 << S.n) - 1
    if zi in top:
        dest = S.z[zi]
        if len(dest) > 1:
            K[dest[0] if bottom else dest[-2]] = 0


def settle_top(S, zi: int):
    """Knowledge in a `visible: top` zone as its order gives it: everyone sees the top card, no
    one a card under it (after a shuffle, the start, a whole zone moved in)."""
    z, K = S.z[zi], S.k
    for c in z:
        K[c] = 0
    if z:
        K[z[-1]] = (1 << S.n) - 1


def reveal(S, what, to=None):
    """Show a card, a list of cards or nothing to a seat (to everyone with no seat). A card shown to
    a seat that cannot follow the cards of its zone, in a zone that may mix, joins S.fresh (a card
    known only by the seats that follow its zone need not: see runtime/plans.py move_plan)."""
    vis = S.vis
    if what is None or vis.blind is vis:  # (a blind game: nothing reads who knows which card)
        return
    mask = ((1 << S.n) - 1) if to is None else (1 << (+to if type(to) is Seat else int(to)))
    if type(what) is Card:
        S.k[what] |= mask
        z = S.loc[what]
        S.o[z] |= mask  # (a bound: the seats that see z among them already knew it)
        if mask & vis.unfollowed[z]:
            S.fresh.append(what)
        return
    for c in tuple(what):
        S.k[c] |= mask
        z = S.loc[c]
        S.o[z] |= mask
        if mask & vis.unfollowed[z]:
            S.fresh.append(c)
