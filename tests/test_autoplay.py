"""Game.autoplay: answering decisions where the rules stop gives the same game as answering them
one by one, and leaves the game at a decision when an answer is refused or the limit is met."""
import random

import pytest

from jux.interpreter.bots.random_bot import random_answer, random_picker
from jux.interpreter.engine.game import Game
from jux.interpreter.engine.ruleset import load_ruleset
from jux.interpreter.errors import DecisionLimit, IllegalAnswer, JuxError
from jux.interpreter.runtime.ops import RuleRuntimeError

TILES = ["infiltrator", "mentalist", "sentinel", "dualist"]


def one_by_one(rules, players, seed):
    g = Game.new(rules, players, seed)
    rnd = random.Random(seed).random
    while (d := g.next_decision()) is not None:
        d.answer(random_answer(d, rnd))
    return g


@pytest.mark.parametrize("tiles", [[], TILES])
def test_the_same_game_as_answering_one_by_one(tiles):
    rules = load_ruleset("capital_jux", tiles)
    for seed in range(12):
        players = 2 + seed % 3
        ref = one_by_one(rules, players, seed)
        g = Game.new(rules, players, seed)
        rnd = random.Random(seed).random
        assert g.autoplay(lambda d: random_answer(d, rnd)) == len(ref.answers)
        assert g.over and g.answers == ref.answers and g.scores == ref.scores
        assert g.state.same_as(ref.state) and g.log_lines(None) == ref.log_lines(None)
        assert g.first_player == ref.first_player


def test_the_answer_may_read_the_game_while_the_rules_wait():
    g = Game.new(load_ruleset("capital_jux"), 3, 5)
    seen = []

    def answer(d):
        view = g.view(d.player)  # a consistent game: the decision is the one pending
        assert [x.id for x in g.pending if x.player == d.player] == [d.id]
        seen.append(len(g.copy().answers))
        return 0 if not d.many else list(range(d.min))

    g.autoplay(answer)
    assert g.over and seen == list(range(len(g.answers)))


def test_the_limit_leaves_the_game_at_a_decision():
    rules = load_ruleset("capital_jux")
    ref = one_by_one(rules, 4, 9)
    g = Game.new(rules, 4, 9)
    rnd = random.Random(9).random
    assert g.autoplay(lambda d: random_answer(d, rnd), 50) == 50
    assert not g.over and g.answers == ref.answers[:50] and g.next_decision() is not None
    assert g.autoplay(lambda d: random_answer(d, rnd), 0) == 0
    g.autoplay(lambda d: random_answer(d, rnd))
    assert g.answers == ref.answers


def test_a_refused_answer_leaves_the_game_at_that_decision():
    g = Game.new(load_ruleset("capital_jux"), 2, 3)
    calls = []

    def answer(d):
        calls.append(d.id)
        return 99 if len(calls) == 30 else (0 if not d.many else list(range(d.min)))

    with pytest.raises(IllegalAnswer):
        g.autoplay(answer)
    assert len(g.answers) == 29
    before = g.state.to_json()
    d = g.next_decision()
    assert d is not None and d.id == calls[-1]
    d.answer(0 if not d.many else list(range(d.min)))  # and it goes on from there
    assert g.state.to_json() != before and len(g.answers) == 30


def test_an_error_of_the_answer_function_is_its_own_not_a_rule_error():
    g = Game.new(load_ruleset("capital_jux"), 2, 3)

    def answer(d):
        if len(g.answers) == 40:
            raise KeyError("a bug in a bot")
        return 0 if not d.many else list(range(d.min))

    with pytest.raises(KeyError) as e:
        g.autoplay(answer)
    assert not isinstance(e.value, RuleRuntimeError) and len(g.answers) == 40 and g.next_decision() is not None


# ------------------------------------------------------------------ direct=True

ALL_TILES = [["agent", "cleric", "merchant", "scholar"], ["infiltrator", "doomsayer", "follower", "convertor"],
             ["recruiter", "missionary", "aristocrat", "discoverer"], ["outsider", "mentalist", "sentinel", "dualist"]]


@pytest.mark.parametrize("tiles", [[]] + ALL_TILES)
def test_direct_gives_the_same_game_its_log_and_labels(tiles, both_ways):
    """The routines run as plain functions give the same answers, state, log and decisions (with
    their prompts and option labels) as the state machines, for the base game and all 16 tiles."""
    rules = load_ruleset("capital_jux", tiles)
    for seed in range(10):
        ref, g, asked_ref, asked = both_ways(rules, 2 + seed % 3, seed)
        assert g.over and g.answers == ref.answers and g.scores == ref.scores and asked == asked_ref
        assert g.state.same_as(ref.state) and g.log_lines(None) == ref.log_lines(None)
        assert g.first_player == ref.first_player


