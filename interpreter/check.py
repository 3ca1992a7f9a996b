"""Static checks of a RuleSpec: every name known, every call with the right arguments, zones
indexed the way they are declared, decisions only where the game can stop, every value of the
type its use needs (infer.py). All errors at once; routines never used are warnings (reach.py)."""
from __future__ import annotations

import re
import string

from .builtins import BUILTINS, IMPURE_BUILTINS, LAMBDA_BUILTINS
from .compile import card_counts, make_cards, procedures_that
from .errors import RuleError, RuleErrors, did_you_mean
from .infer import Infer
from .reach import unreached
from .limits import MAX_CARDS, MAX_FORMAT_WIDTH
from . import display, tracks
from .syntax import (Assign, Attr, Break, Call, CallStmt, Choose, Draw, For, GenCall, If, Index, Lambda, Let,
                     ListComp, Log, Move, Name, Return, Reveal, SetMark, Show, Shuffle, Simultaneously, Str, While,
                     returns_value)

VALUE_BUILTINS = ("players",)


class Checker:
    def __init__(self, spec):
        self.spec = spec
        self.errors: list = []
        self.made: set = set()  # locals made so far in the routine being checked
        self.in_function = False
        counts = card_counts(spec)
        if sum(counts.values()) > MAX_CARDS:  # (making them would take the machine's memory)
            kind = max(counts, key=counts.get)
            self.err(spec.where.get(("cards", kind)), f"the card kinds make {sum(counts.values()):,} cards "
                     f"('{kind}' {counts[kind]:,}): at most {MAX_CARDS:,} in a ruleset")
            self.attrs = {a for d in spec.cards.values() for a in d["attributes"]} | {"kind"} | {
                a for d in spec.cards.values() for own in d.get("list") or () for a in own}
        else:
            cards, _ = make_cards(spec)
            self.attrs = {a for c in cards for a in c}
        self.cards = None if sum(counts.values()) > MAX_CARDS else cards
        self.per_zones = {n for n, z in spec.zones.items() if z.get("per")}
        self.per_counters = {n for n, c in spec.counters.items() if isinstance(c, dict) and c.get("per")}
        self.keyed_counters = {n for n, c in spec.counters.items() if isinstance(c, dict) and isinstance(c.get("per"), list)}

    def err(self, pos, msg):
        self.errors.append(RuleError(pos, msg))

    def per_phrase(self, section, name):
        per = getattr(self.spec, section)[name]["per"]
        if isinstance(per, list):
            return f"one per player and per item of '{per[1]}'"
        return "one per player" if per == "player" else f"one per item of '{per}'"

    # ------------------------------------------------------------ declarations

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
                if per and per != "player" and per not in lists:
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
            if z.get("start") and z.get("per"):
                self.err(where.get(("zones", n)), f"zone '{n}' is {self.per_phrase('zones', n)}: 'start' is "
                                                  "not supported on it; start the cards in a single zone "
                                                  "and deal them in the flow")
            for kind in z.get("start", []):
                if kind not in spec.cards:
                    self.err(where.get(("zones", n)), f"zone '{n}' starts with unknown card kind "
                                                      f"'{kind}'{did_you_mean(kind, spec.cards)}")
                else:
                    starts.setdefault(kind, []).append(n)
            if z.get("visible") == "owner" and z.get("per") != "player":
                self.err(where.get(("zones", n)), f"zone '{n}' is visible to its owner but has no owner "
                                                  "(add per: player)")
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
            self.err(where.get(("game", "")), "the ruleset has no function 'score(p)' (a player's final score)")
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

    # ------------------------------------------------------------ code

    def check_all(self):
        self.declarations()
        for pos, message in tracks.check(self.spec) + display.check(self.spec):
            self.err(pos, message)
        spec = self.spec
        self.in_function = True
        for r in spec.functions.values():
            self.made = set()
            if isinstance(r.body, tuple):  # a block: locals, if, loops, return EXPR
                self.block(r.body, set(r.params), loop=False)
            else:
                self.expr(r.body, set(r.params))
        self.in_function = False
        for r in spec.procedures.values():
            self.made = set()
            self.block(r.body, set(r.params), loop=False)
        if spec.flow:
            self.made = set()
            self.block(spec.flow.body, set(), loop=False)
        if self.cards is not None:
            self.errors.extend(Infer(spec, self.attrs, self.cards).run())
        if self.errors:
            raise RuleErrors(self.errors)

    def block(self, stmts, scope: set, loop: bool):
        for s in stmts:
            self.stmt(s, scope, loop)

    def bind(self, pattern, scope, block_local=True):
        for n in pattern.names:
            if n in self.global_values():
                self.err(pattern.pos, f"'{n}' is already a {self.kind_of(n)}; choose another name for the local")
            scope.add(n)
            if block_local:
                self.made.add(n)

    def global_values(self):
        s = self.spec
        return set(s.constants) | set(s.zones) | set(s.counters) | set(VALUE_BUILTINS)

    def kind_of(self, n):
        s = self.spec
        for section in ("constants", "zones", "counters"):
            if n in getattr(s, section):
                return section[:-1]
        return "built-in name"

    def stmt(self, s, scope, loop):
        t = type(s)
        if self.in_function and t not in _FUNCTION_STATEMENTS:
            self.err(s.pos, f"a function only computes a value: '{_STATEMENT_WORDS.get(t, 'this')}' belongs in a "
                            "procedure (functions may use let, assignments to locals, if, for, while, break and return)")
            return
        if t is Let:
            self.value(s.value, scope)
            self.bind(s.pattern, scope)
        elif t is Return:
            if s.value is not None:
                self.expr(s.value, scope)
        elif t is Assign:
            self.value(s.value, scope)
            if self.in_function and s.name not in scope:
                what = "a counter" if s.name in self.spec.counters else "not a local of the function"
                self.err(s.pos, f"a function only computes a value: it cannot change '{s.name}' ({what})")
                return
            if s.name in scope:
                if s.index is not None:
                    self.err(s.pos, f"'{s.name}' is a local; it cannot be indexed in an assignment")
            elif s.name in self.spec.counters:
                self.counter_index(s.name, s.index, s.pos, scope, s.key)
            elif s.name in self.spec.constants:
                self.err(s.pos, f"'{s.name}' is a constant and cannot be changed")
            elif s.name in self.spec.zones:
                self.err(s.pos, f"'{s.name}' is a zone: change it with move, draw or shuffle")
            elif s.name in VALUE_BUILTINS:
                self.err(s.pos, f"'{s.name}' is built in and cannot be changed")
            elif s.name in self.made:
                self.err(s.pos, self._out_of_block(s.name))
            else:
                self.err(s.pos, f"unknown name '{s.name}': declare a local with 'let' or a counter"
                                f"{did_you_mean(s.name, scope | set(self.spec.counters))}")
        elif t is If:
            # a local made inside a block is known only there: after an if whose branch did not
            # run it would have no value
            for cond, body in s.branches:
                self.expr(cond, scope)
                self.block(body, set(scope), loop)
            if s.orelse is not None:
                self.block(s.orelse, set(scope), loop)
        elif t is For:
            self.expr(s.iter, scope)
            inner = set(scope)
            self.bind(s.pattern, inner)
            self.block(s.body, inner, True)
        elif t is While:
            self.expr(s.cond, scope)
            self.block(s.body, set(scope), True)
        elif t is Break:
            if not loop:
                self.err(s.pos, "'break' outside a loop")
        elif t is Move:
            self.expr(s.what, scope)
            self.zone(s.dest, scope, "move ... to")
        elif t is Draw:
            self.expr(s.count, scope)
            self.zone(s.src, scope, "draw ... from")
            self.zone(s.dest, scope, "draw ... to")
        elif t is Shuffle:
            self.zone(s.zone, scope, "shuffle")
        elif t is Reveal:
            self.expr(s.what, scope)
            if s.to is not None:
                self.expr(s.to, scope)
        elif t is Choose:
            self.expr(s.options, scope)
            for e in (s.by, s.prompt, s.count, s.upto, s.unavailable):
                if e is not None:
                    self.expr(e, scope)
            if s.by is None:
                self.err(s.pos, "'choose' needs 'by PLAYER': who decides")
            if s.distinct is not None:
                if s.count is None and s.upto is None:
                    self.err(s.distinct.pos, "'distinct' is for a choice of several: add 'pick N' or 'pick up to N'")
                if s.distinct.param in self.global_values():
                    self.err(s.distinct.pos, f"'{s.distinct.param}' is already a {self.kind_of(s.distinct.param)}; "
                                             "choose another name for the key's parameter")
                self.expr(s.distinct.body, scope | {s.distinct.param})
            self.bind(s.pattern, scope)
            if s.label is not None:
                self.expr(s.label, scope)
            if s.hint is not None:
                self.expr(s.hint, scope)
        elif t is Simultaneously:
            self.expr(s.iter, scope)
            inner = set(scope)
            self.bind(s.pattern, inner)
            self.block(s.body, inner, False)
        elif t is CallStmt:
            for a in s.args:
                self.expr(a, scope)
            if s.slot_key is not None:
                self.expr(s.slot_key, scope)
                table = self.spec.slots.get(s.func)
                if table is None:
                    self.err(s.pos, f"unknown slot '{s.func}'{did_you_mean(s.func, self.spec.slots)}")
                else:
                    for proc in table.values():
                        r = self.spec.procedures.get(proc)
                        if r and len(r.params) != len(s.args):
                            self.err(s.pos, f"slot '{s.func}' runs '{proc}', which takes "
                                            f"{_args(len(r.params))}, not {len(s.args)}")
                            break
            else:
                r = self.spec.procedures.get(s.func)
                if r is None:
                    if s.func in self.spec.functions or s.func in BUILTINS:
                        self.err(s.pos, f"{_shown(s.func)} is a function: use its value in an expression")
                    else:
                        self.err(s.pos, f"unknown procedure '{s.func}'{did_you_mean(s.func, self.spec.procedures)}")
                elif len(r.params) != len(s.args):
                    self.err(s.pos, _takes(s.func, len(r.params), len(s.args)))
        else:  # SetMark, Log, Show
            for f in ("target", "value", "message", "title", "columns", "rows"):
                v = getattr(s, f, None)
                if v is not None:
                    if f == "target":
                        self.expr(v.obj, scope)
                        if v.name not in self.spec.marks:
                            what = "a card attribute, which cannot change" if v.name in self.attrs else "not a declared mark (marks: section)"
                            self.err(v.name_pos or v.pos, f"'{v.name}' is {what}"
                                            f"{did_you_mean(v.name, self.spec.marks)}")
                    else:
                        self.expr(v, scope)

    def value(self, e, scope):
        """The value of a let or an assignment: an expression, or what a procedure gives back
        (`let x = f(...)`, the procedure's `return EXPR`)."""
        if isinstance(e, Call) and e.func in self.spec.procedures and not self.in_function:
            r = self.spec.procedures[e.func]
            for a in e.args:
                self.expr(a, scope)
            if len(r.params) != len(e.args):
                self.err(e.pos, _takes(e.func, len(r.params), len(e.args)))
            if not returns_value(r.body):
                self.err(e.pos, f"{_shown(e.func)} gives no value (it has no 'return EXPR'): call it as a statement")
            return
        self.expr(e, scope)

    def counter_index(self, name, index, pos, scope, key=None):
        per = name in self.per_counters
        keyed = name in self.keyed_counters
        if keyed and (index is None or key is None):
            self.err(pos, f"counter '{name}' is {self.per_phrase('counters', name)}: write {name}[player][key]")
        elif per and index is None:
            self.err(pos, f"counter '{name}' is {self.per_phrase('counters', name)}: write {name}[...]")
        elif not per and index is not None:
            self.err(pos, f"counter '{name}' is a single counter: it takes no index")
        elif not keyed and key is not None:
            self.err(pos, f"counter '{name}' is {self.per_phrase('counters', name)}: it takes one index, not two")
        for e in (index, key):
            if e is not None:
                self.expr(e, scope)

    def zone(self, e, scope, what):
        if isinstance(e, Name) and e.id in self.spec.zones and e.id not in scope:
            if e.id in self.per_zones:
                self.err(e.pos, f"zone '{e.id}' is {self.per_phrase('zones', e.id)}: write {e.id}[...]")
            return
        if isinstance(e, Index) and isinstance(e.obj, Name) and e.obj.id in self.spec.zones and e.obj.id not in scope:
            if e.obj.id not in self.per_zones:
                self.err(e.pos, f"zone '{e.obj.id}' is a single zone: it takes no index")
            self.expr(e.index, scope)
            return
        if isinstance(e, Name) and e.id not in scope and e.id not in self.global_values():
            # one message for an unknown name where a zone belongs
            self.err(e.pos, f"'{what}' needs a zone here; '{e.id}' is not one"
                            f"{did_you_mean(e.id, self.spec.zones)}")
            return
        self.expr(e, scope)
        what_is = f"; '{e.id}' is a {'local' if e.id in scope else self.kind_of(e.id)}" if isinstance(e, Name) else ""
        self.err(e.pos, f"'{what}' needs a zone here{what_is}")

    def expr(self, e, scope):
        t = type(e)
        if t is Name:
            self.name(e, scope)
        elif t is Index:
            inner = e.obj
            if (isinstance(inner, Index) and isinstance(inner.obj, Name) and inner.obj.id not in scope
                    and inner.obj.id in self.keyed_counters):
                self.counter_index(inner.obj.id, inner.index, e.pos, scope, e.index)
                return
            if isinstance(e.obj, Name) and e.obj.id not in scope and (e.obj.id in self.spec.zones or e.obj.id in self.spec.counters):
                if e.obj.id in self.spec.zones:
                    if e.obj.id not in self.per_zones:
                        self.err(e.pos, f"zone '{e.obj.id}' is a single zone: it takes no index")
                else:
                    self.counter_index(e.obj.id, e.index, e.pos, scope)
                    return
                self.expr(e.index, scope)
            else:
                self.expr(e.obj, scope)
                self.expr(e.index, scope)
        elif t is Attr:
            self.expr(e.obj, scope)
            if e.name not in self.attrs and e.name not in self.spec.marks:
                self.err(e.name_pos or e.pos, f"unknown card attribute '{e.name}'"
                                f"{did_you_mean(e.name, self.attrs | set(self.spec.marks))}")
        elif t is Call:
            self.call(e, scope)
        elif t in (ListComp, GenCall):
            inner = set(scope)
            for f in e.fors:
                self.expr(f.iter, inner)
                self.bind(f.pattern, inner, block_local=False)
                if f.cond is not None:
                    self.expr(f.cond, inner)
            self.expr(e.elt, inner)
            if t is GenCall and (e.func not in BUILTINS or not BUILTINS[e.func][2]):
                self.err(e.pos, f"'{e.func}' does not take a 'for' form; these do: "
                                f"{', '.join(n for n, b in BUILTINS.items() if b[2])}")
        elif t is Lambda:
            self.err(e.pos, "'x -> ...' is only allowed as the key of max_by, min_by or sort_by")
        elif t is Str:
            for p in e.parts:
                if not isinstance(p, str):
                    self.expr(p, scope)
        else:
            for f in e.__dataclass_fields__:
                if f == "pos":
                    continue
                v = getattr(e, f)
                if isinstance(v, tuple):
                    for i in v:
                        if hasattr(i, "pos"):
                            self.expr(i, scope)
                elif hasattr(v, "pos"):
                    self.expr(v, scope)

    def name(self, e, scope):
        n = e.id
        if n in scope or n in VALUE_BUILTINS or n in self.spec.constants:
            return
        if n in self.spec.counters:
            if n in self.per_counters:
                self.err(e.pos, f"counter '{n}' is {self.per_phrase('counters', n)}: write {n}[...]")
            return
        if n in self.spec.zones:
            if n in self.per_zones:
                self.err(e.pos, f"zone '{n}' is {self.per_phrase('zones', n)}: write {n}[...]")
            return
        if n in self.spec.procedures or n in self.spec.functions:
            self.err(e.pos, f"'{n}' is a {'procedure' if n in self.spec.procedures else 'function'}: call it with ()")
            return
        if n in self.made:
            self.err(e.pos, self._out_of_block(n))
            return
        known = scope | self.global_values()
        self.err(e.pos, f"unknown name '{n}'{did_you_mean(n, known)}")

    @staticmethod
    def _out_of_block(n):
        return (f"'{n}' is a local of a block that has ended (if, for, while or simultaneously); to use it here, "
                f"make it before that block (let {n} = ...)")

    def call(self, e, scope):
        f = e.func
        if f == "slot_name" and f not in self.spec.functions:  # slot_name(SLOT, key): SLOT is no value
            if len(e.args) != 2 or not isinstance(e.args[0], Name) or e.args[0].id not in self.spec.slots:
                self.err(e.pos, "'slot_name' takes a slot's name and a key: slot_name(power, d)"
                                + (f" (slots: {', '.join(self.spec.slots)})" if self.spec.slots else ""))
            if len(e.args) == 2:
                self.expr(e.args[1], scope)
            return
        lambdas = [a for a in e.args if isinstance(a, Lambda)]
        for a in e.args:
            if isinstance(a, Lambda):
                if a.param in self.global_values():
                    self.err(a.pos, f"'{a.param}' is already a {self.kind_of(a.param)}; choose another name "
                                    "for the key's parameter")
                self.expr(a.body, scope | {a.param})
            else:
                self.expr(a, scope)
        if f in self.spec.functions:
            r = self.spec.functions[f]
            if len(r.params) != len(e.args):
                self.err(e.pos, _takes(f, len(r.params), len(e.args)))
            if lambdas:
                self.err(lambdas[0].pos, "'x -> ...' is only allowed as the key of max_by, min_by or sort_by")
            return
        if f in BUILTINS:
            lo, hi, _ = BUILTINS[f]
            if f in IMPURE_BUILTINS and self.in_function:
                self.err(e.pos, f"'{f}' draws from the game's random generator: use it in a procedure, "
                                "not in a function (functions only compute values)")
            if lambdas and f not in LAMBDA_BUILTINS:
                self.err(lambdas[0].pos, "'x -> ...' is only allowed as the key of max_by, min_by or sort_by")
                return
            if not lo <= len(e.args) <= hi:
                want = str(lo) if lo == hi else f"{lo} to {hi}"
                self.err(e.pos, f"'{f}' takes {want} argument{'' if want == '1' else 's'}, not {len(e.args)}")
            if f in LAMBDA_BUILTINS:
                if len(e.args) == 2 and not isinstance(e.args[1], Lambda):
                    self.err(e.args[1].pos, f"the second argument of '{f}' is a key, like 'c -> c.value'")
                if lambdas and lambdas[0] is not e.args[-1]:
                    self.err(lambdas[0].pos, "'x -> ...' is only allowed as the key of max_by, min_by or sort_by")
            return
        if f in self.spec.procedures:
            if self.in_function:
                self.err(e.pos, f"{_shown(f)} is a procedure: a function cannot call one (functions only compute values)")
            else:
                self.err(e.pos, f"{_shown(f)} is a procedure: call it as a statement, or take the value it returns "
                                f"on a line of its own (let x = {'previous' if '__prev' in f else f}(...))")
            return
        self.err(e.pos, f"unknown function '{f}'{did_you_mean(f, set(BUILTINS) | set(self.spec.functions))}")


