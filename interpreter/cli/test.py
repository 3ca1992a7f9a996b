"""`jux test PATH...`: run scenario files (docs/testing.md) and report as pytest does: a dot per
scenario (a line per file with -v), then each failure at the file:line:col of what failed, then
`N passed, M failed in X.XXs`. Exit status 0 when all pass, 1 when any fails, 2 for bad usage."""
from __future__ import annotations

from pathlib import Path
import sys
import time

from ..authoring.scenario_file import find_scenarios, names_ruleset
from ..authoring.scenario_run import FAILED, PASSED, XFAILED, run_file
from ..reading.yaml_reader import display_path
from .console import err

_MARK = {PASSED: ".", FAILED: "F", XFAILED: "x"}
_WORD = {PASSED: "PASSED", FAILED: "FAILED", XFAILED: "XFAIL"}
WIDTH = 80


def _collect(paths: list) -> list | None:
    """The scenario files the arguments name, each once, in order; None after a usage error."""
    files, seen = [], set()
    for arg in paths:
        try:
            found = find_scenarios(arg)
        except FileNotFoundError:
            err(f"test: no such file or folder: {arg}")
            return None
        if not found:
            if names_ruleset(arg):
                err(f"test: no scenarios in the ruleset {arg}: a ruleset's own scenarios are the *.yaml "
                    f"files of its scenarios/ folder")
            else:
                err(f"test: no scenario files (*.yaml) in {arg}")
            return None
        for f in found:
            key = f.resolve()
            if key not in seen:
                seen.add(key)
                files.append(f)
    return files


def _selected(f: Path, ks: list | None) -> bool:
    """Whether -k selects a file: its path or its title holds one of the substrings (any case)."""
    if not ks:
        return True
    ks = [k.lower() for k in ks]
    if any(k in display_path(f).lower() for k in ks):
        return True
    from ..authoring.scenario_file import read_scenario
    from ..errors import JuxError

    try:
        title = read_scenario(f).title.lower()
    except JuxError:
        return False
    return any(k in title for k in ks)


class _Progress:
    """Dots grouped by folder (the default), dots alone (-q), or a line per file (-v)."""

    def __init__(self, out, mode: str):
        self.out, self.mode = out, mode
        self.folder, self.col = None, 0

    def add(self, outcome) -> None:
        if self.mode == "verbose":
            title = f"  {outcome.title}" if outcome.title else ""
            self.out.write(f"{outcome.file} {_WORD[outcome.status]}{title}\n")
        else:
            folder = str(Path(outcome.file).parent) + "/"
            if self.mode == "normal" and folder != self.folder:
                self.end()
                self.folder = folder
                self.out.write(folder + " ")
                self.col = len(folder) + 1
            if self.col >= WIDTH:
                self.out.write("\n")
                self.col = 0
            self.out.write(_MARK[outcome.status])
            self.col += 1
        self.out.flush()

    def end(self) -> None:
        if self.col:
            self.out.write("\n")
            self.col = 0


def cmd_test(args) -> int:
    files = _collect(args.paths)
    if files is None:
        return 2
    chosen = [f for f in files if _selected(f, args.k)]
    if not chosen:
        said = " or ".join(f"-k '{k}'" for k in args.k)
        err(f"test: no scenario matches {said} (of {len(files)} files)")
        return 2
    out = sys.stdout
    t0 = time.perf_counter()
    progress = _Progress(out, "quiet" if args.quiet else "verbose" if args.verbose else "normal")
    outcomes = []
    for f in chosen:
        o = run_file(f)
        outcomes.append(o)
        progress.add(o)
        if args.exitfirst and o.status == FAILED:
            break
    progress.end()
    seconds = time.perf_counter() - t0
    failed = [o for o in outcomes if o.status == FAILED]
    warned = [o for o in outcomes if o.warnings]
    for o in warned:
        out.write(f"\nWARNED {o.file}" + (f": {o.title}" if o.title else "") + "\n")
        out.write("".join(line + "\n" for w in o.warnings for line in w.lines()))
    for o in failed:
        out.write(f"\nFAILED {o.file}" + (f": {o.title}" if o.title else "") + "\n")
        for f in o.failures:
            out.write("\n".join(f.lines()) + "\n")
        if o.log and not args.quiet:
            out.write("log:\n" + "".join(f"  {line}\n" for line in o.log))
    counts = {s: sum(1 for o in outcomes if o.status == s) for s in (PASSED, FAILED, XFAILED)}
    parts = [f"{counts[PASSED]} passed", f"{counts[FAILED]} failed"]
    if counts[XFAILED]:
        parts.append(f"{counts[XFAILED]} xfailed")
    if warned:
        parts.append(f"{sum(len(o.warnings) for o in warned)} warnings")
    stopped = f" (stopped at the first failure: {len(chosen) - len(outcomes)} not run)" \
        if args.exitfirst and failed and len(outcomes) < len(chosen) else ""
    out.write(("\n" if failed or warned else "") + f"{', '.join(parts)} in {seconds:.2f}s{stopped}\n")
    return 1 if failed else 0
