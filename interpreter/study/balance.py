"""Balance reports: what each power tile (each variant filling a slot key) does to a game.

``tile_grid`` lists the combinations to sweep: every combination of one variant per slot key, or
only the keys whose variants belong to the families named (the other keys at their default).
``Sweep`` plays the same seeds with every combination on a pool of workers (parallel.ParallelRun,
rules compiled with coverage "powers", so each power's use is counted) and keeps, per combination, what the
report needs; it writes them to ``balance.json`` as each combination finishes, so an interrupted
sweep loses nothing and ``resume`` continues it. ``per_tile`` pools the combinations that hold each
tile; balance_report.py writes the report.

What is measured, per combination (and pooled per tile):
- mean and standard deviation of the final scores (every seat's);
- the starting seat's win rate (the seat of the game's first decision outside a simultaneous
  block, ``game.first_player``; a k-way tie counts 1/k) with a 95% Wilson interval, flagged when
  the interval leaves out the fair rate 1/players ("!"), and "!!" when even the interval corrected
  for the number of combinations compared (Bonferroni) leaves it out;
- game length (answers given);
- per slot key, how often its power ran per game and the mean change of the score of the seat it
  was for (coverage.py);
- the share of decisions that had a single possible answer.
"""
from __future__ import annotations

import contextlib
import dataclasses
import itertools
import json
import os
from pathlib import Path

from ..engine.ruleset import load_ruleset
from ..errors import JuxError, did_you_mean
from ..files import write_text_atomic
from ..reading.variants import catalogue, variant_info
from .simulate import seat_bots
from .stats import mean_sd, wilson

FORMAT = "jux-balance/1"


def tile_grid(ruleset: str, families=("all",), extra=()) -> tuple:
    """(keys, combos): the slot keys that variants fill, in the rules' order, as (slot, key), and
    the combinations to sweep, each a tuple of variant names in key order. families: ["all"], or
    family names (variants' `family`): only the keys those families fill vary, the others keep
    their default variant. extra: tile files of one's own, each beside the catalogue's tiles of
    the keys it fills, named by its path in the combinations."""
    base = load_ruleset(ruleset)
    cat = dict(catalogue(base.name))
    for path in extra:
        if "," in path:
            raise JuxError(f"{path}: a tile file swept by balance has no comma in its path")
        load_ruleset(ruleset, [path])  # (its own errors, located, before anything is played)
        info = variant_info(base.name, path)
        if info is None or not info.fills:
            raise JuxError(f"{path}: fills no slot key of {base.name}: there is nothing to sweep it against")
        cat[path] = dataclasses.replace(info, name=path)
    by_key: dict = {}
    for slot, table in base.spec.slots.items():
        for key in table:
            tiles = sorted((i for i in cat.values() if (slot, key) in i.fill_keys), key=lambda i: (i.letter, i.name))
            if tiles:
                by_key[(slot, key)] = tiles
    if not by_key:
        raise JuxError(f"{base.name} has no variants that fill its slots: there is nothing to sweep")
    families = [f.strip() for f in families if f and f.strip()] or ["all"]
    if families != ["all"]:
        known = sorted({i.family for tiles in by_key.values() for i in tiles if i.family})
        for f in families:
            if f not in known:
                raise JuxError(f"unknown family '{f}'{did_you_mean(f, known)}; the families of {base.name}: "
                               f"{', '.join(known)} (or all)")
    choices = []
    for k, tiles in by_key.items():
        if families == ["all"] or any(i.family in families for i in tiles):
            choices.append([i.name for i in tiles])
        else:
            fixed = [i for i in tiles if i.default] or tiles[:1]
            choices.append([fixed[0].name])
    return list(by_key), [tuple(c) for c in itertools.product(*choices)]


# ------------------------------------------------------------------ one combination


