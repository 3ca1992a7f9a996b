"""What `jux lsp` checks for one open file: the same load as `jux validate` (a rule file checks its
ruleset, a variant file loads onto its game with what it needs), run on the editor's unsaved texts
(files.edited), and the files that load (for completion, hover and go to definition)."""
from __future__ import annotations

from dataclasses import dataclass
import hashlib
import os
from pathlib import Path
import re

from . import names
from ..errors import JuxError, RuleError, RuleErrors
from ..files import edited

_VARIANT = re.compile(r"^variant\s*:", re.M)
_GAME = re.compile(r"^game\s*:", re.M)
_LOCATED = re.compile(r"^(?P<file>[^\n]+?):(?P<line>\d+):(?P<col>\d+): (?P<msg>.*)$", re.S)


@dataclass(frozen=True)
class Problem:
    """One error: in which file (a real path; None: the checked file, at its start), 1-based."""

    file: str | None
    line: int
    col: int
    message: str


@dataclass(frozen=True)
class Report:
    target: str  # what was loaded: the ruleset's folder, or the variant file (a real path)
    variant: bool  # whether target is a variant file (else a ruleset: its errors belong to its files)
    problems: tuple
    index: names.Index


def real(path) -> str:
    """A file's real path, as the editor's files and the errors are matched by."""
    return os.path.realpath(path)


def _problem(e: JuxError) -> Problem:
    if isinstance(e, RuleError) and e.pos is not None:
        return Problem(real(e.pos.file), e.pos.line, e.pos.col, e.message)
    text = str(e) or type(e).__name__
    m = _LOCATED.match(text)  # e.g. a wrong choice of variants: "path:line:col: what"
    if m and os.path.exists(m["file"]):
        return Problem(real(m["file"]), int(m["line"]), int(m["col"]), m["msg"])
    return Problem(None, 1, 1, text)


def problems_of(e: JuxError) -> tuple:
    errors = e.errors if isinstance(e, RuleErrors) else [e]
    return tuple(_problem(x) for x in errors)


def _game_of(loc) -> str | None:
    """The game a variant file names (from its parse, or its last good one)."""
    head = loc.data.get("variant") if loc is not None and isinstance(loc.data, dict) else None
    game = head.get("game") if isinstance(head, dict) else None
    return game if isinstance(game, str) else None


def _variant_files(game: str, path: Path, base: list) -> list:
    """The variant files loaded with path, in order (required ones first); [path] if unknown."""
    from ..reading.variants import choose

    slots = {}
    for _, loc in base:
        table = loc.data.get("slots") if loc is not None and isinstance(loc.data, dict) else None
        for slot, keys in (table or {}).items() if isinstance(table, dict) else ():
            slots[slot] = list(keys) if isinstance(keys, dict) else []
    try:
        return [info.path for info in choose(game, [str(path)], slots)]
    except (JuxError, OSError, ValueError, RecursionError):
        return [path]


def _parsed(files: list, good: dict) -> list:
    """[(real path, Located)] of files; a file that does not parse now gives its last good parse
    (good: real path -> Located, updated here), or None."""
    from ..reading.yaml_reader import read_file

    out = []
    for f in files:
        key = real(f)
        try:
            good[key] = read_file(Path(f))
        except JuxError:
            pass
        out.append((key, good.get(key)))
    return out


def warm() -> None:
    """What every check needs made once: the loader and the checks imported, the effect language's
    parser and the rule files' schema built (the server does it while the editor sends its files)."""
    from ..engine.ruleset import check_ruleset  # noqa: F401
    from ..language.parse_errors import parser
    from ..reading.schema import schema_validator
    from ..authoring.targets import load_variant  # noqa: F401

    parser()
    schema_validator("ruleset")


def target_of(path, text) -> tuple:
    """What checking the open file at path (text: the editor's) loads: ("variant", the file),
    ("ruleset", the ruleset it belongs to: a folder or a file of its own), or ("none", the file)
    for a file that is not a rule file. Real paths: the files of one ruleset share their target."""
    from ..authoring.targets import declares_game, ruleset_of_file, scenario_of_ruleset

    path = Path(path)
    if text is not None and _VARIANT.search(text):
        return ("variant", real(path))
    if scenario_of_ruleset(path) or not (_GAME.search(text or "") or declares_game(ruleset_of_file(path))):
        # neither a variant nor a file of a ruleset (no folder above it has a 'game' section), or
        # a scenario in a ruleset's scenarios/ folder: not a rule file (a workflow, a config, a
        # scenario), as `jux validate FOLDER` leaves it unchecked
        return ("none", real(path))
    return ("ruleset", real(ruleset_of_file(path)))


def reads(target: tuple, report: Report | None = None):
    """The files (real paths) a check of target reads, what its report depends on besides; None for
    a variant not checked yet (which files it loads is known once it is)."""
    from ..reading.spec import rule_files

    kind, where = target
    if kind == "ruleset":
        return tuple(real(f) for f in rule_files(Path(where)))
    if kind == "none":
        return (where,)
    return None if report is None else tuple(dict.fromkeys((where, *report.index.files)))


def content_key(target: tuple, files, texts: dict):
    """What a check of target finds depends on: the files it reads, by what they hold (the editor's
    text of an open file, else the disk's). None when the files are not known."""
    from ..files import read_bytes_bounded
    from ..limits import MAX_FILE_BYTES

    if files is None:
        return None
    out = []
    for f in files:
        text = texts.get(f)
        try:
            data = text.encode("utf-8", "surrogatepass") if text is not None else \
                read_bytes_bounded(f, MAX_FILE_BYTES)  # (never the editor's texts another thread checks)
        except JuxError:
            data = None
        out.append((f, data if data is None else hashlib.sha256(data).digest()))
    return target, tuple(out)


def check(path, texts: dict, good: dict, target: tuple | None = None, stop=None) -> Report:
    """Load what the file at path belongs to, as `jux validate` does, with texts ({path: text} of
    the editor's open files) standing in for the disk. good: the last good parse of each file.
    target: target_of(path, its text), when known. stop: files.edited's (files.Stopped when it
    says the check is to be set aside)."""
    from ..engine.ruleset import check_ruleset
    from ..reading.spec import catalogue_rulesets, rule_files, ruleset_path
    from ..authoring.targets import game_near, load_variant

    path = Path(path)
    kind, where = target or target_of(path, texts.get(str(path)))
    if kind == "none":
        return Report(real(path), True, (), names.build([]))
    is_variant = kind == "variant"
    with edited(texts, stop):
        problems: tuple = ()
        try:
            if is_variant:
                load_variant(path, compiled=False)
            else:
                check_ruleset(where)
        except JuxError as e:
            problems = problems_of(e)
        except RecursionError:
            problems = (Problem(None, 1, 1, "the file is nested too deeply to check"),)
        if is_variant:
            game = _game_of(_parsed([path], good)[0][1])
            root = ruleset_path(game) if game in catalogue_rulesets() else \
                game_near(game, path) if game else None  # (a game of the author's own, beside the tile)
            base = _parsed(rule_files(root), good) if root is not None else []
            more = _variant_files(game, path, base) if root is not None else [path]
            if not any(real(f) == real(path) for f in more):
                more.append(path)
            parsed = base + _parsed(more, good)
        else:
            parsed = _parsed(rule_files(Path(where)), good)
    return Report(where, is_variant, problems, names.build(parsed))
