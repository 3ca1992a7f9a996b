"""Rule files -> a RuleSpec: YAML read with line marks, checked against the JSON Schema, effect
code parsed. Every problem is collected and reported at once as path:line:col: message."""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import yaml

from .errors import Pos, RuleError, RuleErrors
from .syntax import Source, parse_block, parse_expr, parse_signature

RULES_DIR = Path(__file__).resolve().parent.parent / "rules"
SCHEMA_DIR = Path(__file__).resolve().parent / "schema"
SECTIONS = ("game", "constants", "cards", "zones", "counters", "marks", "slots", "functions",
            "procedures", "flow")


@dataclass
class Located:
    """Parsed YAML plus the position of every value, keyed by its path of keys/indices."""

    data: object
    marks: dict  # path tuple -> Pos of the value (or of the key, under ("key",) + path)
    blocks: dict  # path tuple -> Source of a string scalar (for effect code positions)


@dataclass
class Routine:
    name: str
    params: tuple
    body: object  # tuple of statements (procedure) or an expression (function)
    pos: Pos
    text: str = ""
    origin: str = ""  # which file or variant defined it


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
    functions: dict  # name -> Routine (body: Expr)
    procedures: dict  # name -> Routine (body: tuple of Stmt)
    flow: Routine
    where: dict  # (section, name) -> Pos, for checks to point at
    digest: str  # hash of the rule files' contents


# ---------------------------------------------------------------- YAML with positions


class _Loader(yaml.SafeLoader):
    pass


def _compose(text: str, file: str) -> Located:
    try:
        node = yaml.compose(text, Loader=_Loader)
    except yaml.MarkedYAMLError as e:
        mark = e.problem_mark or e.context_mark
        pos = Pos(file, mark.line + 1, mark.column + 1) if mark else Pos(file, 1, 1)
        problem = e.problem or e.context or "invalid YAML"
        raise RuleErrors([RuleError(pos, f"YAML syntax error: {problem}")]) from None
    except yaml.YAMLError as e:
        raise RuleErrors([RuleError(Pos(file, 1, 1), f"YAML error: {e}")]) from None
    marks, blocks, errors = {}, {}, []
    lines = text.splitlines()
    constructor = yaml.SafeLoader("")

    def build(n, path):
        marks[path] = Pos(file, n.start_mark.line + 1, n.start_mark.column + 1)
        if isinstance(n, yaml.MappingNode):
            out = {}
            for k, v in n.value:
                key = build(k, ("key",) + path + (len(out),))
                if not isinstance(key, (str, int, bool)) or isinstance(key, bool):
                    key = str(key)
                if key in out:
                    errors.append(RuleError(Pos(file, k.start_mark.line + 1, k.start_mark.column + 1),
                                            f"duplicate key '{key}'"))
                    continue
                marks[("key",) + path + (key,)] = Pos(file, k.start_mark.line + 1, k.start_mark.column + 1)
                out[key] = build(v, path + (key,))
            return out
        if isinstance(n, yaml.SequenceNode):
            return [build(v, path + (i,)) for i, v in enumerate(n.value)]
        value = constructor.construct_object(n, deep=True)
        if isinstance(value, str):
            blocks[path] = _source_of(n, file, lines)
        return value

    if node is None:
        return Located({}, {(): Pos(file, 1, 1)}, {})
    data = build(node, ())
    if errors:
        raise RuleErrors(errors)
    return Located(data, marks, blocks)


def _source_of(n: yaml.ScalarNode, file: str, lines: list) -> Source:
    line, col = n.start_mark.line, n.start_mark.column
    if n.style in ("|", ">"):
        # content starts on the next non-empty line; its indentation is the block's
        first = line + 1
        while first < len(lines) and not lines[first].strip():
            first += 1
        text = lines[first] if first < len(lines) else ""
        indent = len(text) - len(text.lstrip(" "))
        return Source(file, first + 1, indent + 1, block=True)
    if n.style in ("'", '"'):
        return Source(file, line + 1, col + 2)
    return Source(file, line + 1, col + 1)


