"""Code generation for bots' samples (bots/sample.py): what a sample does where a routine that may
stop waits, so that it keeps nothing worked out from what its seat may not know (compiler/taint.py):
`RC` functions (the tainted live locals worked out again or set to none), `RA` functions (a call's
tainted arguments given again to the callee's frame), which chooses are asked again (`QC`), and
which locals the seat's own decision shows it (class SampleSteps, part of program.Compiler)."""
from __future__ import annotations

from ..language.tree import Call, CallStmt, Choose, Name, Simultaneously, walked
from .expr import Ctx
from .taint import Taint
from .taint_rules import answerers, param_taint, threaded_procedures


class SampleSteps:
    """Methods of program.Compiler, called by resumable.py where a routine may stop."""

    def _again(self, live, pc: int, s) -> None:
        """What a bot's sample does, where the routine resumes at pc, with the live locals that may
        hold a secret (taint.py): each worked out again by its `let` from the sample's values when
        it can be, else set to none; and so with the list of each `for` it waits in when that list
        is tainted (a `for` of the routine around a `simultaneously` body: set to none there)."""
        own = {id(f): (f, lst) for f, lst, depth in self._loops_open if depth == self._depth}
        given = range(self._params) if self._depth == 0 else ()  # (a caller's frame gives them again: _pushed)
        blanks, steps = self._taint.plan(live, self.stmt_suspends, [f for f, _ in own.values()], given)
        ctx = Ctx({n: f"L[{i}]" for n, i in self._slots.items()}, True, "", self._slots)
        lines = [(None, f"L[{i}] = None") for i in blanks]
        for f, lst, depth in self._loops_open:  # (an outer routine's loop, around a body: its list unread)
            if depth != self._depth and self._taint.loops.get(id(f)):
                lines.append((None, f"L[{lst}] = None"))
        for step in steps:
            if step[0] == "let":
                lines.append((step[2].pos, f"L[{step[1]}] = {self.ex(step[2].value, ctx)}"))
                continue
            f = step[1]
            lst = own[id(f)][1]
            if step[0] == "none":
                lines.append((None, f"L[{lst}] = None"))
            elif step[0] == "list":
                lines.append((f.pos, f"L[{lst}] = tuple({self.it(f.iter, ctx)})"))
            else:  # (the loop's count of rounds, in the slot after its list's, stays)
                lines.append((f.pos, f"{self._pat(f.pattern, ctx.env)} = L[{lst}][L[{lst + 1}] - 1]"))
        # the locals not live here that a step reads or sets: the sample drops them after the steps
        read = set().union(*(self._taint.local_reads(x[2].value if x[0] == "let" else x[1].iter) for x in steps))
        late = {i for i in read | {x[1] for x in steps if x[0] == "let"} if i not in live and i < self._named}
        if type(s) in (Choose, Simultaneously):
            self._late(pc, late, lines, self._recalcs)
        else:  # (a call: its arguments given again may read more: _pushed)
            self._pending_late = (late, lines)
        answered = self._answers.reads_tainted if self._mask is not None else (lambda e: False)
        if type(s) is Choose and not any(self._taint.reads_tainted(e) or answered(e) for e in (
                s.options, s.by, s.count, s.upto, s.unavailable, s.distinct)):
            self._same.add(pc)  # (its decision is the same in every sample: not asked again there)
        if type(s) is Choose:  # (the seat's own decision shows it these: its sample keeps them)
            shown = self._taint.local_reads((s.label, s.prompt, s.hint, s.unavailable)) - {
                self._slots[n] for n in s.pattern.names}
            shown = tuple(sorted(i for i in shown if i in self._taint.tainted))
            if shown:
                self._shown[pc] = shown
        if self._mask is not None:  # (what follows from another seat's answer: answered_again)
            blanks = [i for i in sorted(self._answers.tainted) if i in live]
            blanks += [lst for f, lst, depth in self._loops_open if self._answers.loops.get(id(f))]
            if blanks:
                self._blinds[pc] = (s.pos, tuple(blanks))

    def _answer_taint(self, body, slots: dict, params: tuple, name: str) -> None:
        """Which locals of the routine may hold what follows from a sealed answer: one given in a
        `simultaneously` body (or in a procedure such a body calls), which no other seat sees
        while the body runs (its variable, and what is worked out from it: taint.py with answers,
        the parameters some call gives such a value, param_taint); and, when one may be live
        where the routine waits, a slot (`_mask`) that holds the seats that answered its chooses
        (one bit each; -1 when that is not known): a sample of another seat sets those locals
        to none (`RW` functions, bots/stopped.py). The deciding seat knows its answer. (An
        answer given outside such a body is the others' to learn from what the rules do with it,
        docs/bots.md.)"""
        if getattr(self, "_params_answered", None) is None:  # (once per ruleset)
            self._no_secrets = self.secrets.none()
            self._params_answered = param_taint(self.spec, self._no_secrets, answers=True)
            self._answerers = answerers(self.spec, self._no_secrets.returns)
            self._threaded = threaded_procedures(self.spec)
        given = {slots[params[i]] for i in self._params_answered.get(name, ())}
        self._answers = Taint(body, slots, self._no_secrets, given, 2 if name in self._threaded else 1)
        dep = self._answers.tainted
        need = (given or any(self._answers.loops.values()) or any(dep.intersection(v) for v in self._live.values())
                or any(self._answers.reads_tainted(c.args) for c in self._stopping_calls(body)))
        self._mask = self._new_slot() if need else None
        self._blinds, self._blind_calls = {}, set()

    def _stopping_calls(self, body) -> list:
        """The calls of procedures that may stop in body (statements, and `let x = f(...)`)."""
        return [n for n in walked(tuple(body)) if type(n) in (Call, CallStmt) and self.suspending_call(n)]

    def _round_starts(self, loop) -> list:
        """At the top of each round of loop: the routine's mask of answering seats cleared, when
        no local that may follow from an answer is live there and no list of a loop around (or
        its own) does: whatever the round reads that follows from an answer then follows from
        one given in this round (a turn's locals, set again for each player, do not show the
        earlier players' answers to the one now deciding)."""
        m = self._mask
        if m is None or self._heads.get(id(loop), frozenset()) & self._answers.tainted:
            return []
        if any(self._answers.loops.get(id(f)) for f in [loop] + [f for f, _, _ in self._loops_open]):
            return []
        return [(0, f"L[{m}] = 0")]

    def _answered_by(self, by: str) -> list:
        """Where a choose resumes: the deciding seat (by, the generated expression) added to the
        routine's mask of the seats that answered (_answer_taint), if it has one."""
        m = self._mask
        return [] if m is None else [(0, f"L[{m}] = (L[{m}] or 0) | 1 << ({by})")]

    def _answer_call(self, s, value: bool, pc: int) -> list:
        """At a call that may stop, resuming at pc: note the call when it gives an argument that
        follows from an answer (the callee's frame then has its mask set to -1 in a sample whose
        seat did not give it: bots/stopped.py), and, for `let x = f(...)` with f a procedure
        that may give back what follows from an answer, the lines run once it has returned that
        add the seats that answered there (taint_rules.answerers: the arguments naming them, the
        caller's locals, which the callee validated as seats), or set it to -1 when they are not
        known."""
        if self._mask is None:
            return []
        if any(self._answers.reads_tainted(a) for a in s.args):
            self._blind_calls.add(pc)
            self._blinds.setdefault(pc, (s.pos, ()))
        funcs = [s.func] if s.slot_key is None else list(self.spec.slots[s.func].values())
        got = [self._answerers.get(f, frozenset()) for f in funcs if f in self._no_secrets.returns]
        if not value or not got:
            return []
        m = self._mask
        if None in got:  # (who answered is not known: as if another seat had)
            return [(0, f"L[{m}] = -1")]
        seats = sorted({i for g in got for i in g})
        if not all(i < len(s.args) and type(s.args[i]) is Name and s.args[i].id in self._slots for i in seats):
            return [(0, f"L[{m}] = -1")]  # (an argument that is not a local: what it was is not kept)
        bits = " | ".join(f"1 << L[{self._slots[s.args[i].id]}]" for i in seats)
        return [(0, f"L[{m}] = (L[{m}] or 0) | {bits}")] if bits else []

    def _reasked(self) -> dict:
        """The chooses of the routine a sample asks again (bots/sample.py ask_again): those whose
        options, count, chooser or clauses read a secret or a tainted local (taint.py). The others
        give the same decision in every sample (their cards relabelled): asking them again would
        only cost time."""
        return {pc: v for pc, v in self._asks.items() if pc not in self._same}

    def _pushed(self, s, ctx, pc: int) -> None:
        """A call that may stop, resuming at pc: the tainted arguments it gives, worked out again
        from the caller's locals in a bot's sample into the callee's frame G (its parameters)."""
        late, calcs = getattr(self, "_pending_late", None) or (set(), [])
        self._pending_late = None
        args = [(i, a) for i, a in enumerate(s.args) if self._taint.reads_tainted(a)]
        live = self._live.get(id(self._stopped), frozenset())
        late = late | {j for _, a in args for j in self._taint.local_reads(a) if j not in live and j < self._named}
        self._late(pc, late, calcs, self._recalcs if not args else None)
        if args:
            self._pushes[pc] = _guarded([(a.pos, f"G[2][{i}] = {self.ex(a, ctx)}") for i, a in args]
                                        + [(None, f"L[{j}] = None") for j in sorted(late)])

    def _late(self, pc: int, late: set, lines: list, into) -> None:
        """The locals not live at pc that the sample's steps there read or set (late): kept by
        `forget` (bots/sample.py) and set to none by the steps' end (added to lines when into is
        the RC dict, else by the call's RA). lines: the RC's lines."""
        if late:
            drop = tuple(i for i in self._drops.get(pc, ()) if i not in late)
            if drop:
                self._drops[pc] = drop
            else:
                self._drops.pop(pc, None)
            if into is not None:
                lines = lines + [(None, f"L[{i}] = None") for i in sorted(late)]
        if lines:
            self._recalcs[pc] = _guarded(lines)


def _guarded(lines) -> list:
    """(pos, line) of generated assignments, each that may fail on a sample's values made to set
    none instead (try/except); the ones setting none as they are."""
    pos = next((p for p, _ in lines if p is not None), None)
    out = []
    for p, line in lines:
        if line.endswith(" = None"):
            out.append((p or pos, line))
            continue
        target = line.partition(" = ")[0]
        none = "None" if not target.startswith("(") else "(" + "None, " * (target.count(",") + 1) + ")"
        out += [(p or pos, f"try: {line}"), (p or pos, f"except Exception: {target} = {none}")]
    return out