_FUNCTION_STATEMENTS = (Let, Assign, If, For, While, Break, Return)
_STATEMENT_WORDS = {Move: "move", Draw: "draw", Shuffle: "shuffle", Reveal: "reveal", Choose: "choose",
                    Simultaneously: "simultaneously", CallStmt: "a procedure call", SetMark: "set", Log: "log",
                    Show: "show"}


def _args(n: int) -> str:
    return f"{n} argument" if n == 1 else f"{n} arguments"


def _shown(name: str) -> str:
    """A routine's name as its author wrote the call: the definition an override replaces is
    kept under an inner name (loader._chain), called as previous(...)."""
    if "__prev" in name:
        return f"'previous(...)' (the '{name.rsplit('__prev', 1)[0]}' this overrides)"
    return f"'{name}'"


def _takes(name: str, params: int, args: int) -> str:
    return f"{_shown(name)} takes {_args(params)}, not {args}"


def suspending_procedures(spec) -> set:
    """Procedures that may stop at a decision: they choose, run things simultaneously, or call one that does."""
    return procedures_that(spec, lambda n: isinstance(n, (Choose, Simultaneously)))


def check(spec):
    """Check a ruleset (raises RuleErrors); what is not wrong but likely a mistake is left in
    spec.warnings (a routine never used)."""
    Checker(spec).check_all()
    spec.warnings = unreached(spec)
    return suspending_procedures(spec)
