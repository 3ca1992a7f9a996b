"""jux: play, check and study card games written as rules-as-data.

Usage:
  jux validate PATH...            check rule files (a ruleset folder or name, a file in one, or a
                                  folder of rulesets); prints ok or every error as path:line:col
  jux simulate RULESET [--players N] [--games G] [--seed S] [--bots random,...]
               [--json OUT.json] [--csv OUT.csv] [--records DIR] [--quiet] [--workers N] [--resume]
               [--coverage [REPORT.md]]
                                  play G games between bots (game i uses seed S+i) on every core
                                  and summarize; --resume continues an interrupted run; --coverage
                                  says which lines of effect code ran, never ran, and forced chooses
  jux balance RULESET [--players N] [--games-per-combo G] [--tiles-grid all|FAMILY...] [--out DIR]
              [--workers N] [--resume]
                                  sweep tile combinations; a report of what each tile does
  jux replay RECORD.json [--viewer SEAT] [--rules RULESET] [--tiles FILE,...]
                                  replay a game record: the log, then the final scores
  jux rules [RULESET]             list the rulesets, or show one: text, components, powers
  jux play [RULESET] [--players N] [--seat human|BOT ...] [--name NAME ...] [--seed S]
           [--bot-delay SEC] [--load SAVE.json] [--print]
                                  play in the terminal UI (humans at one keyboard, bots);
                                  --print: random bots, printed as a log
  jux --version

Seats are numbered from 0. Exit status: 0 ok, 1 error, 2 bad usage. Set JUX_DEBUG=1 to see a
Python traceback for an unexpected internal error.
"""
from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

from . import options
from .errors import JuxError, RuleError, RuleErrors, did_you_mean

PROG = "jux"


# ------------------------------------------------------------------ output helpers


def _console(stderr: bool = False, markup: bool = True):
    """A Rich console; markup=False: texts (names, rule texts, paths) are printed as written unless
    a print asks for markup (and escapes what it puts in it)."""
    from rich.console import Console

    return Console(stderr=stderr, highlight=False, markup=markup)


def _err(message: str) -> None:
    print(f"{PROG}: {message}", file=sys.stderr)


def _print_error(e: JuxError) -> None:
    """An error as one line each: rule errors carry their own path:line:col prefix."""
    if isinstance(e, RuleErrors):
        for one in e.errors:
            print(str(one), file=sys.stderr)
    elif isinstance(e, RuleError) and e.pos:
        print(str(e), file=sys.stderr)
    else:
        for line in str(e).splitlines() or [type(e).__name__]:
            _err(line)


def _check_output_file(path: Path) -> None:
    """Fail before a long run, not after it, when an output file cannot be written (a folder, a
    missing folder, a block device: files.check_writable)."""
    from .files import check_writable

    check_writable(path)


def _check_output_dir(path: Path) -> None:
    if path.exists() and not path.is_dir():
        raise JuxError(f"cannot write records to {path}: it is not a directory")


def _players_default(rules) -> int:
    return min(rules.max_players, max(rules.min_players, 4))


def _players(args, rules) -> int:
    """--players (default: 4 if the ruleset allows), checked against the ruleset."""
    players = args.players if args.players is not None else _players_default(rules)
    if not rules.min_players <= players <= rules.max_players:
        raise JuxError(f"{rules.name} is for {rules.min_players} to {rules.max_players} players, not {players}")
    return players


def _workers(args) -> int:
    """--workers (default: one per core)."""
    from .parallel import default_workers

    return options.check_workers(args.workers if args.workers is not None else default_workers())


def _players_range(rules) -> str:
    lo, hi = rules.min_players, rules.max_players
    return str(lo) if lo == hi else f"{lo}-{hi}"


def _fmt(x, digits: int = 2) -> str:
    if x is None:
        return "-"
    if isinstance(x, float):
        return f"{x:.{digits}f}"
    return str(x)


# ------------------------------------------------------------------ validate


def _has_yaml(d: Path) -> bool:
    return any(p.is_file() for p in d.glob("*.yaml"))


def _declares_game(d: Path) -> bool:
    """Whether a folder holds a rule file with a top-level 'game:' section (a ruleset's root)."""
    for f in sorted(d.glob("*.yaml")):
        if not f.is_file():  # (a FIFO would block)
            continue
        try:
            with open(f, encoding="utf-8", errors="replace") as fh:
                for line in fh:
                    if line.startswith("game:"):
                        return True
        except OSError:
            continue
    return False


def _ruleset_of_file(f: Path) -> Path:
    """The ruleset folder a rule file belongs to: the nearest folder above it declaring a game."""
    d = f.resolve().parent
    for cand in [d, *d.parents][:6]:
        if _declares_game(cand):
            return cand
    return f.parent


def _is_variant(f: Path) -> bool:
    """Whether a YAML file has a top-level 'variant:' section."""
    if not f.is_file():  # (a FIFO would block)
        return False
    try:
        with open(f, encoding="utf-8", errors="replace") as fh:
            return any(line.startswith("variant:") for line in fh)
    except OSError:
        return False


