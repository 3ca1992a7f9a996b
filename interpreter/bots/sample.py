"""Information sets: what one seat may know of a game, and games sampled from it (determinization).

A bot that searches needs whole games to play forward, but it must not see the real hidden
cards. ``InfoSet(game, seat)`` is the leak-free path: it exposes only

- ``view()``: ``game.view(seat)``, what the seat may know;
- ``sample(rng) -> Game``: a full, independent copy of the game in which every card the seat does
  not know has been dealt again, at random, over the places of the cards the seat does not know;
- ``players``, ``seat``, ``rules`` and ``card_key`` (public facts).

How a sample is made (``determinize``): the cards the seat does not know (``state.k`` bit not
set) are grouped by their back, which everyone sees: the card's kind, and for a kind with a
``back`` the values it shows (``rules.back_keys``); within each group the places of those cards,
in a canonical order (zone, then position in the zone), get the same cards in an order drawn from
``rng``. So a sample never puts a card of another back where the seat sees a back. A card under
the top of a pile (a zone its kind is ``stacked_in``, or any `visible: top` zone) shows no back:
its place takes, at random,
one of the cards of its kind that the places with a back seen did not take (each back's places
draw first from every unknown card of that back, the pile's included). That is a relabelling of
unknown cards: every Card value in the state follows it (zones, ``loc``, knowledge masks, marks,
counters, the locals of where the rules stopped, pending decisions' options), so the copy is a
consistent game in which the place of each card, who knows it, the marks on it and the back the
seat sees there are as in the real game; only which unknown card lies there changes. A counter
value the seat may not see (another seat's counter `visible: owner`, any counter `visible: none`)
is its start value in the sample (``secret_counters``); the unknown cards of the zones whose size
the seat may not see are split between them again (bots/sizes.py). Where the rules stopped, a
local that may hold a value worked out from a secret (compiler/taint.py) is worked out again
from the sample or set to none (``work_out_again``), each frame keeps only what the rules will
read again (``forget``: its live locals) and the other seats' pending decisions that read a
secret are asked again there (``ask_again``): docs/bots.md, steps 5 and 6. The random
generator is reseeded from ``rng``, so future shuffles and draws are not the real ones; the copy
has no answers and no log (other players' answers are not the seat's to see).

Two games that differ only in what the seat cannot see give the same samples for the same rng:
a sample depends on the real game only through the seat's knowledge.
"""
from __future__ import annotations

from functools import partial
from itertools import repeat, starmap

from ..engine.game import Game
from ..errors import JuxError
from ..runtime.ops import RuleRuntimeError
from ..runtime.state import Card
from .places import carriers, dealt_by_runs, hidden
from .sizes import split_again, unsized_zones
from .stopped import ask_again, dead_ends, forget, secret_branches, secret_counters, work_out_again

SAMPLE_ERRORS = (JuxError, RuleRuntimeError)  # what playing on a sample may raise (a rule failing on a blanked value)
ATTEMPTS = 8  # copies drawn, at most, for one in which every other seat's pending decision can be asked again


