"""A procedure called from one place compiled into its caller (interpreter/compiler/inline_calls.py),
and a uniformly random seat's answers drawn in the rules' code (compiler/uniform.py): the same
games, the same step budget, errors at the same rule positions."""
from __future__ import annotations

import pytest

from jux.interpreter.bots import bot_factory, seat_seed
from jux.interpreter.engine.game import Game
from jux.interpreter.engine.ruleset import RuleRuntimeError, load_ruleset
from jux.interpreter.errors import JuxError
from jux.interpreter.study.simulate import play

from test_language_features import rules_with


def _body_of(source: str, name: str) -> str:
    return source.split(f"\ndef {name}(", 1)[1].split("\ndef ", 1)[0]


def test_a_procedure_called_from_one_place_runs_in_its_callers_body(tmp_path):
    # helper's parameter x is assigned and its local y has the caller's name: renamed apart; its
    # parameter a reads the caller's x as it is, which its comprehension's b cannot capture
    rules = rules_with(tmp_path, counters="got: 0", procedures="""
        t: |
          let x = 10
          let y = 1
          helper(x, y)
          out = (x, y, got, [a for a in [x]])
        helper(a, x): |
          x = x + a
          let y = [a + b for b in [x]]
          for c in [1, 2] { got += c + y[0] }
        """)
    assert Game.scenario(rules, 2, run="t").counter("out") == (10, 1, 45, [10])
    assert "P_helper(S" not in _body_of(rules.source, "P_t")  # (compiled in place)
    assert "def P_helper(S" in rules.source  # (and still made: a scenario may run it)


def _where(tmp_path, needle: str) -> int:
    text = (tmp_path / "feat" / "game.yaml").read_text()
    return next(i for i, line in enumerate(text.splitlines(), 1) if needle in line)


def test_a_runaway_loop_in_a_procedure_compiled_in_place_stops_at_its_line(tmp_path):
    rules = rules_with(tmp_path, counters="got: 0", procedures="""
        t: |
          helper()
        helper: |
          while true { got += 1 }
        """)
    assert "P_helper(S" not in _body_of(rules.source, "P_t")
    with pytest.raises(JuxError) as e:
        Game.new(rules, 1, 1)
    assert "steps without stopping at a decision" in str(e.value)
    assert f"game.yaml:{_where(tmp_path, 'while true')}:" in str(e.value)


def test_an_error_in_a_procedure_compiled_in_place_names_its_line(tmp_path):
    rules = rules_with(tmp_path, procedures="""
        t: |
          helper(5)
        helper(i): |
          out = [1, 2][i]
        """)
    with pytest.raises(RuleRuntimeError) as e:
        Game.new(rules, 1, 1)
    assert f"game.yaml:{_where(tmp_path, 'out = [1, 2][i]')}:" in str(e.value)


TURNS = """
    t: |
      for r in range(2) { for p in players { turn(p, r) } }
    turn(p, r): |
      let offer = [x + r for x in [1, 2, 3]]
      choose c from offer by p prompt "Take how many?" label "take {c} in round {r}"
      gold[p] += c
    """


def test_a_choose_in_a_procedure_compiled_in_place_reads_its_locals_in_labels(tmp_path):
    rules = rules_with(tmp_path, procedures=TURNS)
    assert "D_turn(S" not in _body_of(rules.source, "D_t")  # (compiled in place in t's D_ version)
    seen = []

    def answer(d):
        seen.append([o.label for o in d.options])
        return len(seen) % 3

    direct = Game.new(rules, 2, 7, start=False)
    direct.autoplay(answer, direct=True)
    labels, seen[:] = list(seen), []
    stepped = Game.new(rules, 2, 7)  # (the state machines, answered one by one)
    while not stepped.over:
        stepped.apply(answer(stepped.pending[0]))
    assert labels == seen and labels[0] == ["take 1 in round 0", "take 2 in round 0", "take 3 in round 0"]
    assert direct.answers == stepped.answers and direct.state.same_as(stepped.state)


def _drawn_as_picked(rules, players: int, seeds) -> list:
    """Plays each seed with every seat the random bot twice: its answers drawn in the rules' code
    (simulate.play), and each asked of its pick; asserts the same games, returns the answers drawn."""
    factory = bot_factory("random")
    answers = []
    for seed in seeds:
        drawn = play(rules, players, seed, [factory] * players, blind=True)  # (the answers drawn in place)
        bots = [factory(seat_seed(seed, p)) for p in range(players)]
        picked = Game.new(rules, players, seed, log=False, start=False)
        picked.autoplay(pick=[b.pick for b in bots], direct=True, blind=True)  # (each answer asked of pick)
        assert drawn.answers == picked.answers and drawn.scores == picked.scores
        assert drawn.state.to_json() == picked.state.to_json()
        answers.extend(a for _, a in drawn.answers)
    return answers


