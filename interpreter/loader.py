"""Rule files -> a RuleSpec: YAML read with line marks, checked against the JSON Schema, effect
code parsed. Every problem is collected and reported at once as path:line:col: message."""
from __future__ import annotations

import bisect
import hashlib
import json
import math
import os
import re
import stat
from dataclasses import dataclass, field, replace
from functools import lru_cache
from pathlib import Path

import yaml

from .compose import SECTIONS, apply_variant, merge_file
from .errors import JuxError, Pos, RuleError, RuleErrors, did_you_mean
from .files import edited_bytes
from .limits import MAX_DIGITS, MAX_FILE_BYTES, MAX_NESTING, MAX_YAML_VALUES
from .syntax import (Call, CallStmt, Const, Source, parse_block, parse_function_body, parse_signature, rename_calls,
                     walk)

from .paths import RULES_DIR
SCHEMA_DIR = Path(__file__).resolve().parent / "schema"


@dataclass
class Located:
    """Parsed YAML plus the position of every value, keyed by its path of keys/indices."""

    data: object
    marks: dict  # path tuple -> Pos of the value (or of the key, under ("key",) + path)
    blocks: dict  # path tuple -> Source of a string scalar (for effect code positions)
    parsed: dict = field(default_factory=dict)  # path -> Routine, parsed once per file
    raw: bytes = b""  # the file's bytes (for the ruleset's digest)


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
    functions: dict  # name -> Routine (body: Expr, or a tuple of Stmt computing it)
    procedures: dict  # name -> Routine (body: tuple of Stmt)
    flow: Routine
    where: dict  # (section, name) -> Pos, for checks to point at
    digest: str  # hash of the rule files' contents
    variants: tuple = ()  # names of the variants applied, in order
    hooks: tuple = ()  # the hook points the variants applied offer (variant.hooks): used even if not called
    warnings: list = field(default_factory=list)  # RuleErrors that do not stop a game (check.check)
    table: dict = field(default_factory=dict)  # what the table shows beyond zones: title -> function


# ---------------------------------------------------------------- YAML with positions


class _TooBig(yaml.MarkedYAMLError):
    """A file past one of the bounds of limits.py (told as it is, not as a syntax error)."""


class _Loader(yaml.SafeLoader):
    """Composes with bounds: lists and mappings nested at most MAX_NESTING deep, at most
    MAX_YAML_VALUES values in a value with its aliases expanded (the "billion laughs" of anchors
    that expand to millions of values is refused as it grows), and no alias inside its own anchor."""

    def __init__(self, stream):
        super().__init__(stream)
        self._depth = 0
        self._sizes: dict = {}  # id(node) -> the values it stands for, aliases expanded

    def compose_node(self, parent, index):
        event = self.peek_event()
        if isinstance(event, yaml.AliasEvent):
            target = self.anchors.get(event.anchor)
            if target is not None and target.end_mark is None:  # (still being composed)
                raise _TooBig(None, None, f"the alias *{event.anchor} is inside its own anchor "
                              "(a value cannot contain itself)", event.start_mark)
            return super().compose_node(parent, index)
        self._depth += 1
        if self._depth > MAX_NESTING:
            raise _TooBig(None, None, f"lists and mappings nested more than {MAX_NESTING} deep", event.start_mark)
        try:
            node = super().compose_node(parent, index)
        finally:
            self._depth -= 1
        sizes = self._sizes
        if isinstance(node, yaml.SequenceNode):
            size = 1 + sum(sizes.get(id(v), 1) for v in node.value)
        elif isinstance(node, yaml.MappingNode):
            size = 1 + sum(sizes.get(id(k), 1) + sizes.get(id(v), 1) for k, v in node.value)
        else:
            size = 1
        if size > MAX_YAML_VALUES:
            raise _TooBig(None, None, f"this value stands for more than {MAX_YAML_VALUES:,} values "
                          "(with its aliases expanded)", node.start_mark)
        sizes[id(node)] = size
        return node


