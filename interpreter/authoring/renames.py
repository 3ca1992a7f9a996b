"""Words the rules renamed, for the scenarios written before (docs/testing.md, "When the rules
reword"): a ruleset's `renamed` section maps an earlier spelling of a card label, an option, a
prompt or a log line to its spelling now. A scenario that names something by its earlier
spelling still runs, and `jux test` warns with the spelling to write instead.

An entry is a template: `{name}` in the earlier spelling matches any text, and is put back where
the spelling now names it; a `{name}` only the spelling now has matches whatever the game holds
there (`"{n} VP": "{n} VP ({cost})"` finds the one card whose label is `9 VP (...)`). A spelling
now may be a list, tried in order (`"{n} card(s)": ["{n} card", "{n} cards"]`)."""
from __future__ import annotations

import re

_FIELD = re.compile(r"\{(\w+)\}")


def _pattern(template: str, known: dict | None = None) -> str:
    """A template as a regex: its fields as named groups (or, when known, their text)."""
    out, at, seen = [], 0, set()
    for m in _FIELD.finditer(template):
        out.append(re.escape(template[at:m.start()]))
        name = m.group(1)
        if known is not None and name in known:
            out.append(re.escape(known[name]))
        elif name in seen:
            out.append(f"(?P={name})")
        else:
            seen.add(name)
            out.append(f"(?P<{name}>.*?)")
        at = m.end()
    out.append(re.escape(template[at:]))
    return "".join(out)


class Renames:
    def __init__(self, table: dict | None):
        self.entries = []
        for was, now in (table or {}).items():
            nows = [now] if isinstance(now, str) else [n for n in (now or ()) if isinstance(n, str)]
            try:  # (a template that makes no pattern is left out)
                self.entries.append((re.compile(_pattern(str(was))), nows))
            except re.error:
                continue

    def __bool__(self) -> bool:
        return bool(self.entries)

    def label(self, text, labels, first: bool = False) -> str | None:
        """The one label of `labels` an earlier spelling `text` (a whole label) now reads as, or
        None; with first, the first of several (a card label that named several kinds of card)."""
        if not isinstance(text, str):
            return None
        labels = list(dict.fromkeys(labels))
        for was, nows in self.entries:
            m = was.fullmatch(text)
            if not m:
                continue
            for now in nows:
                rx = re.compile(_pattern(now, m.groupdict()))
                found = [x for x in labels if isinstance(x, str) and rx.fullmatch(x)]
                if len(found) == 1 or (found and first):
                    return found[0]
        return None

    def part(self, text, lines) -> str | None:
        """What an earlier spelling `text` (a part of a line: a prompt, words of the log) now reads
        as in one of `lines`, or None."""
        if not isinstance(text, str):
            return None
        for was, nows in self.entries:
            for m in was.finditer(text):
                for now in nows:
                    rx = re.compile(re.escape(text[:m.start()]) + _pattern(now, m.groupdict())
                                    + re.escape(text[m.end():]))
                    for line in lines:
                        hit = rx.search(line)
                        if hit:
                            return hit.group(0)
        return None