def _validate_targets(arg: str) -> tuple:
    """What to load for one argument: ([(label, name_or_path)], [unchecked yaml files]).
    A variant file's target is ("variant", path)."""
    p = Path(arg)
    if not p.exists():
        if os.sep in arg or "/" in arg or p.suffix in (".yaml", ".yml"):
            raise JuxError(f"{arg}: no such file or directory")
        return [(arg, arg)], []  # a ruleset name: load_ruleset finds it under rules/ or says so
    if p.is_file():
        if p.suffix not in (".yaml", ".yml"):
            raise JuxError(f"{arg}: not a rule file (.yaml)")
        if _is_variant(p):
            return [(_display(p), ("variant", p))], []
        root = _ruleset_of_file(p)
        return [(_display(root), root)], []
    variants = [f for f in sorted(p.rglob("*.yaml")) if f.is_file() and _is_variant(f)]
    if variants and not _declares_game(p):
        return [(_display(f), ("variant", f)) for f in variants], []
    if _has_yaml(p):
        return [(arg, p)], []
    # a folder of rulesets (like rules/) or of other rule files: find the rulesets inside
    targets, stray = [], []

    def walk(d: Path):
        for sub in sorted(x for x in d.iterdir() if x.is_dir() and not x.name.startswith((".", "_"))):
            if _declares_game(sub):
                targets.append((_display(sub), sub))
            else:
                stray.extend(sorted(sub.glob("*.yaml")))
                walk(sub)

    walk(p)
    return targets, stray


