"""The balance report of a sweep (balance.py): report.md, with its charts when matplotlib (the
charts extra) is installed: per tile, the starting seat's win rate, how often its power ran and what
it did to the score, the mean score; and the combinations flagged."""
from __future__ import annotations

from pathlib import Path

from ..files import write_bytes_atomic, write_text_atomic
from .balance import Sweep, per_tile
from .simulate import MAX_DECISIONS


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
    unfinished = sum(c.get("unfinished", 0) for c in combos)
    if unfinished:
        out[-1:] = [f"Unfinished: {unfinished} games of {len(combos) * sweep.games} went past "
                    f"{sweep.max_decisions or MAX_DECISIONS:,} decisions and are in no figure below "
                    "(--max-decisions).", ""]
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
