"""Balance reports: what each power tile (each variant filling a slot key) does to a game.

``tile_grid`` lists the combinations to sweep: every combination of one variant per slot key, or
only the keys whose variants belong to the families named (the other keys at their default).
``Sweep`` plays the same seeds with every combination on a pool of workers (parallel.ParallelRun,
rules compiled with coverage so each power's use is counted) and keeps, per combination, what the
report needs; it writes them to ``balance.json`` as each combination finishes, so an interrupted
sweep loses nothing and ``resume`` continues it. ``per_tile`` pools the combinations that hold each
tile; ``markdown`` and ``charts`` write the report.

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
import itertools
import json
import os
from pathlib import Path

from ..engine.game import load_ruleset
from ..errors import JuxError, did_you_mean
from ..files import write_bytes_atomic, write_text_atomic
from .simulate import seat_bots
from .stats import mean_sd, wilson
from ..reading.variants import catalogue

FORMAT = "jux-balance/1"


def tile_grid(ruleset: str, families=("all",)) -> tuple:
    """(keys, combos): the slot keys that variants fill, in the rules' order, as (slot, key), and
    the combinations to sweep, each a tuple of variant names in key order. families: ["all"], or
    family names (variants' `family`): only the keys those families fill vary, the others keep
    their default variant."""
    base = load_ruleset(ruleset)
    cat = catalogue(base.name)
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
    """What a combination's games say (results: GameResults with coverage)."""
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
        for c in cov.get("choices", ()):
            asked += c[1]
            real += c[2]
        for slot, key, uses, seated, change, _ in cov.get("powers", ()):
            st = powers.setdefault(f"{slot}[{key}]", [0, 0, 0])
            st[0] += uses
            st[1] += seated
            st[2] += change
    return {
        "combo": list(combo), "games": n,
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
            mine = [c for c in combos if c["combo"][i] == name]
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
                 families=("all",), out_dir: str | Path | None = None):
        self.ruleset = str(ruleset)
        self.players = int(players)
        self.games = int(games)
        self.seed = int(seed)
        self.bots = seat_bots(list(bots), self.players)
        self.families = [f for f in families if f] or ["all"]
        self.keys, self.combos = tile_grid(self.ruleset, self.families)
        self.rules = load_ruleset(self.ruleset)
        self.out = Path(out_dir) if out_dir else Path(f"balance-{self.rules.name}-{self.players}p")
        self.done: dict = {}  # "a,b,c,d" -> combo_stats

    @property
    def settings(self) -> dict:
        return {"ruleset": self.ruleset, "players": self.players, "games_per_combo": self.games,
                "seed": self.seed, "bots": self.bots, "tiles_grid": self.families}

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
            diff = [k for k in self.settings if (data.get("settings") or {}).get(k) != self.settings[k]]
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

            with ClusterRun(cluster, self.ruleset, [], self.players, [], self.bots, coverage=True, jobs=jobs,
                            timeout=cluster_timeout) as run:
                for r in run:
                    take(r, ",".join(r.variants))
            return
        if workers <= 1:
            for combo in todo:
                rules = load_ruleset(self.ruleset, list(combo), coverage=True)
                for r in run_games(rules, self.players, seeds, self.bots):
                    take(r, ",".join(combo))
            return
        with ParallelRun(self.ruleset, [], self.players, [], self.bots, workers, coverage=True,
                         jobs=jobs) as run:
            for r in run:
                take(r, ",".join(r.variants))

    def save(self) -> None:
        """balance.json, written whole to a new file then renamed over the old (never half)."""
        done = [self.done[",".join(c)] for c in self.combos if ",".join(c) in self.done]
        data = {"format": FORMAT, "settings": self.settings,
                "keys": [list(k) for k in self.keys], "combos_planned": len(self.combos),
                "combos": done}
        write_text_atomic(self.path, json.dumps(data, indent=1) + "\n")

    def results(self) -> list:
        return [self.done[",".join(c)] for c in self.combos if ",".join(c) in self.done]


# ------------------------------------------------------------------ the report


def _pct(x) -> str:
    return "-" if x is None else f"{100 * x:.1f}%"


def _ci(ci) -> str:
    return "-" if not ci else f"{100 * ci[0]:.1f}-{100 * ci[1]:.1f}%"


def _num(x, fmt="{:.2f}") -> str:
    return "-" if x is None else fmt.format(x)


def markdown(sweep: Sweep, charts: list | None = ()) -> str:
    combos = sweep.results()
    tiles = per_tile(sweep.keys, combos, sweep.players)
    fair = 1.0 / sweep.players
    flagged = [c for c in combos if c["flag"]]
    out = [f"# Balance: {sweep.rules.title}, {sweep.players} players", "",
           f"{len(combos)} of {len(sweep.combos)} combinations, {sweep.games} games each (seeds {sweep.seed}-"
           f"{sweep.seed + sweep.games - 1}, the same for every combination), bots: {', '.join(sweep.bots)}.",
           f"The starting seat is the seat of the first decision outside a simultaneous block; a fair "
           f"rate is {100 * fair:.1f}%. \"!\": its 95% interval leaves out the fair rate; \"!!\": so does "
           f"the interval corrected for {len(sweep.combos)} comparisons (Bonferroni). Power changes are "
           "the change of the score of the seat a power is for, from its start to its end.", ""]
    out += ["## Tiles", "", "| key | tile | combos | games | mean score | starting seat wins | 95% CI | "
            "turns | power per game | power score change | single-option decisions |",
            "|---|---|---|---|---|---|---|---|---|---|---|"]
    for t in tiles:
        out.append(f"| {t['key']} | {t['tile']} | {t['combos']} | {t['games']} | {_num(t['score_mean'])} | "
                   f"{_pct(t['start_rate'])} {t['flag']} | {_ci(t['start_ci'])} | {_num(t['turns_mean'], '{:.1f}')} | "
                   f"{_num(t['power_per_game'])} | {_num(t['power_mean_change'], '{:+.2f}')} | "
                   f"{_pct(t['single_share'])} |")
    if charts is None:
        out += ["", f"({NO_CHARTS}.)"]
    for name in charts or ():
        out += ["", f"![{Path(name).stem.replace('_', ' ')}]({Path(name).name})"]
    out += ["", f"## Flagged combinations ({len(flagged)})", ""]
    if flagged:
        out += ["| combination | starting seat wins | 95% CI | flag |", "|---|---|---|---|"]
        for c in sorted(flagged, key=lambda c: -abs(c["start_rate"] - fair)):
            out.append(f"| {', '.join(c['combo'])} | {_pct(c['start_rate'])} | {_ci(c['start_ci'])} | {c['flag']} |")
    else:
        out.append("None: every combination's starting-seat interval holds the fair rate.")
    keys = [f"{slot}[{key}]" for slot, key in sweep.keys]
    out += ["", "## Combinations", "",
            "| combination | mean score | sd | starting seat wins | 95% CI | turns | single-option | "
            + " | ".join(f"{k} per game (change)" for k in keys) + " |",
            "|---|---|---|---|---|---|---|" + "---|" * len(keys)]
    for c in combos:
        pw = " | ".join(f"{_num(c['powers'].get(k, {}).get('per_game'))} "
                        f"({_num(c['powers'].get(k, {}).get('mean_change'), '{:+.2f}')})" for k in keys)
        out.append(f"| {', '.join(c['combo'])} | {_num(c['score_mean'])} | {_num(c['score_sd'])} | "
                   f"{_pct(c['start_rate'])} {c['flag']} | {_ci(c['start_ci'])} | {_num(c['turns_mean'], '{:.1f}')} | "
                   f"{_pct(c['single_share'])} | {pw} |")
    return "\n".join(out) + "\n"


def have_charts() -> bool:
    """Whether matplotlib (the charts extra) is installed."""
    from importlib.util import find_spec

    return find_spec("matplotlib") is not None


# (not `pip install 'jux[charts]'`: the name jux on PyPI is another project)
NO_CHARTS = ("no charts: they need matplotlib, the charts extra (in a jux checkout: pip install '.[charts]'; "
             "with pipx: pipx inject jux matplotlib)")


def charts(sweep: Sweep) -> list | None:
    """PNG charts of the per-tile figures in the output folder; their paths. None when matplotlib
    (the optional `charts` extra: playing does not need it) is not installed."""
    if not have_charts():
        return None
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    tiles = per_tile(sweep.keys, sweep.results(), sweep.players)
    if not tiles:
        return []
    names = [f"{t['tile']} ({t['key']})" for t in tiles]
    y = list(range(len(tiles)))
    height = max(3.0, 0.3 * len(tiles) + 1.2)
    paths = []

    fig, ax = plt.subplots(figsize=(8, height))
    rates = [100 * (t["start_rate"] or 0) for t in tiles]
    err = [[100 * ((t["start_rate"] or 0) - t["start_ci"][0]) if t["start_ci"] else 0 for t in tiles],
           [100 * (t["start_ci"][1] - (t["start_rate"] or 0)) if t["start_ci"] else 0 for t in tiles]]
    ax.barh(y, rates, xerr=err, color="#4c72b0", ecolor="#333333", capsize=3)
    ax.axvline(100 / sweep.players, color="#c44e52", linestyle="--", label=f"fair ({100 / sweep.players:.0f}%)")
    ax.set_yticks(y, names)
    ax.invert_yaxis()
    ax.set_xlabel("starting seat win rate (%), 95% interval")
    ax.set_title(f"Starting seat win rate by tile ({sweep.players} players)")
    ax.legend(loc="lower right")
    fig.tight_layout()
    paths.append(sweep.out / "start_seat_win_rate.png")
    _save_chart(fig, paths[-1])
    plt.close(fig)

    fig, (a1, a2) = plt.subplots(1, 2, figsize=(11, height), sharey=True)
    a1.barh(y, [t["power_per_game"] or 0 for t in tiles], color="#55a868")
    a1.set_yticks(y, names)
    a1.invert_yaxis()
    a1.set_xlabel("power uses per game")
    a2.barh(y, [t["power_mean_change"] or 0 for t in tiles], color="#8172b2")
    a2.axvline(0, color="#333333", linewidth=0.8)
    a2.set_xlabel("mean score change per use")
    fig.suptitle("What each tile's power does")
    fig.tight_layout()
    paths.append(sweep.out / "power_use.png")
    _save_chart(fig, paths[-1])
    plt.close(fig)

    fig, ax = plt.subplots(figsize=(8, height))
    ax.barh(y, [t["score_mean"] or 0 for t in tiles], color="#dd8452")
    ax.set_yticks(y, names)
    ax.invert_yaxis()
    ax.set_xlabel("mean final score (all seats)")
    ax.set_title("Mean score in the combinations holding each tile")
    fig.tight_layout()
    paths.append(sweep.out / "mean_score.png")
    _save_chart(fig, paths[-1])
    plt.close(fig)
    return paths


def _save_chart(fig, path: Path) -> None:
    """A chart as PNG, written as files.write_bytes_atomic writes (never through a link or a device)."""
    import io

    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=100)
    write_bytes_atomic(path, buf.getvalue())


def write_report(sweep: Sweep) -> Path:
    """report.md (and its charts, when matplotlib is installed) in the output folder; its path."""
    sweep.out.mkdir(parents=True, exist_ok=True)
    pngs = charts(sweep)
    path = sweep.out / "report.md"
    write_text_atomic(path, markdown(sweep, pngs))
    return path


__all__ = ["tile_grid", "combo_stats", "per_tile", "Sweep", "markdown", "charts", "have_charts", "NO_CHARTS", "write_report", "FORMAT"]