# The tags a rule file may carry (all implicit in plain YAML). Any other tag, e.g. !!python/object
# or a custom !tag, is refused: a rule file is plain data and nothing in it can make Python run.
_PLAIN_TAGS = {"tag:yaml.org,2002:" + t for t in ("str", "int", "float", "bool", "null", "map", "seq")}
_STRING_TAGS = {"tag:yaml.org,2002:timestamp"}  # 2024-01-01 stays the text it is


def _value_or_nothing(path: tuple) -> bool:
    """Whether the YAML value at path is a value of the rules that may be nothing: a counter's start
    (or its short form), a mark's default, a constant or an item of a list constant. There a plain
    `none` means nothing, as in the effect language; elsewhere (`visible: none`) it is a word."""
    if len(path) == 2:
        return path[0] in ("counters", "constants")
    if len(path) == 3:
        return (path[0], path[2]) in (("counters", "start"), ("marks", "default")) or (
            path[0] == "constants" and isinstance(path[2], int))
    return False


def _tag_name(tag: str) -> str:
    return "!!" + tag[len("tag:yaml.org,2002:"):] if tag.startswith("tag:yaml.org,2002:") else tag


def _mark_pos(file: str, mark) -> Pos:
    return Pos(file, mark.line + 1, mark.column + 1) if mark is not None else Pos(file, 1, 1)


def _yaml_error(e: yaml.MarkedYAMLError, file: str) -> RuleError:
    """A PyYAML error as one line, at the place the author has to look."""
    problem = (e.problem or "").strip()
    context = (e.context or "").strip()
    pm, cm = e.problem_mark, e.context_mark
    pos = _mark_pos(file, pm or cm)
    msg = problem or context or "invalid YAML"
    if "'\\t'" in problem:
        msg = "a tab character; indent with spaces"
    elif context.startswith("while scanning a quoted scalar") and "end of stream" in problem:
        pos, msg = _mark_pos(file, cm), "this quoted text is never closed"
    elif context.startswith("while parsing a flow sequence") and pm and cm and pm.line != cm.line:
        pos, msg = _mark_pos(file, cm), "this '[' is never closed by ']'"
    elif context.startswith("while parsing a flow mapping") and pm and cm and pm.line != cm.line:
        pos, msg = _mark_pos(file, cm), "this '{' is never closed by '}'"
    elif problem.startswith("expected <block end>, but found"):
        found = problem.rsplit("but found", 1)[1].strip()
        if found in ("'<block mapping start>'", "'<block sequence start>'", "'?'", "'-'"):
            msg = "bad indentation: this line does not line up with the lines above it"
        else:
            msg = f"unexpected {found}"
    elif problem == "mapping values are not allowed here":
        msg = ("':' is not allowed here (check the indentation and the line above; put text that "
               "contains ': ' in quotes)")
    elif context.startswith("while scanning a simple key") and "could not find expected ':'" in problem:
        pos, msg = _mark_pos(file, cm), "expected 'key: value' but this line has no ':'"
    return RuleError(pos, f"YAML syntax error: {msg}")


def _line_starts(text: str) -> list:
    starts = [0]
    i = text.find("\n")
    while i >= 0:
        starts.append(i + 1)
        i = text.find("\n", i + 1)
    return starts