# ---------------------------------------------------------------- schema


@lru_cache(maxsize=None)
def schema_validator(name: str = "ruleset"):
    import jsonschema

    schema = json.loads((SCHEMA_DIR / f"{name}.schema.json").read_text())
    return jsonschema.Draft7Validator(schema)


def _schema_errors(loc: Located, validator) -> list:
    errors = []
    for err in validator.iter_errors(loc.data):
        path = tuple(err.absolute_path)
        pos = loc.marks.get(path) or loc.marks.get(path[:-1]) or loc.marks.get(())
        where = ".".join(str(p) for p in path) or "the file"
        msg = _schema_message(err)
        if err.validator == "additionalProperties":
            # point at the unknown key itself
            import re

            m = re.findall(r"'([^']+)'", err.message)
            for key in m:
                kpos = loc.marks.get(("key",) + path + (key,))
                if kpos:
                    errors.append(RuleError(kpos, f"unknown key '{key}' in {where}{_allowed(err)}"))
            if m:
                continue
        errors.append(RuleError(pos, f"{where}: {msg}"))
    return errors


def _allowed(err) -> str:
    props = err.schema.get("properties")
    if props:
        from .errors import did_you_mean

        return f" (allowed: {', '.join(props)})"
    return ""


def _schema_message(err) -> str:
    v = err.validator
    if v == "required":
        return err.message.replace("is a required property", "is missing (required)")
    if v == "type":
        want = err.validator_value
        want = " or ".join(want) if isinstance(want, list) else want
        return f"expected {want}, found {json.dumps(err.instance)[:40]}"
    if v == "enum":
        return f"{json.dumps(err.instance)[:40]} is not one of {', '.join(map(str, err.validator_value))}"
    if v in ("oneOf", "anyOf"):
        best = None
        for sub in err.context or ():
            if best is None or len(sub.absolute_path) > len(best.absolute_path):
                best = sub
        if best is not None and best.validator not in ("type", "oneOf", "anyOf"):
            return _schema_message(best)
        return f"{json.dumps(err.instance)[:40]} is not a valid value here"
    if v == "pattern":
        return f"'{err.instance}' is not a valid name"
    if v == "propertyNames":
        return f"{err.message}"
    return err.message


# ---------------------------------------------------------------- ruleset


def ruleset_path(name_or_path) -> Path:
    p = Path(name_or_path)
    if p.exists():
        return p
    q = RULES_DIR / str(name_or_path)
    if q.exists():
        return q
    known = sorted(d.name for d in RULES_DIR.iterdir() if d.is_dir() and not d.name.startswith("_"))
    from .errors import JuxError, did_you_mean

    raise JuxError(f"no ruleset '{name_or_path}'{did_you_mean(str(name_or_path), known)}; "
                   f"known rulesets: {', '.join(known)}")


def rule_files(path: Path) -> list:
    if path.is_file():
        return [path]
    return sorted(p for p in path.rglob("*.yaml") if p.is_file())


