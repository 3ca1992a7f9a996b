"""Reading and writing the files jux is given, safely.

Writing: a regular file (new or existing, or reached through a symbolic link) is written whole to a
temporary file beside it, then renamed over it: a failed write leaves the old file as it was. What
is not a regular file is never replaced: a character device (/dev/null, a terminal) or a pipe with
a reader is written through; a pipe without a reader, a folder, a block device or a socket is
refused, and so is a read-only file (as opening it for writing would be). check_writable and
check_writable_dir apply the same rules before a long run. Every failure is a JuxError of one line
("cannot write PATH: why").

Reading: only regular files of a bounded size are read (a FIFO, /dev/zero or a folder could block
or never end). Within `edited({path: text})` (an editor's unsaved texts, for `jux lsp`), the rule
files read those texts instead of the disk (reading/yaml_reader.py, read_regular asks `edited_bytes`).
"""
from __future__ import annotations

from contextlib import contextmanager
import errno
import json
import os
from pathlib import Path
import stat
import tempfile

from .errors import JuxError
from .limits import MAX_FILE_BYTES

MAX_READ_BYTES = 64 * 1024 * 1024  # a record, a save, a --json output read back


_EDITED: dict = {}  # real path -> the text an editor holds for that file (see edited)
_STOP: list = [None]  # within edited: what says the work is to be set aside (see stop_point)


class Stopped(BaseException):
    """Work on an editor's texts set aside at a stop_point, as edited's stop asked (a newer edit
    comes first). What it had read and parsed is kept (by content): run again, it goes on from there.
    Not an Exception: no handler of the rules' errors takes it for one."""


@contextmanager
def edited(texts: dict, stop=None):
    """Within it, reading a rule file named in texts ({path: text}) gives that text, not the disk's
    (the checks of `jux lsp` run on what the author is typing, saved or not). One at a time.
    stop: a function of no arguments, asked at each stop_point; when it says true, Stopped."""
    _EDITED.clear()
    _EDITED.update({os.path.realpath(p): t for p, t in texts.items()})
    _STOP[0] = stop
    try:
        yield
    finally:
        _EDITED.clear()
        _STOP[0] = None


def stop_point() -> None:
    """A place where loading an editor's texts may be set aside (before reading a file, before
    parsing a routine): raises Stopped when edited's stop says so."""
    stop = _STOP[0]
    if stop is not None and stop():
        raise Stopped


def editing() -> bool:
    """Whether texts of an editor stand in for files now (caches keyed by the disk must not be used)."""
    return bool(_EDITED)


def edited_bytes(path) -> bytes | None:
    """The text an editor holds for path as UTF-8 bytes (inside `edited`), else None: read the disk."""
    if not _EDITED:
        return None
    text = _EDITED.get(os.path.realpath(path))
    return None if text is None else text.encode("utf-8", "surrogatepass")


def _kind(mode: int) -> str:
    if stat.S_ISREG(mode):
        return "a file"
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISCHR(mode):
        return "a character device"
    if stat.S_ISBLK(mode):
        return "a block device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def _why(e: OSError) -> str:
    if e.errno == errno.ENOSPC:
        return "no space left on the device"
    return e.strerror or str(e)