def _spots(text: str, starts: list, n: yaml.ScalarNode, value: str) -> tuple:
    """The file (line, col) of every character of a string scalar's value.

    The value's characters are matched, in order, against the scalar's text in the file, which
    gives exact places for every style: plain (folded over lines), single quoted ('' for '),
    double quoted (escapes, escaped line breaks), literal | and folded > blocks (indentation).
    """
    start, end, style = n.start_mark.index, n.end_mark.index, n.style
    if style in ("|", ">"):
        nl = text.find("\n", start, end)
        j = nl + 1 if nl >= 0 else end
    elif style in ("'", '"'):
        j = start + 1
    else:
        j = start
    raw = []
    for ch in value:
        if style == '"' and j < end and text[j] == "\\":
            nxt = text[j + 1:j + 2]
            if nxt in ("\n", "\r"):  # an escaped line break: skip it and the next line's indentation
                j += 2
                while j < end and text[j] in " \t\r\n":
                    j += 1
            elif nxt != ch or ch != "\\":
                raw.append(j)
                j += {"x": 4, "u": 6, "U": 10}.get(nxt, 2)
                continue
        if j < end and text[j] == ch:
            raw.append(j)
            j += 1
            continue
        if ch in " \t\n\r":  # folded line break or indentation: skip the file's white space to it
            k = j
            while k < end and text[k] in " \t\r\n" and text[k] != ch:
                k += 1
            if k < end and text[k] == ch:
                raw.append(k)
                j = k + 1
            else:
                raw.append(min(j, max(end - 1, 0)))
            continue
        k = text.find(ch, j, end)
        if k < 0:
            raw.append(min(j, max(end - 1, 0)))
        else:
            raw.append(k)
            j = k + 1
    out = []
    for idx in raw:
        line = bisect.bisect_right(starts, idx)
        out.append((line, idx - starts[line - 1] + 1))
    return tuple(out)


def _compose(text: str, file: str) -> Located:
    try:
        node = yaml.compose(text, Loader=_Loader)
    except _TooBig as e:
        raise RuleErrors([RuleError(_mark_pos(file, e.problem_mark), e.problem)]) from None
    except yaml.MarkedYAMLError as e:
        raise RuleErrors([_yaml_error(e, file)]) from None
    except yaml.reader.ReaderError as e:
        starts = _line_starts(text)
        line = bisect.bisect_right(starts, e.position)
        pos = Pos(file, line, e.position - starts[line - 1] + 1)
        what = f"#x{e.character:04x}" if isinstance(e.character, int) else repr(e.character)
        raise RuleErrors([RuleError(pos, f"YAML syntax error: character {what} is not allowed in a rule file")]) from None
    except yaml.YAMLError as e:
        raise RuleErrors([RuleError(Pos(file, 1, 1), f"YAML error: {e}")]) from None
    marks, blocks, errors = {}, {}, []
    starts = _line_starts(text)
    constructor = yaml.SafeLoader("")

    def at(n) -> Pos:
        return _mark_pos(file, n.start_mark)

    def build(n, path):
        marks[path] = at(n)
        if n.tag not in _PLAIN_TAGS and n.tag not in _STRING_TAGS:
            errors.append(RuleError(at(n), f"YAML tag '{_tag_name(n.tag)}' is not allowed: a rule file "
                                           "holds plain data (text, numbers, lists, mappings), no tags"))
            return None
        if isinstance(n, yaml.MappingNode):
            try:
                constructor.flatten_mapping(n)  # '<<: *anchor' merge keys
            except yaml.MarkedYAMLError as e:
                errors.append(RuleError(_mark_pos(file, e.problem_mark or e.context_mark),
                                        f"YAML error: {e.problem or e.context}"))
                return {}
            out = {}
            for k, v in n.value:
                key = build(k, ("key",) + path + (len(out),))
                if not isinstance(key, (str, int)) or isinstance(key, bool):
                    key = str(key) if not isinstance(k, yaml.ScalarNode) else k.value
                if key in out:
                    errors.append(RuleError(at(k), f"duplicate key '{key}'"))
                    continue
                marks[("key",) + path + (key,)] = at(k)
                out[key] = build(v, path + (key,))
            return out
        if isinstance(n, yaml.SequenceNode):
            return [build(v, path + (i,)) for i, v in enumerate(n.value)]
        if n.tag in _STRING_TAGS:
            return n.value
        if n.style is None and n.value == "none" and _value_or_nothing(path):
            return None  # a plain `none` is nothing, as in the effect language (write "none" for the text)
        if n.tag.endswith(":int") and sum(ch.isdigit() for ch in n.value) > MAX_DIGITS:
            errors.append(RuleError(at(n), f"a number of more than {MAX_DIGITS} digits"))
            return None
        try:
            value = constructor.construct_object(n, deep=True)
        except (yaml.YAMLError, ValueError) as e:
            errors.append(RuleError(at(n), f"YAML error: {getattr(e, 'problem', None) or e}"))
            return None
        if isinstance(value, float) and not math.isfinite(value):
            errors.append(RuleError(at(n), f"'{n.value}' is not a finite number"))
            return None
        if isinstance(value, str):
            blocks[path] = Source(file, n.start_mark.line + 1, n.start_mark.column + 1,
                                  spots=_spots(text, starts, n, value))
        return value

    if node is None:
        return Located({}, {(): Pos(file, 1, 1)}, {})
    data = build(node, ())
    if errors:
        raise RuleErrors(errors)
    return Located(data, marks, blocks)


