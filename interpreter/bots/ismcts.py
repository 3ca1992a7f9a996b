"""The ISMCTS bot: information-set Monte Carlo tree search (single observer, any number of players).

It sees only its seat's InfoSet (see sample.py). Each iteration draws a determinized game (the
cards the seat does not know dealt again from the bot's own generator, the game's generator
reseeded), walks the one tree of the seat's information set with UCB among the answers available
in that sample, adds one node, plays on for about ``turns`` more turns (default 20; a turn is a run
of decisions of one seat, its length measured in the playouts) or, with turns=0, at most ``depth``
decisions (20; to the end of the game when negative), and backs up every seat's reward: at the end
of the game 1 for a win (1/k for a k-way complete tie) plus a small share for the score margin; cut
off earlier, the same computed from the ruleset's position values (``game.values``: the seats with
the highest value lead). Cutting the playout off makes an iteration several times cheaper than a
playout to the end (docs/bots.md, Strength).

The playout answers uniformly at random (``policy=random``, the default) or, with ``policy=mast``,
with probability 1 - ``epsilon`` the answer whose key has had the best mean reward for its mover
so far in this search (move-average sampling).

Answers are keyed so they mean the same in every sample (sample.option_key): a card the deciding
player knows is its label, one it does not is its place. Simultaneous decisions are searched one
after the other in the order the game lists them.

Budget: ``iterations`` (default 200) and/or ``seconds`` per decision; with both, whichever ends
first. With an iteration budget the bot is deterministic (same seed and game, same answers).
"""
from __future__ import annotations

import gc
import math
from operator import add, ne
import random
import time

from . import Bot, option
from ..errors import JuxError
from ..runtime.state import Card
from .answers import answers_of
from .greedy import decision_in
from .mast import mast_playout
from .random_bot import random_playout
from .sample import SAMPLE_ERRORS, info_set, option_key
from .sizes import sizes_hidden


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


def option_keys(game, player: int, values) -> list:
    """[option_key(game, player, v) for v in values], the game's tables read once for all."""
    S = game.state
    K, loc, Z = S.k, S.loc, S.z
    labels = game.rules.card_labels
    bit = 1 << player

    def part(v):  # (a value in an option: not itself, so that no function of these refers to itself)
        t = type(v)
        if t is Card:
            if K[v] & bit:
                return labels[v]
            zi = loc[v]
            return ("?", zi, Z[zi].index(v))
        if t is int or t is bool or t is str or v is None:
            return v
        return option_key(game, player, v)

    def key(v):
        return tuple(map(part, v)) if type(v) is tuple or type(v) is list else part(v)

    return list(map(key, values))


def keyed_answers(game, decision, acts) -> dict:
    """{answer_key(game, decision, a): a} for the answers acts, the first of each key kept."""
    ks = option_keys(game, decision.player, decision.values)
    keyed = {}
    text = None  # (each option's key as text, worked out once for all the picks of several)
    for a in acts:
        if type(a) is int:
            k = ks[a]
        elif a is None:
            k = ("decline",)
        else:
            if text is None:
                text = list(map(repr, ks))
            k = ("pick",) + tuple(map(ks.__getitem__, sorted(a, key=text.__getitem__)))
        if k not in keyed:
            keyed[k] = a
    return keyed


def shares(s: list, winners: list, margin: float) -> list:
    """Each seat's reward from numbers s (scores or values) and the leading seats: its share of the
    lead, plus margin x where it lies between the lowest and the highest."""
    n = len(s)
    share = 1.0 / len(winners)
    r = [0.0] * n
    for p in winners:
        r[p] = (1.0 - margin) * share
    if margin:
        hi, lo = max(s), min(s)
        if hi > lo:
            k = margin / (hi - lo)
            for p in range(n):
                r[p] += k * (s[p] - lo)
        else:
            for p in range(n):
                r[p] += margin * 0.5
    return r


