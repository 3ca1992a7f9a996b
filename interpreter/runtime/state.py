"""Game state: plain data (lists, ints, strings), cheap to copy, written to JSON and back exactly.

Cards are ints (their id in the ruleset's card table) wrapped as Card so labels and views can tell
them from numbers; seats are ints wrapped as Seat. Both are int subclasses: arithmetic, comparison
and hashing are those of int.
"""
from __future__ import annotations


class Card(int):
    __slots__ = ()

    def __repr__(self):
        return f"Card({int(self)})"


class Seat(int):
    __slots__ = ()

    def __repr__(self):
        return f"Seat({int(self)})"


class ZoneTable(list):
    """Per zone index, the bit mask of the seats that see its cards; `drop[zi]` is the tuple of
    marks a card loses when it enters zone zi (marks with `kept_in` that leave this zone out);
    `buried`: {zone index: the cards that show their back there only on top} for the zones some
    card kinds with a back are `stacked_in` (else empty), and every card for a `visible: top` zone;
    `follow[zi]`: the seats that can tell which card leaves zone zi (everyone, for a zone whose
    order nobody may change unseen; its owner, for an `owner` zone: runtime/moves.py); `top`: the
    indices of the `visible: top` zones (only the top card is seen, by everyone); `mix[src][zi]`:
    the seats that lose track of the cards left in src when one goes from src to zi (they cannot
    tell which went, nor see it where it goes: `~(follow[src] | self[zi])`, worked out once);
    `mixable[zi]`: whether a card leaving zi can ever mix it (only the cards moved into such a zone
    need to be told apart as moved since the last choose: S.fresh); `plan[src][zi]`: what a move
    from src to zi has to do besides moving the card (runtime/plans.py move_plan); `whole[src][zi]`:
    the same for a move of the whole zone (plans.py whole_plan, bits); `unfollowed[zi]`: the seats
    that cannot follow zi's cards, when zi may mix (else 0); `gain[src][zi]`: the seats that see
    src and not zi (every seat from a `top` zone: S.o's bound after a whole zone moves); `blind`: the
    table a game is played with when nothing will read who knows which card (plans.py
    blind_table; the table itself is its own `blind` when it is that one)."""

    __slots__ = ("drop", "buried", "follow", "top", "mix", "mixable", "plan", "whole", "unfollowed", "gain", "unmix", "blind")

    def __init__(self, *args):
        super().__init__(*args)
        self.blind = None  # (until the engine makes its blind table)


MAX_SEATS = 16
NO_UNIFORM: dict = {}  # (S.u when no seat answers in the rules' code: never changed)
SEATS = tuple(Seat(i) for i in range(MAX_SEATS))
PLAYERS = tuple(SEATS[:n] for n in range(MAX_SEATS + 1))

# thread fields: [stack, status, decision, answer, parent_tid, waiting_children, tid]
RUN, DECIDE, JOIN = 0, 1, 2


