"""Code generation, D_ versions: a routine that may stop, also as a plain function whose decisions
are answered where they are asked (Game.autoplay with direct=True), its `simultaneously` threads
as generators (class DirectRoutines, part of compile.Compiler)."""
from __future__ import annotations

from ..checks.facts import procedures_that
from ..language.tree import Assign, Choose, For, Let, Return, Simultaneously, walked
from .expr import Ctx, Emitter
from .independence import bound_outside, independent


class DirectRoutines:
    """Methods of compile.Compiler: D_ versions of routines that may stop."""

    def direct_routine(self, name: str, params: tuple, body: tuple, pos):
        """The D_ version of a routine that may stop (compiled after its R_ version, whose slots
        and label functions it shares): a plain function whose decisions are answered where
        they are asked, for Game.autoplay with direct=True."""
        o = self.out
        names = list(self._slots)  # in slot order
        labelled = any(isinstance(n, Choose) and max(self._choose_fns[id(n)]) >= 0 for n in walked(body))
        threads = any(isinstance(n, Simultaneously) for n in walked(body))
        self._locals_list = "[" + ", ".join(f"v_{n}" for n in names) + "]" if labelled else "None"
        o.emit(0, f"def D_{name}(S, T{''.join(', v_' + p for p in params)}):", pos)
        o.emit(1, "Z = S.z; V = S.v", pos)
        unset = [n for n in names if n not in params]
        if (labelled or threads) and unset:  # a label, or a thread's copy of the locals, may read one not set yet
            o.emit(1, " = ".join(f"v_{n}" for n in unset) + " = None", pos)
        self._generators = []
        self._routine = (body, params)  # (for independence.bound_outside)
        self.routine_body(body, Ctx({p: f"v_{p}" for p in params}, False, direct=True), pos)
        o.emit(0, "", None)
        for g in self._generators:
            o.lines.extend(g.lines)
            o.pos.extend(g.pos)
        self._locals_list = "None"

    def s_Simultaneously(self, s, ctx, ind):
        """A `simultaneously` in a D_ version: each thread's body is a generator that stops (yields
        its locals, for labels) at each decision; _join runs them all to their first decision, then
        has the first waiting one answered and run on, as the driver does with threads.

        Independent threads (independence.py) also run here, one after another in one loop, when
        Game.autoplay answers with a pick (S.alone): the same game, without generators or a call
        per thread."""
        uid = next(self.uid)
        gname = f"G{uid}"
        names = list(self._slots)  # the body's locals start as a copy of the routine's
        var = s.pattern.names[0]
        args = ", ".join("_it" if n == var else f"v_{n}" for n in names)
        if independent(s, self.layout, self.spec, bound_outside(*self._routine, s)) and not any(
                isinstance(n, Return) for n in walked(s.body)):
            # run thread by thread in one loop, here: the names a thread binds are its own (renamed
            # apart, set from the routine's at each thread's start, as a thread's copy of them
            # is), and T is the thread while the loop runs
            own = {n for n in walked(s.body) if isinstance(n, (Let, For, Choose))}
            own = {x for n in own for x in n.pattern.names} | {
                n.name for n in walked(s.body) if isinstance(n, Assign) and n.index is None and n.name in names}
            env = {n: f"v_{n}" for n in names}
            env.update({n: f"v_{n}__t{uid}" for n in own | {var}})
            known = self._scalar_codes  # (a thread's own copy of a scalar local holds one too)
            self._scalar_codes = known | {env[n] for n in own if f"v_{n}" in known}
            self._emit(ind, "if S.alone:", s)
            self._emit(ind + 1, "_t = [[], RUN, None, None, T[6], 0, -1]  # a thread of T's block, each in turn", s)
            self._emit(ind + 1, "_T, T = T, _t", s)
            self._emit(ind + 1, f"for {env[var]} in {self.walked(s.iter, ctx)}:", s)
            self._emit(ind + 2, "S.next_tid += 1  # (the id the driver's thread would have had)", s)
            for n in sorted(own - {var}):
                self._emit(ind + 2, f"{env[n]} = {'v_' + n if n in names else 'None'}", s)
            self._body(s.body, Ctx(env, False, direct=True, alone=True), ind + 2, s.pos)
            self._scalar_codes = known
            self._emit(ind + 1, "T = _T", s)
            self._emit(ind, "else:", s)
            ind += 1
        self._emit(ind, "_gs = []", s)
        self._emit(ind, f"for _it in {self.walked(s.iter, ctx)}:", s)
        self._emit(ind + 1, f"_t = _thread(S, T); _gs.append(({gname}(S, _t, {args}), _t))", s)
        self._emit(ind, "_join(S, _gs)", s)
        outer, self.out = self.out, Emitter()
        self.out.emit(0, f"def {gname}(S, T, {', '.join('v_' + n for n in names)}):", s.pos)
        self.out.emit(1, "Z = S.z; V = S.v", s.pos)
        self._body(s.body, Ctx({n: f"v_{n}" for n in names}, False, direct=True, spawned=True), 1, s.pos)
        self.out.emit(1, "yield from ()  # (a generator even with no choose)", s.pos)
        self.out.emit(0, "", None)
        self._generators.append(self.out)
        self.out = outer

    def in_generators(self, s) -> bool:
        """Whether a `simultaneously` can run as generators in a D_ version: one name per item,
        and no `simultaneously` or procedure that may stop inside it."""
        return not s.pattern.is_tuple and not any(
            isinstance(n, Simultaneously) or self.suspending_call(n) for n in walked(s.body))

    def spawning(self) -> set:
        """The procedures that start `simultaneously` threads that cannot run as generators
        (in_generators), themselves or through a call."""
        return procedures_that(self.spec, lambda n: isinstance(n, Simultaneously) and not self.in_generators(n))
