"""Where the server keeps its tables: one SQLite file, `jux.sqlite`, in the data folder (WAL mode).

A table's row holds what makes its game (ruleset, tiles, players, seats, the secret seed, options);
its codes are kept only as SHA-256 hashes; its answers are an append-only list (n, seat, decision,
answer, seq), each batch written in one transaction before anyone is told of it. Replaying a
table's answers rebuilds its game exactly. An undo deletes the answers it takes back and keeps
the seat's seq (`undos`: no answer at or below it is taken again), in one transaction. Every failure of the database (a full disk, a locked
file) is a StoreError with words for a person; what was committed before stays."""
from __future__ import annotations

import hashlib
import json
from pathlib import Path
import sqlite3
import time

FILE = "jux.sqlite"

SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY, ruleset TEXT NOT NULL, tiles TEXT NOT NULL, players INTEGER NOT NULL,
    seats TEXT NOT NULL, seed INTEGER NOT NULL, options TEXT NOT NULL, digest TEXT NOT NULL,
    created REAL NOT NULL, state TEXT NOT NULL, ended REAL);
CREATE TABLE IF NOT EXISTS codes (
    hash TEXT PRIMARY KEY, table_id TEXT NOT NULL REFERENCES tables(id), seat INTEGER);
CREATE TABLE IF NOT EXISTS answers (
    table_id TEXT NOT NULL REFERENCES tables(id), n INTEGER NOT NULL, seat INTEGER NOT NULL,
    decision INTEGER NOT NULL, answer TEXT NOT NULL, seq INTEGER,
    PRIMARY KEY (table_id, n));
CREATE TABLE IF NOT EXISTS undos (
    table_id TEXT NOT NULL REFERENCES tables(id), seat INTEGER NOT NULL, seq INTEGER NOT NULL,
    PRIMARY KEY (table_id, seat));