class State:
    """Where everything is, and where the rules stopped.

    z: zones, each a list of card ids (the end of a list is its top)
    v: counters
    k: for each card, a bit mask of the seats that know it
    loc: for each card, the index of the zone it is in
    m: marks on cards {card: {mark: value}}
    rng: the random generator's 64-bit state
    threads: the rule code stopped at decisions: [[frames], status, decision, answer, parent, waiting, id]
        a frame is [routine id, resume point, locals]
    n: number of players
    log: events for the log (None when not logging, e.g. in a search copy)
    auto, direct, direct_one, direct_pairs, direct_many, alone: set by Game.autoplay while it runs
        (answer decisions where they are asked; run the routines that may stop as plain
        functions, and independent threads one by one): not part of the game
    u, ua, ans, most: set by Game.autoplay while every seat answers uniformly at random (its
        `uniform`): u maps each seat to its random() function once the game's first player is
        known, ua from the start (for the threads of a `simultaneously` run one by one, whose
        answers never make the first player), both empty otherwise (NO_UNIFORM); ans is the
        game's answers and most their most; a choose of a routine run as a plain function draws
        its answer in the rules' code then (compiler/uniform.py): not part of the game
    lv: with a log, the values that only the log reads, of routines that may stop, by (thread id,
        frame depth, slot): not part of the game (a game without a log never works them out)
    fresh: the cards moved (or shown) since the rules last reached a choose that a seat which
        cannot follow the cards of their zone knows (the only ones mixing could touch:
        runtime/moves.py, plans.py move_plan), a list (a card may be in it more than once:
        moves.py FEW): empty at every decision, so not part of the game (copies and saves start it
        empty)
    o: for each zone, the seats whose knowledge of one of its cards may differ from seeing the
        zone (a seat that knows a card of a zone it does not see, or one that sees the zone and
        does not know a card): a bound, kept by the moves (runtime/moves.py), cleared when the zone
        is shuffled or moved whole; 0 says every card of the zone is known by exactly the seats
        that see it (not read for a `visible: top` zone). Worked out again from k when a game is
        loaded, so not saved; meaningless in a game played blind (plans.py blind_table)
    """

    __slots__ = ("z", "v", "k", "loc", "m", "rng", "threads", "n", "next_tid", "steps", "log", "lv", "vis", "auto",
                 "direct", "direct_one", "direct_pairs", "direct_many", "alone", "fresh", "o", "u", "ua", "ans", "most")

    def copy(self, log: bool = False) -> "State":
        s = State.__new__(State)
        s.z = list(map(list.copy, self.z))  # (each zone's copy made in C: no loop of bytecodes)
        s.v = self.v[:]
        s.k = self.k[:]
        s.o = self.o[:]
        s.loc = self.loc[:]
        s.m = {c: d.copy() for c, d in self.m.items()} if self.m else {}
        s.rng = self.rng
        s.threads = [[[[f[0], f[1], f[2][:]] for f in t[0]], t[1], t[2], t[3], t[4], t[5], t[6]]
                     for t in self.threads]
        s.n = self.n
        s.next_tid = self.next_tid
        s.steps = 0
        s.log = list(self.log) if (log and self.log is not None) else None
        s.lv = dict(self.lv) if s.log is not None else None
        s.vis = self.vis
        s.auto = s.direct = s.direct_one = s.direct_pairs = s.direct_many = s.alone = None
        s.u = s.ua = NO_UNIFORM
        s.fresh = []
        return s

    # ------------------------------------------------------------ JSON

    def to_json(self) -> dict:
        return {
            "zones": [list(map(int, z)) for z in self.z],
            "counters": [encode(x) for x in self.v],
            "known": list(self.k),
            "marks": [[int(c), {k: encode(v) for k, v in d.items()}] for c, d in sorted(self.m.items())],
            "rng": self.rng,
            "threads": [[[[f[0], f[1], [encode(x) for x in f[2]]] for f in t[0]], t[1], encode(t[2]),
                         encode(t[3]), t[4], t[5], t[6]] for t in self.threads],
            "players": self.n,
            "next_tid": self.next_tid,
        }

    @classmethod
    def from_json(cls, d: dict, cards: tuple, vis: list) -> "State":
        s = cls.__new__(cls)
        s.z = [[cards[c] for c in z] for z in d["zones"]]
        s.v = [decode(x) for x in d["counters"]]
        s.k = list(d["known"])
        s.loc = [0] * len(cards)
        for zi, z in enumerate(s.z):
            for c in z:
                s.loc[c] = zi
        s.m = {cards[c]: {k: decode(v) for k, v in marks.items()} for c, marks in d["marks"]}
        s.rng = int(d["rng"])
        s.threads = [[[[f[0], f[1], [decode(x) for x in f[2]]] for f in t[0]], t[1], decode(t[2]),
                      decode(t[3]), t[4], t[5], t[6]] for t in d["threads"]]
        s.n = int(d["players"])
        s.next_tid = int(d["next_tid"])
        s.steps = 0
        s.log = s.lv = None
        s.vis = vis
        s.auto = s.direct = s.direct_one = s.direct_pairs = s.direct_many = s.alone = None
        s.u = s.ua = NO_UNIFORM
        s.fresh = []
        s.o = beyond(s)
        return s

    def same_as(self, other: "State") -> bool:
        return self.to_json() == other.to_json()


def beyond(S) -> list:
    """S.o worked out from who knows each card (S.k) and who sees each zone (S.vis): for each zone,
    the seats whose knowledge of one of its cards differs from seeing the zone."""
    K, vis, out = S.k, S.vis, []
    for zi, zone in enumerate(S.z):
        seen, o = vis[zi], 0
        for c in zone:
            o |= K[c] ^ seen
        out.append(o)
    return out


def encode(x):
    """Value -> JSON, keeping cards, seats and tuples apart from ints and lists."""
    t = type(x)
    if t is Card:
        return {"card": int(x)}
    if t is Seat:
        return {"seat": int(x)}
    if t is tuple:
        return {"tuple": [encode(i) for i in x]}
    if t is list:
        return [encode(i) for i in x]
    if t is range:
        return [encode(i) for i in x]
    return x


def decode(x):
    if type(x) is dict:
        if "card" in x:
            return Card(x["card"])
        if "seat" in x:
            return SEATS[x["seat"]]
        if "tuple" in x:
            return tuple(decode(i) for i in x["tuple"])
    if type(x) is list:
        return [decode(i) for i in x]
    return x
