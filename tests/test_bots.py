"""Bots: greedy and ISMCTS play any ruleset legally, deterministically, and without peeking."""
import random

import pytest

from jux.interpreter.bots import bot_names, make_bot
from jux.interpreter.bots.greedy import decision_in
from jux.interpreter.bots.sample import InfoSet, bot_input, determinize, relabel
from jux.interpreter.engine.game import Game
from jux.interpreter.engine.ruleset import load_ruleset
from jux.interpreter.study.simulate import play

FAST = ["greedy:rollouts=0", "greedy:rollouts=1", "ismcts:iterations=4", "ismcts:iterations=3:depth=-1",
        "ismcts:iterations=4:policy=mast"]


@pytest.fixture(scope="module")
def rules():
    return load_ruleset("capital_jux")


def advance(game, steps, seed=0):
    """Answer `steps` decisions at random."""
    rng = random.Random(seed)
    for _ in range(steps):
        d = game.next_decision()
        if d is None:
            break
        bot = make_bot("random", rng.randrange(1 << 30))
        d.answer(bot.choose(None, d))
    return game


def hidden_swap(game, seat):
    """Another world the seat cannot tell apart: two cards of one kind that the seat does not know,
    in two different zones, exchanged (with every reference to them). None if there is none."""
    S = game.state
    attrs = game.rules.card_attrs
    unknown = [c for z in S.z for c in z if not (S.k[c] >> seat) & 1]
    for a in unknown:
        for b in unknown:
            if a < b and S.loc[a] != S.loc[b] and attrs[a]["kind"] == attrs[b]["kind"] and \
                    game.rules.card_labels[a] != game.rules.card_labels[b]:
                return relabel(game, {a: b, b: a}, S.rng)
    return None


def public(view):
    return {k: v for k, v in view.items() if k != "log"}


def positions(rules, players, seeds=range(1, 4), steps=(0, 6, 15, 30, 45, 70)):
    for seed in seeds:
        for n in steps:
            g = advance(Game.new(rules, players, seed, log=False), n, seed)
            d = g.next_decision()
            if d is not None:
                yield g, d


def test_bots_are_registered():
    assert {"random", "greedy", "ismcts"} <= set(bot_names())
    assert make_bot("ismcts:iterations=7:c=1.2", 1).iterations == 7
    assert make_bot("ismcts:seconds=0.5", 1).seconds == 0.5
    assert make_bot("ismcts:500", 1).iterations == 500  # a bare number is the first option
    assert make_bot("ismcts:500:depth=-1", 1).depth == -1
    assert make_bot("greedy", 1).needs_game and make_bot("ismcts", 1).needs_game


def test_a_sample_is_a_consistent_game_that_keeps_what_the_seat_knows(rules):
    for g, d in positions(rules, 4):
        seat = d.player
        s = determinize(g, seat, random.Random(3))
        S, T = g.state, s.state
        assert sorted(c for z in T.z for c in z) == list(range(len(rules.cards)))
        for zi, zone in enumerate(T.z):
            assert len(zone) == len(S.z[zi])
            for i, c in enumerate(zone):
                assert T.loc[c] == zi
                old = S.z[zi][i]
                assert T.k[c] == S.k[old]  # who knows a place does not change
                assert rules.card_attrs[c]["kind"] == rules.card_attrs[old]["kind"]
                if (S.k[old] >> seat) & 1:
                    assert c == old  # a card the seat knows stays where it is
        assert public(s.view(seat)) == public(g.view(seat))
        assert s.answers == [] and s.state.rng != g.state.rng
        # the sample plays on to the end
        advance(s, 500, 1)
        assert s.over


def test_an_infoset_samples_the_game_where_it_is_now(rules):
    """InfoSet keeps the places of the unknown cards between samples; once the game has moved on
    its samples follow (and a kept plan draws exactly what a fresh one does)."""
    g = advance(Game.new(rules, 4, 8, log=False), 12, 8)
    seat = g.next_decision().player
    info = InfoSet(g, seat)
    assert info.sample(random.Random(1)).state.to_json() == determinize(g, seat, random.Random(1)).state.to_json()
    for _ in range(25):
        advance(g, 1, len(g.answers))
        s = info.sample(random.Random(2))
        assert public(s.view(seat)) == public(g.view(seat))
        assert s.state.to_json() == determinize(g, seat, random.Random(2)).state.to_json()


def test_hidden_cards_are_really_redealt(rules):
    g = advance(Game.new(rules, 4, 5, log=False), 30, 5)
    while True:  # a decision mid-round at which the next seat holds cards the deciding seat cannot see
        seat = g.next_decision().player
        other = (seat + 1) % 4
        if len(g.zone(f"hand[{other}]")) >= 2:
            break
        advance(g, 1, len(g.answers))
    hands = {tuple(determinize(g, seat, random.Random(i)).zone(f"hand[{other}]")) for i in range(10)}
    assert len(hands) > 1


def test_samples_do_not_depend_on_what_the_seat_cannot_see(rules):
    """The heart of no-peeking: swap two hidden cards; the seat's view is the same and so is every
    sample it draws."""
    checked = 0
    for players in (2, 3, 4):
        for g, d in positions(rules, players):
            seat = d.player
            h = hidden_swap(g, seat)
            if h is None:
                continue
            assert h.state.to_json() != g.state.to_json()
            assert public(h.view(seat)) == public(g.view(seat))
            for r in range(3):
                a = determinize(g, seat, random.Random(r)).state.to_json()
                b = determinize(h, seat, random.Random(r)).state.to_json()
                assert a == b
            checked += 1
    assert checked > 20


