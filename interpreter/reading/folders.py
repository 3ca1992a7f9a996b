"""Which files are a ruleset's (docs/language.md, "Which files are a ruleset's"): what a path names
as a ruleset (a folder, a game.yaml, a file of its own, a file inside one), and the rule files it
reads. Every command (validate, play, simulate, test, the language server) asks here. Light: no
parser is imported, so the command line starts fast."""
from __future__ import annotations

import os
from pathlib import Path

from ..errors import JuxError, did_you_mean
from ..paths import RULES_DIR


GAME_FILE = "game.yaml"  # the file that makes a folder a ruleset
SCENARIOS = "scenarios"  # a ruleset's own scenarios (`jux test`): not rule files


def has_section(f: Path, section: str) -> bool:
    """Whether a YAML file has a top-level `section:` (read line by line: a file of any size)."""
    if not f.is_file():  # (a FIFO would block)
        return False
    try:
        with open(f, encoding="utf-8", errors="replace") as fh:
            return any(line.startswith(f"{section}:") for line in fh)
    except OSError:
        return False


def top_keys(f: Path) -> set:
    """The top-level keys of a YAML file (read line by line: a file of any size); none when it
    cannot be read."""
    if not f.is_file():  # (a FIFO would block)
        return set()
    keys = set()
    try:
        with open(f, encoding="utf-8", errors="replace") as fh:
            for line in fh:
                if line[:1].isalpha() and ":" in line:
                    keys.add(line.split(":", 1)[0].strip().strip("'\""))
    except OSError:
        return set()
    return keys


RULE_SECTIONS = {"game", "variant", "flow", "procedures", "functions", "cards"}


def reads_as_scenario(f: Path) -> bool:
    """Whether a YAML file is a scenario (docs/testing.md: title, players and run at its top, and
    no section of rules)."""
    keys = top_keys(f)
    return {"title", "players", "run"} <= keys and not keys & RULE_SECTIONS


def declares_game(f: Path) -> bool:
    """Whether a YAML file has a top-level 'game:' section."""
    return has_section(f, "game")


def is_ruleset_folder(d: Path) -> bool:
    """Whether a folder is a ruleset's: it holds a game.yaml, or one of its .yaml files declares the
    game (a ruleset whose game section is in another file)."""
    if (d / GAME_FILE).is_file():
        return True
    try:
        return any(declares_game(f) for f in sorted(d.glob("*.yaml")))
    except OSError:
        return False


def ruleset_root(path: Path) -> Path:
    """What a path names as a ruleset (docs/language.md, "Which files are a ruleset's"): a folder is
    itself; a game.yaml is its folder (unless another file there declares a game: then it is
    alone); another file with a 'game:' section is a ruleset of one file (one-file rulesets may
    share a folder); any other file belongs to the nearest folder above it that is a ruleset's
    (the file alone when none is). A ruleset of several files names the file with its game
    section game.yaml (or is named by its folder)."""
    path = Path(path)
    if path.is_dir() or not path.exists():
        return path
    if path.name == GAME_FILE:  # (beside other games, as in a folder of one-file rulesets: alone)
        others = [f for f in sorted(path.parent.glob("*.yaml")) if f.name != GAME_FILE]
        return path if any(declares_game(f) for f in others) else path.parent
    if declares_game(path):
        return path
    d = path.resolve().parent
    for cand in [d, *d.parents][:6]:
        if is_ruleset_folder(cand):
            return _same_form(path, cand)
    return path


def _same_form(path: Path, folder: Path) -> Path:
    """folder written as path is (relative paths stay relative, so messages show them so)."""
    try:
        rel = path.resolve().parent.relative_to(folder)
    except ValueError:
        return folder
    out = path.parent
    for _ in rel.parts:
        out = out.parent
    return out if out.resolve() == folder else folder


def rule_files(path: Path) -> list:
    """The rule files of the ruleset a path names (ruleset_root), in order: the one file, or the
    .yaml files of the folder and its subfolders, except hidden folders, `scenarios` folders (the
    ruleset's own scenarios) and subfolders that hold a game.yaml (rulesets of their own).
    Symbolic links inside the folder are not followed: a rule file lies in its ruleset (a link
    could make jux read any file of the machine); read_file refuses the links found."""
    path = ruleset_root(path)
    if not path.is_dir():
        return [path]
    found = []
    for root, dirs, files in os.walk(path):  # (os.walk does not enter linked folders)
        dirs[:] = [d for d in dirs if not d.startswith(".") and d != SCENARIOS
                   and not (Path(root) / d / GAME_FILE).is_file()]
        found.extend(Path(root) / f for f in files if f.endswith(".yaml"))
    return sorted(found)

def catalogue_rulesets() -> list:
    """The names of the games under rules/ (each a folder)."""
    return sorted(d.name for d in RULES_DIR.iterdir() if d.is_dir() and not d.name.startswith(("_", ".")))


def ruleset_path(name_or_path) -> Path:
    p = Path(name_or_path)
    if p.exists():
        return p
    q = RULES_DIR / str(name_or_path)
    if q.exists():
        return q
    known = catalogue_rulesets()
    raise JuxError(f"no ruleset '{name_or_path}'{did_you_mean(str(name_or_path), known)}; "
                   f"known rulesets: {', '.join(known)}")
