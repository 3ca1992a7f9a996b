"""The user's data folder (platformdirs, or $JUX_DATA_DIR) and the saves in it: where a save goes,
where a typed name is loaded from, and what the load dialog lists. No Textual here, and no
knowledge of any game."""
from __future__ import annotations

from dataclasses import dataclass, field
import os
from pathlib import Path
import re
import time

DATA_ENV = "JUX_DATA_DIR"  # overrides the user's data folder (platformdirs) for saves and rules
SAVE_SUFFIX = ".save.json"
MAX_LISTED = 200  # the newest saves the load dialog lists (the others can still be typed)
MAX_LIST_BYTES = 8 * 1024 * 1024  # a bigger file is listed as unreadable (it can still be typed)

def data_dir() -> Path:
    """jux's folder for the user's files: $JUX_DATA_DIR when set, else the user's data folder
    (platformdirs: ~/.local/share/jux on Linux). JuxError when $JUX_DATA_DIR cannot be a path."""
    env = os.environ.get(DATA_ENV, "")
    if env.strip():
        return _user_path(env)
    import platformdirs

    return Path(platformdirs.user_data_path("jux"))


def saves_dir() -> Path:
    """Where the terminal UI saves games (not made here: save_target makes it when a save goes there)."""
    return data_dir() / "saves"


def _make_saves_dir() -> Path:
    from ..interpreter.errors import JuxError

    folder = saves_dir()
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise JuxError(f"cannot make the saves folder {folder}: {e.strerror or e}") from None
    if not folder.is_dir():
        raise JuxError(f"cannot save in {folder}: not a folder")
    return folder


def new_save_path(ruleset: str, seed) -> Path:
    """saves/RULESET-SEED-YYYYmmdd-HHMMSS.save.json, with -2, -3... when that name is taken."""
    name = re.sub(r"[^\w.-]+", "_", str(ruleset)).strip("._") or "game"
    stem = f"{name[:60]}-{seed}-{time.strftime('%Y%m%d-%H%M%S')}"
    folder = saves_dir()
    path, i = folder / f"{stem}{SAVE_SUFFIX}", 1
    while os.path.lexists(path):
        i += 1
        path = folder / f"{stem}-{i}{SAVE_SUFFIX}"
    return path


def save_target(path) -> Path:
    """The file a save named `path` goes to: ~ expanded; a relative name goes into the saves folder
    (made when missing), with .save.json added when it has no .json ending. JuxError when not."""
    from ..interpreter.errors import JuxError

    path = _user_path(path)
    if path.is_absolute():
        try:
            if path.parent == saves_dir():  # (the name offered): the folder is made on the first save
                _make_saves_dir()
        except JuxError:
            pass  # the write says why it cannot
        return path
    if not path.name.lower().endswith(".json"):
        path = path.with_name(path.name + SAVE_SUFFIX)
    return _make_saves_dir() / path


def load_target(path) -> Path:
    """The file a load of `path` (typed in the load dialog) reads: a relative name found in the
    saves folder is taken there, otherwise as given (relative to the current folder)."""
    from ..interpreter.errors import JuxError

    path = _user_path(path)
    if not path.is_absolute():
        try:
            there = saves_dir() / path
            if there.is_file():
                return there
        except (JuxError, OSError):
            pass
    return path


@dataclass
class SaveInfo:
    """One file of the saves folder, as the load dialog lists it."""

    path: Path
    mtime: float
    error: str | None = None  # why it cannot be read (then nothing below is known)
    title: str = ""
    tiles: list = field(default_factory=list)
    players: int = 0
    round: int | None = None
    answers: int = 0
    over: bool = False

    @property
    def progress(self) -> str:
        if self.over:
            return "game over"
        if self.round is not None:
            return f"round {self.round}"
        return f"{self.answers} answer{'s' if self.answers != 1 else ''}"


def list_saves(folder=None) -> list:
    """The saves (and game records) in folder (default: the saves folder), newest first, at most
    MAX_LISTED. A file that is not a readable save is listed with `error` set; never raises."""
    try:
        folder = saves_dir() if folder is None else Path(folder)
        entries = []
        with os.scandir(folder) as it:
            for e in it:
                if e.name.startswith(".") or not e.name.lower().endswith(".json"):
                    continue
                try:
                    if e.is_file():
                        entries.append((e.stat().st_mtime, e.name, Path(e.path)))
                except OSError:
                    continue
    except Exception:  # no folder yet, not a folder, unreadable, a bad $JUX_DATA_DIR: nothing listed
        return []
    entries.sort(key=lambda x: (-x[0], x[1]))
    return [_save_info(path, mtime) for mtime, _, path in entries[:MAX_LISTED]]


def _save_info(path: Path, mtime: float) -> SaveInfo:
    from ..interpreter.engine.records import check_record, loads
    from ..interpreter.files import read_bytes_bounded

    try:
        raw = read_bytes_bounded(path, MAX_LIST_BYTES)
        data = loads(raw.decode("utf-8"), str(path))
        check_record(data)
    except UnicodeDecodeError:
        return SaveInfo(path, mtime, error="not a text file")
    except Exception as e:  # (JuxError mostly; whatever a foreign file does, it is one line here)
        why = str(e)
        if why.startswith(str(path)):  # (the dialog names the file)
            why = why[len(str(path)):].lstrip(": ")
        return SaveInfo(path, mtime, error=_line(why or type(e).__name__, 48))
    info = SaveInfo(path, mtime, title=data["ruleset"], players=data["players"],
                    tiles=list(data.get("variants") or []), answers=len(data["answers"]))
    tui = data.get("tui")
    summary = tui.get("summary") if isinstance(tui, dict) else None
    if isinstance(summary, dict):  # written by Session.save; anyone may have edited it: each field checked
        if isinstance(summary.get("title"), str) and summary["title"].strip():
            info.title = summary["title"]
        tiles = summary.get("tiles")
        if isinstance(tiles, list) and all(isinstance(t, str) for t in tiles):
            info.tiles = tiles
        if type(summary.get("round")) is int:
            info.round = summary["round"]
        info.over = summary.get("over") is True
    info.title = _line(info.title, 80)
    info.tiles = [_line(t, 40) for t in info.tiles[:20]]
    return info


def _line(text: str, most: int) -> str:
    """text as one short printable line."""
    text = re.sub(r"[\x00-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff]+", " ", str(text)).strip()
    return text if len(text) <= most else text[:most - 1] + "…"


def _user_path(path) -> Path:
    """path with ~ expanded; JuxError if it cannot be (an unknown user's ~name)."""
    from ..interpreter.errors import JuxError

    if not str(path).strip():
        raise JuxError("no file named (an empty path)")
    try:
        return Path(path).expanduser()
    except (RuntimeError, ValueError) as e:
        raise JuxError(f"{path}: {e}") from None
