"""The rules' compiled code skips what it can prove needless (issue 40's fourth pass): the type
check of a value known to be a scalar, the length bound of `+` and `*` on numbers, the step count of
a short loop over a constant list. Each test checks the generated code and the values it gives."""
from __future__ import annotations

import pytest

from jux.interpreter.engine.game import Game
from jux.interpreter.errors import JuxError

from test_language_features import rules_with


def _body_of(source: str, name: str) -> str:
    return source.split(f"\ndef {name}(", 1)[1].split("\ndef ", 1)[0]


def test_a_literal_and_a_block_functions_loop_item_are_tested_without_a_check(tmp_path):
    # "red" is a literal; d, in a block function, only ever an item of colours; x is an item of a
    # list of a list and a text, bound by a comprehension of a function reds() calls: checked
    rules = rules_with(tmp_path, counters="got: 0", functions="""
        reds(xs): "[x for x in xs if count(c for c in deck if c.colour == x) > 0]"
        tally(): |
          let t = count(c for c in deck if c.colour == "red")
          for d in colours { t += count(c for c in deck if c.colour == d) }
          return t
        mixed(): |
          let t = 0
          for x in colours {
            let ys = [["red"], x]
            t += len(reds(ys))
          }
          return t
        """, procedures="""
        t: |
          out = (tally(), mixed())
        """)
    assert Game.scenario(rules, 2, run="t").counter("out") == (3 + 6, 2)
    tally = _body_of(rules.source, "F_tally")
    assert "_SCALARS" not in tally and "HX_colour.get('red', _NONE)" in tally
    assert "HX_colour.get(v_d, _NONE)" in tally
    assert "type(v_x) in _SCALARS" in _body_of(rules.source, "F_mixed")


def test_plus_and_times_of_numbers_known_so_are_pythons_own_and_a_list_is_still_bounded(tmp_path):
    # m and total only ever hold numbers, half() and level() return one, value is every card's
    # number: their `+` and `*` are plain; xs is a list and k is bound by a comprehension in a
    # function the body calls: still bounded
    rules = rules_with(tmp_path, counters="got: 0", functions="""
        half(x): x // 2
        level(): |
          let total = 0
          let h = len(deck)
          for c in deck {
            let m = len(table) + c.value
            total += m * m
          }
          return total + half(h) * 3 + limit * 2
        keys(xs): "[k for k in xs]"
        grows(): |
          let xs = [1]
          let k = 3
          let ys = keys([k])
          for i in range(25) { xs = xs * k }
          return len(xs)
        """, procedures="""
        t: |
          out = level()
        u: |
          got = grows()
        """)
    assert Game.scenario(rules, 2, run="t").counter("out") == (
        2 * (1 + 4 + 9) + 3 * 3 + 3 * 2)
    level = _body_of(rules.source, "F_level")
    assert "_add(" not in level and "_mul(" not in level and "v_total += (v_m * v_m)" in level
    assert "_mul(v_xs, v_k)" in _body_of(rules.source, "F_grows")
    with pytest.raises(JuxError, match="at most 1,000,000"):  # (3 ** 13 items: refused before it is made)
        Game.scenario(rules, 2, run="u")


def test_a_short_loop_calling_only_loop_free_functions_counts_no_steps_and_a_runaway_still_stops(tmp_path):
    rules = rules_with(tmp_path, counters="got: 0", functions="""
        reds(): "count(c for c in deck if c.colour == \\"red\\")"
        twice(): double(reds())
        looping(): |
          let t = 0
          for c in deck { t += 1 }
          return t
        light(): |
          let t = 0
          for d in colours { t += twice() }
          return t
        heavy(): |
          let t = 0
          for d in colours { t += looping() }
          return t
        """, procedures="""
        t: |
          out = (light(), heavy())
        u: |
          while true { got += light() }
        """)
    assert Game.scenario(rules, 2, run="t").counter("out") == (12, 12)
    assert "S.steps" not in _body_of(rules.source, "F_light")
    assert "S.steps" in _body_of(rules.source, "F_heavy")
    text = (tmp_path / "feat" / "game.yaml").read_text()
    line = next(i for i, x in enumerate(text.splitlines(), 1) if "while true" in x)
    with pytest.raises(JuxError, match=f"game.yaml:{line}:.*steps without stopping at a decision"):
        Game.scenario(rules, 2, run="u")