def combo_stats(combo, results, players: int, comparisons: int) -> dict:
    """What a combination's games say (results: GameResults with coverage). A game that ended
    unfinished (past the most decisions) is counted apart, and in no score, rate or use."""
    unfinished = sum(1 for r in results if r.unfinished)
    results = [r for r in results if not r.unfinished]
    n = len(results)
    scores = [s for r in results for s in r.scores]
    mean, sd = mean_sd(scores)
    started = [r for r in results if r.first is not None]
    wins = sum(1.0 / len(r.winners) for r in started if r.first in r.winners)
    fair = 1.0 / players
    lo, hi = wilson(wins, len(started))
    slo, shi = wilson(wins, len(started), 1 - 0.05 / max(1, comparisons))
    asked = real = 0
    powers: dict = {}
    for r in results:
        cov = r.coverage or {}
        if "decisions" in cov:  # (coverage "powers": runtime/counts.py)
            asked += cov["decisions"][0]
            real += cov["decisions"][1]
        for c in cov.get("choices", ()):
            asked += c[1]
            real += c[2]
        for slot, key, uses, seated, change, _ in cov.get("powers", ()):
            st = powers.setdefault(f"{slot}[{key}]", [0, 0, 0])
            st[0] += uses
            st[1] += seated
            st[2] += change
    return {
        "combo": list(combo), "games": n, "unfinished": unfinished,
        "score_mean": _round(mean), "score_sd": _round(sd),
        "start_games": len(started), "start_wins": round(wins, 4),
        "start_rate": _round(wins / len(started)) if started else None,
        "start_ci": [_round(lo), _round(hi)] if started else None,
        "flag": "" if not started else "!!" if not slo <= fair <= shi else "!" if not lo <= fair <= hi else "",
        "turns_mean": _round(sum(r.turns for r in results) / n) if n else None,
        "decisions": asked, "single_option": asked - real,
        "single_share": _round((asked - real) / asked) if asked else None,
        "powers": {k: {"uses": u, "per_game": _round(u / n) if n else None,
                       "mean_change": _round(c / s) if s else None, "seated": s, "change": c}
                   for k, (u, s, c) in sorted(powers.items())},
    }


def _round(x, digits: int = 4):
    return None if x is None else round(x, digits)


# ------------------------------------------------------------------ per tile


def per_tile(keys, combos: list, players: int) -> list:
    """Each tile's figures pooled over the combinations that hold it: rows in key order."""
    rows = []
    for i, (slot, key) in enumerate(keys):
        names = []
        for c in combos:
            if c["combo"][i] not in names:
                names.append(c["combo"][i])
        power = f"{slot}[{key}]"
        for name in names:
            mine = [c for c in combos if c["combo"][i] == name and c["games"]]  # (all unfinished: no figure)
            games = sum(c["games"] for c in mine)
            started = sum(c["start_games"] for c in mine)
            wins = sum(c["start_wins"] for c in mine)
            lo, hi = wilson(wins, started)
            uses = sum(c["powers"].get(power, {}).get("uses", 0) for c in mine)
            seated = sum(c["powers"].get(power, {}).get("seated", 0) for c in mine)
            change = sum(c["powers"].get(power, {}).get("change", 0) for c in mine)
            asked = sum(c["decisions"] for c in mine)
            single = sum(c["single_option"] for c in mine)
            rows.append({
                "key": key, "slot": slot, "tile": name, "combos": len(mine), "games": games,
                "score_mean": _round(sum(c["score_mean"] * c["games"] for c in mine) / games) if games else None,
                "start_rate": _round(wins / started) if started else None,
                "start_ci": [_round(lo), _round(hi)] if started else None,
                "flag": "!" if started and not lo <= 1.0 / players <= hi else "",
                "turns_mean": _round(sum(c["turns_mean"] * c["games"] for c in mine) / games) if games else None,
                "power_per_game": _round(uses / games) if games else None,
                "power_mean_change": _round(change / seated) if seated else None,
                "single_share": _round(single / asked) if asked else None,
            })
    return rows


# ------------------------------------------------------------------ the sweep


