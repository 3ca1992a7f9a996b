"""A rule file read: its bytes (a regular file, bounded), its YAML composed with the position of
every value (Located), every YAML problem as path:line:col: message."""
from __future__ import annotations

import bisect
from dataclasses import dataclass, field
import hashlib
import math
from pathlib import Path
import re

import yaml

from ..errors import JuxError, Pos, RuleError, RuleErrors
from ..files import display_path, edited_bytes, read_regular, stop_point  # noqa: F401 (read here by others)
from ..language.source import Source
from ..limits import MAX_DIGITS, MAX_NESTING, MAX_YAML_VALUES


@dataclass
class Located:
    """Parsed YAML plus the position of every value, keyed by its path of keys/indices."""

    data: object
    marks: dict  # path tuple -> Pos of the value (or of the key, under ("key",) + path)
    blocks: dict  # path tuple -> Source of a string scalar (for effect code positions)
    parsed: dict = field(default_factory=dict)  # path -> Routine, parsed once per file
    raw: bytes = b""  # the file's bytes (for the ruleset's digest)


# ---------------------------------------------------------------- YAML 1.2

# Plain scalars are read by the YAML 1.2 core schema, as editors and the JSON Schema read them
# (PyYAML alone reads YAML 1.1): `yes`, `no`, `on`, `off`, `y`, `n` are text; only `true` and
# `false` (also True, TRUE, ...) are true and false; `010` is ten, `0o10` eight and `0x10` sixteen;
# `1_000` and `1:30` are text; `1e3` is a number. Quoted text is always text.
_CORE = (
    ("tag:yaml.org,2002:bool", r"^(?:true|True|TRUE|false|False|FALSE)$", "tTfF"),
    ("tag:yaml.org,2002:null", r"^(?:~|null|Null|NULL|)$", ["~", "n", "N", ""]),
    ("tag:yaml.org,2002:int", r"^(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)$", "-+0123456789"),
    ("tag:yaml.org,2002:float", r"^(?:[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?"
                                r"|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$", "-+.0123456789"),
    ("tag:yaml.org,2002:merge", r"^(?:<<)$", "<"),  # ('<<: *anchor' merge keys, as before)
)


def _core_resolvers(cls):
    """Give a loader class the YAML 1.2 core schema's resolvers of plain scalars (and only them)."""
    cls.yaml_implicit_resolvers = {}
    for tag, pattern, first in _CORE:
        cls.add_implicit_resolver(tag, re.compile(pattern), list(first))
    cls.add_constructor("tag:yaml.org,2002:int", lambda loader, node: core_int(node.value))
    return cls


def core_int(text: str) -> int:
    """A YAML 1.2 integer: decimal (leading zeros too: 010 is ten), 0o octal, 0x hexadecimal."""
    if text.startswith("0o"):
        return int(text[2:], 8)
    if text.startswith("0x"):
        return int(text[2:], 16)
    return int(text, 10)


@_core_resolvers
class PlainLoader(getattr(yaml, "CSafeLoader", yaml.SafeLoader)):
    """A fast loader of plain data read as YAML 1.2, as rule files are (a variant's header)."""


class _Constructor(yaml.SafeLoader):
    """Builds each value of a composed rule file (integers as YAML 1.2 reads them)."""


_core_resolvers(_Constructor)


class _TooBig(yaml.MarkedYAMLError):
    """A file past one of the bounds of limits.py (told as it is, not as a syntax error)."""


@_core_resolvers
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
    constructor = _Constructor("")

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


# ---------------------------------------------------------------- reading a file



_READ_CACHE: dict = {}
_EDITED_CACHE, EDITED_KEPT = {}, 64  # an editor's texts (files.edited): the last 64 (each keystroke another)


def read_file(p: Path) -> Located:
    """A rule file parsed with positions; kept for the process while the file holds the same
    bytes (a variant file is read by every combination that uses it). Keyed by what it holds, not
    when it changed: a file written twice within the file system's clock tick is read again."""
    cache = _EDITED_CACHE if edited_bytes(p) is not None else _READ_CACHE
    try:
        data = read_regular(p)
        key = (str(p.resolve()), hashlib.sha256(data).digest(), display_path(p))
    except (OSError, JuxError):
        return _read_file(p)  # (it says why it cannot be read)
    loc = cache.pop(key, None)
    if loc is None:
        stop_point()  # (an editor's newer edit may come first: files.edited)
        loc = _read_file(p, data)
    cache[key] = loc  # (the last used last: the oldest of an editor's texts goes first)
    while len(_EDITED_CACHE) > EDITED_KEPT:
        del _EDITED_CACHE[next(iter(_EDITED_CACHE))]
    return loc



def _read_file(p: Path, data: bytes | None = None) -> Located:
    file = display_path(p)
    try:
        data = read_regular(p) if data is None else data
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