def test_a_comprehensions_constant_items_compared_with_values_written_out_are_worked_out_once(tmp_path):
    # each colour of `colours` is known when compiled: `d == "red"` is settled for each, the rest
    # (its pile not empty, with d written out) tested as before; the order is the same
    rules = rules_with(tmp_path, functions="""
        picks(): |
          return [(d, c) for c in deck for d in colours
                  if d == "blue" or (if d == "red" then c.value > 1 else false) or len(piles[d]) > 5]
        none_kept(): "[d for c in table for d in colours if d == \\"green\\"]"
        """, procedures="""
        t: |
          out = (picks(), none_kept())
        """)
    picks, none = Game.scenario(rules, 2, run="t").counter("out")
    assert none == []
    # per card of the deck, in its order: ("red", c) when its value is above 1, then ("blue", c)
    ds = [d for d, _ in picks]
    assert ds.count("blue") == 6 and ds.count("red") == 4 and len({c for _, c in picks}) == 6
    assert all(picks[i + 1] == ("blue", c) for i, (d, c) in enumerate(picks) if d == "red")
    body = _body_of(rules.source, "F_picks")
    assert "for v_d in (('red' if " in body and ", 'blue') if v_d is not ..." in body and "v_d ==" not in body
    assert "for v_d in ()" in _body_of(rules.source, "F_none_kept")


def test_a_comprehension_over_a_list_comprehension_is_one_comprehension(tmp_path):
    # rich() reads others(), compiled in place, and walks it: one comprehension with both tests;
    # reds() walks a comprehension written in it, kept by an index (filter): the same items
    rules = rules_with(tmp_path, functions="""
        others(p): "[q for q in players if q != p]"
        rich(p): "[q for q in others(p) if gold[q] > 0]"
        reds(k): '[c.value for c in [c for c in deck if c.colour == k] if c.value > 1]'
        pairs(p): "[(q, r) for q in others(p) for r in others(q)]"
        """, procedures="""
        t: |
          gold[1] = 5
          gold[2] = 7
          out = (rich(0), rich(1), sum(reds("red")), len(pairs(0)))
        """)
    assert Game.scenario(rules, 3, run="t").counter("out") == ([1, 2], [2], 5, 4)
    rich = _body_of(rules.source, "F_rich")
    assert rich.count(" for v_q in ") == 1 and "if (v_q != v_p) if " in rich
    reds = _body_of(rules.source, "F_reds")
    assert reds.count(" for v_c in ") == 1 and "for v_c in filter(" in reds
    assert "for v_q in ([v_q for v_q in " in _body_of(rules.source, "F_pairs")  # (two fors: as before)


def test_a_comprehension_over_an_empty_zone_gives_its_value_without_running(tmp_path):
    # count, sum, any, all, first and a list over a zone: worked out only when the zone holds a
    # card, the same values as over a list (tally_of, not a zone: run as before)
    walks = ("(count(c for c in {z} if c.value > 1), sum(c.value * 2 for c in {z} if c.value > 1), "
             "any(c.value > 2 for c in {z}), all(c.value > 2 for c in {z}), "
             "first(c.value * 10 for c in {z} if c.value > 1), [c.value * 2 for c in {z}])")
    rules = rules_with(tmp_path, functions=f"""
        tally(p): "{walks.format(z='hand[p]')}"
        tally_of(cs): "{walks.format(z='cs')}"
        """, procedures="""
        t: |
          let empty = (tally(0), tally_of(hand[0]))
          let cs = [c for c in deck]
          move cs to hand[0]
          out = (empty, tally(0), tally_of(hand[0]))
        """)
    empty, full, full_of = Game.scenario(rules, 2, run="t").counter("out")
    assert empty[0] == empty[1] == (0, 0, False, True, None, [])
    assert full == full_of and full[:4] == (4, 20, True, False) and full[4] in (20, 30)
    tally = _body_of(rules.source, "F_tally")
    # (a seat's zone: its index read from a constant tuple of every seat's, `Z[K1[v_p]]`)
    assert tally.count("if Z[K") == 6 and "if Z[" not in _body_of(rules.source, "F_tally_of")


def test_a_comprehension_over_a_short_constant_list_is_written_out_item_by_item(tmp_path):
    # sum, count and lists over colours (with a test too): each colour written out in place of c
    # (no comprehension), and a counter's key written out read at its place (no table looked up)
    rules = rules_with(tmp_path, functions="""
        total(p): "sum(threats[p][c] for c in colours)"
        many(p): "count(c for c in colours if threats[p][c] > 1)"
        each(p): "[threats[p][c] * 2 for c in colours]"
        some(p): "[c for c in colours if threats[p][c] > 1]"
        """, procedures="""
        t: |
          threats[1]["blue"] = 3
          threats[1]["red"] = 1
          stock["blue"] = 5
          out = (total(0), total(1), many(0), many(1), each(1), some(1), stock["blue"] + stock["red"])
        """)
    assert Game.scenario(rules, 2, run="t").counter("out") == (0, 4, 0, 1, [2, 6], ["blue"], 5)
    for name in ("total", "many", "each"):
        body = _body_of(rules.source, f"F_{name}")
        assert " for " not in body and "'red'" not in body and "'blue'" not in body, body
    assert " for " not in _body_of(rules.source, "F_some")  # (each colour kept or not: *(('red',) if ... else ()))