def test_direct_can_start_and_end_anywhere():
    """From a game part played one by one, direct play goes on to the same end; the game is
    usable after it (saved, copied, replayed)."""
    rules = load_ruleset("capital_jux")
    ref = one_by_one(rules, 4, 11)
    g = Game.new(rules, 4, 11)
    rnd = random.Random(11).random
    g.autoplay(lambda d: random_answer(d, rnd), 37)
    g.autoplay(lambda d: random_answer(d, rnd), direct=True)
    assert g.answers == ref.answers and g.state.same_as(ref.state)
    assert Game.from_record(g.save()).state.same_as(g.state) and g.copy().scores == g.scores


def test_direct_lets_the_answer_view_but_not_copy_or_save_the_game():
    rules = load_ruleset("capital_jux")
    g = Game.new(rules, 3, 2)
    views = []

    def answer(d):
        views.append(g.view(d.player)["decisions"])
        assert views[-1][0]["prompt"] == d.prompt
        if len(g.answers) == 60:
            g.copy()
        return 0 if not d.many else list(range(d.min))

    with pytest.raises(JuxError, match="while autoplay.direct=True. runs"):
        g.autoplay(answer, direct=True)
    assert len(g.answers) == 60
    # the rules stopped in the middle of a routine run as a plain function: the game is done for
    for use in (lambda: g.apply(0), lambda: g.copy(), lambda: g.save(), lambda: g.autoplay(answer)):
        with pytest.raises(JuxError, match="an error stopped autoplay.direct=True."):
            use()


def test_direct_limit_is_a_most():
    g = Game.new(load_ruleset("capital_jux"), 2, 1)
    with pytest.raises(JuxError, match="still not over after 10 answers"):
        g.autoplay(lambda d: 0 if not d.many else list(range(d.min)), 10, direct=True)
    assert len(g.answers) == 10
    with pytest.raises(JuxError, match="an error stopped"):
        g.apply(0)


@pytest.mark.parametrize("direct", [False, True])
def test_pick_answers_from_the_shape_of_the_decision(direct):
    """autoplay(pick=...) asks pick(n, lo, hi, many) without making decisions: the same game as
    answering each decision with the same function of its shape."""
    rules = load_ruleset("capital_jux", TILES)
    for seed in range(6):
        players = 2 + seed % 3
        ref = one_by_one(rules, players, seed)
        g = Game.new(rules, players, seed)
        rnd = random.Random(seed).random
        shapes = []

        def pick(n, lo, hi, many):
            shapes.append((n, lo, hi, many))
            return random_picker(rnd)(n, lo, hi, many)

        per_seat = [pick] * players if seed % 2 else pick  # a function per seat, or one for all
        assert g.autoplay(pick=per_seat, direct=direct) == len(ref.answers) == len(shapes)
        assert g.over and g.answers == ref.answers and g.state.same_as(ref.state)
        assert g.log_lines(None) == ref.log_lines(None) and g.first_player == ref.first_player


def test_autoplay_takes_answer_or_pick():
    g = Game.new(load_ruleset("capital_jux"), 2, 1)
    with pytest.raises(TypeError):
        g.autoplay()
    with pytest.raises(TypeError):
        g.autoplay(lambda d: 0, pick=lambda n, lo, hi, many: 0)
    given = []
    with pytest.raises(IllegalAnswer) as e:
        g.autoplay(pick=lambda n, lo, hi, many: given.append(n) or n)  # one past the last option
    assert e.value.answer == given[0] and e.value.player == g.next_decision().player and g.answers == []


def test_direct_refused_answer_says_who_and_what():
    g = Game.new(load_ruleset("capital_jux"), 2, 3)

    def answer(d):
        return 99 if len(g.answers) == 30 else (0 if not d.many else list(range(d.min)))

    with pytest.raises(IllegalAnswer) as e:
        g.autoplay(answer, direct=True)
    assert e.value.answer == 99 and e.value.player in (0, 1) and len(g.answers) == 30