# ---------------------------------------------------------------- schema


@lru_cache(maxsize=None)
def schema_validator(name: str = "ruleset"):
    import jsonschema

    schema = json.loads((SCHEMA_DIR / f"{name}.schema.json").read_text())
    return jsonschema.Draft7Validator(schema)


def _schema_errors(loc: Located, validator) -> list:
    """Every way a file breaks the schema, as short messages at the places they concern."""
    out, seen = [], set()
    for err in validator.iter_errors(loc.data):
        for e in _schema_error(err, loc, validator.schema):
            key = (e.pos, e.message)
            if key not in seen:
                seen.add(key)
                out.append(e)
    return out


_TYPE_WORDS = {"string": "a string", "integer": "an integer", "boolean": "true/false",
               "object": "a mapping (key: value)", "array": "a list", "null": "nothing",
               "number": "a number"}
_NAME_RULE = "a letter or '_', then letters, digits or '_'"


def _where(path) -> str:
    return ".".join(str(p) for p in path) or "the file"


def _show(x) -> str:
    """A value as an author wrote it, briefly."""
    if x is None:
        return "nothing"
    if isinstance(x, bool):
        return "true" if x else "false"
    if isinstance(x, str):
        return repr(x if len(x) <= 30 else x[:27] + "...")
    if isinstance(x, (int, float)):
        return str(x)
    if isinstance(x, list):
        return "a list"
    if isinstance(x, dict):
        return "a mapping"
    return type(x).__name__


def _json_type_ok(t, x) -> bool:
    if isinstance(t, list):
        return any(_json_type_ok(i, x) for i in t)
    return {"string": isinstance(x, str), "integer": isinstance(x, int) and not isinstance(x, bool),
            "number": isinstance(x, (int, float)) and not isinstance(x, bool),
            "boolean": isinstance(x, bool), "null": x is None, "object": isinstance(x, dict),
            "array": isinstance(x, list)}.get(t, True)


def _resolve(sub: dict, root: dict) -> dict:
    """Follow local $refs and single-item allOf wrappers to the schema that says the type."""
    for _ in range(10):
        if "$ref" in sub and sub["$ref"].startswith("#/"):
            node = root
            for part in sub["$ref"][2:].split("/"):
                node = node[part]
            sub = node
        elif "type" not in sub and len(sub.get("allOf", ())) == 1:
            sub = sub["allOf"][0]
        else:
            break
    return sub


def _kinds(sub: dict) -> list:
    """What a schema accepts, in words: ['a string', 'a mapping (keys: start, per, text)']."""
    t = sub.get("type")
    if t == "object" and sub.get("properties"):
        return [f"a mapping (keys: {', '.join(sub['properties'])})"]
    if isinstance(t, str):
        t = [t]
    return [_TYPE_WORDS.get(i, i) for i in t] if t else ["another value"]


def _either(words: list) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


def _describe(sub: dict) -> str:
    return _either(_kinds(sub))


def _key_pos(loc: Located, path) -> Pos:
    """Where the key of the value at path is written (else the value, else the file start)."""
    return (loc.marks.get(("key",) + tuple(path)) if path else None) or _value_pos(loc, path)


def _value_pos(loc: Located, path) -> Pos:
    path = tuple(path)
    while path and path not in loc.marks:
        path = path[:-1]
    return loc.marks.get(path) or loc.marks.get(()) or next(iter(loc.marks.values()))


