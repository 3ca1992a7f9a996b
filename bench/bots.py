"""`make bench`: how strong the bots are. Fixed-seed matches, win rates with 95% Wilson intervals.

1. greedy against three random bots (4-player base games; target >= 60%; also at Guildhall and
   Bruges);
2. ismcts search speed: iterations per second at fixed mid-game positions (one core);
3. ismcts with one second per decision against three greedy bots (target >= 45%; 25% is even).

The tested bot sits in seat (game number mod 4) so no seat is favoured. A k-way complete tie
counts 1/k of a win. Figures and settings go to docs/bots.md.

Usage: python bench/bots.py [--greedy-games N] [--ismcts-games N] [--seconds S] [--iterations N]
                            [--ismcts SPEC] [--jobs J] [--seed S] [--ruleset NAME] [--quick]
                            [--games-log FILE]
"""
from __future__ import annotations

import argparse
import json
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from jux.interpreter.bots import bot_factory, make_bot  # noqa: E402
from jux.interpreter.study.simulate import play  # noqa: E402
from jux.interpreter.study.stats import wilson  # noqa: E402


def one_game(args):
    """Play one game with `bot` in seat `seat` against `opponent`s; return its win share, the
    tested bot's search figures (iterations, seconds), the game's time, its score and the
    opponents' mean score."""
    ruleset, players, seed, seat, bot, opponent = args
    made = []

    def tracked(spec):
        f = bot_factory(spec)

        def make(s):
            b = f(s)
            made.append(b)
            return b
        return make

    specs = [opponent] * players
    specs[seat] = bot
    factories = [tracked(s) if p == seat else bot_factory(s) for p, s in enumerate(specs)]
    t = time.perf_counter()
    g = play(ruleset, players, seed, factories)
    dt = time.perf_counter() - t
    w = g.winners
    share = 1.0 / len(w) if seat in w else 0.0
    b = made[0]
    return (share, getattr(b, "total_iterations", 0), getattr(b, "total_seconds", 0.0), dt,
            g.scores[seat], sum(s for p, s in enumerate(g.scores) if p != seat) / (players - 1))


def logged(path, key: dict) -> dict:
    """{seed: outcome} of the games of this match (key) already in the games log at path."""
    done = {}
    if path and Path(path).exists():
        text = Path(path).read_text()
        if text and not text.endswith("\n"):  # (a line cut short: the next game starts a line of its own)
            with open(path, "a") as f:
                f.write("\n")
        for line in text.splitlines():
            try:
                r = json.loads(line)
            except ValueError:  # (a line cut short when a run was stopped)
                continue
            if isinstance(r, dict) and all(r.get(k) == v for k, v in key.items()):
                done[r["seed"]] = tuple(r["out"])
    return done


def match(title, ruleset, players, bot, opponent, games, seed, jobs, log=None):
    """Play the match (or, with a games log, the games of it not in the log yet: each game is
    added to the log as it ends, so a run stopped part way goes on where it stopped, and another
    process may play other seeds of the same match into the same file) and print its figures."""
    key = {"ruleset": ruleset, "players": players, "bot": bot, "opponent": opponent}
    done = logged(log, key)
    jobs_args = [(ruleset, players, seed + i, i % players, bot, opponent) for i in range(games)
                 if seed + i not in done]
    t = time.perf_counter()
    ex = ProcessPoolExecutor(jobs) if jobs > 1 and len(jobs_args) > 1 else None
    try:
        ends = ex.map(one_game, jobs_args) if ex else map(one_game, jobs_args)
        for a, o in zip(jobs_args, ends):  # (in order, each as soon as it and those before it end)
            done[a[2]] = o
            if log:
                with open(log, "a") as f:
                    f.write(json.dumps({**key, "seed": a[2], "seat": a[3], "out": list(o),
                                        "at": time.strftime("%Y-%m-%d %H:%M:%S")}) + "\n")
    finally:
        if ex:
            ex.shutdown()
    out = [done[seed + i] for i in range(games)]
    wall = time.perf_counter() - t
    wins = sum(o[0] for o in out)
    lo, hi = wilson(wins, games)
    its = sum(o[1] for o in out)
    secs = sum(o[2] for o in out)
    print(f"{title}")
    print(f"  {bot} vs {players - 1} x {opponent}: {players} players, {games} games, seeds {seed}..{seed + games - 1}")
    print(f"  win rate {wins / games:6.1%}  95% CI [{lo:.1%}, {hi:.1%}]  ({wins:g} wins; even is {1 / players:.0%})")
    print(f"  mean score {sum(o[4] for o in out) / games:.1f} vs opponents {sum(o[5] for o in out) / games:.1f}"
          f"   time {wall:.0f} s ({sum(o[3] for o in out) / games:.1f} s a game, {jobs} jobs)")
    if its:
        print(f"  search: {its / secs:.0f} iterations/s in the match ({its / games:.0f} a game,"
              f" {its} in {secs:.0f} s of search)")
    sys.stdout.flush()
    return wins / games, (lo, hi)


