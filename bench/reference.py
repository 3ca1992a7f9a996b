"""A hand-written Capital Jux: the base game (no power tiles) between random players, written as a
Python programmer would write one game's simulator (plain ints and lists, no engine), to measure
jux against (issue 28: "random-bot base games at 0.4 or more of the hand-written reference's
speed in one process").

Usage: python bench/reference.py [--batches N] [--games N] [--players N]
       python bench/reference.py --stats N [--players N]

The first form alternates batches of jux games and reference games in one process, as
bench/ab.py alternates two engines, and prints the games per second of each (CPU time) over all
batches and in the best batch, and the ratio jux / reference. The second plays N games of each
and compares what they give: mean score and its spread, the winner's seat, decisions a game.

It plays the rules of rules/capital_jux/game.yaml with the rulings of docs/rulings.md; each step
below names the procedure it follows. A random player decides as jux's random bot does
(interpreter/bots/random_bot.py): one of n options with floor(random() * n), k of n options as
the first k of a partial Fisher-Yates shuffle; a choice of no option is not asked, a choice of
one option is (and counts as a decision, as in jux).

The ratio depends on how the reference is written. This one (one function over local lists, a
card an int) played about 4 times jux's games per second when written (jux / reference 0.19 to
0.21 at 4 players, 2026-11-26); the same rules transcribed as a class with a method per
procedure, cards as (colour, value) tuples and zones as lists of cards ran 2.35 times slower
(jux / that 0.46 to 0.49).
"""
from __future__ import annotations

import argparse
import random
import statistics
import time

BLUE, PINK, YELLOW, GREEN = range(4)  # the colours in the rules' order; their powers: agent,
COLOURS = ("blue", "pink", "yellow", "green")  # cleric, merchant, scholar
VALUES = (2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 6, 6, 6)  # the 18 cards of a colour
DECK = tuple(d * 8 + v for d in range(4) for v in VALUES)  # a card is colour * 8 + value
MODIFIERS = (4, 2, -3, -1)
GOLD = 8
ROUNDS = 3


