"""Checked rules -> executable Python, generated once per ruleset from the AST (never from raw text).

Functions and procedures that never stop at a decision become plain Python functions. Those that
may stop (a `choose`, `simultaneously`, or a call of such a procedure) become resumable state
machines: `def R(S, T, F)` runs from the resume point F[1] with its locals in the list F[2], and
returns WAIT at a decision, CALL after pushing a callee frame, RET when done. So where the rules
stopped is plain data (a stack of [routine, resume point, locals]) that copies and saves like the
rest of the state.
"""
from __future__ import annotations

import itertools
import math
import re

from ..checks.facts import log_only_lets
from ..language.tree import Simultaneously, author_name, walked
from ..reading.cards import card_backs, card_label_fn, make_cards
from ..runtime import chance, events, families, moves, ops, played, threads
from ..runtime.plurals import plural
from ..runtime.state import PLAYERS, RUN, SEATS, Card
from .choose import Chooses
from .common import once
from .decision_names import decision_names
from .direct import DirectRoutines
from .expr import Ctx, Emitter, Expressions
from .fast import FastPaths
from .inline_calls import InlinedProcedures
from .layout import make_layout
from .members import membership_locals
from .plain import PlainStatements, blind_prologues
from .resumable import ResumableRoutines
from .taint_rules import rule_secrets
from .uniform import UniformAnswers