def search_speed(ruleset, spec, seconds=0.5):
    """Iterations per second of a search bot at 12 fixed positions (4 players, seeds 1-3, after
    8, 20, 40 and 60 random answers), searching `seconds` at each, in this process."""
    from jux import Game, load_ruleset
    from jux.interpreter.bots.sample import InfoSet

    rules = load_ruleset(ruleset)
    its = 0
    spent = 0.0
    for seed in (1, 2, 3):
        for steps in (8, 20, 40, 60):
            g = Game.new(rules, 4, seed, log=False)
            rng = random.Random(seed)
            for _ in range(steps):
                d = g.next_decision()
                d.answer(make_bot("random", rng.randrange(1 << 30)).choose(None, d))
            d = g.next_decision()
            b = make_bot(f"{spec}:seconds={seconds}", 1)
            t = time.perf_counter()
            b.choose(InfoSet(g, d.player), d)
            spent += time.perf_counter() - t
            its += b.last_iterations
    print("ismcts search speed")
    print(f"  {spec}: {its / spent:.0f} iterations/s (12 mid-game 4-player positions, {seconds:g} s each, one core)")
    sys.stdout.flush()
    return its / spent


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ruleset", default="capital_jux")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--greedy-games", type=int, default=200)
    ap.add_argument("--ismcts-games", type=int, default=200)
    ap.add_argument("--seconds", type=float, default=1.0, help="ismcts time budget per decision")
    ap.add_argument("--iterations", type=int, default=None, help="an iteration budget instead of time")
    ap.add_argument("--ismcts", default="ismcts", help="the search bot spec, without its budget")
    ap.add_argument("--greedy", default="greedy", help="the greedy bot spec (both matches)")
    ap.add_argument("--jobs", type=int, default=2, help="games played in parallel")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--games-log", metavar="FILE", default=None,
                    help="a line per game as it ends (JSON); games of the same match already in it are "
                         "not played again but counted: a long run may be stopped and continued")
    ap.add_argument("--guildhall-games", type=int, default=300, help="greedy against 3 random bots at Guildhall")
    ap.add_argument("--bruges-games", type=int, default=300, help="greedy against 3 random bots at Bruges")
    ap.add_argument("--quick", action="store_true", help="a rough run: 40 and 20 games")
    a = ap.parse_args(argv)
    if a.quick:
        a.greedy_games, a.ismcts_games, a.guildhall_games, a.bruges_games = 40, 20, 40, 40
    budget = f"iterations={a.iterations}" if a.iterations else f"seconds={a.seconds:g}"
    if a.greedy_games:
        match("greedy against random", a.ruleset, a.players, a.greedy, "random", a.greedy_games, a.seed, a.jobs,
              a.games_log)
    search_speed(a.ruleset, a.ismcts)
    if a.ismcts_games:
        match("ismcts against greedy", a.ruleset, a.players, f"{a.ismcts}:{budget}", a.greedy,
              a.ismcts_games, a.seed, a.jobs, a.games_log)
    if a.guildhall_games:  # the same bots, unchanged, on the second game
        match("greedy against random, Guildhall", "guildhall", 4, a.greedy, "random", a.guildhall_games,
              a.seed, a.jobs, a.games_log)
    if a.bruges_games:  # and on the third
        match("greedy against random, Bruges", "bruges", 4, a.greedy, "random", a.bruges_games, a.seed, a.jobs,
              a.games_log)


if __name__ == "__main__":
    main()
