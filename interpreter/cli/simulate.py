"""`jux simulate`: many games between bots, on every core (or a cluster), with a progress bar, a
summary table, --json, --csv, --records and --coverage; --resume continues a stopped run."""
from __future__ import annotations

from pathlib import Path
import sys
import time

from . import options
from ..errors import JuxError
from ..study.stops import Terminated
from .console import console, err, fmt, games_progress


def simulate(args, stops) -> int:
    from ..bots import bot_factory
    from ..engine.ruleset import load_ruleset
    from ..files import check_writable, check_writable_dir, save_json, write_text_atomic
    from ..study.parallel import ParallelRun, WorkerDied
    from ..study.resume import simulated_before
    from ..study.simulate import csv_rows, seat_bots, summarize

    tiles = options.tiles(args)
    coverage = args.coverage is not None
    rules = load_ruleset(args.ruleset, tiles, coverage=coverage)
    if coverage:
        rules.coverage.reset()
    players = options.players(args, rules)
    options.bounded("--games", args.games, 0, options.MAX_GAMES)
    options.check_run(args)
    workers = options.workers(args)
    most = options.max_decisions(args)
    specs = seat_bots(args.bots, players)
    factories = [bot_factory(s) for s in specs]
    json_path = Path(args.json) if args.json is not None else None  # ("" is a path: the folder here)
    csv_path = Path(args.csv) if args.csv is not None else None
    records = Path(args.records) if args.records is not None else None
    for path in (json_path, csv_path, Path(args.coverage) if coverage and args.coverage != "-" else None):
        if path is not None:  # (before the games: a file that cannot be written is known now)
            check_writable(path)
    if records is not None:
        check_writable_dir(records)
    settings = {"ruleset": rules.name, "variants": list(rules.variants), "digest": rules.digest,
                "players": players, "bots": specs, "seed": args.seed, "games_planned": args.games,
                "max_decisions": most}
    seeds = range(args.seed, args.seed + args.games)
    done, seconds_before = {}, 0.0  # seed -> GameResult: the games already played (--resume)
    if args.resume:
        if json_path is None and records is None:
            raise JuxError("--resume needs the --json file (or the --records folder) of the run to continue")
        done, seconds_before = simulated_before(json_path, records, settings, rules, seeds)
    if records is not None:
        records.mkdir(parents=True, exist_ok=True)
    todo = [s for s in seeds if s not in done]

    keep_record = records is not None
    stopped = None  # why the run stopped before its end: (message, exit status)
    show_progress = not args.quiet and sys.stderr.isatty()
    start = time.perf_counter()
    run = None
    try:
        if args.cluster:
            from ..study.cluster import ClusterRun

            run = ClusterRun(args.cluster, args.ruleset, tiles, players, todo, specs, record=keep_record,
                             digest=rules.digest, coverage=coverage, timeout=args.cluster_timeout,
                             max_decisions=most)
            workers = run.workers
        elif workers == 1 or len(todo) <= 1:
            run = _in_process(rules, players, todo, factories, keep_record, most)
        else:  # the workers start now, before the progress bar's thread
            run = ParallelRun(args.ruleset, tiles, players, todo, specs, workers, record=keep_record,
                              digest=rules.digest, coverage=coverage, max_decisions=most)
        with run:
            if show_progress:
                with games_progress() as progress:
                    task = progress.add_task(rules.name, total=len(seeds), completed=len(done), rate="")
                    last = start
                    for i, r in enumerate(run, 1):
                        _keep(r, done, records, save_json, specs, stops)
                        now = time.perf_counter()
                        if now - last > 0.1 or i == len(todo):
                            last = now
                            progress.update(task, completed=len(done), rate=f"{i / (now - start):.0f} games/s")
            else:
                for r in run:
                    _keep(r, done, records, save_json, specs, stops)
    except KeyboardInterrupt as e:
        stopped = ("terminated", 143) if isinstance(e, Terminated) else ("interrupted", 130)
    except WorkerDied as e:
        stopped = (str(e), 1)
    seconds = seconds_before + time.perf_counter() - start
    if stopped is not None:
        stops.stopping = True  # a second Ctrl-C while the games are written is not needed
        if run is not None:
            for r in run.unclaimed():  # games the workers finished: none is lost
                _keep(r, done, records, save_json, specs, stops)

    results = [done[s] for s in seeds if s in done]
    summary = summarize(results, players, seconds, ruleset=rules.name, variants=list(rules.variants),
                        digest=rules.digest, seed=args.seed, games_planned=args.games,
                        complete=len(results) == len(seeds), max_decisions=most,
                        bots=specs, names=[f"Player {p + 1}" for p in range(players)])
    for p, seat in enumerate(summary["seats"]):
        seat["bot"] = specs[p]
    with stops.held():
        if json_path is not None:
            save_json({"summary": summary, "games": [r.to_json() for r in results]}, json_path)
        if csv_path is not None:
            import csv
            import io

            buf = io.StringIO()
            csv.writer(buf, lineterminator="\n").writerows(csv_rows(results, players))
            write_text_atomic(csv_path, buf.getvalue())
    if stopped is not None:
        message, status = stopped
        kept = [str(p) for p in (json_path, csv_path) if p is not None]
        if records is not None:
            kept.append(f"{records}/")
        if kept and (json_path is not None or records is not None):
            err(f"{message}: kept {len(results)} of {len(seeds)} games in {', '.join(kept)}; "
                 f"run the same command with --resume to play the other {len(seeds) - len(results)}")
        elif kept:
            err(f"{message}: kept {len(results)} of {len(seeds)} games in {', '.join(kept)} "
                 f"(to continue with --resume, also give --json)")
        else:
            err(f"{message} after {len(results)} of {len(seeds)} games (nothing kept: give --json "
                 f"to keep them and continue with --resume)")
        return status
    if not args.quiet:
        _print_summary(summary, args, workers=1 if len(todo) <= 1 else min(workers, len(todo)))
    if coverage:
        _coverage_report(rules, [r for r in results if r.seed in todo], args.coverage)
    return 0


