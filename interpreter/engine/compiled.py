"""The compile cache: a ruleset read, checked and compiled once per machine.

What the compiler made of a ruleset with its variants (the checked RuleSpec and the generated
code, compiler/program.py `generate`) is kept in a file of the user's cache folder
(platformdirs.user_cache_dir("jux")/compiled, or $JUX_CACHE_DIR), named by a hash of everything
it was made from: each rule and variant file's path (as shown in messages) and content, the
ruleset and variants as named, whether it counts coverage, jux's version, the Python that runs
it, and the source of the engine parts that read, check and compile (so a changed jux never
reads an older jux's entry). An edited file is another key: an entry is never stale. The folder
is safe to delete at any time; past MAX_BYTES, the entries used least recently are removed.

An entry is written whole to a temporary file and renamed into place (a reader never sees half
of one); one that cannot be read, or is not what it should be (cut short, another format,
another key), is ignored and made again, never an error. JUX_CACHE=off turns the cache off.

Entries are Python pickles and marshalled code: loading one runs what it says. They are the
user's own files, in a folder only the user may write (made 0700, each entry 0600), as trusted
as the user's other files (a program that can write there can as well write ~/.bashrc); never
point JUX_CACHE_DIR at a folder others can write.
"""
from __future__ import annotations

import gc
import hashlib
import marshal
import os
import pickle
import sys
import tempfile
from pathlib import Path

FORMAT = b"jux-compiled/1\n"
MAX_BYTES = 256 << 20  # (about 350 KB an entry: 256 tile combinations, with and without coverage, fit)
_ENGINE: list = []  # the hash of the engine's source, worked out once per process
STATS = {"loaded": 0, "stored": 0, "rebuilt": 0}  # what this process did (tests, bench)


def cache_dir() -> Path | None:
    """The folder of the compile cache, or None when JUX_CACHE=off."""
    if os.environ.get("JUX_CACHE", "").strip().lower() in ("off", "0", "no", "false"):
        return None
    folder = os.environ.get("JUX_CACHE_DIR", "").strip()
    if folder:
        return Path(folder).expanduser()
    import platformdirs

    return Path(platformdirs.user_cache_dir("jux")) / "compiled"


def engine_digest() -> bytes:
    """A hash of the source of the parts of jux that read, check and compile rules (and of what
    the generated code runs with): another jux, even of the same version number, is another key."""
    if not _ENGINE:
        root = Path(__file__).resolve().parent.parent
        h = hashlib.sha256()
        paths = [root / n for n in ("errors.py", "files.py", "paths.py", "engine/compiled.py")]
        for part in ("language", "reading", "checks", "compiler", "runtime"):
            paths.extend(sorted(p for p in (root / part).iterdir() if p.suffix in (".py", ".lark", ".json")))
        for p in paths:
            h.update(str(p.relative_to(root)).encode() + b"\0")
            try:
                h.update(p.read_bytes())
            except OSError:
                h.update(b"\1")
        _ENGINE.append(h.digest())
    return _ENGINE[0]


def key_of(parts) -> str:
    """The name of the entry for what a ruleset is made from (parts: a repr-able tuple of the
    paths and content hashes of its files, the names it was given, coverage)."""
    from ... import __version__

    h = hashlib.sha256(FORMAT)
    h.update(repr((__version__, sys.version, sys.implementation.cache_tag, parts)).encode())
    h.update(engine_digest())
    return h.hexdigest()


def has(key: str) -> bool:
    """Whether the entry key is there (load may still find it damaged, and make it again)."""
    folder = cache_dir()
    return folder is not None and (folder / f"{key}.jux").is_file()


def load(key: str):
    """(spec, generated) of the entry key, or None: no cache, no entry, or one that cannot be used."""
    folder = cache_dir()
    if folder is None:
        return None
    path = folder / f"{key}.jux"
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError:
        return None
    try:
        if not data.startswith(FORMAT):
            raise ValueError("not an entry")
        body = memoryview(data)[len(FORMAT):]
        size = int.from_bytes(body[:8], "little")
        code = marshal.loads(body[8:8 + size])
        stored_key, spec, generated = _unpickled(body[8 + size:])
        if stored_key != key or type(code).__name__ != "code":
            raise ValueError("another entry")
        generated["code"] = code
    except Exception:  # cut short, another format, a class that changed: made again, never an error
        STATS["rebuilt"] += 1
        return None
    STATS["loaded"] += 1
    try:
        os.utime(path)  # (recently used: pruning removes the oldest first)
    except OSError:
        pass
    return spec, generated


def _unpickled(data: bytes):
    """pickle.loads with the garbage collector held: the many new objects of a ruleset would set
    off collections of the whole heap, which find nothing to free (pickle makes no cycles of garbage)."""
    was = gc.isenabled()
    gc.disable()
    try:
        return pickle.loads(data)
    finally:
        if was:
            gc.enable()


def store(key: str, spec, generated: dict) -> None:
    """Keep (spec, generated) as the entry key; nothing when there is no cache or it cannot be
    written (a read-only or full disk slows jux, never stops it)."""
    folder = cache_dir()
    if folder is None:
        return
    try:
        rest = {k: v for k, v in generated.items() if k != "code"}
        code = marshal.dumps(generated["code"])
        body = len(code).to_bytes(8, "little") + code + pickle.dumps((key, spec, rest), protocol=pickle.HIGHEST_PROTOCOL)
        data = FORMAT + body
    except Exception:  # (something that does not pickle: this ruleset is compiled each time)
        return
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=folder, prefix=".tmp-", suffix=".jux")  # (mode 0600)
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(data)
            os.replace(tmp, folder / f"{key}.jux")
        except BaseException:
            try:
                os.unlink(tmp)
            except OSError:
                pass
            raise
    except OSError:
        return
    STATS["stored"] += 1
    _prune(folder)


def _prune(folder: Path) -> None:
    """At most MAX_BYTES of entries: the least recently used go first."""
    try:
        entries = [(e.stat(), e.path) for e in os.scandir(folder) if e.name.endswith(".jux") and not e.name.startswith(".")]
        total = sum(st.st_size for st, _ in entries)
        for st, path in sorted(entries, key=lambda e: e[0].st_mtime_ns):
            if total <= MAX_BYTES:
                break
            os.unlink(path)
            total -= st.st_size
    except OSError:
        pass