def test_direct_pick_refused_or_taken_as_apply_takes_it():
    """A pick that answers a one-option decision out of range is refused (who and what); one that
    answers in another form apply takes ([i] for i) gives the same game."""
    rules = load_ruleset("capital_jux")
    g = Game.new(rules, 2, 4)

    def bad(n, lo, hi, many):
        return list(range(lo)) if many else n

    with pytest.raises(IllegalAnswer) as e:
        g.autoplay(pick=bad, direct=True)
    assert e.value.answer == len(g.next_decision().values) and e.value.player == g.next_decision().player
    ref = Game.new(rules, 2, 4)
    ref.autoplay(pick=lambda n, lo, hi, many: list(range(lo)) if many else 0, direct=True)
    g = Game.new(rules, 2, 4)
    g.autoplay(pick=lambda n, lo, hi, many: list(range(lo)) if many else [0], direct=True)
    assert g.answers == ref.answers and g.state.same_as(ref.state) and g.over


@pytest.mark.parametrize("players", [2, 4])
def test_direct_pick_takes_a_declined_optional_choose_as_apply_takes_it(players):
    """A choose of one that may be declined (Guildhall's level of an ability), answered by pick in
    direct play: none or an option number gives the same game as answering one by one; another
    form apply takes ([i], []) the same game too; an option number out of range is refused."""
    rules = load_ruleset("guildhall")
    for seed in range(4):
        ref = one_by_one(rules, players, seed)
        assert any(a[1] is None for a in ref.answers)  # some level was declined
        g = Game.new(rules, players, seed)
        rnd = random.Random(seed).random
        assert g.autoplay(pick=random_picker(rnd), direct=True) == len(ref.answers)
        assert g.answers == ref.answers  # and what the rules did (where they stopped is not kept: direct)
        a, b = g.state, ref.state
        assert (a.z, a.v, a.k, a.loc, a.m, a.rng) == (b.z, b.v, b.k, b.loc, b.m, b.rng) and g.first_player == ref.first_player
        rnd = random.Random(seed).random
        pick = random_picker(rnd)

        def as_lists(n, lo, hi, many, keys=None):  # the same answers, one of n given as a list
            a = pick(n, lo, hi, many, keys)
            return a if many else ([] if a is None else [a])

        g = Game.new(rules, players, seed)
        g.autoplay(pick=as_lists, direct=True)
        assert g.answers == ref.answers  # and what the rules did (where they stopped is not kept: direct)
        a, b = g.state, ref.state
        assert (a.z, a.v, a.k, a.loc, a.m, a.rng) == (b.z, b.v, b.k, b.loc, b.m, b.rng)
    g = Game.new(rules, players, 0)
    declined = []

    def bad(n, lo, hi, many, keys=None):  # the first choose that may be declined gets an option past the last
        if lo == 0 and not many and not declined:
            declined.append(n)
            return n
        if not many:
            return 0
        return list(range(lo)) if keys is None else [keys.index(k) for k in range(lo)]  # (no two alike)

    with pytest.raises(IllegalAnswer) as e:
        g.autoplay(pick=bad, direct=True)
    assert e.value.answer == declined[0] == len(g.next_decision().values)


@pytest.mark.parametrize("name", ["capital_jux", "guildhall", "bruges"])
def test_first_answers_a_given_decision_then_plays_on(name):
    """autoplay(first=(decision, choice)): the same game as decision.answer(choice) and then
    autoplay; first is not counted in limit (a search's last answer in its tree, then its playout)."""
    rules = load_ruleset(name)
    for seed in range(4):
        ref, g = Game.new(rules, 4, seed, log=False), Game.new(rules, 4, seed, log=False)
        for h in (ref, g):
            rnd = random.Random(seed).random
            for _ in range(5 + 7 * seed):
                d = h.next_decision()
                d.answer(random_answer(d, rnd))
        pending = g.pending
        d = pending[-1]  # (in a draft, not the first pending decision)
        choice = random_answer(d, random.Random(seed).random)
        [r] = [x for x in ref.pending if x.id == d.id]
        r.answer(choice)
        start = len(g.answers)
        for h, first in ((ref, None), (g, (d, choice))):
            with pytest.raises(DecisionLimit):  # (direct: the limit met in the middle of the rules)
                h.autoplay(pick=random_picker(random.Random(9).random), direct=True, limit=12, first=first)
        assert len(g.answers) == start + 13
        assert g.answers == ref.answers  # and what the rules did (where they stopped is not kept: direct)
        a, b = g.state, ref.state
        assert (a.z, a.v, a.k, a.loc, a.m, a.rng) == (b.z, b.v, b.k, b.loc, b.m, b.rng)
    g = Game.new(rules, 4, 1, log=False)
    d = g.next_decision()
    d.answer(random_answer(d, random.Random(1).random))
    with pytest.raises(JuxError, match="not pending"):
        g.autoplay(pick=random_picker(random.Random(9).random), first=(d, 0))