class Sweep:
    """A balance sweep and its results file (balance.json in out_dir)."""

    def __init__(self, ruleset: str, players: int, games: int, seed: int = 1, bots=("random",),
                 families=("all",), out_dir: str | Path | None = None, extra=(), max_decisions: int | None = None):
        self.ruleset = str(ruleset)
        self.players = int(players)
        self.games = int(games)
        self.seed = int(seed)
        self.bots = seat_bots(list(bots), self.players)
        self.families = [f for f in families if f] or ["all"]
        self.extra = [str(Path(p)) for p in extra]  # tile files of one's own (as rules.variants names them)
        self.keys, self.combos = tile_grid(self.ruleset, self.families, self.extra)
        self.rules = load_ruleset(self.ruleset)
        self.out = Path(out_dir) if out_dir else Path(f"balance-{self.rules.name}-{self.players}p")
        self.done: dict = {}  # "a,b,c,d" -> combo_stats
        self._texts: dict = {}  # "a,b,c,d" -> (its combo_stats, as balance.json holds it)
        self.max_decisions = max_decisions  # a game past it ends unfinished (None: simulate's default)

    @property
    def settings(self) -> dict:
        out = {"ruleset": self.ruleset, "players": self.players, "games_per_combo": self.games,
               "seed": self.seed, "bots": self.bots, "tiles_grid": self.families}
        if self.extra:  # (a sweep without them reads as it did before they could be given)
            out["with"] = self.extra
        return out

    @property
    def path(self) -> Path:
        return self.out / "balance.json"

    def resume(self) -> int:
        """Take the combinations an earlier run of the same settings finished; how many."""
        from ..engine.records import read_json

        if not os.path.lexists(self.path):
            return 0
        data = read_json(self.path)  # (strict JSON from a regular file: one line on a problem)
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise JuxError(f"{self.path}: not a jux balance file")
        if data.get("settings") != self.settings:
            theirs = data.get("settings") if isinstance(data.get("settings"), dict) else {}
            diff = [k for k in dict.fromkeys([*self.settings, *theirs]) if theirs.get(k) != self.settings.get(k)]
            raise JuxError(f"{self.path} was made with other settings ({', '.join(diff)}); "
                           "run with the same settings, or another --out")
        wanted = {",".join(c) for c in self.combos}
        combos = data.get("combos", [])
        for i, c in enumerate(combos if isinstance(combos, list) else [None]):
            combo = c.get("combo") if isinstance(c, dict) else None
            if not isinstance(combo, list) or not all(isinstance(t, str) for t in combo):
                raise JuxError(f"{self.path}: combos[{i}]: not a combination of this sweep (edited file?)")
            name = ",".join(combo)
            if name not in wanted:
                raise JuxError(f"{self.path}: combination {name} is not in this sweep (edited file?)")
            self.done[name] = c
        return len(self.done)

    def todo(self) -> list:
        return [c for c in self.combos if ",".join(c) not in self.done]

    def run(self, workers: int = 1, on_game=None, guard=None, cluster: str | None = None,
            cluster_timeout: float = 10.0) -> None:
        """Play the combinations not done yet; after each, save balance.json. on_game(result) is
        called for each game (progress); guard: a context manager held while the file is written
        (signals wait); cluster: a Dask scheduler's address to play on instead (cluster.py).
        Ctrl-C or a dead worker leave the finished ones saved."""
        from .parallel import ParallelRun
        from .simulate import run_games

        todo = self.todo()
        if not todo:
            return
        seeds = list(range(self.seed, self.seed + self.games))
        pending = {",".join(c): [] for c in todo}
        self.out.mkdir(parents=True, exist_ok=True)

        def take(result, combo_name):
            got = pending[combo_name]
            got.append(result)
            if on_game:
                on_game(result)
            if len(got) == self.games:
                got.sort(key=lambda r: r.seed)
                self.done[combo_name] = combo_stats(combo_name.split(","), got, self.players, len(self.combos))
                del pending[combo_name]
                with guard or contextlib.nullcontext():
                    self.save()

        jobs = [(list(c), seeds) for c in todo]
        if cluster:
            from .cluster import ClusterRun

            with ClusterRun(cluster, self.ruleset, [], self.players, [], self.bots, coverage="powers", jobs=jobs,
                            timeout=cluster_timeout, max_decisions=self.max_decisions) as run:
                for r in run:
                    take(r, ",".join(r.variants))
            return
        if workers <= 1:
            for combo in todo:
                rules = load_ruleset(self.ruleset, list(combo), coverage="powers")
                for r in run_games(rules, self.players, seeds, self.bots, **(
                        {"max_decisions": self.max_decisions} if self.max_decisions else {})):
                    take(r, ",".join(combo))
            return
        with ParallelRun(self.ruleset, [], self.players, [], self.bots, workers, coverage="powers",
                         jobs=jobs, max_decisions=self.max_decisions) as run:
            for r in run:
                take(r, ",".join(r.variants))

    def save(self) -> None:
        """balance.json, written whole to a new file then renamed over the old (never half): the
        text of json.dumps(data, indent=1), each combination's part encoded once (a sweep saves
        after each of its combinations: encoding them all each time grew with their square)."""
        head = {"format": FORMAT, "settings": self.settings,
                "keys": [list(k) for k in self.keys], "combos_planned": len(self.combos), "combos": []}
        parts = [self._encoded(",".join(c)) for c in self.combos if ",".join(c) in self.done]
        text = json.dumps(head, indent=1)
        if parts:  # (the list of combinations is the last item: its "[]" opens to hold them)
            text = text[:-len("[]\n}")] + "[\n" + ",\n".join(parts) + "\n ]\n}"
        write_text_atomic(self.path, text + "\n")

    def _encoded(self, name: str) -> str:
        """A finished combination as it reads in balance.json (indented as an item of "combos")."""
        stats = self.done[name]
        got = self._texts.get(name)
        if got is None or got[0] is not stats:
            got = self._texts[name] = (stats, "  " + json.dumps(stats, indent=1).replace("\n", "\n  "))
        return got[1]

    def results(self) -> list:
        return [self.done[",".join(c)] for c in self.combos if ",".join(c) in self.done]


__all__ = ["tile_grid", "combo_stats", "per_tile", "Sweep", "FORMAT"]
