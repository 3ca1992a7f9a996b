"""The ISMCTS bot: information-set Monte Carlo tree search (single observer, any number of players).

It sees only its seat's InfoSet (see sample.py). Each iteration draws a determinized game (the
cards the seat does not know dealt again from the bot's own generator, the game's generator
reseeded), walks the one tree of the seat's information set with UCB among the answers available
in that sample, adds one node, plays the rest of the game out at random and backs up every seat's
reward (1 for a win, 1/k for a k-way complete tie, plus a small share for the score margin).

Answers are keyed so they mean the same in every sample (sample.option_key): a card the deciding
player knows is its label, one it does not is its place. Simultaneous decisions are searched one
after the other in the order the game lists them.

Budget: ``iterations`` (default 200) and/or ``seconds`` per decision; with both, whichever ends
first. With an iteration budget the bot is deterministic (same seed and game, same answers).
"""
from __future__ import annotations

import math
import random
import time

from . import Bot
from .greedy import decision_in, random_playout
from .sample import answers_of, info_set, option_key


class Node:
    __slots__ = ("children", "n", "w", "avail", "player")

    def __init__(self, player: int, players: int):
        self.children: dict = {}
        self.n = 0
        self.w = [0.0] * players
        self.avail = 0
        self.player = player  # who made the move leading here


def answer_key(game, decision, answer):
    p = decision.player
    if answer is None:
        return ("decline",)
    if type(answer) is list:
        return ("pick",) + tuple(sorted((option_key(game, p, decision.values[i]) for i in answer), key=repr))
    return option_key(game, p, decision.values[answer])


def rewards(game, margin: float) -> list:
    """Each seat's reward at the end of a game: its share of the win, plus margin x score share."""
    n = game.state.n
    win = game.winners
    share = 1.0 / len(win)
    r = [(1.0 - margin) * (share if p in win else 0.0) for p in range(n)]
    if margin:
        s = game.scores
        hi, lo = max(s), min(s)
        if hi > lo:
            for p in range(n):
                r[p] += margin * (s[p] - lo) / (hi - lo)
        else:
            for p in range(n):
                r[p] += margin * 0.5
    return r


class IsmctsBot(Bot):
    name = "ismcts"
    needs_view = False
    needs_game = True

    def __init__(self, seed=None, iterations: int | None = None, seconds: float | None = None,
                 c: float = 0.7, margin: float = 0.25):
        self.rng = random.Random(seed)
        if iterations is None and seconds is None:
            iterations = 200
        self.iterations = None if iterations is None else max(1, int(iterations))
        self.seconds = None if seconds is None else float(seconds)
        self.c = float(c)
        self.margin = float(margin)
        self.last_iterations = 0  # iterations of the last search (for benchmarks)
        self.total_iterations = 0
        self.total_seconds = 0.0

    def choose(self, info, decision):
        rng = self.rng
        first = answers_of(decision, rng)
        if len(first) == 1:
            return first[0]
        info = info_set(info, decision)
        players = info.players
        root = Node(decision.player, players)
        root_answers: dict = {}
        c = self.c
        log = math.log
        sqrt = math.sqrt
        start = time.perf_counter()
        deadline = None if self.seconds is None else start + self.seconds
        it = 0
        while True:
            if self.iterations is not None and it >= self.iterations:
                break
            if deadline is not None and it > 0 and time.perf_counter() >= deadline:
                break
            it += 1
            g = info.sample(rng)
            d = decision_in(g, decision.id)
            node = root
            path = [root]
            while d is not None:
                acts = first if node is root else answers_of(d, rng)
                keyed = {}
                for a in acts:
                    keyed.setdefault(answer_key(g, d, a), a)
                if node is root:
                    for k, a in keyed.items():
                        root_answers.setdefault(k, a)
                children = node.children
                untried = [k for k in keyed if k not in children]
                for k in keyed:
                    ch = children.get(k)
                    if ch is not None:
                        ch.avail += 1
                if untried:
                    k = untried[0] if len(untried) == 1 else untried[int(rng.random() * len(untried))]
                    ch = children[k] = Node(d.player, players)
                    ch.avail = 1
                    d.answer(keyed[k])
                    path.append(ch)
                    break
                mover = d.player
                best = bestv = None
                for k in keyed:
                    ch = children[k]
                    v = ch.w[mover] / ch.n + c * sqrt(log(ch.avail) / ch.n)
                    if bestv is None or v > bestv:
                        best, bestv = k, v
                node = children[best]
                path.append(node)
                d.answer(keyed[best])
                d = g.next_decision()
            random_playout(g, rng)
            r = rewards(g, self.margin)
            for nd in path:
                nd.n += 1
                w = nd.w
                for p in range(players):
                    w[p] += r[p]
        self.last_iterations = it
        self.total_iterations += it
        self.total_seconds += time.perf_counter() - start
        most = max(ch.n for ch in root.children.values())
        best = [k for k, ch in root.children.items() if ch.n == most]
        k = best[0] if len(best) == 1 else best[int(rng.random() * len(best))]
        return root_answers[k]
