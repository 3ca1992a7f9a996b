"""Many games between bots: pure functions that return plain results.

``play_game`` plays one game and returns a ``GameResult``; ``run_games`` yields one result per
seed; ``summarize`` turns results into a plain summary dict. Nothing here prints or writes files
(the CLI does), so a parallel runner can call ``play_game`` in worker processes: its arguments
(a ruleset name or path, ints and bot spec strings) are all picklable.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..bots import bot_factory, seat_seed
from ..bots.sample import InfoSet
from ..engine.game import Game
from ..engine.ruleset import Ruleset, load_ruleset
from ..errors import IllegalAnswer, JuxError
from ..runtime.counts import real_choice

MAX_ANSWERS = 100_000  # a game still going after this many answers is stuck in the rules
# A game of a study (simulate, balance, play --print) still going after this many decisions ends
# unfinished: counted apart, never a hang. Well above what the project's games take between random
# bots (docs/assumptions.md gives the figures).
MAX_DECISIONS = 10_000


@dataclass
class GameResult:
    """How one game ended."""

    seed: int
    scores: list
    winners: list  # the best seats: more than one only on a complete tie
    turns: int  # number of answers given
    record: dict | None = field(default=None, repr=False)
    first: int | None = None  # the starting seat: who took the first decision outside a draft
    coverage: dict | None = field(default=None, repr=False)  # with coverage: this game's counts
    variants: tuple = field(default=(), compare=False)  # set by a parallel run: its variants
    unfinished: bool = False  # stopped after the study's most decisions: no scores, no winner


    @property
    def winner(self):
        return self.winners[0] if len(self.winners) == 1 else None

    def to_json(self) -> dict:
        out = {"seed": self.seed, "scores": self.scores, "winner": self.winner,
               "winners": self.winners, "turns": self.turns, "first": self.first}
        if self.unfinished:
            out["unfinished"] = True
        return out

    @classmethod
    def from_json(cls, d: dict) -> "GameResult":
        """A result back from to_json (KeyError, TypeError or ValueError when it is not one)."""
        first = d.get("first")
        return cls(seed=int(d["seed"]), scores=list(d["scores"]), winners=[int(p) for p in d["winners"]],
                   turns=int(d["turns"]), first=None if first is None else int(first),
                   unfinished=d.get("unfinished") is True)


def seat_bots(specs, players: int) -> list:
    """Bot specs for each seat from a list (or comma-separated string) of 1 or `players` names
    (or bot factories, kept as they are)."""
    if isinstance(specs, str):
        specs = specs.split(",")
    specs = [s if callable(s) else s.strip() for s in specs]
    if len(specs) == 1:
        specs = specs * players
    if len(specs) != players:
        raise JuxError(f"give one bot for all seats or one per seat ({players}), not {len(specs)}")
    return specs


def _rules(rules) -> Ruleset:
    return rules if isinstance(rules, Ruleset) else load_ruleset(rules)


def _plain(v):
    return int(v) if isinstance(v, int) and not isinstance(v, bool) else v


def play(rules, players: int, seed: int, bots, log: bool = False, names=None,
         max_answers: int = MAX_ANSWERS, blind: bool = False, unfinished: bool = False,
         direct: bool | None = None, counts=None) -> Game:
    """Play one game to its end between bots; return the finished Game (with unfinished, a game
    still going after max_answers answers is returned as it stands: game.over is false; direct=False
    keeps such a game whole, to be read on: its log, its scores so far).

    blind: only the game's result will be read (scores, answers): when no bot reads a view, the
    game may be played without keeping who knows which card (Game.autoplay's blind).

    counts: the counts of rules loaded with coverage (runtime/counts.py): only this game's slot
    calls (powers) are counted, not those of the copies a bot plays on to choose (greedy's, a
    search's); with coverage "powers" each decision the bots answer is counted too (and whether
    it had more than one possible answer).

    bots: one factory (seed -> Bot, see bots.bot_factory) or spec string per seat. Each seat's
    bot is seeded from the game seed and the seat, so a game is fully given by its seed.
    """
    rules = _rules(rules)
    factories = [b if callable(b) else bot_factory(b) for b in bots]
    # (started by autoplay below, so that with direct the first round runs direct too)
    game = Game.new(rules, players, seed, names=names, log=log, start=False)
    tally = None
    if counts is not None:
        counts.only = game.state
        tally = None if counts.lines else counts.decisions
    seated = [f(seat_seed(seed, p)) for p, f in enumerate(factories)]
    needs_view = [bool(getattr(b, "needs_view", True)) for b in seated]
    needs_game = [bool(getattr(b, "needs_game", False)) for b in seated]
    chooses = [b.choose for b in seated]

    def answer(d):
        p = d.player
        if tally is not None:
            _count(tally, len(d.values), d.min, d.max, d.many)
        # a search bot gets an InfoSet (its seat's view and determinized copies), never the game
        return chooses[p](InfoSet(game, p) if needs_game[p] else game.view(p) if needs_view[p] else None, d)

    picks = [getattr(b, "pick", None) for b in seated]
    if tally is not None:  # (each answer asked of a pick, counted; none drawn in the rules' code)
        picks = [p and _counted_pick(p, tally) for p in picks]
    # no bot copies the game: the rules run as plain functions between decisions (direct)
    direct = not any(needs_game) if direct is None else direct and not any(needs_game)
    try:
        if direct and not any(needs_view) and all(picks):  # each answers from the decision's shape
            # every seat picking uniformly (the random bot's `uniform`): its answers drawn in the rules' code
            uniform = ([b.uniform for b in seated] if tally is None and all(hasattr(b, "uniform") for b in seated)
                       else None)
            answers = game.autoplay(pick=picks, limit=max_answers, direct=True, blind=blind, uniform=uniform)
        else:
            answers = game.autoplay(answer, max_answers, direct=direct)
    except IllegalAnswer as e:
        bot = seated[e.player]
        name = getattr(bot, "name", type(bot).__name__)
        raise JuxError(f"game {seed}: the {name} bot in seat {e.player + 1} answered {e.answer!r}: {e}") from None
    except JuxError as e:
        if unfinished and len(game.answers) >= max_answers:  # (direct play stops at the limit so)
            return game
        raise JuxError(f"game {seed}: {e}") from None
    if not game.over:
        if answers >= max_answers and unfinished:
            return game
        if answers >= max_answers:
            raise JuxError(f"game {seed}: still not over after {answers} answers")
        raise JuxError(f"game {seed}: the rules stopped with no decision pending and the game not over")
    return game


def _count(tally: list, n: int, lo: int, hi: int, many: bool) -> None:
    tally[0] += 1
    if real_choice(n, lo, hi, many):
        tally[1] += 1


def _counted_pick(pick, tally: list):
    """pick (a bot's answer from a decision's shape), counting each decision it answers into tally."""
    def counted(n, lo, hi, many, *keys):
        _count(tally, n, lo, hi, many)
        return pick(n, lo, hi, many, *keys)
    counted.legal = getattr(pick, "legal", False)
    return counted


def result_of(game: Game, record: bool = False) -> GameResult:
    first = game.first_player
    if not game.over:  # (stopped after the study's most decisions)
        return GameResult(seed=game.seed, scores=[], winners=[], turns=len(game.answers),
                          record=game.record() if record else None, first=None if first is None else int(first),
                          unfinished=True)
    scores = game.scores
    return GameResult(seed=game.seed, scores=[_plain(s) for s in scores],
                      winners=[int(p) for p in game.winners_by(scores)], turns=len(game.answers),
                      record=game.record() if record else None,
                      first=None if first is None else int(first))


def play_game(rules, players: int, seed: int, bots, record: bool = False,
              max_decisions: int = MAX_DECISIONS) -> GameResult:
    """Play one game between bots and say how it ended (with its game record if asked); a game
    past max_decisions ends unfinished."""
    return result_of(play(rules, players, seed, bots, blind=True, max_answers=max_decisions, unfinished=True),
                     record)


def run_games(rules, players: int, seeds, bots, record: bool = False, max_decisions: int = MAX_DECISIONS):
    """Yield a GameResult for each seed, in order. bots: spec strings or factories per seat.

    With rules loaded with coverage each result carries its game's counts (coverage.add sums
    them), and games keep their log, so what only the log reads runs (and is counted) too. With
    coverage "powers" (only the slot calls counted in the rules' code) the games are played as
    without coverage, blind, and the decisions the bots answer are counted here."""
    rules = _rules(rules)
    factories = [b if callable(b) else bot_factory(b) for b in seat_bots(bots, players)]
    counts = rules.coverage
    for seed in seeds:
        if counts is None:
            yield result_of(play(rules, players, seed, factories, blind=True, max_answers=max_decisions,
                                 unfinished=True), record)
        else:
            before = counts.snapshot()
            lines = counts.lines
            try:
                result = result_of(play(rules, players, seed, factories, log=lines, blind=not lines,
                                        max_answers=max_decisions, unfinished=True,
                                        counts=counts), record)
            finally:
                counts.only = None
            result.coverage = counts.since(before)  # the final scores counted too
            yield result


def summarize(results, players: int, seconds: float | None = None, **info) -> dict:
    """A plain summary of results: per seat mean score and win rate (a k-way complete tie gives each
    tied seat 1/k of a win), complete ties, mean turns, and games per second when seconds is given.
    Games that ended unfinished are counted apart, and in nothing else: "games" counts the finished."""
    results = list(results)
    unfinished = sum(1 for r in results if r.unfinished)
    results = [r for r in results if not r.unfinished]
    n = len(results)
    totals = [0.0] * players
    wins = [0.0] * players
    lows = [None] * players
    highs = [None] * players
    ties = 0
    turns = 0
    for r in results:
        for p, s in enumerate(r.scores):
            totals[p] += s
            lows[p] = s if lows[p] is None else min(lows[p], s)
            highs[p] = s if highs[p] is None else max(highs[p], s)
        share = 1.0 / len(r.winners)
        for p in r.winners:
            wins[p] += share
        if len(r.winners) > 1:
            ties += 1
        turns += r.turns
    out = dict(info)
    out.update({
        "games": n,
        "players": players,
        "seats": [{"seat": p,
                   "mean_score": round(totals[p] / n, 4) if n else None,
                   "min_score": lows[p], "max_score": highs[p],
                   "wins": round(wins[p], 4),
                   "win_rate": round(wins[p] / n, 4) if n else None} for p in range(players)],
        "ties": ties,
        "mean_turns": round(turns / n, 2) if n else None,
        "unfinished": unfinished,
    })
    if seconds is not None:
        out["seconds"] = round(seconds, 3)
        out["games_per_second"] = round(n / seconds, 1) if seconds > 0 else None
    return out


def csv_rows(results, players: int) -> list:
    """Rows (header first) for a CSV file of results: one line per game."""
    results = list(results)
    apart = any(r.unfinished for r in results)  # (a column of its own only when a game is unfinished)
    rows = [["seed", "winner", "winners", "turns"] + [f"score_{p}" for p in range(players)]
            + (["unfinished"] if apart else [])]
    for r in results:
        w = r.winner
        rows.append([r.seed, "" if w is None else w, " ".join(map(str, r.winners)), r.turns]
                    + (list(r.scores) or [""] * players) + (["yes" if r.unfinished else ""] if apart else []))
    return rows


__all__ = ["GameResult", "seat_bots", "play", "play_game", "result_of", "run_games", "summarize",
           "csv_rows", "MAX_ANSWERS", "MAX_DECISIONS"]