def _schema_error(err, loc: Located, root: dict) -> list:
    path = tuple(err.absolute_path)
    where = _where(path)
    v = err.validator
    inst = err.instance
    if "propertyNames" in err.schema_path:  # a key that is not a valid name; inst is the key
        kpos = loc.marks.get(("key",) + path + (inst,)) or _value_pos(loc, path)
        if path and path[-1] in ("functions", "procedures") and len(path) == 1:
            return [RuleError(kpos, f"{where}: '{inst}' is not a valid signature: write 'name' or "
                                    "'name(a, b)' with names for the parameters")]
        return [RuleError(kpos, f"{where}: '{inst}' is not a valid name ({_NAME_RULE})")]
    if v == "additionalProperties":
        props = list(err.schema.get("properties", {}))
        out = []
        for key in [k for k in inst if k not in props]:
            kpos = loc.marks.get(("key",) + path + (key,)) or _value_pos(loc, path)
            hint = did_you_mean(str(key), props) or f" (allowed: {', '.join(props)})"
            what = "unknown section" if not path else "unknown key"
            out.append(RuleError(kpos, f"{where}: {what} '{key}'{hint}" if path else f"{what} '{key}'{hint}"))
        return out
    if v == "required":
        missing = [r for r in err.validator_value if isinstance(inst, dict) and r not in inst]
        return [RuleError(_key_pos(loc, path), f"{where}: '{m}' is missing (required)") for m in missing[:1]]
    pos = _value_pos(loc, path)
    if v == "type":
        return [RuleError(pos, f"{where}: expected {_describe(err.schema)}, found {_show(inst)}")]
    if v == "enum":
        return [RuleError(pos, f"{where}: {_show(inst)} is not one of {', '.join(map(str, err.validator_value))}")]
    if v in ("oneOf", "anyOf"):
        branches = [_resolve(b, root) for b in err.validator_value]
        fitting = [i for i, b in enumerate(branches) if _json_type_ok(b.get("type", []), inst)
                   or "type" not in b]
        if len(fitting) == 1:
            subs = [c for c in (err.context or ()) if c.relative_schema_path and c.relative_schema_path[0] == fitting[0]]
            out = []
            for c in subs:
                out.extend(_schema_error(c, loc, root))
            if out:
                return out
        kinds = [k for b in branches for k in _kinds(b)]
        return [RuleError(pos, f"{where}: expected {_either(kinds)}, found {_show(inst)}")]
    if v == "pattern":
        return [RuleError(pos, f"{where}: {_show(inst)} is not a valid name ({_NAME_RULE})")]
    if v == "minimum":
        return [RuleError(pos, f"{where}: must be at least {err.validator_value}, found {_show(inst)}")]
    if v == "minItems":
        return [RuleError(pos, f"{where}: the list must not be empty")]
    if v == "uniqueItems":
        return [RuleError(pos, f"{where}: the list names an item twice")]
    return [RuleError(pos, f"{where}: {err.message}")]


# ---------------------------------------------------------------- ruleset


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


def rule_files(path: Path) -> list:
    """The .yaml files of a ruleset folder and its subfolders (or the one file given), in order.
    Symbolic links inside the folder are not followed: a rule file lies in its ruleset (a link
    could make jux read any file of the machine); read_file refuses the links found."""
    if not path.is_dir():
        return [path]
    found = []
    for root, dirs, files in os.walk(path):  # (os.walk does not enter linked folders)
        dirs[:] = [d for d in dirs if not d.startswith(".")]
        found.extend(Path(root) / f for f in files if f.endswith(".yaml"))
    return sorted(found)