def read_bytes_bounded(path, limit: int = MAX_READ_BYTES) -> bytes:
    """The bytes of a regular file of at most `limit` bytes. JuxError ("PATH: why") when it is
    missing, unreadable, not a regular file (never opened in a way that could block) or too big."""
    shown = str(path)
    if not shown:
        raise JuxError("no file named (an empty path)")
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    except OSError as e:
        raise JuxError(f"{shown}: {_why(e)}") from None
    except (ValueError, TypeError) as e:  # an embedded NUL, not a path
        raise JuxError(f"{shown!r}: not a file name ({e})") from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise JuxError(f"{shown}: {_kind(st.st_mode)}, not a regular file: not read")
        if st.st_size > limit:
            raise JuxError(f"{shown}: {st.st_size:,} bytes, more than the {limit:,} jux reads")
        chunks, size = [], 0
        while size <= limit:
            chunk = os.read(fd, min(1 << 20, limit + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        if size > limit:
            raise JuxError(f"{shown}: more than the {limit:,} bytes jux reads")
        return b"".join(chunks)
    except OSError as e:
        raise JuxError(f"{shown}: {_why(e)}") from None
    finally:
        os.close(fd)


def read_text_bounded(path, limit: int = MAX_READ_BYTES) -> str:
    """read_bytes_bounded as UTF-8 text (JuxError when it is not)."""
    data = read_bytes_bounded(path, limit)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise JuxError(f"{path}: not a text file (not UTF-8 at byte {e.start})") from None


def check_writable(path) -> None:
    """Fail now, before a long run, when path could not be written as write_bytes_atomic would write
    it: a folder, a socket, a FIFO nobody reads, a missing folder, a read-only file or folder.
    A FIFO with a reader is kept open from now to the write (its reader sees no end in between)."""
    path = Path(path)
    st = _stat(path)
    if st is not None and not stat.S_ISREG(st.st_mode):
        if stat.S_ISFIFO(st.st_mode):
            _pipe(path, st)
        elif not stat.S_ISCHR(st.st_mode):
            raise JuxError(f"cannot write {path}: it is {_kind(st.st_mode)}")
        elif not os.access(path, os.W_OK):
            raise JuxError(f"cannot write {path}: permission denied")
        return
    target = _replaced(path)
    _check_replaceable(path, target, st)
    _probe(path, target.parent, tempfile.mkstemp)


def check_writable_dir(path) -> None:
    """Fail now, before a long run, when files could not be written into the folder path (made by
    the run when missing) as write_bytes_atomic writes them."""
    path = Path(path)
    st = _stat(path)
    if st is not None:
        if not stat.S_ISDIR(st.st_mode):
            raise JuxError(f"cannot write files in {path}: it is {_kind(st.st_mode)}, not a folder")
        _probe(path, path, tempfile.mkstemp)
        return
    above = next(p for p in path.absolute().parents if os.path.exists(p))  # (the root exists)
    if not above.is_dir():
        raise JuxError(f"cannot make the folder {path}: {above} is not a folder")
    _probe(path, above, tempfile.mkdtemp)


def _stat(path: Path):
    """os.stat of path, through symbolic links; None when there is nothing; JuxError otherwise."""
    try:
        return os.stat(path)
    except FileNotFoundError:
        return None
    except OSError as e:
        raise JuxError(f"cannot write {path}: {_why(e)}") from None
    except ValueError as e:
        raise JuxError(f"cannot write {path!r}: not a file name ({e})") from None


def _replaced(path: Path) -> Path:
    """The file a write replaces: a link's target, never the link."""
    return Path(os.path.realpath(path)) if path.is_symlink() else path


def _check_replaceable(path: Path, target: Path, st) -> None:
    """JuxError unless the regular file target (st: None when missing) may be replaced."""
    if not target.parent.is_dir():
        raise JuxError(f"cannot write {path}: no folder {target.parent}")
    if st is not None and not os.access(target, os.W_OK):
        raise JuxError(f"cannot write {path}: the file is read-only")


def _probe(path: Path, folder: Path, make) -> None:
    """Whether a file (make=tempfile.mkstemp) or a folder (tempfile.mkdtemp) can be made in folder,
    as a write would make it: one is made and removed at once. JuxError when not."""
    try:
        made = make(dir=str(folder), prefix=".jux-")
    except OSError as e:
        raise JuxError(f"cannot write {path}: {_why(e)}") from None
    if isinstance(made, tuple):
        os.close(made[0])
        os.unlink(made[1])
    else:
        os.rmdir(made)


def write_bytes_atomic(path, data: bytes) -> None:
    """Write data to path (see the module's text): a regular file is replaced whole or not at
    all, a device or a pipe is written through, never replaced. JuxError on failure."""
    path = Path(path)
    st = _stat(path)
    if st is not None and not stat.S_ISREG(st.st_mode):
        if stat.S_ISCHR(st.st_mode) or stat.S_ISFIFO(st.st_mode):
            _write_through(path, st, data)
            return
        raise JuxError(f"cannot write {path}: it is {_kind(st.st_mode)}")
    # a regular file or none yet: the link's target is replaced, never the link
    target = _replaced(path)
    _check_replaceable(path, target, st)
    try:
        fd, tmp = tempfile.mkstemp(dir=str(target.parent), prefix=".jux-", suffix=target.suffix)
    except OSError as e:
        raise JuxError(f"cannot write {path}: {_why(e)}") from None
    try:
        mode = stat.S_IMODE(st.st_mode) if st is not None else 0o666 & ~_umask()
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.chmod(tmp, mode)
        os.replace(tmp, target)
    except BaseException as e:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        if isinstance(e, OSError):
            raise JuxError(f"cannot write {path}: {_why(e)}") from None
        raise


_PIPES: dict = {}  # (device, inode) of a FIFO check_writable found a reader for -> its write end


def close_pipes() -> None:
    """Close the FIFOs kept open (in a forked worker: only the process that writes holds them)."""
    while _PIPES:
        try:
            os.close(_PIPES.popitem()[1])
        except OSError:
            pass


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=close_pipes)


def _pipe(path: Path, st) -> int:
    """The write end of a FIFO with a reader, opened without blocking and kept until written."""
    key = (st.st_dev, st.st_ino)
    if key not in _PIPES:
        _PIPES[key] = _open_through(path)
    return _PIPES[key]


def _open_through(path: Path) -> int:
    try:
        return os.open(path, os.O_WRONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
                       | getattr(os, "O_CLOEXEC", 0))
    except OSError as e:
        if e.errno == errno.ENXIO:
            raise JuxError(f"cannot write {path}: a FIFO (named pipe) that nobody reads") from None
        raise JuxError(f"cannot write {path}: {_why(e)}") from None


def _write_through(path: Path, st, data: bytes) -> None:
    """Write to a character device or a pipe as it is (never blocking on a pipe nobody reads)."""
    fd = _PIPES.pop((st.st_dev, st.st_ino), None)
    if fd is None:
        fd = _open_through(path)
    try:
        os.set_blocking(fd, True)
        view = memoryview(data)
        while view:
            n = os.write(fd, view)
            view = view[n:]
    except OSError as e:
        raise JuxError(f"cannot write {path}: {_why(e)}") from None
    finally:
        os.close(fd)


_UMASK: list = []


def _umask() -> int:
    """The process's umask (read once: os.umask can only be read by setting it)."""
    if not _UMASK:
        mask = os.umask(0o022)
        os.umask(mask)
        _UMASK.append(mask)
    return _UMASK[0]


def write_text_atomic(path, text: str) -> None:
    """Write text (UTF-8) to path as write_bytes_atomic does."""
    write_bytes_atomic(path, text.encode("utf-8"))


def save_json(data, path) -> None:
    """Write data as JSON, atomically."""
    write_text_atomic(path, json.dumps(data))

def display_path(p: Path) -> str:
    try:
        return str(p.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(p)


def read_regular(p: Path, what: str = "file") -> bytes:
    """The bytes of a regular file of at most MAX_FILE_BYTES; JuxError otherwise (a FIFO, a device
    or a folder is never opened for reading: it could block or never end). Inside files.edited,
    an edited file's text."""
    text = edited_bytes(p)
    if text is not None:  # an editor's text: bounded as the file on disk would be
        if len(text) > MAX_FILE_BYTES:
            raise JuxError(f"the {what} is {len(text):,} bytes: at most {MAX_FILE_BYTES:,}")
        return text
    try:
        st = os.stat(p)
        if not stat.S_ISREG(st.st_mode):
            raise JuxError(f"not a regular {what}" + (" (a folder)" if stat.S_ISDIR(st.st_mode) else ""))
        if st.st_size > MAX_FILE_BYTES:
            raise JuxError(f"the {what} is {st.st_size:,} bytes: at most {MAX_FILE_BYTES:,}")
        fd = os.open(p, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
        with os.fdopen(fd, "rb") as f:
            if not stat.S_ISREG(os.fstat(f.fileno()).st_mode):  # (replaced since the stat)
                raise JuxError(f"not a regular {what}")
            data = f.read(MAX_FILE_BYTES + 1)
    except OSError as e:
        raise JuxError(f"cannot read the {what}: {e.strerror or e}") from None
    if len(data) > MAX_FILE_BYTES:
        raise JuxError(f"the {what} is more than {MAX_FILE_BYTES:,} bytes")
    return data
