"""What an editor needs to know of a ruleset and its variants (`jux lsp`): every name the rule files
define (zones, counters, marks, constants, card kinds, slots, functions, procedures), where, with
its text, in the order the files load; and the card attributes. Read from the loader's parse of
each file (loader.read_file), so it holds whatever the files name: no game's words here."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
import re

# sections that define names, and what one of their entries is called
KINDS = {"constants": "constant", "cards": "card kind", "zones": "zone", "counters": "counter",
         "marks": "mark", "slots": "slot", "functions": "function", "procedures": "procedure",
         "table": "table value"}
_SIGNATURE = re.compile(r"\s*([A-Za-z_]\w*)\s*(?:\((.*)\))?\s*$", re.S)


@dataclass(frozen=True)
class Definition:
    """One place a name is defined: in which file (a real path) at which 1-based line and column."""

    name: str
    kind: str  # a value of KINDS
    file: str
    line: int
    col: int
    params: tuple = ()
    text: str = ""  # the rule text the YAML gives it (`text:`), if any
    code: tuple = ()  # ((line, col), (line, col)): first and last character of its effect code
    index: int = 0  # which file of the load it is in (later files override earlier ones)

    @property
    def signature(self) -> str:
        if self.kind in ("function", "procedure"):
            return f"{self.name}({', '.join(self.params)})"
        return self.name

    def holds(self, line: int, col: int) -> bool:
        """Whether the 1-based (line, col) lies in its effect code."""
        return bool(self.code) and self.code[0] <= (line, col) <= self.code[1]


@dataclass(frozen=True)
class Index:
    files: tuple = ()  # real paths, in the order they load (the ruleset's files, then variants)
    defs: dict = field(default_factory=dict)  # name -> tuple of Definition, in load order
    attributes: dict = field(default_factory=dict)  # card attribute -> the card kinds that have it

    def effective(self, name: str):
        """The definition that counts (the last loaded), or None."""
        found = self.defs.get(name)
        return found[-1] if found else None

    def enclosing(self, file: str, line: int, col: int):
        """The function or procedure of file whose effect code holds (line, col), or None."""
        for ds in self.defs.values():
            for d in ds:
                if d.file == file and d.holds(line, col):
                    return d
        return None

    def replaced(self, d: Definition):
        """The definition d overrides (the one loaded before it), or None."""
        chain = self.defs.get(d.name, ())
        before = [x for x in chain if x.index < d.index or (x.index == d.index and (x.line, x.col) < (d.line, d.col))]
        return before[-1] if before else None


def _text(item) -> str:
    if isinstance(item, dict):
        t = item.get("text")
        return " ".join(str(t).split()) if isinstance(t, (str, int, float)) else ""
    return ""


def _code_span(loc, path: tuple) -> tuple:
    src = loc.blocks.get(path) or loc.blocks.get(path + ("do",))
    spots = getattr(src, "spots", None)
    return (spots[0], spots[-1]) if spots else ()


def _entries(file: str, loc, index: int):
    data = loc.data if isinstance(loc.data, dict) else {}
    for section, kind in KINDS.items():
        table = data.get(section)
        if not isinstance(table, dict):
            continue
        for key, item in table.items():
            pos = loc.marks.get(("key", section, key))
            m = _SIGNATURE.match(str(key))
            if pos is None or m is None:
                continue
            params = ()
            if kind in ("function", "procedure") and m.group(2):
                params = tuple(p.strip() for p in m.group(2).split(",") if p.strip())
            yield Definition(m.group(1), kind, file, pos.line, pos.col, params, _text(item),
                             _code_span(loc, (section, key)) if kind in ("function", "procedure") else (),
                             index)


def _attributes(loc, out: dict) -> None:
    cards = loc.data.get("cards") if isinstance(loc.data, dict) else None
    for kind, item in (cards or {}).items() if isinstance(cards, dict) else ():
        if not isinstance(item, dict):
            continue
        names = list(item.get("attributes") or {}) if isinstance(item.get("attributes"), dict) else []
        for own in item.get("list") or () if isinstance(item.get("list"), list) else ():
            names.extend(own if isinstance(own, dict) else ())
        for a in names:
            kinds = out.setdefault(str(a), [])
            if kind not in kinds:
                kinds.append(str(kind))


def build(parsed: list) -> Index:
    """The index of files parsed by the loader: [(real path, Located or None)] in load order."""
    defs: dict = {}
    attributes: dict = {"kind": ["every card"]}
    for i, (file, loc) in enumerate(parsed):
        if loc is None:
            continue
        head = loc.data.get("variant") if isinstance(loc.data, dict) else None
        removes = head.get("removes") if isinstance(head, dict) else None
        for name in removes if isinstance(removes, list) else ():  # (as the loader: removals first)
            if isinstance(name, str):
                defs.pop(name, None)
        for d in _entries(file, loc, i):
            defs.setdefault(d.name, []).append(d)
        _attributes(loc, attributes)
    return Index(tuple(str(Path(f)) for f, _ in parsed), {k: tuple(v) for k, v in defs.items()},
                 {k: tuple(v) for k, v in attributes.items()})
