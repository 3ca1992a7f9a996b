"""Numbers not every seat may know: a counter's `visible` (all, the default; `owner`: only the seat
it belongs to; `none`: no seat, only the rules read it) and a zone's `size: hidden` (the seats that
cannot see the zone do not see how many cards it holds). `check` finds what cannot work: an
owner-only counter without an owner, a size hidden in a zone everyone sees, and the standing or a
`table` value (shown to every seat) reading a counter that not every seat may see."""
from __future__ import annotations

from ..language.tree import Call, Name, walk


def counter_visible(d) -> str:
    """Who sees a counter declared as d: 'all', 'owner' or 'none'."""
    return (d.get("visible") if isinstance(d, dict) else None) or "all"


def secret_counters(spec) -> dict:
    """name -> 'owner' or 'none' for each counter not every seat may see."""
    out = {}
    for name, d in (spec.counters or {}).items():
        v = counter_visible(d)
        if v != "all":
            out[name] = v
    return out


def _reads(spec, fn_name: str) -> set:
    """The names read by function fn_name and every function it calls (at any depth)."""
    seen, names, todo = set(), set(), [fn_name]
    while todo:
        f = spec.functions.get(todo.pop())
        if f is None or f.name in seen:
            continue
        seen.add(f.name)
        for n in walk(f.body):
            if isinstance(n, Name):
                names.add(n.id)
            elif isinstance(n, Call) and n.func in spec.functions:
                todo.append(n.func)
    return names


def check(spec) -> list:
    """(where, message) for each declaration of a secret number that cannot work."""
    out = []
    secret = secret_counters(spec)
    for name, v in secret.items():
        d = spec.counters[name]
        per = d.get("per")
        if v == "owner" and not (per == "player" or (isinstance(per, list) and per[:1] == ["player"])):
            out.append((spec.where.get(("counters", name)),
                        f"counter '{name}' is visible to its owner but has no owner (add per: player)"))
    for name, z in spec.zones.items():
        if isinstance(z, dict) and z.get("size") == "hidden" and z.get("visible") == "all":
            out.append((spec.where.get(("zones", name)),
                        f"zone '{name}' is visible to all: every seat sees its cards, so its size "
                        "cannot be hidden (size: hidden is for zones visible to their owner or to none)"))
    if not secret:
        return out
    shown = []
    if "standing" in spec.functions:
        shown.append(("standing", "the standing"))
    for title, fn in (getattr(spec, "table", None) or {}).items():
        if fn in spec.functions:
            shown.append((fn, f"the table's '{title}'"))
    for fn, what in shown:
        for name in sorted(_reads(spec, fn) & set(secret)):
            out.append((spec.functions[fn].pos,
                        f"'{fn}' reads counter '{name}', which is visible to "
                        f"{'its owner only' if secret[name] == 'owner' else 'no seat'}; {what} shows "
                        "to every seat: show only what every seat may know"))
    return out