@pytest.mark.parametrize("spec", ["greedy", "greedy:rollouts=0", "ismcts:iterations=30",
                                  "ismcts:iterations=20:depth=-1", "ismcts:iterations=30:policy=mast"])
def test_same_decision_in_worlds_the_seat_cannot_tell_apart(rules, spec):
    checked = 0
    for g, d in positions(rules, 4, seeds=(1, 2), steps=(6, 30, 45)):
        seat = d.player
        h = hidden_swap(g, seat)
        if h is None or len(d.values) < 2:
            continue
        dh = decision_in(h, d.id)
        a = make_bot(spec, 11).choose(InfoSet(g, seat), d)
        b = make_bot(spec, 11).choose(InfoSet(h, seat), dh)
        assert a == b
        checked += 1
    assert checked >= 3


@pytest.mark.parametrize("spec", ["greedy", "ismcts:iterations=20", "ismcts:iterations=20:policy=mast"])
def test_same_seed_same_game_same_decisions(rules, spec):
    for g, d in positions(rules, 3, seeds=(4,), steps=(0, 20, 40)):
        answers = {repr(make_bot(spec, 99).choose(InfoSet(g, d.player), d)) for _ in range(2)}
        assert len(answers) == 1
    a = play(rules, 2, 7, [spec, "greedy:rollouts=0"]).record()
    b = play(rules, 2, 7, [spec, "greedy:rollouts=0"]).record()
    assert a == b


@pytest.mark.parametrize("players", [2, 3, 4])
def test_bots_finish_games_without_an_illegal_answer(rules, players):
    specs = (FAST[players - 2:] + FAST)[:players]
    g = play(rules, players, players * 10 + 1, specs)  # play raises on any illegal answer
    assert g.over and len(g.scores) == players


def test_a_game_reading_bot_given_only_a_view_reads_the_game_through_an_infoset(rules):
    g = advance(Game.new(rules, 4, 2, log=False), 25, 2)
    d = g.next_decision()
    bot = make_bot("ismcts:iterations=10", 3)
    assert bot.choose(g.view(d.player), d) == make_bot("ismcts:iterations=10", 3).choose(InfoSet(g, d.player), d)
    assert isinstance(bot_input(bot, g, d.player), InfoSet)
    assert bot_input(make_bot("random", 1), g, d.player) is None


def test_greedy_takes_the_points_one_decision_ahead(rules):
    # with pure look-ahead (no playouts) the only points on offer now are a card into the hometown
    g = advance(Game.new(rules, 2, 3, log=False), 0)
    while True:
        d = g.next_decision()
        if not d.many:
            break
        d.answer(list(range(d.min)))
    a = make_bot("greedy:rollouts=0", 1).choose(InfoSet(g, d.player), d)
    assert "hometown" in d.options[a].label


# ---------------------------------------------------------------- every tile combination

def _tile_combinations():
    import itertools

    from jux.interpreter.reading.variants import catalogue

    cat = catalogue("capital_jux")
    colours = ["blue", "pink", "yellow", "green"]
    tiles = {k: sorted((i for i in cat.values() if ("power", k) in i.fill_keys), key=lambda i: i.letter)
             for k in colours}
    return list(itertools.product(*[[i.name for i in tiles[k]] for k in colours]))


COMBOS = _tile_combinations()
TILE_BOTS = ["random", "greedy", "ismcts:iterations=2"]


@pytest.mark.parametrize("combo", COMBOS, ids=["-".join(c) for c in COMBOS])
def test_every_bot_finishes_a_game_of_every_tile_combination(combo):
    """Each of the 256 tile combinations: one 3-player game between one random, one greedy and one
    ismcts bot (a tiny budget: 2 iterations, each a determinized sample, a tree step and a random
    playout to the end), seats rotated by the combination's number, so every bot meets every tile
    in 64 combinations, about a third of them from each seat. `play` refuses an illegal answer and
    a game that does not end. Once per game a sample drawn for the seat deciding mid-game shows
    that seat exactly what the real game shows it (a sample is consistent with the seat's view
    whatever the tiles add). The rulesets loaded here are cached for tests/test_tiles.py."""
    rules = load_ruleset("capital_jux", combo)
    i = COMBOS.index(combo)
    specs = TILE_BOTS[i % 3:] + TILE_BOTS[:i % 3]
    g = play(rules, 3, 5000 + i, specs)
    assert g.over and len(g.scores) == 3 and g.winners
    h = advance(Game.new(rules, 3, 5000 + i, log=False), 20 + i % 40, i)
    d = h.next_decision()
    if d is not None:
        s = determinize(h, d.player, random.Random(i))
        assert public(s.view(d.player)) == public(h.view(d.player))
        advance(s, 2000, i)
        assert s.over


@pytest.mark.parametrize("name", ["capital_jux", "guildhall", "bruges"])
def test_the_root_answers_have_the_same_keys_in_every_sample(name):
    # ismcts keys the root's answers once (ismcts._search): a sample keeps each card's place and
    # who knows it, so a known card's label and an unknown card's place are the same in each
    from jux.interpreter.bots.ismcts import keyed_answers
    from jux.interpreter.bots.answers import answers_of
    from jux.interpreter.bots.sizes import sizes_hidden

    rs = load_ruleset(name)
    assert not sizes_hidden(rs)
    for g, d in positions(rs, 4, seeds=(1, 2), steps=(0, 8, 20, 40)):
        rng = random.Random(5)
        acts = answers_of(d, rng)
        info = InfoSet(g, d.player)
        keys = [list(keyed_answers(s, decision_in(s, d.id), acts).items())
                for s in (info.sample(rng) for _ in range(12))]
        assert all(k == keys[0] for k in keys)