"""

OPEN, PLAYING, OVER, FAILED = "open", "playing", "over", "failed"


class StoreError(Exception):
    """The database refused (full disk, locked, unreadable): the words for the client and the log."""


def code_hash(code: str) -> str:
    return hashlib.sha256(code.encode("utf-8", "surrogatepass")).hexdigest()


def default_folder() -> Path:
    from platformdirs import user_data_dir

    return Path(user_data_dir("jux"))


class Store:
    """The server's tables in SQLite. Use from one thread at a time.

    synchronous "FULL" (the default) waits for the disk at each commit: an answer acknowledged
    survives a power cut. "NORMAL" does not (WAL): it survives the server being killed, and an
    operating system's crash may lose the last answers; commits are much faster."""

    def __init__(self, folder, busy_timeout: float = 1.0, synchronous: str = "FULL"):
        self.folder = Path(folder)
        self.path = self.folder / FILE
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            # (the server calls it from one thread of its own, never two at once)
            self.db = sqlite3.connect(str(self.path), timeout=busy_timeout, isolation_level=None,
                                      check_same_thread=False)
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute(f"PRAGMA synchronous={'FULL' if synchronous == 'FULL' else 'NORMAL'}")
            self.db.executescript(SCHEMA)
            if "ended" not in [c[1] for c in self.db.execute("PRAGMA table_info(tables)")]:  # (a file of 0.1)
                self.db.execute("ALTER TABLE tables ADD COLUMN ended REAL")
        except (OSError, sqlite3.Error) as e:
            raise StoreError(f"{self.path}: cannot open the database: {e}") from None

    def close(self) -> None:
        self.db.close()

    def _write(self, what: str, statements: list) -> None:
        """Run statements [(sql, params)] in one transaction; StoreError (nothing written) on failure."""
        db = self.db
        try:
            db.execute("BEGIN IMMEDIATE")
            try:
                for sql, params in statements:
                    db.execute(sql, params)
                db.execute("COMMIT")
            except BaseException:
                if db.in_transaction:
                    db.execute("ROLLBACK")
                raise
        except sqlite3.Error as e:
            raise StoreError(f"could not store {what}: {_why(e)}") from None

    # ------------------------------------------------------------ writing

    def create_table(self, table_id: str, ruleset: str, tiles: list, players: int, seats: list, seed: int,
                     options: dict, digest: str, codes: dict) -> None:
        """A new table and its codes' hashes ({hash: seat, or None for the spectators' code})."""
        rows = [("INSERT INTO tables VALUES (?,?,?,?,?,?,?,?,?,?,NULL)",
                 (table_id, ruleset, json.dumps(tiles), players, json.dumps(seats), seed, json.dumps(options),
                  digest, time.time(), OPEN))]
        rows += [("INSERT INTO codes VALUES (?,?,?)", (h, table_id, seat)) for h, seat in codes.items()]
        self._write("the new table", rows)

    def add_answers(self, table_id: str, first: int, answers: list, state: str | None = None) -> None:
        """Append answers [(seat, decision, answer, seq)] numbered from first, and the table's new
        state if given (over: and when it ended), in one transaction. A number already taken is
        refused (nothing written)."""
        rows = [("INSERT INTO answers VALUES (?,?,?,?,?,?)", (table_id, first + i, seat, decision, json.dumps(answer), seq))
                for i, (seat, decision, answer, seq) in enumerate(answers)]
        if state is not None:
            rows.append(("UPDATE tables SET state = ?, ended = ? WHERE id = ?",
                         (state, time.time() if state == OVER else None, table_id)))
        self._write("the answer", rows)

    def undo(self, table_id: str, first: int, seat: int, seq: int) -> None:
        """Take back a table's answers from number first on, and keep seat's seq, in one transaction."""
        self._write("the undo", [("DELETE FROM answers WHERE table_id = ? AND n >= ?", (table_id, first)),
                                 ("INSERT OR REPLACE INTO undos VALUES (?,?,?)", (table_id, seat, seq))])

    def set_state(self, table_id: str, state: str) -> None:
        self._write("the table's state", [("UPDATE tables SET state = ? WHERE id = ?", (state, table_id))])

    # ------------------------------------------------------------ reading

    def find_code(self, digest: str):
        """(table id, seat or None) of the code with this SHA-256 hash, or None."""
        try:
            row = self.db.execute("SELECT hash, table_id, seat FROM codes WHERE hash = ?", (digest,)).fetchone()
        except sqlite3.Error as e:
            raise StoreError(f"could not read the codes: {_why(e)}") from None
        return (row[0], row[1], row[2]) if row else None

    def unfinished(self, keep_over: float = 0.0) -> list:
        """Every table not over (nor failed), and those over in the last keep_over seconds, as dicts,
        each with its answers in order and the seq of each seat's last undo (undos: {seat: seq})."""
        try:
            rows = self.db.execute("SELECT id, ruleset, tiles, players, seats, seed, options, digest, created, state, "
                                   "ended FROM tables WHERE state IN (?, ?) OR (state = ? AND ended >= ?) "
                                   "ORDER BY created", (OPEN, PLAYING, OVER, time.time() - keep_over)).fetchall()
            out = []
            for r in rows:
                answers = self.db.execute("SELECT n, seat, decision, answer, seq FROM answers WHERE table_id = ? "
                                          "ORDER BY n", (r[0],)).fetchall()
                undos = self.db.execute("SELECT seat, seq FROM undos WHERE table_id = ?", (r[0],)).fetchall()
                out.append({"id": r[0], "ruleset": r[1], "tiles": json.loads(r[2]), "players": r[3],
                            "seats": json.loads(r[4]), "seed": r[5], "options": json.loads(r[6]), "digest": r[7],
                            "created": r[8], "state": r[9], "ended": r[10],
                            "answers": [(a[0], a[1], a[2], json.loads(a[3]), a[4]) for a in answers],
                            "undos": {u[0]: u[1] for u in undos}})
            return out
        except (sqlite3.Error, ValueError) as e:
            raise StoreError(f"{self.path}: cannot read the tables: {_why(e)}") from None

    def answers(self, table_id: str) -> list:
        """A table's answers [(n, seat, decision, answer, seq)] in order."""
        try:
            rows = self.db.execute("SELECT n, seat, decision, answer, seq FROM answers WHERE table_id = ? ORDER BY n",
                                   (table_id,)).fetchall()
        except sqlite3.Error as e:
            raise StoreError(f"could not read the answers: {_why(e)}") from None
        return [(a[0], a[1], a[2], json.loads(a[3]), a[4]) for a in rows]

    def seed(self, table_id: str) -> int | None:
        row = self.db.execute("SELECT seed FROM tables WHERE id = ?", (table_id,)).fetchone()
        return row[0] if row else None


def _why(e: sqlite3.Error) -> str:
    text = str(e)
    if "locked" in text or "busy" in text:
        return "the database is locked by another program; try again"
    if "full" in text:
        return "the disk is full"
    return text


__all__ = ["Store", "StoreError", "code_hash", "default_folder", "OPEN", "PLAYING", "OVER", "FAILED"]
