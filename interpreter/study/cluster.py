"""Many games on a Dask distributed cluster: the same chunks as parallel.ParallelRun, sent to an
existing scheduler (``pip install .[cluster]``; every worker needs jux installed, the same version).

``ClusterRun`` has ParallelRun's interface: iterate to get each GameResult as its chunk finishes,
``unclaimed()`` after a stop, ``close()`` (or a with block) to cancel what is left. A game is fully
given by its seed, so results are those of a local run with the same settings.
"""
from __future__ import annotations

from ..errors import JuxError
from .parallel import MAX_CHUNK, WorkerDied, _play_chunk, chunks


def _distributed():
    try:
        import distributed
    except ImportError:
        raise JuxError("--cluster needs Dask distributed: pip install '.[cluster]' (or dask[distributed])") from None
    return distributed


class ClusterRun:
    """Games for `seeds` (or several `jobs` of (variants, seeds)) played on the cluster whose
    scheduler is at `address` (e.g. tcp://10.0.0.5:8786). timeout: seconds to wait for it."""

    def __init__(self, address: str, ruleset, variants, players: int, seeds, bots, record: bool = False,
                 digest: str | None = None, coverage: bool | str = False, jobs=None, timeout: float = 10.0,
                 chunk: int = MAX_CHUNK, max_decisions: int | None = None):
        distributed = _distributed()
        self._distributed = distributed
        try:
            self.client = distributed.Client(address, timeout=f"{timeout}s")
        except (OSError, TimeoutError, ValueError) as e:
            why = " ".join(str(e).split()) or type(e).__name__
            raise JuxError(f"cannot reach the cluster at {address}: {why}") from None
        self._closed = False
        self._received = []
        try:
            threads = sum(self.client.nthreads().values()) or 1
            if jobs is None:
                jobs = [(variants, seeds)]
            jobs = [(v, list(s)) for v, s in jobs]
            total = sum(len(s) for _, s in jobs)
            self.tasks = [(tuple(v), part) for v, s in jobs for part in chunks(s, threads, chunk, total)]
            self.workers = threads
            self._futures = [self.client.submit(_play_chunk, str(ruleset), list(v), digest, players, list(bots),
                                                part, record, coverage, max_decisions, pure=False)
                             for v, part in self.tasks]
        except BaseException:
            self.close()
            raise
        self._index = {f.key: i for i, f in enumerate(self._futures)}

    def __iter__(self):
        """Each game's result, chunk by chunk as they finish; a failing game raises its error, a
        chunk that keeps killing workers (or a lost scheduler) raises WorkerDied."""
        distributed = self._distributed
        try:
            for f in distributed.as_completed(self._futures):
                try:
                    results = f.result()
                except distributed.KilledWorker as e:
                    raise WorkerDied(f"cluster workers died playing games ({e})") from None
                except JuxError as e:
                    raise JuxError(str(e)) from None
                self._received.extend(results)
                while self._received:
                    yield self._received[0]
                    self._received.pop(0)
        except (OSError, TimeoutError) as e:
            raise WorkerDied(f"lost the cluster: {' '.join(str(e).split()) or type(e).__name__}") from None
        finally:
            self.close()

    def unclaimed(self) -> list:
        return list(self._received)

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        try:
            pending = [f for f in getattr(self, "_futures", []) if not f.done()]
            if pending:
                self.client.cancel(pending)
        except Exception:  # closing after the cluster is gone: nothing left to cancel
            pass
        try:
            self.client.close(timeout=5)
        except Exception:
            pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False


__all__ = ["ClusterRun"]