@pytest.mark.parametrize("rules, tiles, players", [("capital_jux", (), 4), ("capital_jux", (), 2),
                                                   ("capital_jux", ("infiltrator", "doomsayer", "aristocrat",
                                                                    "convertor"), 3),
                                                   ("guildhall", (), 4), ("bruges", (), 3),
                                                   ("docs/games/crazy_eights", (), 3), ("docs/games/gin_rummy", (), 2),
                                                   ("docs/games/deadwood", (), 2), ("docs/games/melds", (), 3)])
def test_random_seats_answered_in_the_rules_code_play_the_same_games(rules, tiles, players):
    rules = load_ruleset(rules, tiles)
    _drawn_as_picked(rules, players, range(3))
    assert "_floor(_ur()" in rules.source


def test_a_local_known_to_hold_a_scalar_is_tested_without_a_check_and_only_it(tmp_path):
    # d is only ever an item of colours: tested against a card's colour without checking its type;
    # x is bound by a function's comprehension over a list holding a list: always checked
    rules = rules_with(tmp_path, counters="got: 0", functions="""
        reds(xs): "[x for x in xs if count(c for c in deck if c.colour == x) > 0]"
        """, procedures="""
        t: |
          for d in colours { got += count(c for c in deck if c.colour == d) }
          let ys = [["red"], "red"]
          for x in colours { got += len(reds(ys)) }
          out = got
        """)
    assert Game.scenario(rules, 2, run="t").counter("out") == 6 + 2
    body = _body_of(rules.source, "P_t")
    assert "HX_colour.get(v_d, _NONE), " in body and "type(v_x) in _SCALARS" in body


def test_a_choose_of_several_from_a_constant_list_gives_a_list_checked_as_any_value(tmp_path):
    rules = rules_with(tmp_path, counters="got: 0", procedures="""
        t: |
          choose ds from colours pick 2 by 0
          got += count(c for c in deck if c.colour == ds)
          choose d from colours by 0
          got += count(c for c in deck if c.colour == d)
        """)
    body = _body_of(rules.source, "D_t")
    assert "type(v_ds) in _SCALARS" in body and "HX_colour.get(v_d, _NONE), " in body
    game = Game.new(rules, 2, 1)
    game.apply([0, 1])
    game.apply(0)
    assert game.over and game.counter("got") == 0 + 3


def test_every_kind_of_choose_is_drawn_in_place_as_the_random_bot_picks_it(tmp_path):
    # a choose of one that may be declined (a single name, a tuple), of one with an `unavailable`
    # clause, `pick N` optional, `pick up to N` with and without optional: each drawn in the rules'
    # code as random_picker draws it (how many, then which), and none of them when there are no
    # options (the deck runs empty and fills again)
    rules = rules_with(tmp_path, procedures="""
        t: |
          for r in range(8) {
            for p in players {
              choose c from deck by p optional
              if c != none { move c to hand[p] }
              choose (x, k) from [(y, 1) for y in hand[p]] by p optional
              choose d from deck by p unavailable [(y, "taken") for y in hand[p]]
              if d != none { move d to hand[p] }
              choose cs from hand[p] by p pick 2 optional
              move cs to deck
              choose us from hand[p] by p pick up to 3
              n += len(us)
              choose vs from deck by p pick up to 2 optional
              move vs to hand[p]
              gold[p] += len(cs) * 100 + len(vs) * 10 + (if x == none then 0 else 1)
            }
          }
        """)
    body = _body_of(rules.source, "D_t")
    assert body.count("_floor(_ur()") >= 7 and "S.direct_many(T, _ub, _uo" in body and "S.direct_one(T, _ub, _uo" in body
    kinds = {type(a).__name__ if type(a) is not list else f"list of {len(a)}"
             for a in _drawn_as_picked(rules, 2, range(12))}
    # declined, one option, and lists of none to three options were all drawn
    assert {"NoneType", "int", "list of 0", "list of 1", "list of 2", "list of 3"} <= kinds


def test_a_distinct_choose_is_drawn_in_place_as_the_random_bot_picks_it(tmp_path):
    # `pick N`, `pick up to N` optional or not, with a key that is a value, a list (grouped as a
    # tuple) and a tuple: drawn in the rules' code as random_picker draws it (how many of the
    # groups, all the options shuffled, each taken unless one of its group is), the same games
    rules = rules_with(tmp_path, procedures="""
        t: |
          for r in range(6) {
            for p in players {
              choose cs from deck pick 2 by p distinct c -> c.colour
              move cs to hand[p]
              choose ds from hand[p] pick up to 3 by p optional distinct c -> [c.value]
              move ds to deck
              choose es from hand[p] pick up to 2 by p distinct c -> (c.colour, c.value)
              move es to deck
              gold[p] += len(cs) * 100 + len(ds) * 10 + len(es)
            }
          }
        """)
    body = _body_of(rules.source, "D_t")
    assert body.count("_distinct_picks(_uc, _uy, _uk)") == 3 and "S.direct_many(T, _ub, _uo" in body
    kinds = {f"list of {len(a)}" for a in _drawn_as_picked(rules, 2, range(12))}
    assert {"list of 0", "list of 1", "list of 2", "list of 3"} <= kinds
