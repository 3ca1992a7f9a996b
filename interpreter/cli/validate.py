"""`jux validate PATH...`: what each argument names (a ruleset, a rule file, a variant file, a folder
of rulesets: authoring/targets.py), loaded and reported as ok or every error as path:line:col."""
from __future__ import annotations

import sys

from . import options
from ..authoring.targets import load_variant, shown_path, targets_of
from ..errors import JuxError, RuleErrors
from ..runtime.plurals import plural
from .console import console, err, print_error


def cmd_validate(args) -> int:
    from ..engine.ruleset import load_ruleset

    status = 0
    out = console(markup=False)  # (paths and names are printed as written)
    for arg in args.paths:
        try:
            targets, stray = targets_of(arg)
        except JuxError as e:
            print_error(e)
            status = 1
            continue
        if not targets and not stray:  # (an empty folder is a mistake: the wrong one, or files not saved)
            err(f"{arg}: nothing to validate: no .yaml rule files found")
            status = 1
        for f in stray:
            out.print(f"not checked: {shown_path(f)} (not part of a ruleset: no folder above it has a "
                      f"'game' section)", soft_wrap=True)
        for label, target in targets:
            try:
                if isinstance(target, tuple):
                    rules = load_variant(target[1])
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
            warned = f", {plural(len(warnings), 'warning')}" if warnings else ""
            counts = f"{plural(len(rules.cards), 'card')}, {plural(len(rules.spec.procedures), 'procedure')}"
            out.print(f"ok: {label} ({counts}{with_}{warned})", soft_wrap=True)
    return status