def _display(p: Path) -> str:
    try:
        return str(p.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(p)


def _load_variant(path: Path):
    """A variant file checked in play: loaded onto its game with what it needs (the variants it
    requires, and the default tiles of the slot keys it leaves open)."""
    from .engine import load_ruleset
    from .loader import catalogue_rulesets, read_file

    loc = read_file(path)  # YAML errors as path:line:col
    head = loc.data.get("variant") if isinstance(loc.data, dict) else None
    game = head.get("game") if isinstance(head, dict) else None
    if not isinstance(game, str):
        from .loader import _schema_errors, schema_validator

        errs = _schema_errors(loc, schema_validator("ruleset"))
        if errs:
            raise RuleErrors(errs)
        raise JuxError(f"{_display(path)}: the variant section names no game")
    known = catalogue_rulesets()
    if game not in known:  # a game is named, never a path: "/" would have jux read the whole disk
        raise RuleErrors([RuleError(loc.marks.get(("variant", "game")), f"no game '{game}'"
                                    f"{did_you_mean(game, known)}; the games: {', '.join(known)}")])
    names = [str(path)]
    return load_ruleset(game, names)


def cmd_validate(args) -> int:
    from .engine import load_ruleset

    status = 0
    out = _console(markup=False)  # (paths and names are printed as written)
    for arg in args.paths:
        try:
            targets, stray = _validate_targets(arg)
        except JuxError as e:
            _print_error(e)
            status = 1
            continue
        if not targets and not stray:  # (an empty folder is a mistake: the wrong one, or files not saved)
            _err(f"{arg}: nothing to validate: no .yaml rule files found")
            status = 1
        for f in stray:
            out.print(f"not checked: {_display(f)} (not part of a ruleset: no folder above it has a "
                      f"'game' section)", soft_wrap=True)
        for label, target in targets:
            try:
                if isinstance(target, tuple):
                    rules = _load_variant(target[1])
                else:
                    rules = load_ruleset(target, _tiles(args))
            except JuxError as e:
                _print_error(e)
                if isinstance(e, RuleErrors):
                    n = len(e.errors)
                    _err(f"{label}: {n} error{'s' if n != 1 else ''}")
                status = 1
                continue
            with_ = f", with {', '.join(rules.variants)}" if rules.variants else ""
            out.print(f"ok: {label} ({len(rules.cards)} cards, {len(rules.spec.procedures)} procedures{with_})",
                      soft_wrap=True)
    return status


# ------------------------------------------------------------------ simulate


def _with_stops(run):
    """A command run with Ctrl-C and SIGTERM turned into KeyboardInterrupt (see _Stops), the
    signals' handlers put back after it."""
    def command(args) -> int:
        stops = _Stops()
        try:
            return run(args, stops)
        finally:
            stops.restore()
    return command


def _simulate(args, stops) -> int:
    from .bots import bot_factory
    from .engine import load_ruleset
    from .files import save_json, write_text_atomic
    from .parallel import ParallelRun, WorkerDied
    from .simulate import csv_rows, seat_bots, summarize

    tiles = _tiles(args)
    coverage = args.coverage is not None
    rules = load_ruleset(args.ruleset, tiles, coverage=coverage)
    if coverage:
        rules.coverage.reset()
        if args.coverage != "-":
            _check_output_file(Path(args.coverage))
    players = _players(args, rules)
    options.bounded("--games", args.games, 0, options.MAX_GAMES)
    options.check_run(args)
    workers = _workers(args)
    specs = seat_bots(args.bots, players)
    factories = [bot_factory(s) for s in specs]
    json_path = Path(args.json) if args.json is not None else None  # ("" is a path: the folder here)
    csv_path = Path(args.csv) if args.csv is not None else None
    records = Path(args.records) if args.records is not None else None
    for path in (json_path, csv_path):
        if path is not None:
            _check_output_file(path)
    if records is not None:
        _check_output_dir(records)
    settings = {"ruleset": rules.name, "variants": list(rules.variants), "digest": rules.digest,
                "players": players, "bots": specs, "seed": args.seed, "games_planned": args.games}
    seeds = range(args.seed, args.seed + args.games)
    done, seconds_before = {}, 0.0  # seed -> GameResult: the games already played (--resume)
    if args.resume:
        if json_path is None and records is None:
            raise JuxError("--resume needs the --json file (or the --records folder) of the run to continue")
        done, seconds_before = _simulated_before(json_path, records, settings, rules, seeds)
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
            from .cluster import ClusterRun

            run = ClusterRun(args.cluster, args.ruleset, tiles, players, todo, specs, record=keep_record,
                             digest=rules.digest, coverage=coverage, timeout=args.cluster_timeout)
            workers = run.workers
        elif workers == 1 or len(todo) <= 1:
            run = _in_process(rules, players, todo, factories, keep_record)
        else:  # the workers start now, before the progress bar's thread
            run = ParallelRun(args.ruleset, tiles, players, todo, specs, workers, record=keep_record,
                              digest=rules.digest, coverage=coverage)
        with run:
            if show_progress:
                with _games_progress() as progress:
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
        stopped = ("terminated", 143) if isinstance(e, _Terminated) else ("interrupted", 130)
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
                        complete=len(results) == len(seeds),
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
            _err(f"{message}: kept {len(results)} of {len(seeds)} games in {', '.join(kept)}; "
                 f"run the same command with --resume to play the other {len(seeds) - len(results)}")
        elif kept:
            _err(f"{message}: kept {len(results)} of {len(seeds)} games in {', '.join(kept)} "
                 f"(to continue with --resume, also give --json)")
        else:
            _err(f"{message} after {len(results)} of {len(seeds)} games (nothing kept: give --json "
                 f"to keep them and continue with --resume)")
        return status
    if not args.quiet:
        _print_summary(summary, args, workers=1 if len(todo) <= 1 else min(workers, len(todo)))
    if coverage:
        _coverage_report(rules, [r for r in results if r.seed in todo], args.coverage)
    return 0


# ------------------------------------------------------------------ balance



def _balance(args, stops) -> int:
    from .balance import Sweep, per_tile, write_report
    from .bots import bot_factory
    from .engine import load_ruleset
    from .parallel import WorkerDied
    from .simulate import seat_bots

    rules = load_ruleset(args.ruleset)
    players = _players(args, rules)
    options.bounded("--games-per-combo", args.games_per_combo, 1, options.MAX_GAMES)
    options.check_run(args)
    workers = _workers(args)
    specs = seat_bots(args.bots, players)
    for s in specs:
        bot_factory(s)  # an unknown bot is an error now, not in a worker
    grid = [f.strip() for g in args.tiles_grid for f in g.split(",") if f.strip()]
    sweep = Sweep(args.ruleset, players, args.games_per_combo, args.seed, specs, grid, args.out)
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
            with _games_progress() as progress:
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
        stopped = ("terminated", 143) if isinstance(e, _Terminated) else ("interrupted", 130)
    except WorkerDied as e:
        stopped = (str(e), 1)
    stops.stopping = stopped is not None
    with stops.held():
        report = write_report(sweep) if sweep.done else None
    if stopped is not None:
        message, status = stopped
        _err(f"{message}: kept {len(sweep.done)} of {len(sweep.combos)} combinations in {sweep.path}; "
             f"run the same command with --resume to play the other {len(sweep.todo())}")
        return status
    if not args.quiet:
        _print_balance(sweep, per_tile(sweep.keys, sweep.results(), players), time.perf_counter() - start)
    print(f"report: {report}")
    return 0


def _print_balance(sweep, tiles, seconds: float) -> None:
    from rich.table import Table

    out = _console(markup=False)
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


class _Terminated(KeyboardInterrupt):
    """SIGTERM (kill, a time limit) during a run: stopped as Ctrl-C stops it, the games kept."""


class _Stops:
    """During a run, Ctrl-C and SIGTERM raise KeyboardInterrupt (_Terminated for SIGTERM), but never
    while a file is being written (`with stops.held():`): then when it is written. Outside the main
    thread, signals are left as they are."""

    def __init__(self):
        import threading

        self._previous = {}
        self._holding = 0
        self._pending = None
        self.stopping = False  # already stopping: a signal while a file is written is dropped
        if threading.current_thread() is threading.main_thread():
            import signal

            for sig in (signal.SIGINT, signal.SIGTERM):
                self._previous[sig] = signal.signal(sig, self._stop)

    def _stop(self, signum, frame):
        if self._holding:
            self._pending = self._pending or signum
        else:
            self._raise(signum)

    @staticmethod
    def _raise(signum):
        import signal

        raise _Terminated if signum == signal.SIGTERM else KeyboardInterrupt

    def held(self):
        return self

    def __enter__(self):
        self._holding += 1
        return self

    def __exit__(self, *exc):
        self._holding -= 1
        if not self._holding and self._pending is not None and exc[0] is None:
            signum, self._pending = self._pending, None
            if not self.stopping:
                self._raise(signum)
        return False

    def restore(self) -> None:
        """Signals as before the run (a signal held until now is raised)."""
        import signal

        for sig, handler in self._previous.items():
            signal.signal(sig, handler)
        self._previous = {}


class _in_process:
    """The games played here, one after another (one worker): the same interface as ParallelRun."""

    def __init__(self, rules, players, seeds, factories, record):
        from .simulate import run_games

        self._games = run_games(rules, players, seeds, factories, record)

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
    from . import coverage

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
        from .files import write_text_atomic

        write_text_atomic(Path(target), coverage.markdown(data, counted))
        print(f"coverage of {counted} games: {target}")
        return
    _print_coverage(data, counted)


def _print_coverage(data: dict, games: int) -> None:
    from rich.table import Table

    from . import coverage

    out = _console(markup=False)
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


SETTING_NAMES = {"ruleset": "ruleset", "variants": "tiles", "players": "players", "bots": "bots",
                 "seed": "--seed", "games_planned": "--games"}


def _simulated_before(json_path, records, settings: dict, rules, seeds) -> tuple:
    """--resume: the games an earlier run of the same settings finished ({seed: GameResult}) and
    its time in seconds, from its --json file (or else its --records folder). Nothing yet: ({}, 0)."""
    if json_path is not None and json_path.exists():
        return _results_of_json(json_path, settings, seeds)
    if records is not None and records.is_dir():
        return _results_of_records(records, settings, rules, seeds), 0.0
    return {}, 0.0


def _other_settings(source, made: dict, settings: dict) -> None:
    if made.get("ruleset") == settings["ruleset"] and made.get("variants") == settings["variants"] \
            and made.get("digest") not in (None, settings["digest"]):
        raise JuxError(f"{source} was made with other rule files for {settings['ruleset']}: "
                       f"run without --resume to start again")
    for key, label in SETTING_NAMES.items():
        if key in made and made[key] != settings[key]:
            def show(v):
                return (",".join(map(str, v)) or "none") if isinstance(v, list) else str(v)
            raise JuxError(f"{source} was made with other settings ({label} {show(made[key])}, not "
                           f"{show(settings[key])}): run without --resume to start again, or give the same settings")


def _results_of_json(path, settings: dict, seeds) -> tuple:
    from .simulate import GameResult

    data = _read_json(str(path))
    summary = data.get("summary") if isinstance(data, dict) else None
    games = data.get("games") if isinstance(data, dict) else None
    if not isinstance(summary, dict) or not isinstance(games, list) or "ruleset" not in summary:
        raise JuxError(f"{path}: not the --json output of jux simulate (no summary and games)")
    made = dict(summary)
    if "games" in summary:  # written before --resume existed: a complete run
        made.setdefault("games_planned", summary["games"])
    _other_settings(path, made, settings)
    done = {}
    try:
        for g in games:
            seed = g["seed"]
            if seed not in seeds or seed in done or len(g["scores"]) != settings["players"]:
                raise ValueError
            done[seed] = GameResult.from_json(g)
    except (KeyError, TypeError, ValueError):
        raise JuxError(f"{path}: game {len(done) + 1} of the file is not a game of this run (edited file?)") from None
    seconds = summary.get("seconds")
    return done, float(seconds) if isinstance(seconds, (int, float)) else 0.0


def _results_of_records(records, settings: dict, rules, seeds) -> dict:
    """The games of the record files present, replayed to their end."""
    from .engine import Game
    from .errors import RecordError
    from .records import read_record
    from .simulate import result_of

    done = {}
    for seed in seeds:
        path = records / f"game-{seed}.json"
        if not path.is_file():
            continue
        rec = read_record(path)
        made = {"ruleset": rec.get("ruleset"), "variants": rec.get("variants"), "digest": rec.get("digest"),
                "players": rec.get("players"), "seed": settings["seed"], "games_planned": settings["games_planned"]}
        if "bots" in rec:
            made["bots"] = rec["bots"]
        _other_settings(path, made, settings)
        try:
            game = Game.from_record(rec, rules=rules, log=False)
        except RecordError as e:
            raise JuxError(f"{path}: {e}") from None
        if not game.over or game.seed != seed:
            raise JuxError(f"{path}: not a finished game of seed {seed}")
        done[seed] = result_of(game)
    return done


def _print_summary(s: dict, args, workers: int = 1) -> None:
    from rich.table import Table

    out = _console(markup=False)
    n = s["games"]
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
    for seat in s["seats"]:
        rate = seat["win_rate"]
        t.add_row(str(seat["seat"]), seat["bot"], _fmt(seat["mean_score"]), _fmt(seat["min_score"]),
                  _fmt(seat["max_score"]), _fmt(seat["wins"], 1),
                  "-" if rate is None else f"{100 * rate:.1f}%")
    out.print(t)
    out.print(f"games/s: {_fmt(s.get('games_per_second'), 1)}   mean turns: {_fmt(s['mean_turns'], 1)}   "
              f"complete ties: {s['ties']}   time: {s['seconds']:.2f} s   workers: {workers}",
              soft_wrap=True)
    written = [p for p in (args.json, args.csv) if p]
    if args.records:
        written.append(f"{args.records}/game-<seed>.json")
    if written:
        out.print("wrote: " + ", ".join(written))


# ------------------------------------------------------------------ replay


def _read_json(path: str):
    """A JSON file jux wrote, read back strictly (records.read_json): one line on any problem."""
    from .records import read_json

    return read_json(path)


def _names_list(game, seats) -> str:
    names = [game.names[p] for p in seats]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def cmd_replay(args) -> int:
    from .engine import Game, load_ruleset
    from .errors import RecordError
    from .records import read_record

    record = read_record(args.record)
    tiles = _tiles(args)
    if args.rules:
        load_ruleset(args.rules)  # the rules' own errors, as path:line:col
    try:  # the record's ruleset and variant files: jux's catalogue, or the files named here
        game = Game.from_record(record, ruleset=args.rules, paths=[args.rules, *tiles])
    except RecordError as e:
        raise JuxError(f"{args.record}: {e}") from None
    n = game.state.n
    if args.viewer is not None and not 0 <= args.viewer < n:
        raise JuxError(f"--viewer must be a seat from 0 to {n - 1}")
    who = "" if args.viewer is None else f", as {game.names[args.viewer]} (seat {args.viewer}) knows it"
    _print_game(game, f"{n} players, seed {game.seed}, {len(game.answers)} answers{who}", args.viewer)
    return 0


def _print_game(game, about: str, viewer=None) -> None:
    """A game as text: its title and `about`, the log (as the viewer knows it), the scores and
    the winner (or who the game waits for). Names and rule texts are never read as markup."""
    from rich.markup import escape
    from rich.table import Table
    from rich.text import Text

    out = _console()
    out.print(f"[bold]{escape(game.rules.title)}[/]: {escape(about)}", soft_wrap=True)
    for line in game.log_lines(viewer):
        out.print(line, markup=False, soft_wrap=True)
    out.print()
    scores = game.scores
    t = Table(title="Final scores" if game.over else "Scores so far", title_justify="left")
    t.add_column("Seat", justify="right")
    t.add_column("Player")
    t.add_column("Score", justify="right")
    for p in range(game.state.n):
        t.add_row(str(p), Text(game.names[p]), str(scores[p]))
    out.print(t)
    if game.over:
        w = game.winners
        if len(w) == 1:
            out.print(f"Winner: {game.names[w[0]]} (seat {w[0]}) with {scores[w[0]]}", markup=False)
        else:
            out.print(f"Complete tie between {_names_list(game, w)} with {scores[w[0]]}", markup=False)
    else:
        waiting = sorted({d.player for d in game.pending})
        out.print(f"The record stops before the end of the game: waiting for {_names_list(game, waiting)}.",
                  markup=False)


# ------------------------------------------------------------------ rules


def _ruleset_dirs() -> list:
    from .loader import RULES_DIR

    if not RULES_DIR.is_dir():
        return []
    return sorted(d for d in RULES_DIR.iterdir()
                  if d.is_dir() and not d.name.startswith((".", "_")) and any(d.rglob("*.yaml")))


def cmd_rules(args) -> int:
    from rich.markup import escape
    from rich.table import Table
    from rich.text import Text

    from .engine import load_ruleset

    out = _console(markup=False)  # (the rules' texts are never markup)
    if args.ruleset is None:
        t = Table(title="Rulesets", title_justify="left")
        t.add_column("Name")
        t.add_column("Title")
        t.add_column("Players", justify="right")
        t.add_column("Variants (jux rules NAME --tiles)")
        status = 0
        from .variants import catalogue

        for d in _ruleset_dirs():
            try:
                r = load_ruleset(d)
                cat = catalogue(r.name)
                tiles = sum(1 for i in cat.values() if i.fills)
                t.add_row(r.name, r.title, _players_range(r),
                          f"{tiles} tiles, {len(cat) - tiles} other" if cat else "none")
            except JuxError as e:
                first = str(e).splitlines()[0] if str(e) else type(e).__name__
                t.add_row(d.name, Text(f"does not load: {first}", style="red"), "-", "-")
                status = 1
        out.print(t)
        return status

    r = load_ruleset(args.ruleset)
    if args.tiles:
        return _print_tiles(r, out)
    spec = r.spec
    out.print(f"[bold]{escape(r.title)}[/] ({escape(r.name)}, {_players_range(r)} players)", markup=True)
    text = " ".join(str(spec.game.get("text", "")).split())
    if text:
        out.print()
        out.print(text, markup=False)
    out.print()

    counts: dict = {}
    for c in r.cards:
        kind = r.card_attrs[c].get("kind")
        counts[kind] = counts.get(kind, 0) + 1
    t = Table(title="Cards", title_justify="left")
    t.add_column("Kind")
    t.add_column("Count", justify="right")
    t.add_column("Attributes")
    for kind, d in spec.cards.items():
        attrs = d.get("attributes", {}) if isinstance(d, dict) else {}
        desc = "; ".join(f"{k}: {_summarize_values(v)}" for k, v in attrs.items())
        t.add_row(str(kind), str(counts.get(kind, 0)), desc)
    out.print(t)
    for kind, d in spec.cards.items():  # kinds listed card by card: each different card once
        items = d.get("list") if isinstance(d, dict) else None
        if not items:
            continue
        seen: dict = {}
        for c in r.cards:
            a = r.card_attrs[c]
            if a.get("kind") == kind:
                key = r.card_labels[c], tuple((k, str(v)) for k, v in a.items() if k != "kind")
                seen[key] = seen.get(key, 0) + 1
        t = Table(title=f"{kind} cards", title_justify="left")
        t.add_column("Card")
        t.add_column("Count", justify="right")
        t.add_column("Values")
        for (label, values), n in seen.items():
            t.add_row(label, str(n), "; ".join(f"{k}: {v}" for k, v in values))
        out.print(t)

    t = Table(title="Zones", title_justify="left")
    t.add_column("Zone")
    t.add_column("One per")
    t.add_column("Visible to")
    t.add_column("Description")
    for name, z in spec.zones.items():
        z = z if isinstance(z, dict) else {}
        vis = z.get("visible", "all")
        vis = ", ".join(map(str, vis)) if isinstance(vis, list) else str(vis)
        t.add_row(str(name), str(z.get("per", "")), vis, " ".join(str(z.get("text", "")).split()))
    out.print(t)

    if spec.counters:
        t = Table(title="Counters", title_justify="left")
        t.add_column("Counter")
        t.add_column("One per")
        t.add_column("Start", justify="right")
        t.add_column("Description")
        for name, c in spec.counters.items():
            if isinstance(c, dict):
                t.add_row(str(name), str(c.get("per", "")), str(c.get("start", "")),
                          " ".join(str(c.get("text", "")).split()))
            else:
                t.add_row(str(name), "", str(c), "")
        out.print(t)

    texts = r.procedure_texts()
    if texts:
        out.print()
        out.print("[bold]Rules with text[/]", markup=True)
        for name, txt in texts.items():
            out.print(f"\n[bold]{escape(name)}[/]", markup=True)
            out.print(txt, markup=False)
    return 0


def _print_tiles(r, out) -> int:
    """The variants of a ruleset: the tiles by slot key and letter, then the others."""
    from rich.table import Table

    from .variants import catalogue

    cat = catalogue(r.name)
    if not cat:
        out.print(f"{r.name} has no variants (none under variants/{r.name}/)")
        return 0
    order = {slot: list(table) for slot, table in r.spec.slots.items()}
    tiles = [i for i in cat.values() if i.fills]
    for slot, keys in order.items():
        for key in keys:
            here = sorted((i for i in tiles if (slot, key) in i.fill_keys), key=lambda i: (i.letter, i.name))
            if not here:
                continue
            t = Table(title=f"{slot} {key}", title_justify="left", show_lines=True)
            t.add_column("", no_wrap=True)
            t.add_column("Tile", no_wrap=True)
            t.add_column("Rule text")
            for i in here:
                fam = f" ({i.family})" if i.family else ""
                t.add_row(i.letter + ("*" if i.default else ""), f"{i.name}{fam}", i.text)
            out.print(t)
    others = [i for i in cat.values() if not i.fills]
    if others:
        t = Table(title="Other variants (applied with the tiles that require them)", title_justify="left")
        t.add_column("Variant", no_wrap=True)
        t.add_column("Rule text")
        for i in others:
            t.add_row(i.name, i.text)
        out.print(t)
    out.print("* the tile a slot gets when no tile is named for it. Play with: "
              f"jux play {r.name} --tiles NAME,NAME,...", markup=False, soft_wrap=True)
    return 0


def _summarize_values(v) -> str:
    if isinstance(v, list):
        seen = []
        for x in v:
            if x not in seen:
                seen.append(x)
        s = ", ".join(map(str, seen))
        return s if len(seen) == len(v) else f"{s} ({len(v)} values)"
    return str(v)


# ------------------------------------------------------------------ play


def _play_seats(args, rules) -> tuple:
    """(players, [(name, kind)]) from --players, --seat and --name; kind is 'human' or a bot spec."""
    from .bots import bot_factory, bot_names

    kinds = list(args.seat or [])
    names = list(args.name or [])
    players = args.players if args.players is not None else (
        max(len(kinds), len(names)) or _players_default(rules))
    if not rules.min_players <= players <= rules.max_players:
        raise JuxError(f"{rules.name} is for {rules.min_players} to {rules.max_players} players, not {players}")
    if len(kinds) > players or len(names) > players:
        raise JuxError(f"more --seat or --name options than the {players} players")
    first_bot = bot_names()[0] if bot_names() else "random"
    if not kinds:
        kinds = ["human"]
    kinds += [first_bot] * (players - len(kinds))
    kinds = [first_bot if k.strip().lower() == "bot" else k.strip() for k in kinds]
    for k in kinds:
        if k.lower() != "human":
            bot_factory(k)  # unknown bots and options are errors now, not in the middle of a game
    kinds = ["human" if k.lower() == "human" else k for k in kinds]
    names += [f"Player {i + 1}" for i in range(len(names), players)]
    if len(set(names)) != len(names):
        raise JuxError("give each seat its own --name")
    options.check_names(names)
    return players, list(zip(names, kinds))


def cmd_play(args) -> int:
    options.bounded("--bot-delay", args.bot_delay, 0, 60, "a number of seconds")
    options.check_seed(args.seed)
    rules = None
    direct = args.players is not None or args.seat or args.name
    if args.ruleset or args.tiles or direct:
        # the engine (and its parser) is imported only here: the start screen loads it itself,
        # after its first frame
        from .engine import load_ruleset

        rules = load_ruleset(args.ruleset, _tiles(args))  # errors now, before the screen opens
    seats = None
    if direct:
        _, seats = _play_seats(args, rules)  # bad seats are errors with or without a terminal
    # files the user named: a save's ruleset and variant files may be among them (records.py)
    paths = [args.ruleset, *_tiles(args)] if args.ruleset or args.tiles else []
    session = None
    if args.load is not None:  # a bad save is one line now, before the screen opens
        from tui.session import Session

        session = Session.load(args.load, [k for _, k in seats] if seats else None, paths=paths)
    if args.print or not (sys.stdout.isatty() and sys.stdin.isatty()):
        return _print_loaded_game(args, session.game) if session is not None else _print_bot_game(args)
    from tui import run

    run(ruleset=rules.name if rules else None, tiles=list(rules.variants) if rules else None, seats=seats,
        seed=args.seed, bot_delay=args.bot_delay, session=session, paths=paths)
    return 0


def _print_loaded_game(args, game) -> int:
    """--load without a terminal (or with --print): the saved game played on by random bots."""
    import random

    from .bots.random_bot import random_answer
    from .simulate import MAX_ANSWERS

    loaded = len(game.answers)
    rnd = random.Random(game.seed).random
    if not game.over:
        game.autoplay(lambda d: random_answer(d, rnd), MAX_ANSWERS)
    _print_game(game, f"{game.state.n} players, seed {game.seed}, loaded from {args.load} at answer {loaded}, "
                      f"then random bots")
    return 0


def _print_bot_game(args) -> int:
    """Without a terminal (or with --print): a game between random bots, printed as a log."""
    from .engine import load_ruleset
    from .simulate import play

    rules = load_ruleset(args.ruleset, _tiles(args))
    players = _players(args, rules)
    seed = args.seed if args.seed is not None else int.from_bytes(os.urandom(4), "big") % 1_000_000
    game = play(rules, players, seed, ["random"] * players, log=True)
    tiles = f" with {', '.join(_tile_names(rules))}" if rules.variants else ""
    _print_game(game, f"{players} random bots, seed {seed}{tiles}")
    return 0


# ------------------------------------------------------------------ main


def _version() -> str:
    try:
        from importlib.metadata import version

        return version("jux")
    except Exception:
        return "unknown"


def _nonneg_int(text: str) -> int:
    try:
        v = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{options.cut(text)}' is not a whole number") from None
    if v < 0:
        raise argparse.ArgumentTypeError(f"'{text}' must be 0 or more")
    return v


def _int(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{options.cut(text)}' is not a whole number") from None


TILES_HELP = ("variants to play with, by name or path, separated by commas: power tiles, at most one per "
              "colour; a colour not named gets its A tile (see 'jux rules RULESET --tiles')")


def _games_progress():
    """A progress bar of games on stderr (games done, rate, time, time left); the task's
    `rate` field is the games per second text."""
    from rich.progress import (BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn,
                               TimeRemainingColumn)

    columns = [TextColumn("{task.description}", style="bold", markup=False), BarColumn(), MofNCompleteColumn(),
               TextColumn("games"), TextColumn("{task.fields[rate]}"),
               TimeElapsedColumn(), TextColumn("eta"), TimeRemainingColumn()]
    return Progress(*columns, console=_console(stderr=True), transient=True)


def _tiles(args) -> list:
    """The --tiles names, or [] (none: the ruleset without variants)."""
    text = getattr(args, "tiles", None)
    if text is None:
        return []
    names = [t.strip() for t in str(text).split(",") if t.strip()]
    if not names:
        raise JuxError("--tiles: name at least one tile (see 'jux rules RULESET --tiles')")
    return names


def _tile_names(rules) -> list:
    """The tiles (slot-filling variants) a ruleset plays with, by name."""
    from .variants import catalogue

    cat = catalogue(rules.name)
    return [v for v in rules.variants if v not in cat or cat[v].fills]


def _cluster_options(p) -> None:
    p.add_argument("--cluster", metavar="ADDRESS",
                   help="play on a Dask distributed cluster (its scheduler, e.g. tcp://host:8786) "
                        "instead of this machine's cores; needs pip install '.[cluster]'")
    p.add_argument("--cluster-timeout", type=float, default=10.0, metavar="SECONDS",
                   help="how long to wait for the cluster's scheduler (default 10)")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=PROG, description="jux: a rules-as-data engine for card games.",
        epilog="Run 'jux COMMAND --help' for a command's options.")
    parser.add_argument("--version", action="version", version=f"{PROG} {_version()}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    p = sub.add_parser("validate", help="check rule files; exit status 1 on any error",
                       description="Check rulesets: a ruleset folder or name, a rule file in one, or "
                                   "a folder of rulesets. Errors are printed as path:line:col: message.")
    p.add_argument("paths", nargs="+", metavar="PATH")
    p.add_argument("--tiles", "-t", metavar="A,B,...",
                   help="also check this combination of variants with each ruleset named")
    p.set_defaults(func=cmd_validate)

    p = sub.add_parser("simulate", help="play many games between bots and summarize them",
                       description="Play GAMES games between bots; game i uses seed SEED+i.")
    p.add_argument("ruleset", metavar="RULESET", help="a ruleset name (a folder under rules/) or path")
    p.add_argument("--players", "-p", type=_int, help="number of players (default: 4 if allowed)")
    p.add_argument("--games", "-n", type=_nonneg_int, default=100, help="number of games (default 100)")
    p.add_argument("--seed", "-s", type=_int, default=0, help="seed of the first game (default 0)")
    p.add_argument("--bots", "-b", default="random",
                   help="a bot for every seat, or one per seat separated by commas (default: random)")
    p.add_argument("--json", metavar="OUT.json", help="write the summary and every game's result")
    p.add_argument("--csv", metavar="OUT.csv", help="write one line per game")
    p.add_argument("--records", metavar="DIR", help="write each game's record as DIR/game-<seed>.json")
    p.add_argument("--quiet", "-q", action="store_true", help="no progress bar and no summary table")
    p.add_argument("--tiles", "-t", metavar="A,B,...", help=TILES_HELP)
    p.add_argument("--workers", "-w", type=_int, metavar="N",
                   help="processes playing games at once (default: one per core); the results do not depend on it")
    p.add_argument("--resume", action="store_true",
                   help="continue an interrupted run: keep the games in its --json file (or --records "
                        "folder), play the others")
    _cluster_options(p)
    p.add_argument("--coverage", nargs="?", const="-", metavar="REPORT.md",
                   help="count which lines of effect code run, how often, and which choose is never a "
                        "real choice: a summary here, or the whole report as Markdown in REPORT.md")
    p.set_defaults(func=_with_stops(_simulate))

    p = sub.add_parser("balance", help="sweep power-tile combinations and report what each tile does",
                       description="Play GAMES games (the same seeds) with every combination of tiles, on "
                                   "every core, and write a report (Markdown and PNG charts) to --out.")
    p.add_argument("ruleset", metavar="RULESET", help="a ruleset name (a folder under rules/) or path")
    p.add_argument("--players", "-p", type=_int, help="number of players (default: 4 if allowed)")
    p.add_argument("--games-per-combo", "-n", type=_int, default=100, metavar="GAMES",
                   help="games per combination (default 100)")
    p.add_argument("--tiles-grid", nargs="+", default=["all"], metavar="all|FAMILY",
                   help="all combinations (default), or vary only the tiles of these families "
                        "(the other colours keep their A tile)")
    p.add_argument("--seed", "-s", type=_int, default=1, help="seed of the first game (default 1)")
    p.add_argument("--bots", "-b", default="random",
                   help="a bot for every seat, or one per seat separated by commas (default: random)")
    p.add_argument("--workers", "-w", type=_int, metavar="N", help="processes (default: one per core)")
    p.add_argument("--out", "-o", metavar="DIR",
                   help="folder for balance.json, report.md and the charts (default balance-RULESET-Np)")
    p.add_argument("--resume", action="store_true",
                   help="continue an interrupted sweep from its balance.json")
    p.add_argument("--quiet", "-q", action="store_true", help="no progress bar and no table")
    _cluster_options(p)
    p.set_defaults(func=_with_stops(_balance))

    p = sub.add_parser("replay", help="replay a game record and print its log and result",
                       description="Replay a game record (or save) and print the log and the scores.")
    p.add_argument("record", metavar="RECORD.json")
    p.add_argument("--viewer", type=_int, metavar="SEAT",
                   help="print the log as this seat (from 0) may know it (default: everything)")
    p.add_argument("--rules", metavar="RULESET",
                   help="the ruleset to replay with (default: the one named in the record)")
    p.add_argument("--tiles", "-t", metavar="FILE,...",
                   help="variant files the record names by path (a record may name only jux's own "
                        "rulesets and variants, and files named on the command line)")
    p.set_defaults(func=cmd_replay)

    p = sub.add_parser("rules", help="list the rulesets, or show one",
                       description="With no argument, list the rulesets in rules/; with one, show its "
                                   "text, components and the text of its procedures.")
    p.add_argument("ruleset", nargs="?", metavar="RULESET")
    p.add_argument("--tiles", action="store_true",
                   help="list the ruleset's variants (power tiles) by slot, with their rule text")
    p.set_defaults(func=cmd_rules)

    p = sub.add_parser("play", help="play a game in the terminal UI, humans and bots",
                       description="Open the terminal UI. With no options it starts on the new-game "
                                   "screen; --players, --seat or --name start a game at once. Without "
                                   "a terminal (or with --print) it plays random bots and prints the log.")
    p.add_argument("ruleset", nargs="?", metavar="RULESET")
    p.add_argument("--players", "-p", type=_int, help="number of players")
    p.add_argument("--seat", action="append", metavar="KIND",
                   help="who plays the next seat: human, bot, or a bot name (repeat per seat; "
                        "default: seat 1 human, the others bots)")
    p.add_argument("--name", action="append", metavar="NAME", help="the next seat's name (repeat per seat)")
    p.add_argument("--seed", "-s", type=_int)
    p.add_argument("--bot-delay", type=float, default=0.4, metavar="SECONDS",
                   help="pause before each bot move, so it can be followed (default 0.4)")
    p.add_argument("--load", metavar="SAVE.json", help="continue a saved game")
    p.add_argument("--print", action="store_true",
                   help="no UI: play random bots and print the game log and scores")
    p.add_argument("--tiles", "-t", metavar="A,B,...", help=TILES_HELP)
    p.set_defaults(func=cmd_play)
    return parser


def main(argv=None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help(sys.stderr)
        return 2
    try:
        return args.func(args)
    except JuxError as e:
        _print_error(e)
        return 1
    except OSError as e:
        if isinstance(e, BrokenPipeError):
            _silence_stdout()
            return 1
        where = f"{e.filename}: " if e.filename else ""
        _err(f"{where}{e.strerror or e}")
        return 1
    except KeyboardInterrupt:
        _err("interrupted")
        return 130
    except RecursionError:
        if os.environ.get("JUX_DEBUG"):
            raise
        _err("internal error: too deep recursion")
        return 1
    except Exception as e:  # a bug in jux itself: still one line, unless debugging
        if os.environ.get("JUX_DEBUG"):
            raise
        _err(f"internal error: {type(e).__name__}: {e} (set JUX_DEBUG=1 for details)")
        return 1


def _silence_stdout() -> None:
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass


if __name__ == "__main__":
    sys.exit(main())