class InfoSet:
    """What ``seat`` may know of ``game``, and determinized copies of it. Built from the real game,
    it keeps the game private: a bot gets this object, never the game.

    The places of the unknown cards are worked out once (for the first sample) and kept while the
    game stays where it is (no answer given since), so drawing many samples for one decision is
    cheap."""

    __slots__ = ("_game", "seat", "players", "rules", "_plan", "_token", "_facts", "_hopeless")

    def __init__(self, game, seat: int):
        self._game = game
        self.seat = int(seat)
        self.players = game.state.n
        self.rules = game.rules
        self._plan = self._token = None
        self._hopeless = False

    def view(self) -> dict:
        return self._game.view(self.seat)

    def mark(self) -> "Mark":
        """Where the game's answers stand now, for own_answers_since (a bot keeps it between
        its decisions; it tells nothing else)."""
        return Mark(self._game.answers)

    def own_answers_since(self, mark: "Mark") -> int | None:
        """How many answers were given since ``mark`` (taken at an earlier decision of this game),
        when every one was this seat's; None when another seat answered since (which the table
        shows: who is deciding is in every view) or the game is no longer the one marked (an
        undo, a game loaded again)."""
        a = self._game.answers
        n = mark._n
        if a is not mark._answers or len(a) < n or (n and a[n - 1] is not mark._last):
            return None
        seat = self.seat
        for x in a[n:]:
            if x[0] != seat:
                return None
        return len(a) - n

    def sample(self, rng):
        """A full Game copy with the seat's unknown cards dealt again from ``rng`` (random.Random)."""
        g = self._game
        token = (id(g.state), len(g.answers))
        if self._plan is None or self._token != token:
            self._plan, self._token = unknown_places(g, self.seat), token
            self._facts = facts_of(g, self.seat, self._plan)
            self._hopeless = False
        g, ok = _attempts(g, self.seat, rng, self._plan, self._facts, 1 if self._hopeless else ATTEMPTS)
        self._hopeless = not ok  # (no sample this seat may hold is consistent here: take the first made)
        return g


class Mark:
    """Where a game's answers stood (InfoSet.mark): kept private like the InfoSet's game."""

    __slots__ = ("_answers", "_n", "_last")

    def __init__(self, answers: list):
        self._answers = answers
        self._n = len(answers)
        self._last = answers[-1] if answers else None


def unknown_places(game, seat: int) -> list:
    """The places of the cards ``seat`` does not know, by kind (in sorted order): a list of
    (groups, buried), one per kind. groups: one (places, cards) per back of the kind (in sorted
    order: a kind without a back has one), where places are those of the unknown cards of that
    back whose back the seat sees, as (zone index, position, card) in canonical order (zone, then
    position), and cards are all the unknown cards of that back, sorted. buried: the places of
    the kind's unknown cards under the top of a pile (a zone the kind is `stacked_in`: backs not
    seen), in canonical order."""
    S = game.state
    keys = game.rules.back_keys
    buried = S.vis.buried
    bit = 1 << seat
    K = S.k
    kinds: dict = {}
    for zi, zone in enumerate(S.z):
        stacked = buried.get(zi) if buried else None
        top = len(zone) - 1
        for i, c in enumerate(zone):
            if not K[c] & bit:
                key = keys[c]
                backs, under = kinds.setdefault(key[0], ({}, []))
                places, cards = backs.setdefault(key, ([], []))
                cards.append(c)
                if stacked is not None and i != top and c in stacked:
                    under.append((zi, i, c))  # under the top of a pile: its back is not seen
                else:
                    places.append((zi, i, c))
    return [([(places, sorted(cards)) for _, (places, cards) in sorted(backs.items(), key=_order)], under)
            for _, (backs, under) in sorted(kinds.items())]


def _order(item):
    """A back's (key, ...) in a stable order: by the back's values as text."""
    return repr(item[0][1:])


def determinize(game, seat: int, rng, plan: list | None = None, facts: tuple | None = None):
    """A copy of ``game`` as it may be for ``seat``: see the module docstring. ``plan`` is
    ``unknown_places(game, seat)`` and facts ``facts_of(game, seat, plan)`` when the caller has
    them already. A copy in which a pending decision of another seat cannot be asked again is drawn
    again, up to ATTEMPTS times (``ask_again``)."""
    if plan is None:
        plan = unknown_places(game, seat)
    if facts is None:
        facts = facts_of(game, seat, plan)
    return _attempts(game, seat, rng, plan, facts, ATTEMPTS)[0]


def facts_of(game, seat: int, plan: list) -> tuple:
    """What every sample of game for seat at this decision needs (plan: unknown_places): the zones
    of hidden size, the secret counters, where the state holds an unknown card besides its zones,
    the secret branches, and how the places are dealt (places.py: dealt_by_runs)."""
    where = carriers(game.state, hidden(plan))
    return (unsized_zones(game, seat), secret_counters(game, seat), where, secret_branches(game, seat),
            dealt_by_runs(game.state, plan, where))


