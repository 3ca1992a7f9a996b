"""Every combination of power tiles (one per colour: 4^4 = 256) plays to the end with 2, 3 and 4
players, keeping the invariants of the base game:

- every card is in exactly one zone, and every gold token in exactly one place (a player, a card
  of a home base or the supply);
- every option offered is legal: answering it is accepted (checked on copies), and answers
  outside the options are refused;
- no view shows a card its player may not see: a card in a zone hidden from the viewer (a deck, a
  stack, another player's hand) shows only if every player knows it (it was revealed to all), the
  viewer put it there face down themself (an agent tile), is looking at it to place it, or
  followed it there (docs/language.md, "Knowledge that follows the card": the viewer knew it
  and it left a zone whose order is public or the viewer's own, like a pack passed in the draft;
  a card that leaves another seat's hand unseen makes the viewer forget the cards left there);
- the record replays to the identical game, and a save at a random decision loads and plays on to
  the identical end.

The games are random (answers from a generator seeded per combination), the same on every run.
"""
from __future__ import annotations

import itertools
import json
import random

import pytest

from jux import Game, load_ruleset
from jux.interpreter.errors import IllegalAnswer
from jux.interpreter.runtime.state import State
from jux.interpreter.reading.variants import catalogue

GAME = "capital_jux"
COLOURS = ["blue", "pink", "yellow", "green"]
CAT = catalogue(GAME)
TILES = {key: sorted((i for i in CAT.values() if ("power", key) in i.fill_keys), key=lambda i: i.letter)
         for key in COLOURS}
COMBOS = list(itertools.product(*[[i.name for i in TILES[k]] for k in COLOURS]))
MAX_DECISIONS = 2000


def test_every_colour_has_its_four_tiles():
    assert {k: [i.letter for i in TILES[k]] for k in COLOURS} == {k: list("ABCD") for k in COLOURS}
    assert len(COMBOS) == 256


def _answer(rng, d):
    ids = [o.id for o in d.options]
    if d.max > 1 or d.min == 0:
        return rng.sample(ids, rng.randint(d.min, d.max))
    return rng.choice(ids)


def _check_conservation(game, rules):
    S = game.state
    seen = sorted(c for z in S.z for c in z)
    assert seen == list(range(len(rules.cards))), "a card is missing or in two places"
    for zi, z in enumerate(S.z):
        for c in z:
            assert S.loc[c] == zi, f"card {c} is in zone {zi} but its location says {S.loc[c]}"
    fns = rules._c["functions"]
    if "gold_supply" in fns:
        assert fns["gold_supply"](S) >= 0, "more gold is held or placed than the game has"


def _zone_owner_visible(rules, n):
    """Per zone index: (zone name, owner seat or None, visible kind)."""
    lay = rules.layout
    out = []
    for zi in range(lay.zone_count(n)):
        name, key, owner = lay.zone_of(zi)
        out.append((name, owner, lay.zone_def[name]["visible"]))
    return out


def _sees(zones, zi, p) -> bool:
    name, owner, vis = zones[zi]
    return vis == "all" or (vis == "owner" and owner == p)


def _track_followers(game, before_loc, before_k, placer, looking, follows, zones):
    """The seats that followed each card that moved in the last answer (an upper bound of who
    may know it: docs/language.md, "Knowledge that follows the card"), from the zones before and
    after, and what the oracle allowed before (placer, looking, follows: not yet updated)."""
    S = game.state
    everyone = (1 << S.n) - 1
    left = {}  # owner zone index -> the seats that did not see where a card it lost went
    moved = [c for c, zi in enumerate(S.loc) if before_loc[c] != zi]
    for c in moved:
        a, b = before_loc[c], S.loc[c]
        knew = {p for p in range(S.n) if _sees(zones, a, p) or before_k[c] == everyone or placer.get(c) == p
                or looking.get(c) == p or p in follows.get(c, ())}
        name, owner, vis = zones[a]
        follows[c] = {p for p in knew if vis != "owner" or owner == p}
        if vis == "owner":
            left.setdefault(a, set()).update(p for p in range(S.n) if p != owner and not _sees(zones, b, p))
    for a, blind in left.items():  # the cards that stayed there: those seats no longer tell them apart
        for c in S.z[a]:
            if before_loc[c] == a:
                follows[c] = follows.get(c, set()) - blind


