"""Numbers not every seat may know: a counter's `visible` (all, the default; `owner`: only the seat
it belongs to; `none`: no seat, only the rules read it) and a zone's `size: hidden` (the seats that
cannot see the zone do not see how many cards it holds). `check` finds what cannot work: an
owner-only counter without an owner, a size hidden in a zone everyone sees, and the standing or a
`table` value (shown to every seat) reading a counter that not every seat may see."""
from __future__ import annotations

from ..language.tree import Call, Index, ListLit, Name, walk


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


def reads(spec, fn_name: str) -> set:
    """The names read by function fn_name and every function it calls (at any depth)."""
    return _reads(spec, fn_name)


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
    own = _own_reads(spec, secret)
    for fn, what in shown:
        for name in sorted(_reads(spec, fn) & set(secret)):
            if fn == "standing" and name in own:
                continue  # (a seat's own, read as X[p] in standing itself: others see it hidden)
            how = (f"; the standing may read a seat's own as {name}[{_param(spec)}] in standing itself, "
                   "which the other seats see hidden" if fn == "standing" and secret[name] == "owner" else
                   f"; {what} shows to every seat: show only what every seat may know")
            out.append((spec.functions[fn].pos,
                        f"'{fn}' reads counter '{name}', which is visible to "
                        f"{'its owner only' if secret[name] == 'owner' else 'no seat'}{how}"))
    return out


def _param(spec) -> str:
    f = spec.functions.get("standing")
    return f.params[0] if f is not None and f.params else "p"


def _own_reads(spec, secret: dict) -> set:
    """The owner-only counters standing(p) reads only as X[p], in its own body: a seat's own secret,
    which its own view shows and the others see hidden (secret_parts). Read anywhere else (another
    index, a function it calls) it stays an error."""
    f = spec.functions.get("standing")
    if f is None or not f.params:
        return set()
    p = f.params[0]
    body = f.body if isinstance(f.body, tuple) else (f.body,)
    owner = {n for n, v in secret.items() if v == "owner"}
    indexed, bare = set(), set()
    for top in body:
        for n in walk(top):
            if isinstance(n, Index) and isinstance(n.obj, Name) and n.obj.id in owner:
                if isinstance(n.index, Name) and n.index.id == p:
                    indexed.add(n.obj.id)
                else:
                    bare.add(n.obj.id)
    names = set()
    for top in body:
        names |= {n.id for n in walk(top) if isinstance(n, Name) and n.id in owner}
    called = set()
    for top in body:
        for n in walk(top):
            if isinstance(n, Call) and n.func in spec.functions and n.func != "standing":
                called |= _reads(spec, n.func)
    return {n for n in indexed if n not in bare and n not in called and _counts(body, n) == _index_counts(body, n, p)}


def _counts(body, name: str) -> int:
    return sum(1 for top in body for n in walk(top) if isinstance(n, Name) and n.id == name)


def _index_counts(body, name: str, p: str) -> int:
    return sum(1 for top in body for n in walk(top) if isinstance(n, Index) and isinstance(n.obj, Name)
               and n.obj.id == name and isinstance(n.index, Name) and n.index.id == p)


def secret_parts(spec):
    """Which parts of standing(p) read the seat's own secret (owner-only counters read as X[p]):
    a set of part numbers when standing is a list of (label, value) written out, "all" when it reads
    one otherwise, or an empty set when it reads none. The other seats see those parts hidden."""
    secret = secret_counters(spec)
    own = _own_reads(spec, secret) if secret else set()
    f = spec.functions.get("standing")
    if not own or f is None:
        return set()
    body = f.body
    if isinstance(body, ListLit):
        return {i for i, item in enumerate(body.items)
                if any(isinstance(n, Name) and n.id in own for n in walk(item))}
    return "all"
