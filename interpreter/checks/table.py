"""What a ruleset declares for the table. The `table` section: values shown to everyone (a title
and a function of no parameters). A zone's `title` (its name at the table), `total` (the attribute
added up, per group when grouped), `adds` (a zone per item of a list whose cards count into the
group of the same item) and `limit` (a grouped zone whose group totals this zone's groups are
shown against). The table (tui/widgets/table.py) draws them; `check` finds what cannot work."""
from __future__ import annotations

from ..errors import did_you_mean


def attributes(spec) -> set:
    """Every attribute name of every card kind (and the marks, which can stand for one)."""
    out = set()
    for d in spec.cards.values():
        out |= set((d.get("attributes") or {}))
        for item in d.get("list") or ():
            out |= set(item)
    return out | set(getattr(spec, "marks", None) or {})


def check(spec) -> list:
    """(where, message) for each zone whose total, adds or limit cannot be drawn, and each entry of
    the `table` section that names no function of no parameters."""
    out = []
    for title, fn in (getattr(spec, "table", None) or {}).items():
        f = spec.functions.get(fn)
        if f is None or f.params:
            out.append((spec.where.get(("table", str(title))),
                        f"table '{title}': '{fn}' is not a function of no parameters"
                        + ("" if f is not None else did_you_mean(fn, spec.functions))))
    attrs = attributes(spec)
    for name, z in spec.zones.items():
        if not isinstance(z, dict):
            continue
        pos = spec.where.get(("zones", name))
        total = z.get("total")
        if total is not None and total not in attrs:
            out.append((pos, f"zone '{name}': total '{total}' is not an attribute of any card{did_you_mean(total, attrs)}"))
        adds = z.get("adds")
        if adds is not None:
            other = spec.zones.get(adds)
            if other is None:
                out.append((pos, f"zone '{name}': adds '{adds}', which is not a zone{did_you_mean(adds, spec.zones)}"))
            elif not z.get("group"):
                out.append((pos, f"zone '{name}' adds '{adds}' into its groups, but it has no group"))
            elif not isinstance(other.get("per"), str) or other.get("per") == "player":
                out.append((pos, f"zone '{name}' adds '{adds}', which is not one zone per item of a list "
                                 "(per: LIST): its items name this zone's groups"))
        limit = z.get("limit")
        if limit is not None:
            other = spec.zones.get(limit)
            if other is None:
                out.append((pos, f"zone '{name}': limit '{limit}' is not a zone{did_you_mean(limit, spec.zones)}"))
            elif not (z.get("group") and other.get("group") and other.get("total")):
                out.append((pos, f"zone '{name}': a limit needs this zone and '{limit}' grouped, and '{limit}' "
                                 "with a total"))
    return out
