"""Static checks of a ruleset's declarations: names given once, zones, counters and card kinds
that fit together (starts, per, labels, backs), slots naming procedures, the routines the game needs."""
from __future__ import annotations

import re
import string

from ..errors import did_you_mean
from ..language.builtins import BUILTINS
from ..limits import MAX_FORMAT_WIDTH
from .names import VALUE_BUILTINS


class DeclarationChecks:
    """The checks of the declarations (a part of check.Checker)."""

    def back(self, kind: str, d: dict) -> None:
        """A card kind's `back` (attributes every card of the kind has), `stacked_in` (zones) and
        `back_label` (a template over the back's attributes only)."""
        where = self.spec.where
        at = where.get(("cards", kind))
        back = d.get("back") or []
        items = d.get("list") or ()
        own = {a for item in items for a in item}
        every = set(d["attributes"]) | {"kind"} | {a for a in own if all(a in item for item in items)}
        for i, a in enumerate(back):
            pos = where.get(("cards", kind, "back", i)) or at
            if a in every:
                continue
            if a in own:
                n = next(j for j, item in enumerate(items) if a not in item)
                self.err(pos, f"card kind '{kind}': its back shows '{a}', but item {n + 1} of 'list' gives no "
                              f"'{a}': a back attribute must be one every card of the kind has")
            else:
                self.err(pos, f"card kind '{kind}': its back shows unknown attribute '{a}'"
                              f"{did_you_mean(a, every | own)}")
        for i, z in enumerate(d.get("stacked_in") or ()):
            pos = where.get(("cards", kind, "stacked_in", i)) or at
            if not back:
                self.err(pos, f"card kind '{kind}' is stacked_in zones but has no back: say which attributes "
                              "its back shows (back: [...])")
                break
            if z not in self.spec.zones:
                self.err(pos, f"card kind '{kind}': stacked_in names unknown zone '{z}'"
                              f"{did_you_mean(z, self.spec.zones)}")
        label = d.get("back_label")
        if label is None:
            return
        pos = where.get(("cards", kind, "back_label")) or at
        if not back:
            self.err(pos, f"card kind '{kind}' has a back_label but no back: say which attributes its back "
                          "shows (back: [...])")
            return
        try:
            for _, field, spec_, _ in string.Formatter().parse(label):
                if spec_ and any(int(n) > MAX_FORMAT_WIDTH for n in re.findall(r"\d+", spec_)):
                    self.err(pos, f"back label of '{kind}': the format '{spec_}' is wider than "
                                  f"{MAX_FORMAT_WIDTH} characters")
                if field is not None and field not in back:
                    if field in every | own:
                        self.err(pos, f"back label of '{kind}' names '{field}', which its back does not "
                                      f"show (back: {', '.join(back)}): a hidden card reads only as its back")
                    else:
                        self.err(pos, f"back label of '{kind}' names unknown attribute '{field}'"
                                      f"{did_you_mean(field, back)}")
        except ValueError as e:
            self.err(pos, f"back label of '{kind}': {e}")

    def card_powers(self, kind: str, d: dict) -> None:
        """A card kind's `powers` ({slot: attribute}): a slot of the rules, an attribute of the kind."""
        where = self.spec.where
        known = set(d["attributes"]) | {"kind"} | {a for own in d.get("list") or () for a in own}
        for slot, attr in (d.get("powers") or {}).items():
            pos = where.get(("cards", kind, "powers", slot)) or where.get(("cards", kind))
            if slot not in self.spec.slots:
                self.err(pos, f"card kind '{kind}': powers names unknown slot '{slot}'"
                              f"{did_you_mean(slot, self.spec.slots)}")
            if attr not in known:
                self.err(pos, f"card kind '{kind}': powers reads unknown attribute '{attr}'"
                              f"{did_you_mean(attr, known)}")

    def declarations(self):
        spec = self.spec
        where = spec.where
        names = {}
        for section in ("constants", "zones", "counters"):
            for n in getattr(spec, section):
                if n in names:
                    self.err(where.get((section, n)), f"'{n}' is both a {names[n]} and a {section[:-1]}")
                names[n] = section[:-1]
                if n in VALUE_BUILTINS:
                    self.err(where.get((section, n)), f"'{n}' is a built-in name")
        lists = {n for n, v in spec.constants.items() if isinstance(v, list)}
        for section in ("zones", "counters"):
            for n, d in getattr(spec, section).items():
                per = d.get("per") if isinstance(d, dict) else None
                if isinstance(per, list):  # [player, LIST] (counters only, by the schema)
                    per = per[1]
                if per and per not in ("player", "made") and per not in lists:  # (made: families.py)
                    self.err(where.get((section, n)), f"{section[:-1]} '{n}': per '{per}' is neither 'player' "
                                                      f"nor a list constant{did_you_mean(per, lists | {'player'})}")
        for n in lists:
            items = spec.constants[n]
            twice = sorted({str(i) for i in items if items.count(i) > 1})
            if twice and any(isinstance(d, dict) and (d.get("per") == n or d.get("per") == ["player", n])
                             for d in list(spec.zones.values()) + list(spec.counters.values())):
                self.err(where.get(("constants", n)), f"list constant '{n}' names '{twice[0]}' twice, "
                                                      "but zones or counters are one per item of it")
        starts = {}  # card kind -> zones it starts in
        for n, z in spec.zones.items():
            if z.get("start") and z.get("per") and z.get("per") != "made":  # (a family's: families.py)
                self.err(where.get(("zones", n)), f"zone '{n}' is {self.per_phrase('zones', n)}: 'start' is "
                                                  "not supported on it; start the cards in a single zone "
                                                  "and deal them in the flow")
            for kind in z.get("start", []):
                if kind not in spec.cards:
                    self.err(where.get(("zones", n)), f"zone '{n}' starts with unknown card kind "
                                                      f"'{kind}'{did_you_mean(kind, spec.cards)}")
                else:
                    starts.setdefault(kind, []).append(n)
            if z.get("visible") == "owner" and z.get("per") not in ("player", "made"):
                self.err(where.get(("zones", n)), f"zone '{n}' is visible to its owner but has no owner "
                                                  "(add per: player)")
            self.zone_sort(n, z.get("sort"), where.get(("zones", n, "sort")) or where.get(("zones", n)))
            g = z.get("group")
            if g and g not in self.attrs:
                self.err(where.get(("zones", n)), f"zone '{n}' groups by unknown card attribute '{g}'"
                                                  f"{did_you_mean(g, self.attrs)}")
        for kind in spec.cards:
            zones = starts.get(kind, [])
            if not zones:
                self.err(where.get(("cards", kind)), f"card kind '{kind}' starts in no zone: list it in "
                                                     "the 'start' of exactly one zone")
            elif len(zones) > 1:
                self.err(where.get(("zones", zones[1])), f"card kind '{kind}' starts in two zones, "
                                                         f"'{zones[0]}' and '{zones[1]}': every card needs "
                                                         "exactly one starting place")
        for kind, d in spec.cards.items():
            if "kind" in d["attributes"]:
                self.err(where.get(("cards", kind)), f"card kind '{kind}': the attribute 'kind' is built in "
                                                     "(the name of the card's kind); choose another name")
            label = d.get("label")
            if label:
                try:
                    for _, field, spec_, _ in string.Formatter().parse(label):
                        if spec_ and any(int(n) > MAX_FORMAT_WIDTH for n in re.findall(r"\d+", spec_)):
                            self.err(where.get(("cards", kind)), f"card label of '{kind}': the format "
                                     f"'{spec_}' is wider than {MAX_FORMAT_WIDTH} characters")
                        known = set(d["attributes"]) | {a for own in d.get("list") or () for a in own}
                        if field is not None and field not in known and field != "kind":
                            self.err(where.get(("cards", kind)), f"card label of '{kind}' names unknown attribute "
                                                                 f"'{field}'{did_you_mean(field, known)}")
                except ValueError as e:
                    self.err(where.get(("cards", kind)), f"card label of '{kind}': {e}")
            self.back(kind, d)
            self.card_powers(kind, d)
        for n, m in spec.marks.items():
            for z in (m or {}).get("kept_in", []):
                if z not in spec.zones:
                    self.err(where.get(("marks", n)), f"mark '{n}': kept_in names unknown zone '{z}'"
                                                      f"{did_you_mean(z, spec.zones)}")
        for kind, d in spec.cards.items():
            for i, own in enumerate(d.get("list") or ()):
                for a in own:
                    if a == "kind" or a in d["attributes"]:
                        self.err(where.get(("cards", kind)), f"card kind '{kind}': item {i + 1} of 'list' "
                                 f"gives '{a}', which " + ("is built in" if a == "kind" else "'attributes' already gives"))
        for slot, table in spec.slots.items():
            arity = set()
            for key, proc in table.items():
                if proc not in spec.procedures:
                    self.err(where.get(("slots", slot, key)) or where.get(("slots", slot)),
                             f"slot '{slot}' key '{key}' names unknown procedure "
                                                         f"'{proc}'{did_you_mean(proc, spec.procedures)}")
                else:
                    arity.add(len(spec.procedures[proc].params))
            if len(arity) > 1:
                self.err(where.get(("slots", slot)), f"the procedures of slot '{slot}' take different numbers of parameters")
        for n in list(spec.functions) + list(spec.procedures):
            r = spec.functions.get(n) or spec.procedures.get(n)
            if n in BUILTINS or n in names:
                self.err(r.pos, f"'{n}' is already a {'built-in function' if n in BUILTINS else names[n]}")
            elif n.startswith("__"):
                self.err(r.pos, f"'{n}': names that start with '__' are reserved for jux")
        for r in list(spec.functions.values()) + list(spec.procedures.values()):
            for p in r.params:
                if p in self.global_values():
                    self.err(r.pos, f"the parameter '{p}' of '{r.name}' is already a {self.kind_of(p)}; "
                                    "choose another name")
        both = set(spec.functions) & set(spec.procedures)
        for n in both:
            self.err(spec.procedures[n].pos, f"'{n}' is both a function and a procedure")
        score = spec.functions.get("score")
        if score is None:
            self.err(where.get(("functions", "")) or where.get(("game", "")),  # (its section, when there is one)
                     "the ruleset has no function 'score(p)' (a player's final score)")
        elif len(score.params) != 1:
            self.err(score.pos, "'score' takes one parameter: the player")
        worth = spec.functions.get("worth")
        if worth is not None and len(worth.params) != 1:
            self.err(worth.pos, "'worth' takes one parameter: the card")
        for special in ("tiebreak", "value", "standing"):
            f = spec.functions.get(special)
            if f is not None and len(f.params) != 1:
                self.err(f.pos, f"'{special}' takes one parameter: the player")
        g = spec.game.get("players", {})
        if g and g.get("min", 1) > g.get("max", 1):
            self.err(where.get(("game", "")), "players: min is more than max")

    def zone_sort(self, zone: str, f, pos) -> None:
        """A zone's `sort`: the name of a function of one card (its sort key)."""
        if f is None:
            return
        fn = self.spec.functions.get(f) if isinstance(f, str) else None
        if fn is None:
            self.err(pos, f"zone '{zone}' sorts by '{f}', which is no function"
                          f"{did_you_mean(str(f), self.spec.functions)}: name a function of one card, "
                          "such as hand_order(c): '[c.suit, c.rank]'")
        elif len(fn.params) != 1:
            self.err(fn.pos, f"'{f}' sorts zone '{zone}': it takes one parameter, the card")