def _attempts(game, seat: int, rng, plan: list, facts: tuple, attempts: int) -> tuple:
    """(a copy, whether every pending decision of another seat could be asked again in it): the
    first of up to ``attempts`` copies drawn from rng in which they could, else the first drawn
    (its decisions that could not be asked are dead ends: ask_again)."""
    first = None
    for _ in range(attempts):
        g, ok = _determinize(game, seat, rng, plan, facts)
        if ok:
            return g, True
        if first is None:
            first = g
    return first, False


def shuffled(cards: list, rnd) -> list:
    """cards in an order drawn from rnd (random.Random.random), each order alike: sorted by a
    random number each, the i-th number drawn for the i-th card (a sort computes its keys once,
    from the first item to the last), drawn and sorted in C (a Python Fisher-Yates costs several
    times more; an index sorted by a list of keys, then the cards looked up, a third more)."""
    if len(cards) < 2:
        return cards[:]
    return sorted(cards, key=partial(next, starmap(rnd, repeat(()))))


def _determinize(game, seat: int, rng, plan: list, facts: tuple) -> tuple:
    """One copy drawn from rng (determinize), and whether ask_again could ask every decision."""
    S = game.state
    T = S.copy(log=False)
    K = S.k
    k2, loc2, z2 = T.k, T.loc, T.z
    rnd = rng.random
    sigma = {}

    def deal(ps, pool):
        for (zi, i, c), new in zip(ps, pool):
            if new != c:
                sigma[c] = new
                z2[zi][i] = new
                k2[new] = K[c]
                loc2[new] = zi

    def lay(runs, pool):  # (deal, by runs of places, nothing besides the zones to relabel)
        for zi, a, b, j, m, moved in runs:
            cut = pool[j:j + b - a]
            z2[zi][a:b] = cut
            if moved is not None:  # (only the few cards there that come from another zone or mask)
                cut = moved.intersection(cut)
            if type(m) is int:
                for new in cut:
                    loc2[new] = zi
                    k2[new] = m
            else:
                for new, m1 in zip(cut, m):
                    loc2[new] = zi
                    k2[new] = m1

    laid = facts[4]
    if laid is None:
        for groups, under in plan:
            rest = []
            for ps, cards in groups:
                pool = shuffled(cards, rnd)
                deal(ps, pool)
                rest.extend(pool[len(ps):])  # (only when some of the kind lie under a pile's top)
            if under:
                deal(under, shuffled(rest, rnd))
    else:
        for (groups, under), (runs, under_runs) in zip(plan, laid):
            rest = []
            for (ps, cards), r in zip(groups, runs):
                pool = shuffled(cards, rnd)
                lay(r, pool)
                rest.extend(pool[len(ps):])
            if under:
                lay(under_runs, shuffled(rest, rnd))
    forget(T, game.rules)
    if sigma:
        _remap_rest(T, sigma, facts[2])
    dead_ends(T, game.rules, seat, facts[3])  # (after: facts[2] says where the real threads held cards)
    if facts[0]:  # (`size: hidden`: how the unknown cards are split between those zones, drawn again)
        split_again(T, seat, facts[0], rng)
    for i, v in facts[1]:
        T.v[i] = v
    T.rng = rng.getrandbits(64)
    work_out_again(T, game.rules, seat)
    ok = ask_again(T, game.rules, seat)
    g = Game.__new__(Game)
    g.rules = game.rules
    g.state = T
    g.seed = game.seed
    g.names = game.names
    g.answers = []
    return g, ok