def play_game(n: int, rng: random.Random, watch=None):
    """One game between n random players drawing from rng: (scores, winners, decisions).

    Where a card lies: deck, hands, bonus and discard hold cards (colour * 8 + value); the capital
    and each hometown hold, for each colour, the values of its cards. watch(event, state), for
    tests: called with "hands" after each draft, "round end" after each round end and "end"
    after scoring; state holds every list of the game (see _state)."""
    rand = rng.random
    decisions = 0
    # setup: the first card of the deck goes to the capital; the highest modifier dealt starts
    deck = list(DECK)
    rng.shuffle(deck)
    capital = [[], [], [], []]
    card = deck.pop()
    capital[card >> 3].append(card & 7)
    modifier_deck = list(MODIFIERS)
    rng.shuffle(modifier_deck)
    drawn = [modifier_deck.pop() for _ in range(n)]
    start = drawn.index(max(drawn))
    modifier_deck += drawn
    rng.shuffle(modifier_deck)
    above = [[], [], [], []]  # the modifiers above each capital colour
    home = [[[], [], [], []] for _ in range(n)]
    hands = [[] for _ in range(n)]
    bonus = [[] for _ in range(n)]
    gold = [0] * n
    pile = GOLD
    discard = []

    for round_no in range(1, ROUNDS + 1):
        order = [(start + i) % n for i in range(n)]
        # deal: 6 cards (5 with 4 players), or what a short deck gives each alike (ruling 5)
        before = len(deck)
        k = min(6 if n <= 3 else 5, before // n)
        dealt = [None] * n
        for p in order:
            dealt[p] = deck[len(deck) - k:]
            del deck[len(deck) - k:]
        # draft: choose 2 (as many as there are, up to 2), pass the rest left; twice
        chosen = [[] for _ in range(n)]
        for _ in range(2):
            for p in range(n):
                cards = dealt[p]
                m = len(cards)
                take = min(2, m)
                if take:
                    decisions += 1
                    for i in range(take):
                        j = i + int(rand() * (m - i))
                        cards[i], cards[j] = cards[j], cards[i]
                    chosen[p] += cards[:take]
                    del cards[:take]
            dealt = dealt[-1:] + dealt[:-1]  # p's pack goes to the player on their left, p + 1
        for p in range(n):
            hands[p] = chosen[p] + dealt[p]
        if watch:
            watch("hands", _state(locals()))

        # play_cards: turns until a player ends a turn with no card, then one last turn each
        # (ruling 6: a player with an empty hand skips the turn)
        turn = start
        last = -1
        while last != 0:
            p = turn
            hand = hands[p]
            if hand:
                decisions += 1
                i = int(rand() * 2 * len(hand))  # the options: each card into the hometown, the capital
                card = hand.pop(i >> 1)
                d = card >> 3
                if i & 1 == 0:
                    home[p][d].append(card & 7)
                else:
                    capital[d].append(card & 7)
                    if d == BLUE:  # agent: a modifier face down above a colour of the capital
                        if modifier_deck:
                            decisions += 1
                            above[int(rand() * 4)].append(modifier_deck.pop())
                    elif d == PINK:  # cleric: the lowest card of another colour, into the hometown
                        options = [e for e in (BLUE, YELLOW, GREEN) if capital[e]]
                        if options:
                            decisions += 1
                            e = options[int(rand() * len(options))]
                            low = min(capital[e])
                            capital[e].remove(low)
                            home[p][e].append(low)
                    elif d == YELLOW:  # merchant: a gold disc from the pile
                        if pile:
                            pile -= 1
                            gold[p] += 1
                    elif deck:  # scholar: the top card of the deck into the hand
                        hand.append(deck.pop())
            if last > 0:
                last -= 1
            elif not hand:
                last = n - 1
            turn = (p + 1) % n

        # round_end: lay down the hands, reveal the modifiers, check the limits, bonus cards
        for p in order:
            for card in hands[p]:
                home[p][card >> 3].append(card & 7)
            hands[p] = []
        limits = [sum(capital[d]) + sum(above[d]) for d in range(4)]
        for p in order:  # ruling 3: in turn order, colour by colour; gold all or nothing
            town = home[p]
            for d in range(4):
                cards = town[d]
                over = sum(cards) - limits[d]
                if over > 0 and cards:  # ruling 12: no card, never over
                    if gold[p] >= over:
                        decisions += 1
                        if rand() < 0.5:  # the options: spend, discard
                            gold[p] -= over
                            pile += over
                            continue
                    discard += [d * 8 + v for v in cards]
                    town[d] = []
        for d in range(4):  # score_bonus: ties take the next highest card in turn order
            totals = [sum(home[p][d]) for p in range(n)]
            best = max(totals)
            if best > 0:  # ruling 1
                for p in order:
                    if totals[p] == best and capital[d]:
                        high = max(capital[d])
                        capital[d].remove(high)
                        bonus[p].append(d * 8 + high)
        if watch:
            watch("round end", _state(locals()))
        if round_no < ROUNDS:  # prepare_next_round: the highest hometown starts (ruling 2)
            for d in range(4):
                modifier_deck += above[d]
                above[d] = []
            rng.shuffle(modifier_deck)
            towns = [sum(map(sum, home[p])) for p in range(n)]
            best = max(towns)
            start = next(p for p in order if towns[p] == best)

    # scores: hometown + bonus cards + gold; ties: most 6s among hometown and bonus cards, then 5s...
    scores = [sum(map(sum, home[p])) + sum(card & 7 for card in bonus[p]) + gold[p] for p in range(n)]
    top = max(scores)
    winners = [p for p in range(n) if scores[p] == top]
    if len(winners) > 1:
        counts = {}
        for p in winners:
            values = [v for cards in home[p] for v in cards] + [card & 7 for card in bonus[p]]
            counts[p] = [values.count(v) for v in (6, 5, 4, 3, 2, 1, 0)]
        best = max(counts.values())
        winners = [p for p in winners if counts[p] == best]
    if watch:
        watch("end", _state(locals()))
    return scores, winners, decisions


STATE = ("round_no", "start", "deck", "before", "k", "capital", "above", "modifier_deck", "home",
         "hands", "bonus", "gold", "pile", "discard", "decisions", "scores", "winners")


def _state(names: dict) -> dict:
    """The game's lists and numbers, for watch (the lists themselves, not copies)."""
    return {k: names[k] for k in STATE if k in names}


def run_games(players: int, seeds):
    """play_game for each seed (its own random.Random), as jux's run_games plays one per seed."""
    for seed in seeds:
        yield play_game(players, random.Random(seed))


# --- the paired comparison -------------------------------------------------------------------

def _jux():
    """jux's load_ruleset and run_games (imported only to compare: the simulator needs no jux)."""
    from jux import load_ruleset
    from jux.interpreter.study.simulate import run_games as jux_run_games
    return load_ruleset, jux_run_games


def ratio(batches: int = 40, games: int = 100, players: int = 4) -> dict:
    """jux's and the reference's random-bot base games per second (CPU time), from batches of
    `games` games of each, alternating in one process as bench/ab.py alternates engines (the
    first of the pair changes every batch); both play the same seeds. Returns games per second
    over all batches and in the best batch of each, and the ratios jux / reference."""
    load_ruleset, jux_run_games = _jux()
    rules = load_ruleset("capital_jux")

    def jux_batch(seeds):
        for _ in jux_run_games(rules, players, seeds, ["random"]):
            pass

    def reference_batch(seeds):
        for _ in run_games(players, seeds):
            pass

    sides = {"jux": jux_batch, "reference": reference_batch}
    for run in sides.values():
        run(range(20))  # warm up
    total = dict.fromkeys(sides, 0.0)
    best = dict.fromkeys(sides, float("inf"))
    order = list(sides)
    for b in range(batches):
        seeds = range(1000 + b * games, 1000 + (b + 1) * games)
        for label in (order if b % 2 else order[::-1]):
            t = time.process_time()
            sides[label](seeds)
            dt = time.process_time() - t
            total[label] += dt
            best[label] = min(best[label], dt)
    n = batches * games
    out = {"games": n, "players": players, "batches": batches}
    for label in sides:
        out[f"{label}_games_per_second"] = n / total[label] if total[label] else float("inf")
        out[f"{label}_best_games_per_second"] = games / best[label] if best[label] else float("inf")
    out["ratio"] = out["jux_games_per_second"] / out["reference_games_per_second"]
    out["best_ratio"] = out["jux_best_games_per_second"] / out["reference_best_games_per_second"]
    return out


# --- the statistics comparison ---------------------------------------------------------------

def summary(results, players: int) -> dict:
    """Mean score and its spread (standard deviation over every seat's score), each seat's share
    of the wins (a k-way tie gives each 1/k), decisions a game (mean, spread), complete ties."""
    scores, wins, turns, ties = [], [0.0] * players, [], 0
    for s, winners, decisions in results:
        scores += s
        for p in winners:
            wins[p] += 1 / len(winners)
        ties += len(winners) > 1
        turns.append(decisions)
    n = len(turns)
    return {"games": n, "mean_score": statistics.fmean(scores), "score_sd": statistics.stdev(scores),
            "win_share": [w / n for w in wins], "mean_decisions": statistics.fmean(turns),
            "decisions_sd": statistics.stdev(turns), "ties": ties}


def compare(games: int, players: int) -> dict:
    """summary() of `games` jux games and `games` reference games (seeds 0 to games - 1)."""
    load_ruleset, jux_run_games = _jux()
    rules = load_ruleset("capital_jux")
    jux = ((r.scores, r.winners, r.turns) for r in jux_run_games(rules, players, range(games), ["random"]))
    return {"jux": summary(jux, players), "reference": summary(run_games(players, range(games)), players)}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--batches", type=int, default=40, help="batches each (default 40)")
    ap.add_argument("--games", type=int, default=100, help="games a batch (default 100)")
    ap.add_argument("--players", type=int, default=4, choices=(2, 3, 4))
    ap.add_argument("--stats", type=int, metavar="N", help="compare the statistics of N games each instead")
    args = ap.parse_args(argv)
    if args.batches < 1 or args.games < 1 or (args.stats is not None and args.stats < 2):
        ap.error("--batches and --games take 1 or more, --stats 2 or more")
    from rich.console import Console
    from rich.table import Table

    if args.stats:
        both = compare(args.stats, args.players)
        table = Table(title=f"{args.stats} {args.players}-player random-bot base games each")
        table.add_column("")
        for label in both:
            table.add_column(label, justify="right")
        rows = [("mean score", "{mean_score:.2f}"), ("score spread (sd)", "{score_sd:.2f}"),
                ("decisions a game", "{mean_decisions:.2f}"), ("decisions spread (sd)", "{decisions_sd:.2f}"),
                ("complete ties", "{ties}")]
        for name, form in rows:
            table.add_row(name, *(form.format(**s) for s in both.values()))
        for p in range(args.players):
            table.add_row(f"wins, seat {p + 1}", *(f"{s['win_share'][p]:.4f}" for s in both.values()))
        Console().print(table)
        return 0
    r = ratio(args.batches, args.games, args.players)
    table = Table(title=f"{r['games']} {args.players}-player random-bot base games each, CPU time, alternating batches")
    table.add_column("simulator")
    table.add_column("games/s, all batches", justify="right")
    table.add_column("games/s, best batch", justify="right")
    for label in ("jux", "reference"):
        table.add_row(label, f"{r[f'{label}_games_per_second']:,.0f}", f"{r[f'{label}_best_games_per_second']:,.0f}")
    Console().print(table)
    print(f"jux / reference: {r['ratio']:.3f} over all batches, {r['best_ratio']:.3f} in the best batches")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
