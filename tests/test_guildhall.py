"""Guildhall as a user meets it: the command line, whole games by every bot, what each seat may
see, records that replay. (Every rulebook clause is a scenario in tests/scenarios/guildhall/.)"""
from __future__ import annotations

import os
import random
import subprocess
import sys
from collections import Counter

import pytest

from jux.interpreter.bots import make_bot
from jux.interpreter.bots.random_bot import random_picker
from jux.interpreter.bots.sample import bot_input
from jux.interpreter.engine.game import Game
from jux.interpreter.engine.ruleset import load_ruleset

PROFESSIONS = ["assassin", "dancer", "farmer", "historian", "trader", "weaver"]


def jux(*args, columns=None):
    env = None if columns is None else {**os.environ, "COLUMNS": str(columns)}
    p = subprocess.run([sys.executable, "-m", "jux", *map(str, args)], capture_output=True, text=True,
                       timeout=300, env=env)
    return p.returncode, p.stdout + p.stderr


@pytest.fixture(scope="module")
def rules():
    return load_ruleset("guildhall")


def test_validate_and_rules_list_it():
    code, out = jux("validate", "rules/guildhall")
    assert code == 0 and out.startswith("ok: rules/guildhall (150 cards")
    code, out = jux("rules")
    assert code == 0 and "guildhall" in out and "Guildhall" in out


def test_rules_show_every_level_and_every_vp_card():
    code, out = jux("rules", "guildhall", columns=200)  # (wide: a card's title on one line)
    assert code == 0
    flat = " ".join(out.split())
    for k in PROFESSIONS:
        assert f"{k.upper()}." in flat
    for level in ("ASSASSIN. 0:", "2: discard one card each from two different chapters", "FARMER. 1: gain one VP token. 3:"):
        assert level in flat
    for card in ("2 VP (1 chapter): take a chapter", "3 VP (1 chapter): swap one for two", "3 VP (1 chapter): place cards", "4 VP (1 chapter): draw 5",
                 "4 VP (1 chapter): an action", "4 VP (1 chapter): take a card", "7 VP (2 chapters): two actions", "9 VP (2 chapters)"):
        assert card in flat
    assert "│ 5 VP (1 chapter) " in out and "│     6 │" in out  # six 5 VP cards


@pytest.mark.parametrize("players", [2, 3, 4])
def test_simulate_ends_every_game_by_the_rules(players):
    code, out = jux("simulate", "guildhall", "--players", players, "--games", 6, "--workers", 1, "--quiet")
    assert code == 0, out


def play_out(game, bots):
    while not game.over:
        d = game.pending[0]
        bot = bots[d.player]
        d.answer(bot.choose(bot_input(bot, game, d.player), d))
    return game


@pytest.mark.parametrize("seats", [["random", "greedy"], ["ismcts:iterations=20", "random", "random"]])
def test_every_bot_plays_it_to_the_end_unchanged(rules, seats):
    bots = [make_bot(s, seed=i) for i, s in enumerate(seats)]
    g = play_out(Game.new(rules, len(seats), seed=11), bots)
    scores = g.scores
    (w,) = g.winners
    assert scores[w] >= 20 and all(s < 20 for p, s in enumerate(scores) if p != w)
    assert g.counter("winner") == w


def test_each_card_once_the_same_game_from_its_record_and_no_leaks(rules):
    for seed in range(3):
        g = Game.new(rules, 3, seed=seed, start=False)
        g.autoplay(pick=random_picker(random.Random(seed).random))
        cards = Counter(c for z in g.state.z for c in z)
        assert len(cards) == 150 and set(cards.values()) == {1}
        again = Game.from_record(g.record())
        assert again.state.to_json() == g.state.to_json() and again.scores == g.scores
        for viewer in range(3):
            v = g.view(viewer)
            # everyone's VP total, for every seat
            assert v["counters"]["vp"] == [g.counter("vp", p) for p in range(3)] == g.scores
            for z in v["zones"]:
                hidden = [c.get("hidden", False) for c in z["cards"]]
                if z["name"] in ("hand", "completed") and z["owner"] != viewer:
                    # another's hand and face-down chapters: only cards this seat saw go there
                    for c, h in zip(g.state.z[[i for i, zz in enumerate(v["zones"]) if zz is z][0]], hidden):
                        assert h == (not g.knows(viewer, c))
                if z["name"] in ("guildhall", "vp_cards", "center"):
                    assert not any(hidden)


def test_vp_is_visible_to_everyone_during_the_game(rules):
    g = Game.new(rules, 4, seed=2, start=False)
    g.autoplay(pick=random_picker(random.Random(2).random), limit=120)
    assert not g.over
    totals = [g.counter("vp", p) for p in range(4)]
    assert totals == g.scores
    for viewer in range(4):
        assert g.view(viewer)["counters"]["vp"] == totals