class Compiler(Expressions, FastPaths, PlainStatements, InlinedProcedures, Chooses, UniformAnswers, DirectRoutines,
               ResumableRoutines):
    """The Python source of a checked ruleset (build), from the methods of each kind of node
    (compile_expr, compile_fast, compile_plain, compile_choose, compile_direct, compile_resumable)."""

    def __init__(self, spec, suspends: set, coverage: bool | str = False):
        self.spec = spec
        self.coverage, self.powers = coverage is True, bool(coverage)  # what runs; the slot calls (counts.py)
        self.sites: list = []  # with coverage: (pos, what) of each counted statement or function
        self.chooses: list = []  # with coverage: the pos of each choose
        self.layout = make_layout(spec)
        self.cards, self.kinds = make_cards(spec)
        self.attrs = sorted({a for c in self.cards for a in c})
        self.marks = spec.marks
        # card attributes whose values can key an index (HX_attr: value -> "is one of its cards")
        self.indexed = [a for a in self.attrs if a not in self.marks and all(
            isinstance(c.get(a), (int, str, float, type(None))) for c in self.cards)]
        self.suspends = suspends  # names of procedures that may stop
        self.out = Emitter()
        self.consts: dict = {}
        self.inlinable: dict = {}  # function -> (body, names it binds) or None: calls compiled in place (inline.py)
        self.routines: list = []  # resumable routine function names, by id
        self.routine_ids: dict = {}
        self.resume_drops: dict = {}  # routine id -> {resume point: the named locals not live there}
        self.reasks: dict = {}  # routine id -> {resume point after a choose: (pos, its decide call)}
        self.recalcs: dict = {}  # routine id -> {resume point: [(pos, line)]: live tainted locals worked out again or blanked}
        self.pushes: dict = {}  # routine id -> {resume point after a call: [(pos, line)]: tainted arguments given again}
        self.shown: dict = {}  # routine id -> {resume point after a choose: the tainted slots its labels read}
        self.blinds: dict = {}  # routine id -> {resume point: (pos, the slots that may follow from an answer)}
        self.blind_calls: dict = {}  # routine id -> the resume points after a call giving such a value
        self.masks: dict = {}  # routine id -> the slot of the seats that answered its chooses, or None
        self.branches: dict = {}  # routine id -> {resume point under a secret test: who knows it, or None; ("args", pc): a call's} (branches.py)
        self.secrets = rule_secrets(spec, self.cards, self.marks)  # what a seat may not know (taint.py)
        self.labels: list = []
        self.hints: dict = {}  # label id -> (pos, code) of its choose's hint
        self.prompts: list = []  # by choose (each has its number): (pos, code of its prompt, or None)
        self.decisions: list = []  # by choose: its stable name (decision_names.py)
        self.decision_names = decision_names(spec)
        self.unavailables: list = []
        self.uid = itertools.count()
        self._quiet: set = set()  # the routine's lets read only by the log (log_only_lets)
        self.masked: set = set()  # (summed attribute, filtering attribute): MS_ tables to make
        self._sets: frozenset = frozenset()  # the lets of the function being compiled made as sets
        self.tuples: dict = {}  # attribute names -> i: AA{i}, each card's tuple of them (fast.py)
        self.direct: set = set()  # procedures that may stop and also get a plain D_ version
        self._choose_fns: dict = {}  # id(choose) -> (label, prompt, unavailable function ids)
        self._locals_list = "None"  # in a D_ version: its locals as the routine's slots, for labels
        self._valued = False  # the resumable routine being compiled returns a value (`return EXPR`)
        self.reads_knowledge = False  # some rule calls knows(): who knows a card decides what the rules do
        self._scalar_codes: frozenset = frozenset()  # the routine's locals known to hold a scalar (inline_calls.py)

    # ---------------------------------------------------------- whole ruleset

    @property
    def calls_itself(self) -> set:
        """The functions and procedures run as plain Python functions that can call themselves,
        directly or through others: their depth is bounded (ops.bounded_depth)."""
        if getattr(self, "_calls_itself", None) is None:
            from ..language.tree import Call, CallStmt

            routines = {**self.spec.functions, **self.spec.procedures}
            calls = {n: {x.func for x in walked(r.body)
                         if isinstance(x, (Call, CallStmt)) and x.func in routines} for n, r in routines.items()}
            found = set()
            for start in routines:
                seen, todo = set(), list(calls[start])
                while todo:
                    n = todo.pop()
                    if n == start:
                        found.add(start)
                        break
                    if n not in seen:
                        seen.add(n)
                        todo.extend(calls[n])
            self._calls_itself = found
        return self._calls_itself

    def build(self):
        spec = self.spec
        o = self.out
        self._pending_bodies = []
        if not self.coverage:
            self.direct = (self.suspends & set(spec.procedures)) - self.spawning()
        # functions
        for name, r in spec.functions.items():
            env = {p: f"v_{p}" for p in r.params}
            # (a function's lets only asked whether they hold a value are made as sets: members.py)
            self._sets = membership_locals(r.body, r.params, self.indexed) if isinstance(r.body, tuple) else frozenset()
            o.emit(0, f"def F_{name}(S{''.join(', v_' + p for p in r.params)}):", r.pos)
            o.emit(1, "Z = S.z; V = S.v", r.pos)
            self.known_locals(r.body, env)  # (its locals known to hold a scalar, a number: inline_calls.py)
            if isinstance(r.body, tuple):  # a block computing the value (locals, if, loops, return)
                if self.coverage:
                    o.emit(1, self._count(r.body[0] if r.body else r, f"function {author_name(name)}"), r.pos)
                self._body(r.body, Ctx(env, False), 1, r.pos)
            else:
                if self.coverage:
                    o.emit(1, self._count(r.body, f"function {author_name(name)}"), r.body.pos)
                o.emit(1, f"return {once(self.ex(r.body, Ctx(env, False)))}", r.body.pos)  # (common.py)
            if name in self.calls_itself:
                o.emit(0, f"F_{name} = _deep(F_{name}, {author_name(name)!r})", r.pos)
            o.emit(0, "", None)
        self._sets = self._scalar_codes = self._number_codes = frozenset()
        # procedures
        resumable_info = {}
        routines = [(n, r.params, r.body, r.pos) for n, r in spec.procedures.items()]
        routines.append(("__flow__", (), spec.flow.body, spec.flow.pos))
        later = []  # the D_ versions, made after every R_ one (inline_calls.py reads what R_ chooses made)
        for name, params, body, pos in routines:
            # (a `simultaneously` body runs in threads of its own: its routine keeps every let)
            nested = any(isinstance(n, Simultaneously) for n in walked(body))
            self._quiet = set() if nested else log_only_lets(body, spec.procedures)
            if name in self.suspends or name == "__flow__":
                rid, nslots = self.resumable(f"R_{name}", params, body)
                resumable_info[name] = (rid, nslots - len(params))
                if name in self.direct:
                    later.append((name, params, body, pos, self._slots, self._quiet))
                while self._pending_bodies:
                    bname, bblocks = self._pending_bodies.pop(0)
                    self._flush_routine(bname, bblocks)
            else:
                ctx = Ctx({p: f"v_{p}" for p in params}, False)
                o.emit(0, f"def P_{name}(S{''.join(', v_' + p for p in params)}):", pos)
                o.emit(1, "Z = S.z; V = S.v", pos)
                self.routine_body(body, ctx, pos)
                if name in self.calls_itself:
                    o.emit(0, f"P_{name} = _deep(P_{name}, {author_name(name)!r})", pos)
                o.emit(0, "", None)
        for name, params, body, pos, self._slots, self._quiet in later:
            self.direct_routine(name, params, body, pos)
            if name in self.calls_itself:  # (its R_ version counts its frames: resumable.py)
                o.emit(0, f"D_{name} = _deep(D_{name}, {author_name(name)!r})", pos)
        self.resumable_info = resumable_info
        # labels and prompts
        for i, (pos, code) in enumerate(self.labels):
            o.emit(0, f"def LBL{i}(S, L, o):", pos)
            o.emit(1, "Z = S.z; V = S.v", pos)
            o.emit(1, f"return {code}", pos)
        for i, (pos, code) in self.hints.items():
            o.emit(0, f"def HNT{i}(S, L, o):", pos)
            o.emit(1, "Z = S.z; V = S.v", pos)
            o.emit(1, f"return {code}", pos)
        for i, (pos, code) in enumerate(self.prompts):
            if code is None:  # (a choose without a prompt: "Choose")
                continue
            o.emit(0, f"def PR{i}(S, L):", pos)
            o.emit(1, "Z = S.z; V = S.v", pos)
            o.emit(1, f"return {code}", pos)
        for rid, asks in sorted(self.reasks.items()):  # a choose asked again (bots' samples)
            for pc, (pos, call) in sorted(asks.items()):
                o.emit(0, f"def QC{rid}_{pc}(S, T, F):", pos)
                o.emit(1, "L = F[2]; Z = S.z; V = S.v", pos)
                o.emit(1, f"return {call}", pos)
        for fn, made in (("RC", self.recalcs), ("RA", self.pushes)):  # bots' samples (taint.py)
            for rid, calcs in sorted(made.items()):
                for pc, lines in sorted(calcs.items()):
                    o.emit(0, f"def {fn}{rid}_{pc}(S, T, F{', G' if fn == 'RA' else ''}):", lines[0][0])
                    o.emit(1, "L = F[2]; Z = S.z; V = S.v", lines[0][0])
                    for pos, line in lines:
                        o.emit(1, line, pos)
        for rid, blinds in sorted(self.blinds.items()):  # bots' samples: what follows from another seat's answer
            m = self.masks[rid]
            for pc, (pos, slots) in sorted(blinds.items()):
                o.emit(0, f"def RW{rid}_{pc}(S, T, F, bit):", pos)
                o.emit(1, "L = F[2]; Z = S.z; V = S.v", pos)
                o.emit(1, f"if not (L[{m}] or 0) & ~bit: return False", pos)
                for i in slots:
                    o.emit(1, f"L[{i}] = None", pos)
                o.emit(1, "return True", pos)
        self._emit_branches(o)
        for i, (pos, code) in enumerate(self.unavailables):
            o.emit(0, f"def UN{i}(S, L):", pos)
            o.emit(1, "Z = S.z; V = S.v", pos)
            o.emit(1, f"return {code}", pos)
        return "\n".join(blind_prologues(_trimmed_prologues(o.lines))) + "\n"


