"""Positions of real games where seat 0 has a decision with more options than fit at 80x24, saved as
the TUI loads them (seat 0 human, the others random bots): reached by fixed pseudo-random answers."""
from __future__ import annotations

import json
import random

from jux.interpreter.engine.game import Game
from jux.interpreter.engine.ruleset import load_ruleset


def _random_answer(d, rng):
    n = len(d.values)
    if not d.many:
        return rng.randrange(n)
    for _ in range(100):  # a `distinct` choice: no two alike
        pick = sorted(rng.sample(range(n), d.min or 1))
        if d.keys is None or len({d.keys[i] for i in pick}) == len(pick):
            return pick
    return sorted(range(n))[:d.min]


def game_at(name, tiles, players, want, seed=5):
    """A game of `name` where seat 0 must take a decision for which want(decision) holds (the first
    such of the games from seed on)."""
    rules = load_ruleset(name, tiles)
    for s in range(seed, seed + 30):
        g = Game.new(rules, players, s, names=["Ann", "Bob", "Cy", "Di"][:players])
        rng = random.Random(s)
        while not g.over:
            mine = [d for d in g.pending if d.player == 0]
            if mine and want(mine[0]) and all(d.player == 0 for d in g.pending):
                return g
            d = g.pending[0]
            g.apply(_random_answer(d, rng), decision=d.id)
    raise AssertionError(f"no such decision in {name}")


def save_at(tmp_path, name, tiles, players, want, seed=5):
    """The path of a save of game_at(...)."""
    g = game_at(name, tiles, players, want, seed)
    data = g.save()
    data["tui"] = {"seats": ["human"] + ["random"] * (players - 1)}
    path = tmp_path / f"{name}.json"
    path.write_text(json.dumps(data))
    return path


def dualist_turn(d) -> bool:
    """Capital Jux with the dualist: a card to play, with dualist cards that cannot go everywhere."""
    return not d.many and len(d.options) >= 8 and any("dualist" in u["option"] for u in d.unavailable)


def guildhall_setup(d) -> bool:
    return d.many and d.prompt.startswith("Setup")


def guildhall_long(d) -> bool:
    """Guildhall: one card of many (15 or more) to pick."""
    return d.max == 1 and len(d.options) >= 15


def bruges_recruit(d) -> bool:
    """Bruges: a card to play for an action, one of them recruiting a person with a long text."""
    return not d.many and len(d.options) >= 8 and any(len(o.label) > 90 for o in d.options)
