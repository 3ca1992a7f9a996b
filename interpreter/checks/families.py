"""Static checks of families of zones made during play (`per: made`): their declarations, and the
code that makes, lists and removes their zones (make(F), made(F), remove F[k]).

A family is a zone declared `per: made`: its zones exist only once the rules make them, at most
`most` at once (docs/language.md, "Zones made during play")."""
from __future__ import annotations

from ..errors import did_you_mean
from ..language.tree import Index, Name
from ..limits import MAX_MADE, MOST_MADE


def families(spec) -> dict:
    """{name: most} of the zones declared `per: made`, in the order they are declared."""
    return {n: most_of(z) for n, z in spec.zones.items() if isinstance(z, dict) and z.get("per") == "made"}


def most_of(zone: dict) -> int:
    """How many zones of a family may exist at once: its `most`, else MOST_MADE."""
    most = zone.get("most", MOST_MADE)
    return most if type(most) is int and 1 <= most <= MAX_MADE else MOST_MADE


def check(spec) -> list:
    """(pos, message) of each declaration of a family, or of `most`, that cannot be."""
    out = []
    for section in ("zones", "counters"):
        for n, d in getattr(spec, section).items():
            if not isinstance(d, dict):
                continue
            pos = spec.where.get((section, n))
            made = d.get("per") == "made"
            if made and section == "counters":
                out.append((pos, f"counter '{n}': per 'made' is for zones (a family of zones made during play); "
                                 "a counter is per player or per item of a list constant"))
                continue
            if "most" in d and section == "zones":
                most = d["most"]
                at = spec.where.get((section, n, "most")) or pos
                if not made:
                    out.append((at, f"zone '{n}': 'most' bounds a family of zones made during play: "
                                    "add per: made, or take 'most' away"))
                elif type(most) is not int or not 1 <= most <= MAX_MADE:
                    out.append((at, f"zone '{n}': most is how many of its zones may exist at once, a whole "
                                    f"number from 1 to {MAX_MADE}, not {most!r}"))
            if not made:
                continue
            if d.get("start"):
                out.append((spec.where.get((section, n, "start")) or pos,
                            f"zone '{n}' is a family of zones made during play: no card can start in a zone "
                            "that is not made yet; start the cards in a single zone and move them to "
                            f"{n}[k] once the rules make it (let k = make({n}))"))
            if d.get("visible") == "owner":
                out.append((spec.where.get((section, n, "visible")) or pos,
                            f"zone '{n}' is a family of zones made during play: its zones have no owner, so "
                            "'visible: owner' cannot be; use all, none or top (a family per player is not "
                            "supported: keep one family and note the seat in a counter or a mark)"))
    return out


class FamilyChecks:
    """The checks of make(F), made(F) and `remove F[k]` in code (a part of check.Checker)."""

    def family_arg(self, e) -> None:
        """make(F) and made(F): F names a family (not a value: no other check reads it)."""
        names = families(self.spec)
        arg = e.args[0] if len(e.args) == 1 else None
        if isinstance(arg, Name) and arg.id in names:
            return
        if len(e.args) != 1:
            what = f"takes one argument, the name of a family, not {len(e.args)}"
        elif isinstance(arg, Name) and arg.id in self.spec.zones:
            what = f"takes a family of zones made during play (a zone with per: made); '{arg.id}' is not one"
        else:
            what = "takes the name of a family of zones made during play (a zone with per: made)"
        if names:
            what += f"{did_you_mean(arg.id, names) if isinstance(arg, Name) else ''} (families: {', '.join(names)})"
        else:
            what += " (no zone is declared per: made)"
        self.err(e.pos, f"'{e.func}' {what}")

    def remove_stmt(self, s, scope) -> None:
        """`remove F[k]`: a zone of a family, by its key."""
        z = s.zone
        names = families(self.spec)
        if isinstance(z, Index) and isinstance(z.obj, Name) and z.obj.id in names and z.obj.id not in scope:
            self.expr(z.index, scope)
            return
        name = z.obj.id if isinstance(z, Index) and isinstance(z.obj, Name) else z.id if isinstance(z, Name) else None
        if name in self.spec.zones and name not in scope:
            why = (f"'{name}' is a family: write {name}[k], the key make({name}) gave" if name in names
                   else f"'{name}' is {'a single zone' if not self.spec.zones[name].get('per') else self.per_phrase('zones', name)}"
                        ", which is always there")
        else:
            self.expr(z, scope)
            why = "this is no zone"
        self.err(s.pos, f"'remove' takes a zone of a family made during play (per: made), such as "
                        f"{next(iter(names), 'meld')}[k]; {why}")