# ---------------------------------------------------------------- issue 40, stop 49


def _played(rules, blind: bool):
    from jux.interpreter.study.simulate import play
    game = play(rules, 3, 7, ["random"] * 3, blind=blind)
    S = game.state
    return game.state.v[:], [list(z) for z in S.z], list(S.loc)


def test_moves_draws_and_reveals_of_a_game_played_blind_run_in_place_and_move_the_same_cards(tmp_path):
    # a whole zone moved, a draw, a card and a list moved, a card shown: in a game played blind
    # written out in the rules' code (no call); the same zones and places as in the game seen
    rules = rules_with(tmp_path, procedures="""
        t: |
          draw 3 from deck to hand[1]
          draw 2 from deck to hand[2]
          move hand[1] to table
          let c = top(table)
          let p = 2
          reveal c to p
          reveal c
          move c to hand[0]
          move [x for x in table if x.value > 1] to hand[2]
          draw 0 from deck to table
          draw 50 from deck to piles["red"]
          out = (len(hand[0]), len(hand[1]), len(hand[2]), len(table), len(deck), len(piles["red"]))
        """)
    t = _body_of(rules.source, "P_t")
    assert "Z[_ms] = []; Z[_md].extend(_mw)" in t and "_mw.pop()" in t and "Z[_ms].remove(v_c)" in t
    assert t.split("\n")[1].endswith("; B = S.vis.blind is S.vis")  # (read once, in the prologue)
    assert "if B and type(v_c) is _Card: _md = " in t
    assert "if not B: _reveal(S, v_c, v_p)" in t and "if not B: _reveal(S, v_c, None)" in t
    assert "S.z[" not in t
    blind, seen = _played(rules, True), _played(rules, False)
    assert blind == seen
    out = blind[0][0]
    assert out[:2] == (1, 0) and out[4] == 0 and sum(out) == len(rules.cards)


def test_a_seats_zone_and_counter_index_is_read_from_a_table_of_every_seats(tmp_path):
    rules = rules_with(tmp_path, procedures="""
        t: |
          draw 2 from deck to hand[1]
          for p in players { gold[p] += len(hand[p]) * 10 + p }
          threats[1]["blue"] += 3
          out = (gold[0], gold[1], len(hand[1]), threats[1]["blue"], threats[0]["blue"])
        """)
    t = _body_of(rules.source, "P_t")
    assert "*(" not in t and "Z[K" in t and "V[K" in t
    assert Game.scenario(rules, 2, run="t").counter("out") == (0, 21, 2, 3, 0)


def test_any_card_with_an_attribute_value_is_a_set_of_those_cards_not_disjoint_from_the_zone(tmp_path):
    rules = rules_with(tmp_path, functions="""
        has(p, d): "any(c.colour == d for c in hand[p])"
        """, procedures="""
        t: |
          out = (has(0, "red"), has(0, "blue"), has(0, "green"), has(1, "red"))
        """)
    assert ".isdisjoint(Z[" in _body_of(rules.source, "F_has") and "map(AT_colour" not in rules.source
    reds = [c for c in rules.cards if rules.card_labels[c].startswith("red")][:2]
    labels = [rules.card_labels[c] for c in reds]
    assert Game.scenario(rules, 2, zones={"hand[0]": labels}, run="t").counter("out") == (True, False, False, False)


def test_a_let_of_a_list_comprehension_is_a_loop_appending_to_a_new_list(tmp_path):
    # p of the comprehension is named apart: the routine's own p keeps its value
    rules = rules_with(tmp_path, procedures="""
        t: |
          for p in players { gold[p] += p * 5 }
          let p = 9
          let xs = [gold[p] * 2 + p for p in players if p != 1]
          let ys = [q for q in xs]
          out = (xs, ys, p)
        """)
    t = _body_of(rules.source, "P_t")
    assert "for _lv1 in PLAYERS[S.n]:" in t and "_lc1.append(" in t and "v_xs = _lc1" in t
    assert Game.scenario(rules, 3, run="t").counter("out") == ([0, 22], [0, 22], 9)