def display_path(p: Path) -> str:
    try:
        return str(p.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(p)


_READ_CACHE: dict = {}


def read_file(p: Path) -> Located:
    """A rule file parsed with positions; kept for the process while the file is unchanged (a
    variant file is read by every combination that uses it)."""
    if edited_bytes(p) is not None:  # an editor's unsaved text (files.edited): never kept
        return _read_file(p)
    try:
        st = p.stat()
        key = (str(p.resolve()), st.st_mtime_ns, st.st_size, display_path(p))
    except OSError:
        key = None
    if key is not None and key in _READ_CACHE:
        return _READ_CACHE[key]
    loc = _read_file(p)
    if key is not None:
        _READ_CACHE[key] = loc
    return loc


def read_regular(p: Path, what: str = "file") -> bytes:
    """The bytes of a regular file of at most MAX_FILE_BYTES; JuxError otherwise (a FIFO, a device
    or a folder is never opened for reading: it could block or never end). Inside files.edited,
    an edited file's text."""
    text = edited_bytes(p)
    if text is not None:
        return text
    try:
        st = os.stat(p)
        if not stat.S_ISREG(st.st_mode):
            raise JuxError(f"not a regular {what}" + (" (a folder)" if stat.S_ISDIR(st.st_mode) else ""))
        if st.st_size > MAX_FILE_BYTES:
            raise JuxError(f"the {what} is {st.st_size:,} bytes: at most {MAX_FILE_BYTES:,}")
        fd = os.open(p, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
        with os.fdopen(fd, "rb") as f:
            if not stat.S_ISREG(os.fstat(f.fileno()).st_mode):  # (replaced since the stat)
                raise JuxError(f"not a regular {what}")
            data = f.read(MAX_FILE_BYTES + 1)
    except OSError as e:
        raise JuxError(f"cannot read the {what}: {e.strerror or e}") from None
    if len(data) > MAX_FILE_BYTES:
        raise JuxError(f"the {what} is more than {MAX_FILE_BYTES:,} bytes")
    return data


def _read_file(p: Path) -> Located:
    file = display_path(p)
    try:
        data = read_regular(p)
    except JuxError as e:
        raise RuleErrors([RuleError(Pos(file, 1, 1), str(e))]) from None
    try:
        text = data.decode("utf-8").replace("\r\n", "\n").replace("\r", "\n")
    except UnicodeDecodeError as e:
        line = data.count(b"\n", 0, e.start) + 1
        col = len(data[data.rfind(b"\n", 0, e.start) + 1:e.start].decode("utf-8", "replace")) + 1
        raise RuleErrors([RuleError(Pos(file, line, col), f"the file is not UTF-8 text (byte "
                                                         f"0x{data[e.start]:02x})")]) from None
    if text.startswith("\ufeff"):  # a byte order mark is not a column
        text = text[1:]
    loc = _compose(text, file)
    loc.raw = data
    if loc.data == {} or loc.data is None:
        loc.data = {}
    if not isinstance(loc.data, dict):
        raise RuleErrors([RuleError(Pos(file, 1, 1), "a rule file must be a mapping of sections (game, zones, ...)")])
    return loc


def load_spec(name_or_path, variants=()) -> RuleSpec:
    """Read, schema-check and parse the rule files of a ruleset, with the named variants applied
    (see variants.py). Raises RuleErrors with every problem found: YAML and schema errors of each
    file, then effect-code syntax errors together with what the static checks find in the rest of
    the rules. A wrong choice of variants raises VariantError."""
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
            apply_variant(merged, where, loc, errors)
            known = catalogue(game).get(info.name)
            # by name when it is the catalogue's file, else by path (so a record can load it again)
            chosen.append(info.name if known is not None and known.path == info.path else str(info.path))
    spec = _build(path, merged, where, errors, complete=not broken_file)
    spec.digest = digest.hexdigest()[:16]
    spec.variants = tuple(chosen)
    spec.hooks = tuple(merged["hooks"])
    if errors:
        if not broken_file and spec.flow is not None and spec.game:
            errors.extend(_check_errors(spec))
        raise RuleErrors(errors)
    return spec


def _read_checked(f: Path, digest, errors: list):
    """A file read and checked against the schema, or None (its errors added)."""
    try:
        loc = read_file(f)
    except RuleErrors as e:
        errors.extend(e.errors)
        return None
    digest.update(f.name.encode() + b"\0" + loc.raw)
    errs = _schema_errors(loc, schema_validator("ruleset"))
    if errs:
        errors.extend(errs)
        return None
    return loc


def _check_errors(spec) -> list:
    """What the static checks find in rules that also have syntax errors (their routines empty)."""
    from .check import Checker

    try:
        Checker(spec).check_all()
    except RuleErrors as e:
        return list(e.errors)
    except Exception:  # never let this extra pass hide the errors already found
        return []
    return []


def _plain(section: dict) -> dict:
    return {k: v[0] for k, v in section.items()}


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
            body = parse_block(merged["flow"], src)
        except RuleError as e:
            errors.append(e)
            body = ()
        flow = Routine("flow", (), body, where[("flow", "")])
    return RuleSpec(
        name=game.get("name", path.name), path=path, game=game,
        constants=_plain(merged["constants"]), cards=_plain(merged["cards"]), zones=_plain(merged["zones"]),
        counters=_plain(merged["counters"]), marks=_plain(merged["marks"]), slots=_plain(merged["slots"]),
        functions=functions, procedures=procedures, flow=flow, where=where, digest="",
        table=_plain(merged["table"]))


def _chain(name: str, chain: list, table: dict, errors: list, expr: bool):
    """A routine and the overrides of it, in order. The last is the routine; `previous(...)` in an
    override calls the definition before it, kept under an inner name (name__prev1, ...)."""
    prev = None
    for i, (sig, body, loc, p) in enumerate(chain):
        r = _routine(sig, body, loc, p, errors, expr=expr)
        if r is None:
            continue
        calls = [n for n in walk(r.body) if isinstance(n, (Call, CallStmt)) and n.func == "previous"
                 and getattr(n, "slot_key", None) is None]
        if prev is None:
            for n in calls:
                errors.append(RuleError(n.pos, f"'previous(...)' calls the definition an override replaces, "
                                               f"but '{name}' here overrides nothing"))
        else:
            if len(r.params) != len(prev.params):
                errors.append(RuleError(r.pos, f"'{name}' overrides {prev.pos} and must take the same "
                                               f"{len(prev.params)} parameter(s)"))
            if calls:  # the replaced definition is kept under an inner name (else it is gone)
                prev = replace(prev, name=f"{name}__prev{i}")
                table[prev.name] = prev
                r = replace(r, body=rename_calls(r.body, "previous", prev.name))
        prev = r
    if prev is not None:
        table[name] = prev


def _routine(sig, body, loc: Located, path, errors, expr: bool):
    """The routine at path of a file, parsed once (its syntax errors reported every time)."""
    if path not in loc.parsed:
        errs: list = []
        loc.parsed[path] = (_parse_routine(sig, body, loc, path, errs, expr), errs)
    r, errs = loc.parsed[path]
    errors.extend(errs)
    return r


def _parse_routine(sig, body, loc: Located, path, errors, expr: bool):
    kpos = loc.marks[("key",) + path]
    try:
        name, params = parse_signature(str(sig), Source(kpos.file, kpos.line, kpos.col))
        ok = True
    except RuleError as e:
        errors.append(e)
        # keep a stand-in under the name it has (e.g. 'f(a, a)'), so the rest can be checked
        m = re.fullmatch(r"\s*([A-Za-z_]\w*)\s*(?:\((.*)\))?\s*", str(sig))
        if not m:
            return None
        name, params, ok = m.group(1), tuple(p.strip() for p in (m.group(2) or "").split(",") if p.strip()), False
    text = ""
    code_path = path
    if isinstance(body, dict):
        text = body.get("text", "")
        body = body.get("do", "")
        code_path = path + ("do",)
    src = loc.blocks.get(code_path) or Source(kpos.file, kpos.line, kpos.col)
    tree = Const(kpos, None) if expr else ()  # a stand-in, so the rest can be checked
    if ok:
        try:
            tree = parse_function_body(body, src) if expr else parse_block(body, src)
        except RuleError as e:
            errors.append(e)
    return Routine(name, params, tree, kpos, " ".join(str(text).split()), origin=kpos.file)
