"""Rule files -> a RuleSpec: YAML read with line marks (yaml_reader.py), checked against the JSON
Schema (schema.py), effect code parsed (routines.py). Every problem is collected and reported
at once as path:line:col: message."""
from __future__ import annotations

from dataclasses import dataclass, field
import hashlib
from pathlib import Path

from ..errors import JuxError, Pos, RuleError, RuleErrors
from ..language.parse import parse_block
from ..language.source import Source
from .compose import SECTIONS, apply_variant, merge_file
from .folders import catalogue_rulesets, rule_files, ruleset_path  # noqa: F401 (where the loader and the tools find them)
from .routines import Routine, _chain
from .schema import _schema_errors, schema_validator
from .yaml_reader import display_path, read_file


def _defined_by_others(game: str, info):
    """(section, name) -> the game's other variants that define it and info does not require (a
    variant that overrides what only one of them defines has forgotten to require it)."""
    def elsewhere(section: str, name: str) -> list:
        from .variants import catalogue

        return sorted(i.name for i in catalogue(game).values()
                      if (section, name) in i.defines and i.name != info.name and i.name not in info.requires)
    return elsewhere


@dataclass
class RuleSpec:
    """A ruleset as read from its files: plain data plus parsed code, not yet checked."""

    name: str
    path: Path
    game: dict
    constants: dict
    cards: dict
    zones: dict
    counters: dict
    marks: dict
    slots: dict
    functions: dict  # name -> Routine (body: Expr, or a tuple of Stmt computing it)
    procedures: dict  # name -> Routine (body: tuple of Stmt)
    flow: Routine
    where: dict  # (section, name) -> Pos, for checks to point at
    digest: str  # hash of the rule files' contents
    variants: tuple = ()  # names of the variants applied, in order
    hooks: tuple = ()  # the hook points the variants applied offer (variant.hooks): used even if not called
    warnings: list = field(default_factory=list)  # RuleErrors that do not stop a game (checks/checker.py)
    composed_warnings: list = field(default_factory=list)  # those found composing variants (compose.py)
    table: dict = field(default_factory=dict)  # what the table shows beyond zones: title -> function
    # earlier spellings of labels, options and log lines -> their spelling now (a text or a list):
    # for scenarios written before the rules reworded them (authoring/renames.py)
    renamed: dict = field(default_factory=dict)
    # the language version each file is written in (file as in Pos.file -> 1 or 2; the game's
    # `language` for the ruleset's files, a variant's own for its file; 1 when not given)
    languages: dict = field(default_factory=dict)
    # what checks tightened since language 1 found composing the files: (Pos, message, fix), an
    # error or a warning by the language of the file at Pos (checks/versions.py)
    tightened: list = field(default_factory=list)
    # the titles of the variants that override score(p) but not standing(p) (compose.py warns of
    # them): at the game's end the standing shows their part of the score (engine/views.py)
    score_apart: tuple = ()
    # errors found reading effect code (each routine with one is kept with an empty body): the checks
    # report them with what they find in the rest (checks/checker.py)
    errors: list = field(default_factory=list)



def read_spec(name_or_path, variants=()) -> RuleSpec:
    """Read, schema-check and parse the rule files of a ruleset, with the named variants applied
    (see variants.py). Raises RuleErrors with every problem found when the files do not make a
    ruleset (YAML and schema errors of each file, no game, no flow). Errors in effect code leave the
    rest checkable: they come back in spec.errors, and the checks raise them with their own. A wrong
    choice of variants raises VariantError."""
    path = ruleset_path(name_or_path)
    files = rule_files(path)
    if not files:
        raise JuxError(f"{display_path(path)}: no .yaml rule files here")
    errors: list = []
    merged: dict = {s: {} for s in SECTIONS}
    merged["flow"] = None
    merged["hooks"] = {}  # hook point -> the variant that offers it (variant.hooks)
    merged["fills"] = {}  # (slot, key) -> (variant, Pos) of the variant that filled it
    where: dict = {}
    digest = hashlib.sha256()
    broken_file = False  # a file could not be read: checks of the whole would mislead
    languages: dict = {}  # file -> its language version (the ruleset's files get the game's below)
    for f in files:
        if f != path and f.is_symlink():
            errors.append(RuleError(Pos(display_path(f), 1, 1), "a symbolic link: the rule files of a "
                                    "ruleset are plain files inside its folder (links are not followed)"))
            broken_file = True
            continue
        loc = _read_checked(f, digest, errors)
        if loc is None:
            broken_file = True
            continue
        if "variant" in loc.data:
            errors.append(RuleError(loc.marks[("key", "variant")], "a rule file of a ruleset cannot be a "
                                    "variant: put variant files under variants/<game>/"))
            continue
        merge_file(merged, where, loc, errors)
        languages[display_path(f)] = None
    game_language = (merged["game"] or {}).get("language", 1)
    languages = {f: game_language for f in languages}
    chosen = []
    if variants and not broken_file:
        from .variants import catalogue, choose

        game = (merged["game"] or {}).get("name", path.name)
        slot_order = {slot: list(table[0]) for slot, table in merged["slots"].items()
                      if isinstance(table[0], dict)}
        for info in choose(game, list(variants), slot_order):
            loc = _read_checked(info.path, digest, errors)
            if loc is None:
                broken_file = True
                break  # (the variants after it build on it: their errors would be its consequences)
            if not isinstance(loc.data.get("variant"), dict):
                errors.append(RuleError(Pos(display_path(info.path), 1, 1), "not a variant (no 'variant' section)"))
                continue
            apply_variant(merged, where, loc, errors, _defined_by_others(game, info))
            languages[display_path(info.path)] = loc.data["variant"].get("language", 1)
            known = catalogue(game).get(info.name)
            # by name when it is the catalogue's file, else by path (so a record can load it again)
            chosen.append(info.name if known is not None and known.path == info.path else str(info.path))
    spec = _build(path, merged, where, errors, complete=not broken_file)
    spec.digest = digest.hexdigest()[:16]
    spec.variants = tuple(chosen)
    spec.hooks = tuple(merged["hooks"])
    spec.composed_warnings = list(merged.get("warnings", ()))
    spec.languages = languages
    spec.tightened = list(merged.get("tightened", ()))
    spec.score_apart = tuple(merged.get("score_apart", ()))
    if errors and (broken_file or spec.flow is None or not spec.game):
        raise RuleErrors(errors)
    spec.errors = errors
    return spec