def display_path(p: Path) -> str:
    try:
        return str(p.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(p)


def read_file(p: Path) -> Located:
    file = display_path(p)
    try:
        text = p.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise RuleErrors([RuleError(Pos(file, 1, 1), f"cannot read the file: {e}")]) from None
    loc = _compose(text, file)
    if loc.data == {} or loc.data is None:
        loc.data = {}
    if not isinstance(loc.data, dict):
        raise RuleErrors([RuleError(Pos(file, 1, 1), "a rule file must be a mapping of sections (game, zones, ...)")])
    return loc


def load_spec(name_or_path) -> RuleSpec:
    path = ruleset_path(name_or_path)
    files = rule_files(path)
    if not files:
        from .errors import JuxError

        raise JuxError(f"{display_path(path)}: no .yaml rule files here")
    errors: list = []
    merged: dict = {s: {} for s in SECTIONS}
    merged["flow"] = None
    where: dict = {}
    locs = []
    digest = hashlib.sha256()
    validator = schema_validator("ruleset")
    for f in files:
        digest.update(f.name.encode() + b"\0" + f.read_bytes())
        try:
            loc = read_file(f)
        except RuleErrors as e:
            errors.extend(e.errors)
            continue
        errs = _schema_errors(loc, validator)
        errors.extend(errs)
        if errs:
            continue
        locs.append(loc)
        for section, value in loc.data.items():
            if section == "flow" or section == "game":
                if merged[section]:
                    errors.append(RuleError(loc.marks[("key", section)], f"'{section}' is given in two files"))
                    continue
                merged[section] = value
                where[(section, "")] = loc.marks[(section,)]
                if section == "flow":
                    merged["flow_src"] = loc.blocks.get((section,))
                continue
            for key, item in value.items():
                if key in merged[section]:
                    errors.append(RuleError(loc.marks[("key", section, key)], f"{section} '{key}' is defined twice"))
                    continue
                merged[section][key] = (item, loc, (section, key))
                where[(section, key)] = loc.marks[("key", section, key)]
    if errors:
        raise RuleErrors(errors)
    spec = _build(path, merged, where, errors)
    spec.digest = digest.hexdigest()[:16]
    if errors:
        raise RuleErrors(errors)
    return spec


def _plain(section: dict) -> dict:
    return {k: v[0] for k, v in section.items()}


def _build(path: Path, merged: dict, where: dict, errors: list) -> RuleSpec:
    first = Pos(display_path(rule_files(path)[0]), 1, 1)
    game = merged["game"] or {}
    if not merged["game"]:
        errors.append(RuleError(first, "the ruleset has no 'game' section (name, players)"))
    if merged["flow"] is None:
        errors.append(RuleError(first, "the ruleset has no 'flow' (the code that runs the game)"))
    functions, procedures = {}, {}
    for sig, (body, loc, p) in merged["functions"].items():
        r = _routine(sig, body, loc, p, errors, expr=True)
        if r:
            _add(functions, r, errors, "function")
    for sig, (body, loc, p) in merged["procedures"].items():
        r = _routine(sig, body, loc, p, errors, expr=False)
        if r:
            _add(procedures, r, errors, "procedure")
    flow = None
    if merged["flow"] is not None:
        src = merged.get("flow_src") or Source(first.file)
        try:
            flow = Routine("flow", (), parse_block(merged["flow"], src), where[("flow", "")])
        except Exception as e:  # RuleError
            errors.append(e)
    return RuleSpec(
        name=game.get("name", path.name), path=path, game=game,
        constants=_plain(merged["constants"]), cards=_plain(merged["cards"]), zones=_plain(merged["zones"]),
        counters=_plain(merged["counters"]), marks=_plain(merged["marks"]), slots=_plain(merged["slots"]),
        functions=functions, procedures=procedures, flow=flow, where=where, digest="")


def _add(table: dict, r: Routine, errors: list, what: str):
    if r.name in table:
        errors.append(RuleError(r.pos, f"{what} '{r.name}' is defined twice"))
    else:
        table[r.name] = r


def _routine(sig, body, loc: Located, path, errors, expr: bool):
    kpos = loc.marks[("key",) + path]
    try:
        name, params = parse_signature(str(sig), Source(kpos.file, kpos.line, kpos.col))
    except RuleError as e:
        errors.append(e)
        return None
    text = ""
    code_path = path
    if isinstance(body, dict):
        text = body.get("text", "")
        body = body.get("do", "")
        code_path = path + ("do",)
    src = loc.blocks.get(code_path) or Source(kpos.file, kpos.line, kpos.col)
    try:
        tree = parse_expr(body, src) if expr else parse_block(body, src)
    except RuleError as e:
        errors.append(e)
        return None
    return Routine(name, params, tree, kpos, " ".join(str(text).split()), origin=kpos.file)