class _in_process:
    """The games played here, one after another (one worker): the same interface as ParallelRun."""

    def __init__(self, rules, players, seeds, factories, record, max_decisions):
        from ..study.simulate import run_games

        self._games = run_games(rules, players, seeds, factories, record, max_decisions)

    def __iter__(self):
        return iter(self._games)

    def unclaimed(self) -> list:
        return []

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self._games.close()
        return False


def _keep(r, done: dict, records, save_json, specs, stops) -> None:
    """A finished game: its record written (with the bots that played it), its result kept."""
    with stops.held():
        if records is not None and r.record is not None:
            save_json(dict(r.record, bots=specs), records / f"game-{r.seed}.json")
            r.record = None
        done[r.seed] = r


def _coverage_report(rules, results, target: str) -> None:
    """--coverage: the counts of the games played in this run (a resumed run's earlier games are
    not counted), as Markdown in a file, or '-': a summary in the terminal."""
    from ..study import coverage

    total = None
    counted = 0
    for r in results:
        if r.coverage is not None:
            total = coverage.add(total, r.coverage)
            counted += 1
    base = rules.coverage.data()
    empty = {**base, "runs": [0] * len(base["runs"]), "choices": [[0, 0, 0, 0] for _ in base["choices"]],
             "powers": []}
    data = coverage.add(empty, total) if total is not None else empty
    if target != "-":
        from ..files import write_text_atomic

        write_text_atomic(Path(target), coverage.markdown(data, counted))
        print(f"coverage of {counted} games: {target}")
        return
    _print_coverage(data, counted)


def _print_coverage(data: dict, games: int) -> None:
    from rich.table import Table

    from ..study import coverage

    out = console(markup=False)
    rep = coverage.report(data)
    t = Table(title=f"Rule coverage ({games} games)", title_justify="left")
    t.add_column("File", overflow="fold")
    for col in ("Statements", "Ran", "Never ran", "Forced chooses"):
        t.add_column(col, justify="right", no_wrap=True)
    for f, e in rep.items():
        t.add_row(f, str(e["statements"]), f"{e['ran']} ({100 * e['ran'] // max(1, e['statements'])}%)",
                  str(len(e["never"])), str(len(e["forced"])))
    out.print(t)
    for f, e in rep.items():
        for line, col, what in e["never"]:
            out.print(f"{f}:{line}:{col}: never ran ({what}): {coverage.source_line(e['path'], line)}",
                      markup=False, highlight=False, soft_wrap=True)
        for line, col, reached, asked, most in e["forced"]:
            why = ("never reached" if not reached else "never had an option" if not asked
                   else f"asked {asked} times, always one possible answer")
            out.print(f"{f}:{line}:{col}: choose {why}: {coverage.source_line(e['path'], line)}",
                      markup=False, highlight=False, soft_wrap=True)


def _print_summary(s: dict, args, workers: int = 1) -> None:
    from rich.table import Table

    out = console(markup=False)
    n = s["games"] + s["unfinished"]
    seeds = f"seed {args.seed}" if n == 1 else f"seeds {args.seed}..{args.seed + n - 1}" if n else "no seeds"
    title = f"{s['ruleset']}: {n} game{'s' if n != 1 else ''}, {s['players']} players, {seeds}"
    t = Table(title=title, title_justify="left")
    t.add_column("Seat", justify="right")
    t.add_column("Bot")
    t.add_column("Mean score", justify="right")
    t.add_column("Min", justify="right")
    t.add_column("Max", justify="right")
    t.add_column("Wins", justify="right")
    t.add_column("Win rate", justify="right")
    for seat in s["seats"]:  # seats numbered from 1 for people (the JSON and CSV keep theirs from 0)
        rate = seat["win_rate"]
        t.add_row(str(seat["seat"] + 1), seat["bot"], fmt(seat["mean_score"]), fmt(seat["min_score"]),
                  fmt(seat["max_score"]), fmt(seat["wins"], 1),
                  "-" if rate is None else f"{100 * rate:.1f}%")
    out.print(t)
    out.print(f"games/s: {fmt(s.get('games_per_second'), 1)}   mean turns: {fmt(s['mean_turns'], 1)}   "
              f"complete ties: {s['ties']}   time: {s['seconds']:.2f} s   workers: {workers}",
              soft_wrap=True)
    if s["unfinished"]:
        out.print(f"unfinished: {s['unfinished']} of {n} games (past {s['max_decisions']:,} decisions): in no "
                  "mean, minimum, maximum or win rate above (--max-decisions)", soft_wrap=True)
    written = [p for p in (args.json, args.csv) if p]
    if args.records:
        written.append(f"{args.records}/game-<seed>.json")
    if written:
        out.print("wrote: " + ", ".join(written))