PROLOGUE = "    Z = S.z; V = S.v"


def _trimmed_prologues(lines: list) -> list:
    """The lines with each function's `Z = S.z; V = S.v` keeping only what its body reads (a
    small function called for each card pays for neither when it reads no zone or counter). The
    line stays, so every line keeps its number (the positions of the rules map by line)."""
    out = list(lines)
    for i, line in enumerate(out):
        if line != PROLOGUE:
            continue
        end = i + 1
        while end < len(out) and not out[end].startswith("def "):
            end += 1
        body = "\n".join(out[i + 1:end])
        kept = [part for part, name in (("Z = S.z", "Z"), ("V = S.v", "V")) if re.search(rf"\b{name}\b", body)]
        out[i] = "    " + ("; ".join(kept) if kept else "pass")
    return out


def compile_ruleset(spec, suspends: set, coverage: bool | str = False):
    """Generate and load the Python of a checked ruleset; returns a dict of what the engine needs.

    With coverage the code also counts what runs (coverage "powers": the slot calls alone;
    runtime/counts.py); the counts are in the returned "coverage"."""
    return link(spec, generate(spec, suspends, coverage))


def generate(spec, suspends: set, coverage: bool | str = False) -> dict:
    """What the compiler makes of a checked ruleset, as plain data (it pickles: the compile cache
    keeps it, engine/compiled.py): the Python source, its code object, and what link needs."""
    c = Compiler(spec, suspends, coverage)
    source = c.build()
    filename = f"<jux:{spec.name}>"
    label = card_label_fn({k: d.get("label", "") for k, d in spec.cards.items()})
    return {
        "card_labels": tuple(label(a) for a in c.cards), "card_backs": card_backs(spec, c.cards),
        "source": source, "filename": filename, "code": compile(source, filename, "exec"),
        "line_pos": list(c.out.pos), "cards": c.cards, "attrs": c.attrs, "indexed": c.indexed,
        "masked": sorted(c.masked), "tuples": tuple(c.tuples), "consts": list(c.consts.values()), "routines": tuple(c.routines),
        "flow": c.routine_ids["R___flow__"], "resumable_info": c.resumable_info, "labels": len(c.labels),
        "hints": sorted(c.hints), "prompts": len(c.prompts), "unavailables": len(c.unavailables),
        "decisions": tuple(c.decisions),
        "reads_knowledge": c.reads_knowledge, "layout": c.layout, "coverage": coverage,
        "sites": c.sites, "chooses": c.chooses,
        "resume_drops": c.resume_drops, "reasks": c.reasks, "recalcs": c.recalcs, "pushes": c.pushes,
        "shown": c.shown, "blinds": c.blinds, "blind_calls": c.blind_calls, "masks": c.masks, "branches": c.branches,
    }


