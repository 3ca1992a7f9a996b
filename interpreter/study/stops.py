"""Ctrl-C and SIGTERM during a long run (simulate, balance): they stop it as KeyboardInterrupt, but
never in the middle of writing a file, so what was played is kept."""
from __future__ import annotations

import contextlib

_active: list = []  # the Stops of the run going on, if any


def deferred():
    """A context in which Ctrl-C and SIGTERM wait until it ends, while a run has Stops (else
    nothing). For code that must not be stopped half-way, such as waiting on a pool of workers:
    a KeyboardInterrupt raised while it holds a lock would leave that lock held, and the pool's
    thread, which needs it, and Python's exit, which waits for that thread, would hang."""
    return _active[-1] if _active else contextlib.nullcontext()


def with_stops(run):
    """A command run with Ctrl-C and SIGTERM turned into KeyboardInterrupt (see Stops), the
    signals' handlers put back after it."""
    def command(args) -> int:
        stops = Stops()
        try:
            return run(args, stops)
        finally:
            stops.restore()
    return command


class Terminated(KeyboardInterrupt):
    """SIGTERM (kill, a time limit) during a run: stopped as Ctrl-C stops it, the games kept."""


class Stops:
    """During a run, Ctrl-C and SIGTERM raise KeyboardInterrupt (Terminated for SIGTERM), but never
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
            _active.append(self)

    def _stop(self, signum, frame):
        if self._holding:
            self._pending = self._pending or signum
        else:
            self._raise(signum)

    @staticmethod
    def _raise(signum):
        import signal

        raise Terminated if signum == signal.SIGTERM else KeyboardInterrupt

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
        if self in _active:
            _active.remove(self)
