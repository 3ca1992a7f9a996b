"""When `jux lsp` checks what, so that the file being edited has its errors soon however many are open.

What is checked is a target (reports.target_of): a ruleset, once for all its open files; a
variant file; a file that is no rule file (nothing to check). One target at a time, in one thread:

- Due order: the target of the file touched last (opened, edited, saved, closed beside it) goes
  first, after DELAY of quiet typing (OPENED after an open, so a burst of opens is read first; none
  for a save); every other open target after it,
  in the order they were due (a change may concern them: a variant loads its game's files).
- Kept by content: a check's report is kept under what it read (reports.content_key: each file's
  text, the editor's or the disk's). A target whose files hold what they held is not checked again;
  nor published again, unless one of its files was touched or opened since.
- Set aside: an edit stops the check running (files.stop_point: before a file is read, a routine
  parsed, the checks run): a check of the edited target at once (it is stale), one of another
  target once the edit is due; that target is due again next, and goes on from what its check had
  read and parsed (kept by content). A check whose files changed while it ran is not published
  (its report is kept by what it read); the newer texts are due. No work of a target whose files
  did not change is thrown away.
- Published per target as each is checked, the file touched last first (JuxServer.publish).
"""
from __future__ import annotations

import asyncio
import sys
import time

from . import reports

DELAY = 0.15  # seconds of quiet typing before the edited file's target is checked again
# seconds after an open before its target is checked: an editor opens many files at once, and a
# check running meanwhile would hold the interpreter lock while the server reads them (each read
# then waits for its turn), so a change that follows them would be read late
OPENED = 0.05
KEPT = 128  # reports kept by content


class Checks:
    """The targets due and what their checks found. The server calls touch and close from its
    handlers; run is its one worker (an asyncio task); check (a function of (path, target, texts))
    runs in the server's checking thread."""

    def __init__(self, server):
        self.server = server
        self.due: dict = {}  # target -> loop time it may start at; the first is checked next
        self.targets: dict = {}  # open file (real path) -> its target
        self.first: dict = {}  # target -> its open file touched last (its diagnostics first)
        self.kept: dict = {}  # content key -> Report (the last KEPT, oldest first)
        self.read: dict = {}  # target -> the files its last check read
        self.told: dict = {}  # target -> (content key, its open files) last published
        self.wake = asyncio.Event()
        self.edits = 0  # edits so far
        self.urgent = None  # the last edit: (its target, when it is due, its number)

    # ------------------------------------------------------------ what is due

    def touch(self, path: str, text, delay: float = 0.0, edit: bool = False):
        """The open file at path (its text now) was opened, edited or saved: its target first.
        An edit sets aside the check running (of its target: at once; of another: once the edit is
        due). Returns the target the file belonged to before, when no open file belongs to it now."""
        target = reports.target_of(path, text)
        if edit:
            self.edits += 1
            self.urgent = (target, time.monotonic() + delay, self.edits)
        before = self.targets.get(path)
        self.targets[path] = target
        self.first[target] = path
        self.told.pop(target, None)  # (its diagnostics follow each change, even the same again)
        self._due(target, delay)
        return before if before not in (None, target) and before not in self.targets.values() else None

    def close(self, path: str):
        """The file at path was closed. Returns its target when no open file belongs to it now."""
        target = self.targets.pop(path, None)
        self._due(None, 0.0)
        if target is None or target in self.targets.values():
            return None
        self.forget(target)
        return target

    def forget(self, target) -> None:
        self.due.pop(target, None)
        self.told.pop(target, None)

    def _due(self, target, delay: float) -> None:
        now = asyncio.get_running_loop().time()
        due = {target: now + delay} if target is not None else {}
        for t, at in self.due.items():
            due.setdefault(t, at)
        for t in self.targets.values():  # (what the change may concern: checked if it does)
            due.setdefault(t, now)
        self.due = due
        self.wake.set()

    def files_of(self, target) -> list:
        """The open files of target, the one touched last first."""
        docs = [p for p, t in self.targets.items() if t == target]
        first = self.first.get(target)
        return sorted(docs, key=lambda p: p != first)

    # ------------------------------------------------------------ the worker

    async def run(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            if not self.due:
                self.wake.clear()
                await self.wake.wait()
                continue
            target, at = next(iter(self.due.items()))
            if at > loop.time():  # (the author is typing: wait, unless something else comes)
                self.wake.clear()
                try:
                    await asyncio.wait_for(self.wake.wait(), at - loop.time())
                except asyncio.TimeoutError:
                    pass
                continue
            del self.due[target]
            try:
                await self.one(target)
            except Exception as e:  # (never the end of checking: said on stderr, in one line)
                print(f"jux lsp: checking {target[1]} failed: {type(e).__name__}: {e}", file=sys.stderr, flush=True)

    def _stop(self, target):
        """Whether the check of target, starting now, is to be set aside (asked in the checking
        thread): an edit came since, to its target, or to another that is due now."""
        since = self.edits

        def stop() -> bool:
            last = self.urgent
            return last is not None and last[2] > since and (last[0] == target or time.monotonic() >= last[1])
        return stop

    async def one(self, target) -> None:
        """Check target if what it reads changed since it was last checked, and publish it."""
        docs = self.files_of(target)
        if not docs:
            return
        server = self.server
        texts = server.open_texts()
        files = reports.reads(target, None) if target[0] != "variant" else self.read.get(target)
        key = reports.content_key(target, files, texts)
        report = self.kept.get(key) if key is not None else None
        if report is None:
            loop = asyncio.get_running_loop()
            report = await loop.run_in_executor(server.checker, server.check_one, docs[0], target, texts,
                                                self._stop(target))
            if report is None:  # set aside for an edit: (what it read and parsed is kept) again after it
                if target not in self.due:
                    due = list(self.due.items())
                    due.insert(1 if due else 0, (target, loop.time()))
                    self.due = dict(due)
                return
            files = self.read[target] = reports.reads(target, report)
            key = reports.content_key(target, files, texts)  # (what it read when it ran)
            self.kept.pop(key, None)
            self.kept[key] = report
            while len(self.kept) > KEPT:
                del self.kept[next(iter(self.kept))]
            if reports.content_key(target, files, server.open_texts()) != key:
                self.due.setdefault(target, loop.time())  # (due already, after an edit)
                return  # stale: a file changed while it ran: the newer texts are checked instead
            docs = self.files_of(target)  # (as they are now)
            if not docs:
                return
        if self.told.get(target) == (key, frozenset(docs)):
            return  # nothing new to tell
        server.publish(report, docs)
        self.told[target] = (key, frozenset(docs))
