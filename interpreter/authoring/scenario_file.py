"""Scenario files (docs/testing.md): read with the place of every key and value, checked against
interpreter/schema/scenario.schema.json, and what they name (a ruleset, variant files) found
relative to the file. Every problem is a RuleError at path:line:col."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ..errors import Pos, RuleError, RuleErrors, did_you_mean
from ..reading.folders import GAME_FILE, SCENARIOS
from ..reading.schema import _schema_errors, schema_validator
from ..reading.spec import catalogue_rulesets
from ..reading.yaml_reader import Located, display_path, read_file

REQUIRED = ("title", "players", "run")  # and `ruleset`, but in a ruleset's scenarios/ folder


def keys_of(*path) -> list:
    """The keys the scenario schema allows at a path: keys_of() for the top, keys_of('expect'),
    keys_of('answers') for an answer."""
    schema = schema_validator("scenario").schema
    node = schema
    for part in path:
        node = node["properties"][part]
        if part == "answers":
            node = schema["definitions"]["answer"]
    return list(node["properties"])


@dataclass(frozen=True)
class Scenario:
    """A scenario file read and checked for its shape (not yet against its ruleset)."""

    path: Path
    file: str  # as shown in messages
    data: dict
    loc: Located

    @property
    def title(self) -> str:
        return self.data.get("title") or ""

    def at(self, *path) -> Pos:
        """Where the entry at path is written: a mapping key's place, else the value's (else the
        nearest enclosing entry's)."""
        marks = self.loc.marks
        pos = marks.get(("key",) + path) if path else None
        if pos is not None:
            return pos
        while path and path not in marks:
            path = path[:-1]
        return marks.get(path) or Pos(self.file, 1, 1)

    def value_at(self, *path) -> Pos:
        """Where the value at path is written (an item of a list, the value of a key)."""
        marks = self.loc.marks
        while path and path not in marks:
            path = path[:-1]
        return marks.get(path) or Pos(self.file, 1, 1)

    def nothing(self, *path):
        """The value at path with every plain `none` in it read as nothing (None), as the setup of
        a rule file reads it; a quoted "none" stays the word."""
        value = self.data
        for part in path:
            if not isinstance(value, (dict, list)):
                return None
            try:
                value = value[part]
            except (KeyError, IndexError, TypeError):
                return None
        return self._nothing(path, value)

    def _nothing(self, path: tuple, value):
        if isinstance(value, dict):
            return {k: self._nothing(path + (k,), v) for k, v in value.items()}
        if isinstance(value, list):
            return [self._nothing(path + (i,), v) for i, v in enumerate(value)]
        if value == "none" and self._plain(path):
            return None
        return value

    def _plain(self, path: tuple) -> bool:
        """Whether the text at path is written without quotes."""
        pos = self.loc.marks.get(path)
        if pos is None:
            return False
        try:
            line = self.loc.raw.decode("utf-8", "replace").splitlines()[pos.line - 1]
        except IndexError:
            return False
        return line[pos.col - 1:pos.col + 3] == "none"

    def error(self, path: tuple, message: str, value: bool = False) -> RuleError:
        return RuleError(self.value_at(*path) if value else self.at(*path), message)


def read_scenario(path: Path) -> Scenario:
    """A scenario file read and checked against the schema. Raises RuleErrors (YAML errors, keys
    that do not exist, values of the wrong kind), every one located."""
    loc = read_file(path)
    file = display_path(path)
    if not isinstance(loc.data, dict) or not loc.data:
        raise RuleErrors([RuleError(Pos(file, 1, 1), "a scenario is a mapping of keys (title, ruleset, "
                                                     "players, run, ...): this file has none")])
    for section in ("variant", "game"):
        if section in loc.data:
            raise RuleErrors([RuleError(loc.marks[("key", section)], f"a rule file (it has a '{section}' "
                                        "section), not a scenario: check it with jux validate")])
    errors = []
    for e in _schema_errors(loc, schema_validator("scenario")):
        msg = e.message
        if msg.startswith("unknown section "):
            msg = "unknown key " + msg[len("unknown section "):]
        errors.append(RuleError(e.pos, msg))
    errors += _yes_no_words(loc)
    if errors:
        raise RuleErrors(errors)
    return Scenario(path, file, loc.data, loc)


_YES_NO = ("yes", "no", "on", "off", "y", "n")


def _yes_no_words(loc) -> list:
    """`xfail: no` and `refused: yes` are text in YAML 1.2, and text means something there (the
    reason a failure is expected; words the refusal must hold): say what was meant instead."""
    out = []
    x = loc.data.get("xfail")
    if isinstance(x, str) and x.lower() in _YES_NO:
        out.append(RuleError(loc.marks.get(("xfail",), loc.marks[()]), f"xfail: {x!r} is text in YAML 1.2, read as "
                             "the reason a failure is expected: leave xfail out when none is (or give the "
                             "reason in words)"))
    answers = loc.data.get("answers")
    for i, a in enumerate(answers if isinstance(answers, list) else ()):
        r = a.get("refused") if isinstance(a, dict) else None
        if isinstance(r, str) and r.lower() in _YES_NO:
            word = "true" if r.lower() in ("yes", "on", "y") else "false"
            out.append(RuleError(loc.marks.get(("answers", i, "refused"), loc.marks[()]),
                                 f"answers.{i}.refused: {r!r} is text in YAML 1.2, read as words the refusal "
                                 f"must hold: write {word}"))
    return out


def is_rule_file(path: Path) -> bool:
    """Whether a YAML file is a rule or variant file (a top-level 'game:' or 'variant:' section)
    rather than a scenario: a folder may keep a tile and its scenarios together."""
    try:
        with open(path, encoding="utf-8", errors="replace") as fh:
            return any(line.startswith(("variant:", "game:")) for line in fh)
    except OSError:
        return False


def find_scenarios(arg: str) -> list:
    """The scenario files an argument names: the file itself; for a ruleset (a folder holding a
    game.yaml, or that game.yaml) the files of its `scenarios` folders; for another folder every
    *.yaml under it (recursively: a folder's own files, then its subfolders'; hidden folders, rule
    files and the files of a ruleset outside its `scenarios` folders skipped). Raises
    FileNotFoundError."""
    p = Path(arg)
    if not p.exists():
        raise FileNotFoundError(arg)
    if p.is_file():
        return ruleset_scenarios(p.parent) if p.name == GAME_FILE else [p]
    if (p / GAME_FILE).is_file():
        return ruleset_scenarios(p)
    return [f for f in _yaml_under(p) if not is_rule_file(f) and not _in_ruleset(f)]


def names_ruleset(arg: str) -> bool:
    """Whether a `jux test` argument names a ruleset (its scenarios are in its scenarios/ folder)."""
    p = Path(arg)
    return (p.is_file() and p.name == GAME_FILE) or (p.is_dir() and (p / GAME_FILE).is_file())


def ruleset_scenarios(root: Path) -> list:
    """A ruleset's own scenarios: the *.yaml files under its `scenarios` folders."""
    return [f for f in _yaml_under(root) if SCENARIOS in f.relative_to(root).parts[:-1]
            and not is_rule_file(f)]


def _yaml_under(p: Path) -> list:
    out = []
    for f in sorted(p.rglob("*.yaml"), key=lambda f: (f.parent.parts, f.name)):  # a folder's files first
        rel = f.relative_to(p).parts
        if any(part.startswith(".") for part in rel) or not f.is_file():
            continue
        out.append(f)
    return out


def _in_ruleset(f: Path) -> bool:
    """Whether f is a rule file of a ruleset folder (one holding a game.yaml) above it: in it, and
    not in one of its `scenarios` folders."""
    d = f.resolve().parent
    below = []
    for cand in [d, *d.parents][:6]:
        if (cand / GAME_FILE).is_file():
            return SCENARIOS not in below
        below.append(cand.name)
    return False


def _looks_like_path(text: str) -> bool:
    return "/" in text or "\\" in text or text.endswith((".yaml", ".yml")) or text.startswith(".")


def ruleset_target(sc: Scenario):
    """What `ruleset:` names: a path (relative to the scenario file) or a ruleset's name.
    Left out, the ruleset whose scenarios/ folder holds the file. Raises RuleError at the value."""
    if "ruleset" not in sc.data:
        own = own_ruleset(sc.path)
        if own is None:
            raise RuleError(Pos(sc.file, 1, 1), "ruleset: missing: name the ruleset (a name, or a path "
                                                "relative to this file); only a scenario in a ruleset's "
                                                "scenarios/ folder may leave it out")
        return own
    name = sc.data["ruleset"]
    here = sc.path.parent / name
    if _looks_like_path(name):
        if not here.exists():
            raise sc.error(("ruleset",), f"ruleset: no file or folder '{name}' (a path is relative to "
                                         f"this scenario's folder: {display_path(here)})", value=True)
        return here
    known = catalogue_rulesets()
    if name in known:
        return name
    if here.is_dir():
        return here
    raise sc.error(("ruleset",), f"ruleset: no ruleset '{name}'{did_you_mean(name, known)}; known "
                                 f"rulesets: {', '.join(known)} (or give a path relative to this file)",
                   value=True)


def own_ruleset(path: Path) -> Path | None:
    """The ruleset folder (one holding a game.yaml) whose scenarios/ folder holds a file, or None."""
    d = Path(path).resolve().parent
    below = []
    for cand in [d, *d.parents][:6]:
        if (cand / GAME_FILE).is_file():
            return cand if SCENARIOS in below else None
        below.append(cand.name)
    return None


def tile_names(sc: Scenario) -> list:
    """What `tiles:` names: variant names as written, and paths made relative to the scenario
    file (checked to exist; a RuleError at the item otherwise)."""
    tiles = sc.data.get("tiles") or []
    items = [(("tiles",), t) for t in tiles.split(",")] if isinstance(tiles, str) else \
        [(("tiles", i), t) for i, t in enumerate(tiles)]
    out = []
    for where, t in items:
        t = t.strip()
        if not t:
            continue
        if _looks_like_path(t):
            f = sc.path.parent / t
            if not f.is_file():
                raise sc.error(where, f"tiles: no variant file '{t}' (a path is relative to this "
                                      f"scenario's folder: {display_path(f)})", value=True)
            t = str(f)
        out.append(t)
    return out


def tile_position(sc: Scenario, message: str) -> Pos:
    """The tiles item a variant error is about (its name in the message), else the tiles key."""
    tiles = sc.data.get("tiles")
    if isinstance(tiles, list):
        for i, t in enumerate(tiles):
            name = Path(t.strip()).stem if _looks_like_path(t) else t.strip()
            if name and f"'{name}'" in message:
                return sc.value_at("tiles", i)
    return sc.at("tiles") if "tiles" in sc.data else sc.at("ruleset")
