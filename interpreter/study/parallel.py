"""Many games on every core: the seeds split into chunks, played by a pool of worker processes.

A game is fully given by its ruleset, players, bots and seed, so where it is played does not change
it: ``ParallelRun`` yields the same ``GameResult`` for each seed as ``simulate.run_games`` does in
process, only in the order the chunks finish. Sort by seed for output identical to a one-worker run.

Each worker loads the ruleset once, from its name or path and its variants (a compiled ruleset is
not sent between processes), and checks it has the digest the parent loaded. Workers ignore Ctrl-C:
the parent alone stops the run, keeps what finished and ends the workers (``close``). A worker that
dies (killed, out of memory) stops the run with ``WorkerDied``, the games finished before it kept.
"""
from __future__ import annotations

from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
import math
import multiprocessing
import os
import signal
import sys
import threading
import time

from ..engine.ruleset import load_ruleset
from ..errors import JuxError
from .simulate import run_games
from .stops import deferred

WAKE = 0.2  # seconds between looks at a Ctrl-C held while waiting for the workers
MAX_CHUNK = 50  # games per task at most: small enough that the progress bar moves and Ctrl-C loses little


class WorkerDied(JuxError):
    """A worker process ended in the middle of the run (killed, out of memory, crashed)."""


def default_workers() -> int:
    """The cores this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def chunks(seeds, workers: int, most: int = MAX_CHUNK, total: int | None = None) -> list:
    """The seeds in order, cut into lists of equal size: about 8 per worker (so the work stays
    balanced to the end), at most `most` long. total: the games of the whole run when the seeds
    are one of several jobs (a sweep: the combinations' games are cut by the sweep's size, so
    each combination's games go to few workers, each loading it; `most` does not cut them, so
    that with combinations enough for 8 tasks a worker each goes to one worker alone)."""
    seeds = list(seeds)
    if not seeds:
        return []
    if total is not None and total > len(seeds):
        most = max(most, len(seeds))
    size = max(1, min(most, math.ceil((total or len(seeds)) / (max(1, workers) * 8))))
    return [seeds[i:i + size] for i in range(0, len(seeds), size)]


# ------------------------------------------------------------------ in the worker

_RULES: dict = {}  # the rulesets this worker loaded, the last used last
RULES_KEPT = 4  # (a sweep's combinations come one after another: the oldest are let go)


def _start_worker() -> None:
    """Ctrl-C is for the parent alone (it ends the workers); SIGTERM ends a worker at once (not a
    handler inherited from the parent); and a worker left alone by its parent's death ends too."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    parent = os.getppid()

    def watch():
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(1)

    threading.Thread(target=watch, name="jux-parent-watch", daemon=True).start()


def _play_chunk(ruleset, variants, digest, players, bots, seeds, record, coverage=False, max_decisions=None):
    key = (ruleset, tuple(variants), coverage)
    try:
        rules = _RULES.pop(key, None)
        if rules is None:
            rules = load_ruleset(ruleset, list(variants), coverage=coverage)
        _RULES[key] = rules
        while len(_RULES) > RULES_KEPT:
            del _RULES[next(iter(_RULES))]
        if digest and rules.digest != digest:
            raise JuxError(f"the rule files of {rules.name} changed during the run (digest {rules.digest}, "
                           f"the run started with {digest})")
        results = list(run_games(rules, players, seeds, bots, record, **(
            {"max_decisions": max_decisions} if max_decisions is not None else {})))
        for r in results:
            r.variants = tuple(variants)
        return results
    except JuxError as e:  # as a plain JuxError: its subclasses do not all pickle back
        raise JuxError(str(e)) from None


# ------------------------------------------------------------------ in the parent


def _context():
    """fork where it is safe (Linux): workers start at once with the ruleset already loaded."""
    if sys.platform.startswith("linux"):
        return multiprocessing.get_context("fork")
    return multiprocessing.get_context()


def _how_it_ended(exitcode) -> str:
    if exitcode is None:
        return ""
    if exitcode < 0:
        try:
            return f" (killed by {signal.Signals(-exitcode).name})"
        except ValueError:
            return f" (killed by signal {-exitcode})"
    return f" (exit status {exitcode})"