def _check_views(game, rules, zones, placer, looking, follows):
    S = game.state
    everyone = (1 << S.n) - 1
    for p in range(S.n):
        for zi, z in enumerate(S.z):
            name, owner, vis = zones[zi]
            if vis == "all" or (vis == "owner" and owner == p):
                continue
            for c in z:
                if not (S.k[c] >> p) & 1:
                    assert game.card_info(c, p) == {"hidden": True}
                    continue
                ok = S.k[c] == everyone or placer.get(c) == p or looking.get(c) == p or p in follows.get(c, ())
                assert ok, (f"LEAK: player {p} sees {rules.card_labels[c]} in {name}"
                            f"{'' if owner is None else f'[{owner}]'} (visible: {vis}) after "
                            f"{len(game.answers)} answers, placed by {placer.get(c)}")


def _track_placers(game, before_loc, last_player, placer, looking, zones):
    """Who put each card into a hidden zone (the player who answered last), and which card a
    deciding player is looking at (a card revealed only to them in a hidden zone)."""
    S = game.state
    for c, zi in enumerate(S.loc):
        if before_loc is None or before_loc[c] != zi:
            placer[c] = last_player if zones[zi][2] != "all" else None
    looking.clear()
    for d in game.pending:
        for zi, z in enumerate(S.z):
            if zones[zi][2] == "none":
                for c in z:
                    if S.k[c] == 1 << d.player and placer.get(c) != d.player:
                        looking[c] = d.player


def _play(rules, n, seed, checks=True):
    game = Game.new(rules, players=n, seed=seed, log=False)
    rng = random.Random(seed)
    zones = _zone_owner_visible(rules, n)
    placer, looking, follows = {}, {}, {}
    _track_placers(game, None, None, placer, looking, zones)
    steps = 0
    while not game.over:
        assert steps < MAX_DECISIONS, "the game does not end"
        d = game.next_decision()
        if checks and steps % 7 == 0:
            _check_conservation(game, rules)
            _check_views(game, rules, zones, placer, looking, follows)
            if len(d.options) > 1:  # other options than the one played are accepted too
                for _ in range(3):
                    game.copy().apply(_answer(rng, d), player=d.player, decision=d.id)
            with pytest.raises(IllegalAnswer):
                game.copy().apply(len(d.options) + 5, player=d.player, decision=d.id)
        before, before_k = list(game.state.loc), list(game.state.k)
        game.apply(_answer(rng, d), player=d.player, decision=d.id)
        _track_followers(game, before, before_k, placer, looking, follows, zones)
        _track_placers(game, before, d.player, placer, looking, zones)
        steps += 1
    _check_conservation(game, rules)
    _check_views(game, rules, zones, placer, looking, follows)
    assert len(game.scores) == n and game.winners
    return game


@pytest.mark.parametrize("combo", COMBOS, ids=["-".join(c) for c in COMBOS])
def test_combination_plays_to_the_end(combo):
    rules = load_ruleset(GAME, combo)
    assert [v for v in rules.variants if CAT[v].fills] == list(combo)
    i = COMBOS.index(combo)
    for n in (2, 3, 4):
        seed = 1000 * n + i
        game = _play(rules, n, seed, checks=(n == 2 + i % 3))
        if n == 2 + i % 3:
            # the record replays to the identical end
            again = Game.from_record(json.loads(json.dumps(game.record())))
            assert again.state.same_as(game.state) and again.scores == game.scores
            # a save at a random decision loads and plays on to the identical end
            cut = random.Random(seed).randrange(len(game.answers) + 1)
            partial = Game.new(rules, players=n, seed=seed, log=False)
            for player, choice in game.answers[:cut]:
                partial.apply(choice, player=player)
            save = json.loads(json.dumps(partial.save()))
            loaded = Game.from_record(save)
            assert State.from_json(save["state"], rules.cards, rules.visibility(n)).same_as(loaded.state)
            for player, choice in game.answers[cut:]:
                loaded.apply(choice, player=player)
            assert loaded.state.same_as(game.state) and loaded.scores == game.scores
