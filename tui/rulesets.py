"""The rulesets the start screen offers: those named on the command line, jux's own (rules/), and
those in the user's rules folder (DATA_DIR/rules: ~/.local/share/jux/rules on Linux, or
$JUX_DATA_DIR/rules). No Textual here, and no knowledge of any game."""
from __future__ import annotations

from dataclasses import dataclass
import os
from pathlib import Path

MAX_USER_RULESETS = 100  # the user's rules folder lists at most these many (by name)
BUILT_IN = "built in"
NAMED = "named on the command line"
USER = "your rules folder"


@dataclass
class RulesetEntry:
    """One ruleset the start screen offers: `source` is what load_ruleset takes (a built-in name or
    a path), `where` where it was found, `error` why it does not load (once known)."""

    name: str
    source: str
    where: str = BUILT_IN
    error: str | None = None

    @property
    def label(self) -> str:
        if not self.error:
            return self.name
        label = f"{self.name} (broken: {self.error})"
        return label if len(label) <= 72 else label[:71] + "…"


def rulesets() -> list:
    """The ruleset folders under rules/ (names), as `jux rules` lists them."""
    from ..interpreter.paths import RULES_DIR

    if not RULES_DIR.is_dir():
        return []
    return sorted(d.name for d in RULES_DIR.iterdir()
                  if d.is_dir() and not d.name.startswith((".", "_")) and any(d.glob("*.yaml")))


def user_rules_dir() -> Path:
    """The user's own rules folder (not made here). JuxError when $JUX_DATA_DIR cannot be a path."""
    from .saves import data_dir

    return data_dir() / "rules"


def is_path(source) -> bool:
    """Whether a ruleset given on the command line names a file or folder (else a built-in name)."""
    text = str(source)
    return os.sep in text or "/" in text or text.endswith((".yaml", ".yml")) or os.path.exists(text)


def source_of(rules) -> str:
    """What to give load_ruleset for this loaded ruleset again: its name when it is jux's own
    (rules/NAME), else the absolute path of its folder or file."""
    from ..interpreter.paths import RULES_DIR

    path = getattr(rules.spec, "path", None)
    if path is None:
        return rules.name
    path = Path(path).absolute()
    try:
        if path.resolve() == (RULES_DIR / rules.name).resolve():
            return rules.name
    except OSError:
        pass
    return str(path)


def source_of_path(path: Path) -> str:
    """The same for a ruleset not loaded yet, found at path (reading.folders.ruleset_path): the
    name of a folder of jux's own rules/, else the absolute path."""
    from ..interpreter.paths import RULES_DIR

    path = Path(path).absolute()
    try:
        if path.resolve().parent == RULES_DIR.resolve():
            return path.resolve().name
    except OSError:
        pass
    return str(path)


def _name_of(path: Path) -> str:
    """A path's name on screen: its folder's name (a game.yaml is named after its folder)."""
    path = Path(path)
    if path.is_file() and path.stem == "game" and path.parent.name:
        return path.parent.name
    return path.stem if path.suffix in (".yaml", ".yml") else path.name


def user_rulesets(folder=None) -> tuple:
    """([RulesetEntry] of the user's rules folder: each folder with a .yaml file in it, and each
    .yaml file; hidden ones left out), a note or None). Never raises: an unreadable folder is a note."""
    try:
        folder = user_rules_dir() if folder is None else Path(folder)
        if not folder.exists():
            return [], None
        found = []
        with os.scandir(folder) as it:
            for e in it:
                if e.name.startswith((".", "_")):
                    continue
                p = Path(e.path)
                try:
                    if e.is_dir() and any(p.glob("*.yaml")):
                        found.append(p)
                    elif e.is_file() and e.name.endswith((".yaml", ".yml")):
                        found.append(p)
                except OSError:
                    continue
    except Exception as e:  # (not a folder, unreadable, a bad $JUX_DATA_DIR)
        return [], f"your rules folder cannot be read: {' '.join(str(e).split())}"
    found.sort(key=lambda p: p.name)
    note = None
    if len(found) > MAX_USER_RULESETS:
        note = f"your rules folder has {len(found)} rulesets: the first {MAX_USER_RULESETS} are listed"
        found = found[:MAX_USER_RULESETS]
    return [RulesetEntry(_name_of(p), str(p), USER) for p in found], note


def offered(named=(), user_folder=None) -> tuple:
    """([RulesetEntry] the start screen offers, a note or None): the rulesets named (paths or
    built-in names), then the built-in ones, then the user's own; each path once."""
    out, seen = [], set()

    def add(entry):
        key = entry.source if entry.where == BUILT_IN else os.path.realpath(entry.source)
        if key not in seen:
            seen.add(key)
            out.append(entry)

    built_in = rulesets()
    for source in named:
        if source and is_path(source):
            add(RulesetEntry(_name_of(Path(source)), str(Path(source).absolute()), NAMED))
    for name in built_in:
        add(RulesetEntry(name, name))
    user, note = user_rulesets(user_folder)
    for entry in user:
        add(entry)
    # names shown twice (a copy of a built-in ruleset): say where each comes from
    counts: dict = {}
    for e in out:
        counts[e.name] = counts.get(e.name, 0) + 1
    for e in out:
        if counts[e.name] > 1 and e.where != BUILT_IN:
            e.name = f"{e.name} ({'yours' if e.where == USER else 'named'})"
    return out, note


def check(entry: RulesetEntry) -> RulesetEntry:
    """Load the entry's ruleset (the loader keeps it for when it is picked); on failure set
    entry.error to its first line. Never raises."""
    from ..interpreter.engine.ruleset import load_ruleset
    from ..interpreter.errors import JuxError

    try:
        load_ruleset(entry.source)
        entry.error = None
    except JuxError as e:
        entry.error = one_line(e)
    except Exception as e:  # (whatever a broken file does, it is one line on the start screen)
        entry.error = one_line(f"{type(e).__name__}: {e}")
    if entry.error:  # paths inside the ruleset's folder as the folder's own (the list is narrow)
        folder = entry.source.rstrip("/\\") + os.sep
        entry.error = entry.error.replace(folder, "")
    return entry


def user_sources(record: dict) -> list:
    """The rules of the user's rules folder a save may be replayed with (a save names its ruleset,
    and the TUI's part of it the folder it came from): that folder first when it lies in the user's
    rules folder, then, for a ruleset that is not jux's own, every ruleset there (records.py loads
    the one of the record's name). Files elsewhere are used only when the user names them."""
    from ..interpreter.reading.spec import catalogue_rulesets

    out = []
    try:
        folder = os.path.realpath(user_rules_dir())
        tui = record.get("tui") if isinstance(record, dict) else None
        source = tui.get("source") if isinstance(tui, dict) else None
        if isinstance(source, str) and os.path.realpath(source).startswith(folder + os.sep):
            out.append(source)
        if record.get("ruleset") not in catalogue_rulesets():
            out += [e.source for e in user_rulesets()[0] if e.source not in out]
    except Exception:  # (a bad $JUX_DATA_DIR, an unreadable folder: only what the user named)
        return out
    return out


def one_line(error, most: int = 160) -> str:
    """An error's first line (and how many more there are), at most `most` characters."""
    lines = [ln.strip() for ln in str(error).splitlines() if ln.strip()] or ["error"]
    text = lines[0] + (f" (and {len(lines) - 1} more)" if len(lines) > 1 else "")
    return text if len(text) <= most else text[:most - 1] + "…"
