"""`jux balance`: every combination of tiles played with the same seeds, a table of what each tile
does, and the report (interpreter/study/balance.py)."""
from __future__ import annotations

import sys
import time

from . import options
from ..errors import JuxError
from ..study.stops import Terminated
from .console import console, err, games_progress


def balance(args, stops) -> int:
    from ..bots import bot_factory
    from ..engine.ruleset import load_ruleset
    from ..files import check_writable_dir
    from ..study.balance import Sweep, per_tile
    from ..study.balance_report import NO_CHARTS, have_charts, write_report
    from ..study.parallel import WorkerDied
    from ..study.simulate import seat_bots

    rules = load_ruleset(args.ruleset)
    players = options.players(args, rules)
    options.bounded("--games-per-combo", args.games_per_combo, 1, options.MAX_GAMES)
    options.check_run(args)
    workers = options.workers(args)
    specs = seat_bots(args.bots, players)
    for s in specs:
        bot_factory(s)  # an unknown bot is an error now, not in a worker
    grid = [f.strip() for g in args.tiles_grid for f in g.split(",") if f.strip()]
    if args.extra and args.cluster:
        raise JuxError("balance: --with does not go with --cluster (a cluster's machines play the tiles of their "
                       "own jux)")
    most = options.max_decisions(args)
    sweep = Sweep(args.ruleset, players, args.games_per_combo, args.seed, specs, grid, args.out, args.extra, most)
    check_writable_dir(sweep.out)  # (a file, a read-only place: refused now, not after the games)
    if args.resume:
        sweep.resume()
    elif sweep.path.exists():
        raise JuxError(f"{sweep.path} exists: continue that sweep with --resume, or give another --out")
    total = len(sweep.combos) * sweep.games
    before = len(sweep.done) * sweep.games  # the games of the combinations done before (--resume)
    stopped = None
    start = time.perf_counter()
    show_progress = not args.quiet and sys.stderr.isatty()
    try:
        if show_progress:
            with games_progress() as progress:
                task = progress.add_task(f"{rules.name} {len(sweep.combos)} combinations", total=total,
                                         completed=len(sweep.done) * sweep.games, rate="")
                played = [0, start]

                def on_game(_):
                    played[0] += 1
                    now = time.perf_counter()
                    if now - played[1] > 0.1:
                        played[1] = now
                        progress.update(task, completed=before + played[0],
                                        rate=f"{played[0] / (now - start):.0f} games/s")

                sweep.run(workers, on_game, stops.held(), args.cluster, args.cluster_timeout)
        else:
            sweep.run(workers, None, stops.held(), args.cluster, args.cluster_timeout)
    except KeyboardInterrupt as e:
        stopped = ("terminated", 143) if isinstance(e, Terminated) else ("interrupted", 130)
    except WorkerDied as e:
        stopped = (str(e), 1)
    stops.stopping = stopped is not None
    with stops.held():
        report = write_report(sweep) if sweep.done else None
    if stopped is not None:
        message, status = stopped
        err(f"{message}: kept {len(sweep.done)} of {len(sweep.combos)} combinations in {sweep.path}; "
             f"run the same command with --resume to play the other {len(sweep.todo())}")
        return status
    if not args.quiet:
        _print_balance(sweep, per_tile(sweep.keys, sweep.results(), players), time.perf_counter() - start)
    print(f"report: {report}")
    if report is not None and not have_charts():
        print(NO_CHARTS)
    return 0


def _print_balance(sweep, tiles, seconds: float) -> None:
    from rich.table import Table

    out = console(markup=False)
    fair = 100 / sweep.players
    t = Table(title=f"{sweep.rules.title}, {sweep.players} players: {len(sweep.combos)} combinations x "
                    f"{sweep.games} games", title_justify="left")
    for col in ("Key", "Tile", "Score", "Start wins", "95% CI", "Uses/game", "Change"):
        t.add_column(col, justify="left" if col in ("Key", "Tile") else "right", no_wrap=True)
    for r in tiles:
        ci = f"{100 * r['start_ci'][0]:.0f}-{100 * r['start_ci'][1]:.0f}%" if r["start_ci"] else "-"
        rate = f"{100 * r['start_rate']:.1f}%{r['flag']}" if r["start_rate"] is not None else "-"
        change = "-" if r["power_mean_change"] is None else f"{r['power_mean_change']:+.2f}"
        per = "-" if r["power_per_game"] is None else f"{r['power_per_game']:.2f}"
        t.add_row(r["key"], r["tile"], f"{r['score_mean']:.1f}", rate, ci, per, change)
    out.print(t)
    flagged = [c for c in sweep.results() if c["flag"]]
    strong = [c for c in flagged if c["flag"] == "!!"]
    out.print(f"starting seat fair rate {fair:.0f}%; combinations flagged: {len(flagged)} at 95% "
              f"({len(strong)} also after the correction for {len(sweep.combos)} comparisons); "
              f"time {seconds:.1f} s", markup=False, highlight=False)