_CHECKED: dict = {}  # id(loc) -> (loc, its schema errors): a file read is checked once (read_file keeps it)
_FLOWS: dict = {}  # (code, where it is) -> the flow parsed: the same for each combination of tiles
KEPT = 512


def _kept(cache: dict, key, make):
    """cache[key], made by make() when missing (at most KEPT kept: then it starts again)."""
    got = cache.get(key)
    if got is None:
        got = make()
        if len(cache) >= KEPT:
            cache.clear()
        cache[key] = got
    return got


def _read_checked(f: Path, digest, errors: list):
    """A file read and checked against the schema, or None (its errors added)."""
    try:
        loc = read_file(f)
    except RuleErrors as e:
        errors.extend(e.errors)
        return None
    digest.update(f.name.encode() + b"\0" + loc.raw)
    got = _CHECKED.get(id(loc))
    if got is None or got[0] is not loc:
        got = (loc, _schema_errors(loc, schema_validator("ruleset")))
        if len(_CHECKED) >= KEPT:
            _CHECKED.clear()
        _CHECKED[id(loc)] = got
    errs = got[1]
    if errs:
        errors.extend(errs)
        return None
    return loc


def _plain(section: dict) -> dict:
    return {k: v[0] for k, v in section.items()}


def card_kinds(cards: dict) -> dict:
    """The card kinds as the later stages read them: `attributes` always there (a kind may leave it
    out), and a `list` item's own `copies` taken out of its attributes into `list_copies` (how many
    cards that item makes; the kind's `copies` when it does not say)."""
    out = {}
    for kind, d in cards.items():
        if not isinstance(d, dict):
            out[kind] = d
            continue
        d = dict(d)
        d["attributes"] = d.get("attributes") or {}
        items = d.get("list")
        if isinstance(items, list) and any(isinstance(i, dict) and "copies" in i for i in items):
            d["list_copies"] = [i.get("copies") if isinstance(i, dict) else None for i in items]
            d["list"] = [{k: v for k, v in i.items() if k != "copies"} if isinstance(i, dict) else i for i in items]
        out[kind] = d
    return out


def _build(path: Path, merged: dict, where: dict, errors: list, complete: bool = True) -> RuleSpec:
    """The RuleSpec of merged sections, with effect code parsed. A routine whose code has a syntax
    error is kept with an empty body (its error is in errors), so the rest can still be checked."""
    first = Pos(display_path(rule_files(path)[0]), 1, 1)
    game = merged["game"] or {}
    if complete and not merged["game"]:
        errors.append(RuleError(first, "the ruleset has no 'game' section (name, players)"))
    if complete and merged["flow"] is None:
        errors.append(RuleError(first, "the ruleset has no 'flow' (the code that runs the game)"))
    functions, procedures = {}, {}
    for section, table, expr in (("functions", functions, True), ("procedures", procedures, False)):
        for name, chain in merged[section].items():
            _chain(name, chain, table, errors, expr)
    flow = None
    if merged["flow"] is not None:
        src = merged.get("flow_src") or Source(first.file)
        try:
            text = merged["flow"]
            body = _kept(_FLOWS, (text, src, src.spots), lambda: parse_block(text, src))
        except RuleError as e:
            errors.append(e)
            body = ()
        flow = Routine("flow", (), body, where[("flow", "")])
    return RuleSpec(
        name=game.get("name", path.name), path=path, game=game,
        constants=_plain(merged["constants"]), cards=card_kinds(_plain(merged["cards"])), zones=_plain(merged["zones"]),
        counters=_plain(merged["counters"]), marks=_plain(merged["marks"]), slots=_plain(merged["slots"]),
        functions=functions, procedures=procedures, flow=flow, where=where, digest="",
        table=_plain(merged["table"]), renamed=_plain(merged["renamed"]))