def link(spec, g: dict) -> dict:
    """The generated code of spec (generate) run in a namespace of its own: the rules' functions,
    their tables, and what the engine needs of them (a dict)."""
    source = g["source"]
    coverage = g["coverage"]
    c = _Made(g)
    cards = tuple(Card(i) for i in range(len(c.cards)))
    ns: dict = {
        "PLAYERS": PLAYERS, "SEATS": SEATS, "TURN_ORDERS": ops.TURN_ORDERS, "_Card": Card, "BUDGET": ops.STEP_BUDGET,
        "WAIT": threads.WAIT, "CALL": threads.CALL, "RET": threads.RET, "RUN": RUN,
        "_range": ops.bounded_range, "_combinations": ops.combinations, "_subsets": ops.subsets,
        "_flatten": ops.flatten, "_deep": ops.bounded_depth, "_too_deep": ops.too_deep, "_move": moves.move, "_move_under": moves.move_under, "_move_all": moves.move_all, "_draw": moves.draw,
        "_shuffle": chance.shuffle, "_reveal": moves.reveal, "_top": ops.top,
        "_first": ops.first, "_last": ops.last, "_turn_order": ops.turn_order, "_budget": ops.budget,
        "_decide": threads.decide, "_decide_one": threads.decide_one, "_groups": threads.option_groups,
        "_thread": threads.thread, "_deciding": threads.deciding, "_known_all": threads.known_all, "_join": threads.join, "_spawn": threads.spawn, "_set_mark": moves.set_mark,
        "_NO_MARKS": moves.NO_MARKS, "_event": events.event, "_event_to": events.event_to,
        "_NONE": moves.NO_CARDS.__contains__, "_SCALARS": moves.SCALARS,
        "_random": chance.random_item, "_product": itertools.product, "_table": events.table_event,
        "_cat": ops.cat, "_add": ops.add, "_mul": ops.mul, "_distinct_picks": threads.distinct_picks,
        "_min2": ops.min2, "_max2": ops.max2, "_min_of": ops.min_of, "_max_of": ops.max_of,
        "_plural": plural, "_knows": moves.knows,
        "_played_move": played.move, "_played_move_all": played.move_all, "_played_draw": played.draw,
        "_played_by": played.played_by, "_floor": math.floor, "_NUMBERS": list(range(64)),
    }
    if c.layout.families:  # (only then: the namespace of rules without one stays as it was)
        ns.update(_zone_at=families.zone_at, _make=families.make, _remove=families.remove)
    labels = g["card_labels"]
    backs, hidden, back_keys = g["card_backs"]

    def _text(parts):
        """A string made in the rules (not a log text, rendered per viewer): labels, seats, lists."""
        def one(p):
            if type(p) is Card:
                return labels[p]
            if type(p).__name__ == "Seat":
                return f"Player {p + 1}"
            if type(p) is list:  # (a list of lists reads with its groups: "4, 5, 6; 7, 7", as in a log)
                return ("; " if p and type(p[0]) is list else ", ").join(map(one, p))
            return str(p)
        return "".join(map(one, parts))

    ns["_text"] = _text
    counts = None
    if coverage:
        from ..runtime.counts import Counts, counted_decide
        counts = Counts(g["sites"], g["chooses"], lines=coverage is True)
        ns["_C"] = counts.runs
        ns["_CHOSEN"] = tuple(counted_decide(counts.choices[i]) for i in range(len(g["chooses"])))
        ns["_SLOT_IN"], ns["_SLOT_OUT"] = counts.slot_hooks(lambda S, p: ns["F_score"](S, p))
    # Attribute tables are lists, never changed, and AT_attr is A_attr.__getitem__ made once (for
    # map and key=): list.__getitem__ is a plain C method, where a tuple's is a slot wrapper that
    # builds an argument tuple per call.
    for attr in c.attrs:
        ns[f"A_{attr}"] = [a.get(attr) for a in c.cards]
        ns[f"AT_{attr}"] = ns[f"A_{attr}"].__getitem__
    values = {}  # attribute in an index -> the values its cards have
    for attr in c.indexed:
        index = {}
        for card, a in zip(cards, c.cards):
            index.setdefault(a.get(attr), set()).add(card)
        ns[f"HS_{attr}"] = sets = {v: frozenset(cs) for v, cs in index.items()}  # (HS_attr[v]: its cards)
        ns[f"HX_{attr}"], values[attr] = {v: cs.__contains__ for v, cs in sets.items()}, list(index)
    for picked, attr in c.masked:  # MS_picked_attr[v](card): the card's picked if its attr is v, else 0
        ns[f"MS_{picked}_{attr}"] = {v: [a.get(picked) if a.get(attr) == v else 0 for a in c.cards].__getitem__
                                     for v in values[attr]}
    ns["_ZERO"], ns["_NOSET"] = ([0] * len(c.cards)).__getitem__, frozenset()
    for i, names in enumerate(g["tuples"]):  # AA{i}[card]: the tuple of the card's attributes names
        alike: dict = {}  # (cards with the same values share one tuple, when they hash)
        table = [_shared(tuple(a.get(n) for n in names), alike) for a in c.cards]
        ns[f"AA{i}"], ns[f"AAT{i}"] = table, table.__getitem__
    for name, value in g["consts"]:
        ns[name] = value
    filename = g["filename"]
    exec(g["code"], ns)
    ns["ROUT"] = tuple(ns[f] for f in c.routines)
    # slots: key -> (routine id or -1, extra locals, plain function or None, D_ version or None)
    for slot, table in spec.slots.items():
        ns[f"SLOT_{slot}"] = {}
        ns[f"SLOTNAME_{slot}"] = {key: str(proc).replace("_", " ") for key, proc in table.items()}
    for name, (rid, extra) in c.resumable_info.items():
        ns[f"RS_{name}"] = (rid, extra)
    for slot, table in spec.slots.items():
        for key, proc in table.items():
            if proc in c.resumable_info:
                rid, extra = c.resumable_info[proc]
                ns[f"SLOT_{slot}"][key] = (rid, extra, None, ns.get(f"D_{proc}"))
            else:
                ns[f"SLOT_{slot}"][key] = (-1, 0, ns[f"P_{proc}"], None)
    return {
        "source": source, "filename": filename, "line_pos": g["line_pos"], "ns": ns,
        "reads_knowledge": c.reads_knowledge,
        "routines": tuple(ns[f] for f in c.routines), "routine_names": tuple(c.routines),
        "resume_drops": tuple(c.resume_drops.get(r, {}) for r in range(len(c.routines))),
        "reasks": tuple({pc: ns[f"QC{r}_{pc}"] for pc in sorted(c.reasks.get(r, {}))} for r in range(len(c.routines))),
        "recalcs": tuple({pc: ns[f"RC{r}_{pc}"] for pc in sorted(c.recalcs.get(r, {}))} for r in range(len(c.routines))),
        "pushes": tuple({pc: ns[f"RA{r}_{pc}"] for pc in sorted(c.pushes.get(r, {}))} for r in range(len(c.routines))),
        "shown": tuple(c.shown.get(r, {}) for r in range(len(c.routines))),
        "blinds": tuple({pc: ns[f"RW{r}_{pc}"] for pc in sorted(c.blinds.get(r, {}))} for r in range(len(c.routines))),
        "blind_calls": tuple(frozenset(c.blind_calls.get(r, ())) for r in range(len(c.routines))),
        "masks": tuple(c.masks.get(r) for r in range(len(c.routines))),
        "branches": tuple({pc: code and ns[f"KN{r}_{pc}"] for pc, code in c.branches.get(r, {}).items()
                           if type(pc) is int} for r in range(len(c.routines))),
        "flow": g["flow"], "flow_locals": c.resumable_info["__flow__"][1],
        "layout": c.layout, "cards": cards, "card_attrs": c.cards, "card_labels": labels,
        "card_backs": backs, "hidden_labels": hidden, "back_keys": back_keys,
        "labels": tuple(ns[f"LBL{i}"] for i in range(g["labels"])),
        "hints": {i: ns[f"HNT{i}"] for i in g["hints"]},
        "prompts": tuple(ns.get(f"PR{i}") for i in range(g["prompts"])), "decisions": g["decisions"],
        "unavailables": tuple(ns[f"UN{i}"] for i in range(g["unavailables"])),
        "score": ns.get("F_score"), "tiebreak": ns.get("F_tiebreak"),
        "procedures": {name: (c.resumable_info[name] if name in c.resumable_info else ns[f"P_{name}"])
                       for name in spec.procedures},
        "functions": {name: ns[f"F_{name}"] for name in spec.functions},
        "coverage": counts,
    }


def _shared(t: tuple, alike: dict) -> tuple:
    """The tuple equal to t met first (alike keeps them), or t itself if it holds a list."""
    try:
        return alike.setdefault(t, t)
    except TypeError:
        return t


class _Made:
    """generate's dict read as the compiler's attributes (link reads what the compiler made)."""

    def __init__(self, g: dict):
        self.cards, self.attrs, self.indexed, self.masked = g["cards"], g["attrs"], g["indexed"], g["masked"]
        self.routines, self.resumable_info, self.layout = g["routines"], g["resumable_info"], g["layout"]
        self.reads_knowledge = g["reads_knowledge"]
        self.resume_drops, self.reasks, self.recalcs, self.pushes = g["resume_drops"], g["reasks"], g["recalcs"], g["pushes"]
        self.shown, self.blinds, self.blind_calls, self.masks = g["shown"], g["blinds"], g["blind_calls"], g["masks"]
        self.branches = g["branches"]
