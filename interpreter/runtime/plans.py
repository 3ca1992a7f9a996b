"""What a move between two zones has to do for who knows which card, worked out once per pair of
zones and player count (runtime/state.py ZoneTable; the moves themselves: moves.py)."""
from __future__ import annotations


def plan_moves(vis, everyone: int) -> None:
    """Work out, from who sees each zone (vis), who can tell which card left it (vis.follow), the
    marks that fall off (vis.drop) and the `top` zones (vis.top), what moves.py reads for each
    pair of zones: vis.mix, vis.mixable and vis.plan (runtime/state.py ZoneTable)."""
    vis.mix = [[~(f | m) & everyone for m in vis] for f in vis.follow]
    vis.mixable = [any(row) for row in vis.mix]
    vis.unmix = [[~m & everyone for m in row] for row in vis.mix]
    vis.unfollowed = [~f & everyone if m else 0 for f, m in zip(vis.follow, vis.mixable)]
    vis.plan = [[move_plan(vis, src, zi) for zi in range(len(vis))] for src in range(len(vis))]
    vis.gain = [[everyone if src in vis.top else vis[src] & ~vis[zi] for zi in range(len(vis))]
                for src in range(len(vis))]
    vis.whole = [[whole_plan(vis, src, zi, everyone) for zi in range(len(vis))] for src in range(len(vis))]


# what a move of a whole zone has to do besides moving its cards (vis.whole[src][zi], bits)
# (KEEP and FRESH_IF first: with S.o[src] 0, a move with no other bit has nothing more to do)
KEEP, FRESH_IF, GROW, FRESH, TOP, DROP, GAIN = 1, 2, 4, 8, 16, 32, 64


def whole_plan(vis, src: int, zi: int, everyone: int) -> int:
    """What move_all from src to zi has to do besides moving the cards, worked out once per pair
    of zones: KEEP (every pair: 0 is a blind game's), carry S.o[src], the seats that may know a
    card of src beyond those that see it, to S.o[zi] (and clear it: src is empty); GAIN, add
    vis.gain[src][zi] to S.o[zi] too (the seats that see src and not zi; every seat from a `top`
    zone); GROW, add the seats that see zi to who knows each card, when some may not know it
    yet (a card lies in a zone only with the seats that see it knowing it: every move, draw, shuffle
    and the start give it them, and mixing takes away only the bits of seats that do not; under
    the top of a `visible: top` zone no one knows a card, so from such a zone it is always done);
    FRESH, the cards join S.fresh (zi may mix, and a seat that sees src cannot follow zi's cards);
    FRESH_IF, they join it when such a seat is among S.o[src] (zi may mix; none that sees src:
    else the cards know only seats that follow zi's cards, which mixing never touches); TOP, zi is
    a `visible: top` zone (settle_top); DROP, marks may fall off in zi. KEEP alone for most pairs."""
    grow = vis[zi] if src in vis.top else vis[zi] & ~vis[src]
    seen = everyone if src in vis.top else vis[src]
    fresh = (FRESH if seen & vis.unfollowed[zi] else FRESH_IF) if vis.mixable[zi] else 0
    return (KEEP | (GAIN if vis.gain[src][zi] else 0) | (GROW if grow else 0) | fresh
            | (TOP if zi in vis.top else 0) | (DROP if vis.drop[zi] else 0))


def blind_table(vis):
    """The zone table of a game that nobody will ever look at for who knows what (Game.autoplay's blind):
    a bot-only game whose bots read no view and whose rules never call knows(). Its moves do what
    changes the game (zones, marks falling off, the top of a `visible: top` zone) and skip what only
    knowledge needs: no seat keeps following a card (a plan that was a tuple is its int mask), and
    no zone mixes (nothing joins S.fresh). The seats' knowledge in such a game is then wrong, and
    its views are refused (engine/views.py)."""
    blind = type(vis)(vis)
    blind.drop, blind.buried, blind.follow, blind.top = vis.drop, vis.buried, vis.follow, vis.top
    blind.mix = [[0] * len(vis) for _ in vis]
    blind.mixable = [False] * len(vis)
    blind.plan = [[how[0] if type(how) is tuple else how for how in row] for row in vis.plan]
    # (a move of a whole zone whose plan was an int or a tuple: no knowledge; else as seen, without
    # S.o and S.fresh)
    blind.whole = [[0 if how is not None else w & ~(FRESH | FRESH_IF | KEEP | GAIN) for how, w in zip(prow, wrow)]
                   for prow, wrow in zip(vis.plan, vis.whole)]
    blind.unfollowed, blind.gain, blind.unmix = vis.unfollowed, vis.gain, vis.unmix
    blind.blind = blind
    return blind


def move_plan(vis, src: int, zi: int):
    """What a move of a card from zone src to zi has to do besides moving it, worked out once per
    pair of zones (vis.plan[src][zi]):

    - an int, the seats that know the card after the move (those that see zi), and nothing else
      to do: no one else keeps knowing it (follow[src] is within vis[zi]), no one loses track of
      the cards left in src, no mark falls off in zi, neither zone is a `visible: top` zone (most
      moves of most games). Such a card need not be told apart as moved since the last choose
      (S.fresh) even where zi may mix: only the seats that see zi know it, and mixing zi takes
      away only the bits of seats that cannot follow its cards;
    - a tuple (seats that see zi, seats that keep knowing it, seats that lose track of the cards
      left in src, the seats among those that keep knowing it whose bit makes the card join
      S.fresh: those that cannot follow zi's cards, when zi may mix, else 0; the seats that see
      src), when neither zone is a `top` zone and no mark falls off in zi. A card of src is known
      at most by the seats that see src and those of S.o[src]: when none of them is among the
      seats that keep knowing it, the move is the int's, and when none is among those that lose
      track, nothing mixes;
    - None: the whole work, card by card (_followed)."""
    mask, keep, mixers = vis[zi], vis.follow[src] & ~vis[zi], vis.mix[src][zi]
    if vis.drop[zi] or src in vis.top or zi in vis.top:
        return None
    if not (keep or mixers):
        return mask
    return (mask, keep, mixers, keep & ~vis.follow[zi] if vis.mixable[zi] else 0, vis[src])
