"""The routines of a ruleset (functions, procedures) parsed from their files, and the chains of
overrides of a routine (`previous(...)` calls the definition an override replaces)."""
from __future__ import annotations

from dataclasses import dataclass, replace
import re

from ..errors import Pos, RuleError
from ..files import stop_point
from ..language.parse import parse_block, parse_function_body, parse_signature
from ..language.source import Source
from ..language.tree import Call, CallStmt, Const, moved, rename_calls, walked
from .yaml_reader import Located


@dataclass
class Routine:
    name: str
    params: tuple
    body: object  # tuple of statements (procedure) or an expression (function)
    pos: Pos
    text: str = ""
    origin: str = ""  # which file or variant defined it


def _chain(name: str, chain: list, table: dict, errors: list, expr: bool):
    """A routine and the overrides of it, in order. The last is the routine; `previous(...)` in an
    override calls the definition before it, kept under an inner name (name__prev1, ...)."""
    prev = None
    for i, (sig, body, loc, p) in enumerate(chain):
        r = _routine(sig, body, loc, p, errors, expr=expr)
        if r is None:
            continue
        calls = [n for n in walked(r.body) if isinstance(n, (Call, CallStmt)) and n.func == "previous"
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


_PARSED: dict = {}  # what a routine's code parses to, by its text and its place in its file: the last few
PARSED_KEPT = 4096


def _routine(sig, body, loc: Located, path, errors, expr: bool):
    """The routine at path of a file, parsed once (its syntax errors reported every time). The
    same code in another text of the file (an editor's, with other routines changed, or lines
    added above it) is not parsed again either: its positions are moved."""
    if path not in loc.parsed:
        key, line = _where_key(sig, body, loc, path, expr)
        found = _PARSED.pop(key, None) if key is not None else None
        if found is None:
            stop_point()  # (an editor's newer edit may come first: files.edited)
            errs: list = []
            found = (_parse_routine(sig, body, loc, path, errs, expr), errs, line)
        if key is not None:
            _PARSED[key] = found  # (the last used last: the oldest goes first)
            while len(_PARSED) > PARSED_KEPT:
                del _PARSED[next(iter(_PARSED))]
        r, errs, at = found
        if at != line:
            r, errs = _moved(r, errs, line - at)
        loc.parsed[path] = (r, errs)
    r, errs = loc.parsed[path]
    errors.extend(errs)
    return r


def _where_key(sig, body, loc: Located, path, expr: bool):
    """(all that parsing a routine reads: its signature and code, the place of its key and of every
    character of its code, in lines from its key's; its key's line), or (None, line) when its code
    is not text (not worth keeping)."""
    kpos = loc.marks.get(("key",) + path)
    if isinstance(body, dict):
        text, code, code_path = body.get("text", ""), body.get("do", ""), path + ("do",)
    else:
        text, code, code_path = "", body, path
    if kpos is None or not isinstance(code, str) or not isinstance(sig, str) \
            or not isinstance(text, (str, int, float, type(None))):
        return None, None
    top = kpos.line
    src = loc.blocks.get(code_path)
    where = None if src is None else (src.file, src.line - top, src.col, src.block,
                                      src.spots and tuple((ln - top, c) for ln, c in src.spots))
    return (expr, sig, code, text, kpos.file, kpos.col, where), top


def _moved(r, errs: list, lines: int):
    """A parsed routine and its errors `lines` lines further down its file."""
    def pos(p):
        return p if p is None else Pos(p.file, p.line + lines, p.col)

    if r is not None:
        r = replace(r, body=moved(r.body, lines), pos=pos(r.pos))
    out = []
    for e in errs:
        m = type(e).__new__(type(e))  # (the same error, but for its place)
        m.__dict__.update(e.__dict__, pos=pos(e.pos))
        m.args = (str(m),)
        out.append(m)
    return r, out


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