def _remap_rest(T, sigma: dict, where: tuple | None = None) -> None:
    """Replace the cards of sigma in T's marks, counters, locals and pending decisions: those
    that hold a card, when where (carriers of the state T copies, the threads' last answers
    dropped) says which."""
    if T.m:
        T.m = {sigma.get(c, c): d for c, d in T.m.items()}
    if where is not None:
        V = T.v
        for i in where[0]:
            V[i] = _remap(V[i], sigma)
        for t, (frames, options) in zip(T.threads, where[1]):
            for f, held in zip(t[0], frames):
                L = f[2]
                for i in held:
                    L[i] = _remap(L[i], sigma)
            if options:
                d = list(t[2])
                d[1] = _remap(list(d[1]), sigma)
                t[2] = d
        return
    T.v = _remap(T.v, sigma)  # (lists: as [_remap(x, sigma) for x in ...])
    for t in T.threads:
        for f in t[0]:
            f[2] = _remap(f[2], sigma)
        if t[2] is not None:
            d = list(t[2])
            d[1] = _remap(list(d[1]), sigma)
            t[2] = d
        t[3] = _remap(t[3], sigma)


def relabel(game, sigma: dict, rng_state: int | None = None):
    """A copy of game in which every card c in sigma is replaced by sigma[c] wherever a card value
    appears (zones, loc, knowledge masks, marks, counters, locals, pending decisions). sigma must
    be a permutation of some cards; the knowledge mask and marks of a place stay with the place.
    The copy has no answers and no log; its generator is rng_state when given."""
    S = game.state
    cards = game.rules.cards
    sigma = {c: cards[x] for c, x in sigma.items() if x != c}
    T = S.copy(log=False)
    if sigma:
        K = S.k
        k2, loc2, z2 = T.k, T.loc, T.z
        for zone in z2:
            for i, c in enumerate(zone):
                new = sigma.get(c)
                if new is not None:
                    zone[i] = new
                    k2[new] = K[c]
                    loc2[new] = S.loc[c]
        _remap_rest(T, sigma)
    if rng_state is not None:
        T.rng = rng_state
    g = Game.__new__(Game)
    g.rules = game.rules
    g.state = T
    g.seed = game.seed
    g.names = game.names
    g.answers = []
    return g


def _remap(x, sigma, plain=frozenset((int, str, bool, float, type(None)))):
    t = type(x)
    if t is Card:
        return sigma.get(x, x)
    if t is list or t is tuple:  # (a card or a plain value in it without a call)
        y = [sigma.get(v, v) if type(v) is Card else v if type(v) in plain else _remap(v, sigma) for v in x]
        return y if t is list else tuple(y)
    if t is dict:
        return {_remap(a, sigma): _remap(b, sigma) for a, b in x.items()}
    return x


def info_set(view_or_info, decision) -> InfoSet:
    """The InfoSet a game-reading bot was given; when a caller passed a plain view (or None)
    instead, build it for the deciding seat from the decision's game. Either way the bot reads the
    game only through the InfoSet."""
    if isinstance(view_or_info, InfoSet):
        return view_or_info
    return InfoSet(decision._game, decision.player)


def option_key(game, player: int, value):
    """An option's value as a key that means the same in every sample: a card the deciding player
    knows is its label (equal cards merge); one it does not know is its place (zone, position)."""
    t = type(value)
    if t is Card:
        S = game.state
        if (S.k[value] >> player) & 1:
            return game.rules.card_labels[value]
        return ("?", S.loc[value], S.z[S.loc[value]].index(value))
    if t is tuple or t is list:
        return tuple(option_key(game, player, v) for v in value)
    if t is int or t is bool or t is str or value is None:
        return value
    return (type(value).__name__, int(value)) if isinstance(value, int) else repr(value)


def bot_input(bot, game, seat: int):
    """What a caller passes as ``choose``'s first argument: an InfoSet for a bot with
    ``needs_game``, the seat's view for one with ``needs_view``, else None."""
    if getattr(bot, "needs_game", False):
        return InfoSet(game, seat)
    if getattr(bot, "needs_view", True):
        return game.view(seat)
    return None


__all__ = ["InfoSet", "unknown_places", "determinize", "secret_counters", "relabel", "info_set", "option_key", "bot_input"]