def rewards(game, margin: float) -> list:
    """Each seat's reward: at the end of the game from the scores and the winners; before it from
    the ruleset's position values (the seats with the highest value lead)."""
    if game.over:
        return shares(game.merits(), game.winners, margin)  # (scores negated where the lowest wins)
    v = game.values
    best = max(v)
    return shares(v, [p for p, x in enumerate(v) if x == best], margin)


class IsmctsBot(Bot):
    name = "ismcts"
    needs_view = False
    needs_game = True

    def __init__(self, seed=None, iterations: int | None = None, seconds: float | None = None,
                 c: float = 0.7, margin: float = 0.25, depth: int | None = None,
                 policy: str = "random", epsilon: float = 0.2, reuse: int = 1, turns: int | None = None):
        self.rng = random.Random(seed)
        if iterations is None and seconds is None:
            iterations = 200
        self.iterations = None if iterations is None else option("ismcts", "iterations", iterations, 1, 100_000)
        self.seconds = None if seconds is None else float(option("ismcts", "seconds", seconds, 0.01, 600, whole=False))
        self.c = float(option("ismcts", "c", c, 0, 1000, whole=False))
        self.margin = float(option("ismcts", "margin", margin, 0, 1, whole=False))
        # a playout: about `turns` turns (20 unless a depth is given), or `depth` decisions
        # (-1: to the end of the game) when turns is 0
        if turns is None:
            turns = 20 if depth is None else 0
        self.depth = option("ismcts", "depth", 20 if depth is None else depth, -1, 10_000)
        if policy not in ("random", "mast"):
            raise JuxError(f"bot 'ismcts': policy is 'random' or 'mast', not '{policy}'")
        self.policy = policy
        self.epsilon = float(option("ismcts", "epsilon", epsilon, 0, 1, whole=False))
        # 1: a search goes on with the tree under the last answer when the seat decides again
        # at once (its statistics kept); 0: every search starts afresh
        self.reuse = bool(option("ismcts", "reuse", reuse, 0, 1))
        self._kept = None  # (the subtree under the last answer, and where the game's answers stood)
        # turns > 0: a playout is cut off after about that many turns (a turn: a run of decisions
        # of one seat); the decisions a turn are measured in the playouts themselves ([decisions,
        # changes of the deciding seat] so far)
        self.turns = option("ismcts", "turns", turns, 0, 10_000)
        self._runs = [0, 0]
        self.last_iterations = 0  # iterations of the last search (for benchmarks)
        self.last_carried = 0  # iterations its tree held from the decision before (reuse)
        self.total_iterations = 0
        self.total_seconds = 0.0

    def choose(self, info, decision):
        # The cyclic garbage collector paused while searching: a search makes and drops many
        # small objects (samples, decisions, keys) and no cycles among them, and the collector's
        # passes over the young ones cost about 5% of an iteration (docs/performance.md, issue 40).
        paused = gc.isenabled()
        if paused:
            gc.disable()
        try:
            return self._search(info, decision)
        finally:
            if paused:
                gc.enable()

    def _search(self, info, decision):
        rng = self.rng
        first = answers_of(decision, rng)
        info = info_set(info, decision)
        kept = self._kept_tree(info, decision.player)
        if len(first) == 1:
            # (the tree goes on past a decision with one answer when it has one way on)
            self._kept = None
            if kept is not None and len(kept.children) == 1:
                self._kept = (next(iter(kept.children.values())), info.mark())
            return first[0]
        players = info.players
        mark = info.mark()
        root = kept if kept is not None else Node(decision.player, players)
        self.last_carried = root.n
        root_answers: dict = {}
        # the root's answers keyed once: a sample keeps every card's place and who knows it, so
        # the keys (a known card's label, an unknown one's place) are the same in every sample,
        # unless the unknown cards are split again between zones of hidden size
        same_places = not sizes_hidden(info.rules)
        root_keyed = None
        c = self.c
        margin = self.margin
        depth = self.depth if not self.turns else self.playout_depth()
        runs = self._runs if self.turns else None
        mast = self.policy == "mast"
        stats: dict = {}
        epsilon = self.epsilon
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
            node = root
            path = [root]
            trail = []
            last = None  # (the decision where the tree ends and its answer, when the playout gives it)
            try:  # (a rule that fails on a sample's blanked values: the playout ends there)
                d = decision_in(g, decision.id)
                while d is not None:
                    if node is not root:
                        keyed = keyed_answers(g, d, answers_of(d, rng))
                    elif root_keyed is not None:
                        keyed = root_keyed
                    else:
                        keyed = keyed_answers(g, d, first)
                        for k, a in keyed.items():
                            if k not in root_answers:
                                root_answers[k] = a
                        if same_places:
                            root_keyed = keyed
                    children = node.children
                    untried = []
                    for k in keyed:
                        ch = children.get(k)
                        if ch is None:
                            untried.append(k)
                        else:
                            ch.avail += 1
                    if untried:
                        k = untried[0] if len(untried) == 1 else untried[int(rng.random() * len(untried))]
                        ch = children[k] = Node(d.player, players)
                        ch.avail = 1
                        if mast:
                            trail.append((d.player, k))
                        path.append(ch)
                        if depth and not mast:  # (answered as the playout starts: the rules run direct)
                            last = (d, keyed[k])
                        else:
                            d.answer(keyed[k])
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
                    if mast:
                        trail.append((mover, best))
                    d.answer(keyed[best])
                    d = g.next_decision()
                if depth:
                    given = len(g.answers)
                    if mast:
                        mast_playout(g, rng, depth, stats, epsilon, trail)
                    else:
                        random_playout(g, rng, depth, blind=True, first=last)
                        last = None
                    if runs is not None:
                        count_runs(runs, g.answers, given)
                r = rewards(g, margin)
            except SAMPLE_ERRORS:
                r = stopped_rewards(g, margin, players)
            for p, key in trail:
                st = stats.get((p, key))
                if st is None:
                    stats[(p, key)] = [r[p], 1]
                else:
                    st[0] += r[p]
                    st[1] += 1
            for nd in path:
                nd.n += 1
                nd.w = list(map(add, nd.w, r))  # (each seat's reward added, in C)
        self.last_iterations = it
        self.total_iterations += it
        self.total_seconds += time.perf_counter() - start
        # (a tree kept from the last decision may hold answers this decision does not have)
        here = [(k, ch) for k, ch in root.children.items() if k in root_answers]
        self._kept = None
        if not here:  # (every sample failed at once: see stopped_rewards)
            return first[int(rng.random() * len(first))]
        most = max(ch.n for k, ch in here)
        best = [k for k, ch in here if ch.n == most]
        k = best[0] if len(best) == 1 else best[int(rng.random() * len(best))]
        if self.reuse:
            self._kept = (root.children[k], mark)
        return root_answers[k]

    def playout_depth(self) -> int:
        """The decisions a playout may take for ``turns`` turns, at the decisions a turn measured
        in this bot's playouts so far (one a turn before any was measured)."""
        decisions, changes = self._runs
        return max(1, round(self.turns * decisions / changes)) if changes else self.turns

    def _kept_tree(self, info, seat: int):
        """The subtree under the answer this bot gave at its last decision, when that answer is
        the only one given since (the seat decides twice in a row: a turn of several decisions)
        and in the searched samples the next decision was this seat's too; else None."""
        if self._kept is None:
            return None
        node, mark = self._kept
        self._kept = None
        if info.own_answers_since(mark) != 1:
            return None
        for ch in node.children.values():
            if ch.player != seat:
                return None
        return node


def count_runs(runs: list, answers: list, start: int) -> None:
    """Add the answers given since ``start`` to runs: [decisions, changes of the deciding seat]."""
    seats = [a[0] for a in answers[start:]]
    runs[0] += len(seats)
    runs[1] += sum(map(ne, seats, seats[1:]))


def stopped_rewards(g, margin: float, players: int) -> list:
    """The rewards of a sample whose rules failed (a value the seat may not know was blanked in it:
    bots/sample.py): valued where they stopped when that can be, else every seat alike."""
    try:
        return rewards(g, margin)
    except SAMPLE_ERRORS:
        return [1.0 / players] * players
