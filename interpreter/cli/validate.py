"""`jux validate PATH...`: what each argument names (a ruleset, a rule file, a variant file, a folder
of rulesets), loaded and reported as ok or every error as path:line:col."""
from __future__ import annotations

import os
import sys
from pathlib import Path

from .console import console, err, print_error
from ..errors import JuxError, RuleError, RuleErrors, did_you_mean
from . import options


def _has_yaml(d: Path) -> bool:
    return any(p.is_file() for p in d.glob("*.yaml"))


def _declares_game(d: Path) -> bool:
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


def _ruleset_of_file(f: Path) -> Path:
    """The ruleset folder a rule file belongs to: the nearest folder above it declaring a game."""
    d = f.resolve().parent
    for cand in [d, *d.parents][:6]:
        if _declares_game(cand):
            return cand
    return f.parent


def _is_variant(f: Path) -> bool:
    """Whether a YAML file has a top-level 'variant:' section."""
    if not f.is_file():  # (a FIFO would block)
        return False
    try:
        with open(f, encoding="utf-8", errors="replace") as fh:
            return any(line.startswith("variant:") for line in fh)
    except OSError:
        return False


def _validate_targets(arg: str) -> tuple:
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
        if _is_variant(p):
            return [(_display(p), ("variant", p))], []
        root = _ruleset_of_file(p)
        return [(_display(root), root)], []
    variants = [f for f in sorted(p.rglob("*.yaml")) if f.is_file() and _is_variant(f)]
    if variants and not _declares_game(p):
        return [(_display(f), ("variant", f)) for f in variants], []
    if _has_yaml(p):
        return [(arg, p)], []
    # a folder of rulesets (like rules/) or of other rule files: find the rulesets inside
    targets, stray = [], []

    def walk(d: Path):
        for sub in sorted(x for x in d.iterdir() if x.is_dir() and not x.name.startswith((".", "_"))):
            if _declares_game(sub):
                targets.append((_display(sub), sub))
            else:
                stray.extend(sorted(sub.glob("*.yaml")))
                walk(sub)

    walk(p)
    return targets, stray


def _display(p: Path) -> str:
    try:
        return str(p.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(p)


def _load_variant(path: Path):
    """A variant file checked in play: loaded onto its game with what it needs (the variants it
    requires, and the default tiles of the slot keys it leaves open)."""
    from ..engine.game import load_ruleset
    from ..reading.spec import catalogue_rulesets, read_file

    loc = read_file(path)  # YAML errors as path:line:col
    head = loc.data.get("variant") if isinstance(loc.data, dict) else None
    game = head.get("game") if isinstance(head, dict) else None
    if not isinstance(game, str):
        from ..reading.spec import _schema_errors, schema_validator

        errs = _schema_errors(loc, schema_validator("ruleset"))
        if errs:
            raise RuleErrors(errs)
        raise JuxError(f"{_display(path)}: the variant section names no game")
    known = catalogue_rulesets()
    if game not in known:  # a game is named, never a path: "/" would have jux read the whole disk
        raise RuleErrors([RuleError(loc.marks.get(("variant", "game")), f"no game '{game}'"
                                    f"{did_you_mean(game, known)}; the games: {', '.join(known)}")])
    names = [str(path)]
    return load_ruleset(game, names)


def cmd_validate(args) -> int:
    from ..engine.game import load_ruleset

    status = 0
    out = console(markup=False)  # (paths and names are printed as written)
    for arg in args.paths:
        try:
            targets, stray = _validate_targets(arg)
        except JuxError as e:
            print_error(e)
            status = 1
            continue
        if not targets and not stray:  # (an empty folder is a mistake: the wrong one, or files not saved)
            err(f"{arg}: nothing to validate: no .yaml rule files found")
            status = 1
        for f in stray:
            out.print(f"not checked: {_display(f)} (not part of a ruleset: no folder above it has a "
                      f"'game' section)", soft_wrap=True)
        for label, target in targets:
            try:
                if isinstance(target, tuple):
                    rules = _load_variant(target[1])
                else:
                    rules = load_ruleset(target, options.tiles(args))
            except JuxError as e:
                print_error(e)
                if isinstance(e, RuleErrors):
                    n = len(e.errors)
                    err(f"{label}: {n} error{'s' if n != 1 else ''}")
                status = 1
                continue
            with_ = f", with {', '.join(rules.variants)}" if rules.variants else ""
            warnings = sorted(rules.spec.warnings, key=lambda w: (w.pos.file, w.pos.line, w.pos.col))
            for w in warnings:
                print(f"{w.pos}: warning: {w.message}", file=sys.stderr)
            n = len(warnings)
            warned = f", {n} warning{'s' if n != 1 else ''}" if n else ""
            out.print(f"ok: {label} ({len(rules.cards)} cards, {len(rules.spec.procedures)} procedures{with_}{warned})",
                      soft_wrap=True)
    return status
