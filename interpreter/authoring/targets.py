"""What a path given to `jux validate` or opened in an editor (`jux lsp`) names: a ruleset (the
nearest folder above a rule file that declares a game), a variant file, or a folder of rulesets;
and a variant file loaded onto its game as it is played."""
from __future__ import annotations

import os
from pathlib import Path

from ..errors import JuxError, RuleError, RuleErrors, did_you_mean


def has_yaml(d: Path) -> bool:
    return any(p.is_file() for p in d.glob("*.yaml"))


def declares_game(d: Path) -> bool:
    """Whether a folder holds a rule file with a top-level 'game:' section (a ruleset's root)."""
    for f in sorted(d.glob("*.yaml")):
        if not f.is_file():  # (a FIFO would block)
            continue
        try:
            with open(f, encoding="utf-8", errors="replace") as fh:
                for line in fh:
                    if line.startswith("game:"):
                        return True
        except OSError:
            continue
    return False


def ruleset_of_file(f: Path) -> Path:
    """The ruleset folder a rule file belongs to: the nearest folder above it declaring a game."""
    d = f.resolve().parent
    for cand in [d, *d.parents][:6]:
        if declares_game(cand):
            return cand
    return f.parent


def is_variant(f: Path) -> bool:
    """Whether a YAML file has a top-level 'variant:' section."""
    if not f.is_file():  # (a FIFO would block)
        return False
    try:
        with open(f, encoding="utf-8", errors="replace") as fh:
            return any(line.startswith("variant:") for line in fh)
    except OSError:
        return False


def targets_of(arg: str) -> tuple:
    """What to load for one argument: ([(label, name_or_path)], [unchecked yaml files]).
    A variant file's target is ("variant", path)."""
    p = Path(arg)
    if not p.exists():
        if os.sep in arg or "/" in arg or p.suffix in (".yaml", ".yml"):
            raise JuxError(f"{arg}: no such file or directory")
        return [(arg, arg)], []  # a ruleset name: load_ruleset finds it under rules/ or says so
    if p.is_file():
        if p.suffix not in (".yaml", ".yml"):
            raise JuxError(f"{arg}: not a rule file (.yaml)")
        if is_variant(p):
            return [(shown_path(p), ("variant", p))], []
        root = ruleset_of_file(p)
        return [(shown_path(root), root)], []
    variants = [f for f in sorted(p.rglob("*.yaml")) if f.is_file() and is_variant(f)]
    if variants and not declares_game(p):
        return [(shown_path(f), ("variant", f)) for f in variants], []
    if has_yaml(p):
        return [(arg, p)], []
    # a folder of rulesets (like rules/) or of other rule files: find the rulesets inside
    targets, stray = [], []

    def walk(d: Path):
        for sub in sorted(x for x in d.iterdir() if x.is_dir() and not x.name.startswith((".", "_"))):
            if declares_game(sub):
                targets.append((shown_path(sub), sub))
            else:
                stray.extend(sorted(sub.glob("*.yaml")))
                walk(sub)

    walk(p)
    return targets, stray


def shown_path(p: Path) -> str:
    try:
        return str(p.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(p)


def load_variant(path: Path):
    """A variant file checked in play: loaded onto its game with what it needs (the variants it
    requires, and the default tiles of the slot keys it leaves open)."""
    from ..engine.ruleset import load_ruleset
    from ..reading.spec import catalogue_rulesets
    from ..reading.yaml_reader import read_file

    loc = read_file(path)  # YAML errors as path:line:col
    head = loc.data.get("variant") if isinstance(loc.data, dict) else None
    game = head.get("game") if isinstance(head, dict) else None
    if not isinstance(game, str):
        from ..reading.schema import _schema_errors, schema_validator

        errs = _schema_errors(loc, schema_validator("ruleset"))
        if errs:
            raise RuleErrors(errs)
        raise JuxError(f"{shown_path(path)}: the variant section names no game")
    known = catalogue_rulesets()
    if game not in known:  # a game is named, never a path: "/" would have jux read the whole disk
        raise RuleErrors([RuleError(loc.marks.get(("variant", "game")), f"no game '{game}'"
                                    f"{did_you_mean(game, known)}; the games: {', '.join(known)}")])
    names = [str(path)]
    return load_ruleset(game, names)
