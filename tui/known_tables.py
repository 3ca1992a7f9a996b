"""The server tables this user hosted or joined (a seat's code, not a spectator's), kept in the data
folder (tui/saves.py's data_dir: $JUX_DATA_DIR or the user's data folder) as a small JSON file, so
that the start screen offers to rejoin them. Newest first, one entry per code, at most MAX_KEPT.

Reading never fails: a missing file is no table; a corrupt or unreadable one is no table and one
line that says so (`read`'s note). Writing never fails either: it gives that line instead (the
table is still played, only not offered again). No Textual here, and no knowledge of any game."""
from __future__ import annotations

from dataclasses import asdict, dataclass, field
import json
import os
from pathlib import Path
import time

FILE_NAME = "tables.json"
MAX_KEPT = 20
MAX_BYTES = 256 * 1024  # a bigger file is not read (it is no file of jux's)


@dataclass(frozen=True)
class KnownTable:
    """A seat of a server's table: where (url), with which code, which seat (from 0) of whom
    (names), the ruleset, whether this user hosted it (then the other seats' codes and the
    spectator code too, to show them again), and when it was last joined (seconds since 1970)."""
    url: str
    code: str
    table: str = ""
    seat: int | None = None
    names: list = field(default_factory=list)
    ruleset: str = ""
    hosted: bool = False
    codes: dict = field(default_factory=dict)  # (hosted: {seat: code} of every human seat)
    spectate: str = ""
    when: float = 0.0

    def label(self) -> str:
        """One line for the start screen: the ruleset, who this seat is, hosted or joined and when, the server."""
        who = ""
        if isinstance(self.seat, int):
            name = self.names[self.seat] if 0 <= self.seat < len(self.names) else ""
            who = f", {name} (seat {self.seat + 1})" if name else f", seat {self.seat + 1}"
        how = "hosted" if self.hosted else "joined"
        day = time.strftime(" %b %d %H:%M", time.localtime(self.when)) if self.when else ""
        where = self.url.removeprefix("ws://")  # (wss:// stays: it says the connection is private)
        return f"{self.ruleset or 'a table'}{who}, {how}{day}, {where}"


def path() -> Path:
    """The file (JuxError when $JUX_DATA_DIR cannot be a path)."""
    from .saves import data_dir

    return data_dir() / FILE_NAME


def read() -> tuple:
    """([KnownTable], note): the tables kept, newest first; note: None, or one line saying why
    the file could not be read (it is then taken as empty)."""
    try:
        p = path()
        if not p.exists():
            return [], None
        if p.stat().st_size > MAX_BYTES:
            return [], f"{p} is too big to be jux's list of tables: not read"
        data = json.loads(p.read_text(encoding="utf-8"))
    except Exception as e:  # (a bad $JUX_DATA_DIR, unreadable, not JSON, not UTF-8)
        return [], _why("cannot read the tables you joined", e)
    entries = data.get("tables") if isinstance(data, dict) else None
    if not isinstance(entries, list):
        return [], f"{p} is not jux's list of tables: not read"
    out = [t for t in (_entry(e) for e in entries) if t is not None]
    return sorted(out, key=lambda t: -t.when)[:MAX_KEPT], None


def _entry(e) -> KnownTable | None:
    """An entry as written, or None when it is not one (an entry of another kind is skipped)."""
    if not isinstance(e, dict) or not all(isinstance(e.get(k), str) and e.get(k) for k in ("url", "code")):
        return None
    seat = e.get("seat")
    codes = e.get("codes") if isinstance(e.get("codes"), dict) else {}
    try:
        return KnownTable(
            url=e["url"], code=e["code"], table=str(e.get("table") or ""),
            seat=seat if type(seat) is int and seat >= 0 else None,
            names=[str(n) for n in e.get("names") or []] if isinstance(e.get("names"), list) else [],
            ruleset=str(e.get("ruleset") or ""), hosted=e.get("hosted") is True,
            codes={int(k): str(v) for k, v in codes.items() if str(k).isdigit() and isinstance(v, str)},
            spectate=str(e.get("spectate") or ""),
            when=float(e["when"]) if type(e.get("when")) in (int, float) else 0.0)
    except (TypeError, ValueError, OverflowError):
        return None


def _write(tables: list) -> str | None:
    """Write the list (atomically, readable by this user only); None, or why it could not be."""
    try:
        p = path()
        p.parent.mkdir(parents=True, exist_ok=True)
        rows = [dict(asdict(t), codes={str(k): v for k, v in t.codes.items()}) for t in tables[:MAX_KEPT]]
        tmp = p.with_name(f".{p.name}.{os.getpid()}.tmp")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump({"tables": rows}, f, indent=1)
        os.replace(tmp, p)
    except Exception as e:
        return _why("cannot keep the tables you joined", e)
    return None


def remember(table: KnownTable) -> str | None:
    """Keep this table (first, as the newest; a table known by its code already is replaced, and
    keeps being hosted). None, or one line saying why it could not be kept."""
    kept, _ = read()
    old = next((t for t in kept if t.url == table.url and t.code == table.code), None)
    if old is not None and old.hosted and not table.hosted:
        table = KnownTable(**dict(asdict(table), hosted=True, codes=old.codes, spectate=old.spectate))
    if not table.when:
        table = KnownTable(**dict(asdict(table), when=time.time()))
    return _write([table] + [t for t in kept if (t.url, t.code) != (table.url, table.code)])


def forget(url: str, code: str) -> str | None:
    """Take this table off the list (its server says the code is bad). None, or why it could not be."""
    kept, note = read()
    if note is not None or not any((t.url, t.code) == (url, code) for t in kept):
        return note
    return _write([t for t in kept if (t.url, t.code) != (url, code)])


def _why(what: str, e: Exception) -> str:
    text = getattr(e, "strerror", None) or str(e) or type(e).__name__
    where = getattr(e, "filename", None)
    return " ".join(f"{what}: {where + ': ' if where else ''}{text}".split())


__all__ = ["KnownTable", "read", "remember", "forget", "path"]