class ParallelRun:
    """Games for `seeds` played by `workers` processes; iterate to get each GameResult as its
    chunk finishes. The workers start in the constructor (before any progress bar's thread).
    Use as a context manager, or call close(): leaving early ends the workers at once.

    ruleset: a name or path, variants: names or paths (as load_ruleset takes them); bots: one spec
    string per seat; digest: the ruleset's digest, checked in each worker. coverage: the rules
    compiled with coverage, True or "powers" (each result carries its game's counts, see coverage.py).
    jobs: instead of variants and seeds, several [(variants, seeds)] played in one pool (a sweep
    of tile combinations); each result says its variants.
    """

    def __init__(self, ruleset, variants, players: int, seeds, bots, workers: int,
                 record: bool = False, digest: str | None = None, chunk: int = MAX_CHUNK,
                 coverage: bool | str = False, jobs=None, max_decisions: int | None = None):
        if jobs is None:
            jobs = [(variants, seeds)]
        jobs = [(v, list(s)) for v, s in jobs]
        total = sum(len(s) for _, s in jobs)
        self.tasks = [(tuple(v), part) for v, s in jobs for part in chunks(s, workers, chunk, total)]
        self.workers = max(1, min(workers, len(self.tasks) or 1))
        self._pool = ProcessPoolExecutor(self.workers, mp_context=_context(), initializer=_start_worker)
        self._closed = False
        self._futures = []
        self._received = []  # results come back from the workers, not yet all taken by the caller
        try:
            self._futures = [self._pool.submit(_play_chunk, str(ruleset), list(v), digest, players,
                                               list(bots), seeds, record, coverage, max_decisions)
                             for v, seeds in self.tasks]
        except BaseException:
            self.close()
            raise
        self._pending = {f: i for i, f in enumerate(self._futures)}  # future -> chunk index
        self._processes = list((getattr(self._pool, "_processes", None) or {}).values())

    def __iter__(self):
        """Each game's result, chunk by chunk as they finish. A game that fails raises its error once
        the chunks before it are in: the error of the first seed that fails, as with one worker."""
        failed = None  # (chunk index, error): the first chunk known to fail
        broken = False
        try:
            while self._pending and not broken:
                with deferred():  # (Ctrl-C here would leave the futures' locks held: see stops.deferred)
                    done, _ = wait(self._pending, timeout=WAKE, return_when=FIRST_COMPLETED)
                    for f in done:
                        index = self._pending.pop(f, None)
                        if index is None:  # after a failed chunk before it: not wanted any more
                            continue
                        try:
                            results = f.result()
                        except BrokenProcessPool:  # the chunks that finished before are still taken
                            broken = True
                            continue
                        except Exception as e:
                            if failed is None or index < failed[0]:
                                failed = (index, e)
                                for later in [g for g, i in self._pending.items() if i > index]:
                                    later.cancel()
                                    del self._pending[later]
                            continue
                        self._received.extend(results)
                while self._received:  # taken off once the caller has asked for the next one
                    yield self._received[0]
                    self._received.pop(0)
            if broken:
                raise WorkerDied(self._death())
            if failed is not None:
                raise failed[1]
        finally:
            self.close()

    def unclaimed(self) -> list:
        """After the caller stopped (Ctrl-C while it handled a result): the results the workers
        sent that it has not finished with, the one it was handling first."""
        return list(self._received)

    def _death(self) -> str:
        """What ended the dead worker, as far as its exit status tells (the pool then ends the others
        with SIGTERM: a different cause comes first)."""
        for p in self._processes:
            try:
                p.join(timeout=1)
            except (OSError, ValueError, AssertionError):
                pass
        codes = [p.exitcode for p in self._processes if p.exitcode not in (None, 0)]
        codes.sort(key=lambda c: c == -signal.SIGTERM)
        return "a worker process died" + (_how_it_ended(codes[0]) if codes else "")

    def close(self) -> None:
        """End the run: cancel the chunks not started, end the workers still playing."""
        if self._closed:
            return
        self._closed = True
        with deferred():
            self._close()

    def _close(self) -> None:
        unfinished = any(not f.done() for f in self._futures)
        procs = list((getattr(self._pool, "_processes", None) or {}).values()) or self._processes
        results = getattr(self._pool, "_result_queue", None)  # (shutdown forgets them)
        thread = getattr(self._pool, "_executor_manager_thread", None)
        self._pool.shutdown(wait=not unfinished, cancel_futures=True)
        if unfinished:
            for p in procs:
                try:
                    if p.is_alive():
                        p.terminate()
                except (OSError, ValueError, AttributeError):
                    pass
            for p in procs:
                try:
                    p.join(timeout=5)
                except (OSError, ValueError, AttributeError, AssertionError):
                    pass
            # A worker ended while it wrote a result leaves half a message in the results pipe:
            # the pool's thread then waits for the rest for ever, and Python waits for that thread
            # before it exits (jux printed its message and hung). With the workers gone, this
            # process holds the pipe's last write end: closing it ends that wait (end of file).
            try:
                results._writer.close()
            except (AttributeError, OSError):
                pass
            # Then wait for the pool's thread to end: Python's exit handler wakes that thread through
            # a pipe the thread closes as it ends, and the two racing printed "Bad file descriptor".
            if thread is not None:
                thread.join(timeout=5)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False


__all__ = ["ParallelRun", "WorkerDied", "chunks", "default_workers", "MAX_CHUNK"]
