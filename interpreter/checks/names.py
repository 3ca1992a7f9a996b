"""Static checks of names and scopes in effect code: every name an expression uses known, locals
bound where they are visible, zones and counters indexed the way they are declared."""
from __future__ import annotations

from ..errors import did_you_mean
from ..language.builtins import BUILTINS
from ..language.tree import Attr, Call, GenCall, Index, Lambda, ListComp, Name, Str

VALUE_BUILTINS = ("players",)


class NameChecks:
    """The checks of names, scopes and expressions (a part of check.Checker)."""

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
            if e.obj.id not in self.per_zones:  # trick[i] reads a card of a single zone: not a zone
                self.err(e.pos, f"zone '{e.obj.id}' is a single zone: '{e.obj.id}[...]' is a card in it, not a zone")
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
                if e.obj.id not in self.spec.zones:  # (a single zone read by position, trick[i], is a card)
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
