"""Code generation, routines that may stop: resumable state machines `def R(S, T, F)` made of
numbered blocks (class ResumableRoutines, part of program.Compiler; see program.py)."""
from __future__ import annotations

from dataclasses import replace

from ..language.tree import (Call, CallStmt, Choose, For, Let, Return, Simultaneously, author_name, returns_value,
                             walked)
from ..limits import MAX_DEPTH
from .branches import BranchSteps
from .expr import Ctx
from .liveness import live_after
from .sampling import SampleSteps
from .taint import Taint
from .taint_rules import param_taint


class ResumableRoutines(SampleSteps, BranchSteps):
    """Methods of program.Compiler: a routine that may stop, lowered into blocks (l_*)."""

    def stmt_suspends(self, s) -> bool:
        for n in walked(s):
            if isinstance(n, (Choose, Simultaneously)) or self.suspending_call(n):
                return True
        return False

    def suspending_call(self, n) -> bool:
        """Whether n calls a procedure that may stop (a call statement, or `let x = f(...)`)."""
        if isinstance(n, CallStmt):
            if n.slot_key is None:
                return n.func in self.suspends
            return any(p in self.suspends for p in self.spec.slots[n.func].values())
        return isinstance(n, Call) and n.func in self.suspends

    def resumable(self, fname: str, params: tuple, body: tuple):
        """Compile a routine that may stop, and the bodies of its `simultaneously` blocks."""
        slots = {}
        for p in params:
            slots.setdefault(p, len(slots))
        for n in walked(body):
            names = ()
            if isinstance(n, (Let, For, Choose, Simultaneously)):
                names = n.pattern.names
            for x in names:
                slots.setdefault(x, len(slots))
        self._hidden = self._named = len(slots)
        self._slots = slots
        self._heads: dict = {}  # id(loop) -> the slots live at the top of its rounds
        self._live = live_after(body, slots, self.stmt_suspends, self._heads)
        self._drops, self._asks, self._recalcs, self._pushes, self._shown = {}, {}, {}, {}, {}
        self._same = set()  # the resume points after a choose whose decision reads no secret
        self._params = len(params)
        if getattr(self, "_params_tainted", None) is None:  # (once per ruleset: taint.param_taint)
            self._params_tainted = param_taint(self.spec, self.secrets)
        name = fname[2:]
        self._taint = Taint(body, slots, self.secrets, {slots[params[i]] for i in self._params_tainted.get(name, ())})
        self._answer_taint(body, slots, params, name)
        self._number_taint(body, slots, params, name)
        self._loops_open = []  # the `for` loops being lowered, as (statement, list slot, routine depth)
        self._depth = 0  # how many `simultaneously` bodies deep the lowering is
        self._valued = returns_value(body)
        if self._valued:  # ending without `return EXPR` gives the caller none
            body = tuple(body) + (Return(None, None),)
        ctx = Ctx({p: f"L[{slots[p]}]" for p in params}, True, "", slots)
        for n in self._quiet:  # kept beside the log, by thread, frame depth and slot
            ctx.env[n] = f"S.lv[(T[6], len(T[0]), {slots[n]})]"
        rid = self._register(fname)
        blocks: list = [[]]  # each block: list of (indent, text, pos)
        self._lower(body, ctx, blocks)
        self.resume_drops[rid], self.reasks[rid], self.recalcs[rid] = self._drops, self._reasked(), self._recalcs
        self.pushes[rid], self.shown[rid] = self._pushes, self._shown
        self.blinds[rid], self.blind_calls[rid], self.masks[rid] = self._blinds, self._blind_calls, self._mask
        self.branches[rid] = self._branches
        self._flush_routine(fname, blocks)
        return rid, self._hidden

    def _stops_at(self, s, pc: int) -> None:
        """The routine waits at statement s and resumes at block pc: the named locals not live
        there (liveness.py), which a bot's sample drops."""
        self._stopped, self._pending_late = s, None
        live = self._live.get(id(s))
        if live is not None:
            drop = tuple(i for i in range(self._named) if i not in live)
            if drop:
                self._drops[pc] = drop
            self._again(live, pc, s)
        self._branch_at(s, pc)

    def _register(self, fname):
        rid = len(self.routines)
        self.routines.append(fname)
        self.routine_ids[fname] = rid
        return rid

    def _new_slot(self) -> int:
        self._hidden += 1
        return self._hidden - 1

    def _flush_routine(self, fname, blocks):
        o = self.out
        o.emit(0, f"def {fname}(S, T, F):", None)
        o.emit(1, "L = F[2]; Z = S.z; V = S.v; pc = F[1]", None)
        o.emit(1, "while True:", None)
        for i, b in enumerate(self._thread_jumps(blocks)):
            o.emit(2, f"if pc == {i}:", None)
            for k, (ind, text, pos) in enumerate(b):
                if k == len(b) - 1:
                    # the block's last jump: a later block is reached by the tests below it,
                    # an earlier one by going round the loop again
                    head, sep, target = text.rpartition("pc = ")
                    if sep and target.endswith("; continue") and target[:-10].isdigit() and int(target[:-10]) > i:
                        text = head + f"pc = {target[:-10]}"
                o.emit(3 + ind, text, pos)
        o.emit(0, "", None)

    @staticmethod
    def _thread_jumps(blocks) -> list:
        """The blocks of a routine, each ending in a jump or a return, with jumps to blocks
        that only jump on going straight to where those lead, and nothing after a block's last
        jump or return."""
        last = len(blocks) - 1
        ends = ("return", "pc = ", "continue")
        out = []
        for i, b in enumerate(blocks):
            b = list(b)
            for k, (ind, text, _) in enumerate(b):
                if ind == 0 and not text.startswith("if ") and (text.startswith(ends) or text.endswith("; continue")):
                    del b[k + 1:]  # unreachable
                    break
            else:
                b.append((0, "return RET" if i == last else f"pc = {i + 1}; continue", None))
            out.append(b)

        def target(i, seen=()):
            b = out[i]
            if len(b) == 1 and b[0][1].startswith("pc = ") and b[0][1].endswith("; continue") and i not in seen:
                return target(int(b[0][1][5:-10]), seen + (i,))
            return i

        def rewrite(text):
            head, sep, rest = text.rpartition("pc = ")
            if sep and rest.endswith("; continue") and rest[:-10].isdigit():
                return f"{head}pc = {target(int(rest[:-10]))}; continue"
            return text

        return [[(ind, rewrite(text), pos) for ind, text, pos in b] for b in out]

    def _plain_into(self, stmts, ctx, block):
        """Compile plain statements into the current block."""
        start = len(self.out.lines)
        self.plain(stmts, ctx, 0)
        lines, poss = self.out.lines[start:], self.out.pos[start:]
        del self.out.lines[start:], self.out.pos[start:]
        for text, pos in zip(lines, poss):
            stripped = text.lstrip(" ")
            block.append(((len(text) - len(stripped)) // 4, stripped, pos))

    def _lower(self, stmts, ctx, blocks):
        """Lower statements that may stop into numbered blocks of the routine's state machine."""
        pending = []
        for s in stmts:
            if not self.stmt_suspends(s):
                pending.append(s)
                noted = self._record_at(s) if type(s) is Let else None  # (who knows what it read: branches.py)
                if noted:
                    self._plain_into(pending, ctx, blocks[-1])
                    blocks[-1].extend((0, line, s.pos) for line in noted.splitlines())
                    pending = []
                continue
            if pending:
                self._plain_into(pending, ctx, blocks[-1])
                pending = []
            if self.coverage:
                blocks[-1].append((0, self._count(s), s.pos))
            getattr(self, "l_" + type(s).__name__)(s, ctx, blocks)
        if pending:
            self._plain_into(pending, ctx, blocks[-1])

    def _goto(self, blocks, target_index_ref, pos):
        blocks[-1].append((0, f"pc = {target_index_ref}; continue", pos))

    def _open(self, blocks) -> int:
        blocks.append([])
        return len(blocks) - 1

    def _ctx_in_loop(self, ctx, exit_ref):
        return replace(ctx, brk=f"pc = {exit_ref}; continue")

    def l_Let(self, s, ctx, blocks):
        """`let x = f(...)` with f a procedure that may stop: the call, then x is what it returned."""
        self.l_CallStmt(CallStmt(s.pos, s.value.func, None, s.value.args), ctx, blocks, value=True, stmt=s)
        self._declare(s.pattern, ctx)
        blocks[-1].append((0, f"{self._pat(s.pattern, ctx.env)} = T[3]", s.pos))

    def l_Assign(self, s, ctx, blocks):
        """`x = f(...)` (or `+=`, `-=`) with f a procedure that may stop."""
        self.l_CallStmt(CallStmt(s.pos, s.value.func, None, s.value.args), ctx, blocks, value=True, stmt=s)
        target = ctx.env[s.name] if s.name in ctx.env else self.counter_ref(s.name, s.index, ctx, key=s.key)
        step = f"{target} = _add({target}, T[3])" if s.op == "+=" else f"{target} {s.op} T[3]"
        blocks[-1].append((0, step, s.pos))

    def l_CallStmt(self, s, ctx, blocks, value=False, stmt=None):
        cur = blocks[-1]
        args = [self.ex(a, ctx) for a in s.args]
        nxt = len(blocks)
        self._stops_at(stmt or s, nxt)
        self._pushed(s, ctx, nxt)
        returned = self._answer_call(s, value, nxt)
        cur.append((0, f"F[1] = {nxt}", s.pos))
        # Push the callee's frame and run it at once; only if it stops does the driver take over.
        # A routine that can call itself counts the frames nested (the flow's is the first) first.
        call = (f"_f = [_t[0], 0, [{', '.join(args)}] + [None] * _t[1]]; T[0].append(_f); "
                f"_r = ROUT[_t[0]](S, T, _f)")
        counted = None
        at_once = f"(S, T{''.join(', ' + a for a in args)}); pc = {nxt}; continue"
        if s.slot_key is None:
            if s.func in self.direct:  # autoplay(direct=True): on the main thread, as a plain function
                keep = "T[3] = " if value else ""  # (what it returns, for `let x = f(...)`)
                cur.append((0, f"if S.direct and T[4] < 0: {keep}D_{s.func}{at_once}", s.pos))
            if s.func in self.calls_itself:
                cur.append((0, f"if len(T[0]) > {MAX_DEPTH}: _too_deep({author_name(s.func)!r})", s.pos))
            cur.append((0, f"_t = RS_{s.func}", s.pos))
        elif self.powers:  # count the slot's use and the score change of the seat it is for
            counted = self._new_slot()  # holds what _SLOT_IN saw until the slot's procedure ends
            cur.append((0, f"_k = {self.ex(s.slot_key, ctx)}; _a = ({''.join(a + ', ' for a in args)})", s.pos))
            cur.append((0, f"L[{counted}] = _SLOT_IN(S, {s.func!r}, _k, _a); _t = SLOT_{s.func}[_k]", s.pos))
            cur.append((0, f"if _t[0] < 0: _t[2](S, *_a); pc = {nxt}; continue", s.pos))
            call = "_f = [_t[0], 0, list(_a) + [None] * _t[1]]; T[0].append(_f); _r = ROUT[_t[0]](S, T, _f)"
        else:
            cur.append((0, f"_t = SLOT_{s.func}[{self.ex(s.slot_key, ctx)}]", s.pos))
            cur.append((0, f"if _t[0] < 0: _t[2](S{''.join(', ' + a for a in args)}); pc = {nxt}; continue", s.pos))
            if any(p in self.direct for p in self.spec.slots[s.func].values()):
                cur.append((0, f"if S.direct and T[4] < 0 and _t[3] is not None: _t[3]{at_once}", s.pos))
        cur.append((0, call, s.pos))
        cur.append((0, "if _r is not RET: return _r", s.pos))
        cur.append((0, f"T[0].pop(); pc = {nxt}; continue", s.pos))
        after = blocks[self._open(blocks)]
        after.extend((i, t, s.pos) for i, t in returned)
        if counted is not None:
            after.append((0, f"_SLOT_OUT(S, L[{counted}]); L[{counted}] = None", s.pos))

    def l_If(self, s, ctx, blocks):
        mark = f"@I{next(self.uid)}@"
        cur = blocks[-1]
        for cond, body in s.branches:
            bi = len(blocks)
            cur.append((0, f"if {self.ex(cond, ctx)}:", s.pos))
            cur.append((1, f"pc = {bi}; continue", s.pos))
            self._open(blocks)
            self._lower(body, ctx, blocks)
            blocks[-1].append((0, f"pc = {mark}; continue", s.pos))
        if s.orelse is not None:
            bi = len(blocks)
            cur.append((0, f"pc = {bi}; continue", s.pos))
            self._open(blocks)
            self._lower(s.orelse, ctx, blocks)
            blocks[-1].append((0, f"pc = {mark}; continue", s.pos))
        else:
            cur.append((0, f"pc = {mark}; continue", s.pos))
        after = self._open(blocks)
        self._patch(blocks, mark, after)

    def _patch(self, blocks, mark, value):
        for b in blocks:
            for i, (ind, text, pos) in enumerate(b):
                if text and mark in text:
                    b[i] = (ind, text.replace(mark, str(value)), pos)

    def l_While(self, s, ctx, blocks):
        mark = f"@W{next(self.uid)}@"
        head = self._open_from(blocks, s)
        blocks[head].append((0, "S.steps += 1", s.pos))
        blocks[head].append((0, f"if S.steps > BUDGET: _budget(S, {str(s.pos)!r})", s.pos))
        blocks[head].append((0, f"if not {self.ex(s.cond, ctx)}: pc = {mark}; continue", s.pos))
        blocks[head].extend((i, t, s.pos) for i, t in self._round_starts(s))
        self._lower(s.body, self._ctx_in_loop(ctx, mark), blocks)
        blocks[-1].append((0, f"pc = {head}; continue", s.pos))
        after = self._open(blocks)
        self._patch(blocks, mark, after)

    def _open_from(self, blocks, s) -> int:
        nb = len(blocks)
        blocks[-1].append((0, f"pc = {nb}; continue", s.pos))
        self._open(blocks)
        return nb

    def l_For(self, s, ctx, blocks):
        mark = f"@F{next(self.uid)}@"
        lst, ix = self._new_slot(), self._new_slot()
        blocks[-1].append((0, f"L[{lst}] = tuple({self.it(s.iter, ctx)}); L[{ix}] = 0", s.pos))
        head = self._open_from(blocks, s)
        self._declare(s.pattern, ctx)
        blocks[head].append((0, f"if L[{ix}] >= len(L[{lst}]): pc = {mark}; continue", s.pos))
        blocks[head].append((0, f"{self._pat(s.pattern, ctx.env)} = L[{lst}][L[{ix}]]; L[{ix}] += 1", s.pos))
        blocks[head].extend((i, t, s.pos) for i, t in self._round_starts(s))
        if self._counts_rounds(s, ctx):
            blocks[head].append((0, "S.steps += 1", s.pos))
            blocks[head].append((0, f"if S.steps > BUDGET: _budget(S, {str(s.pos)!r})", s.pos))
        self._loops_open.append((s, lst, self._depth))
        self._lower(s.body, self._ctx_in_loop(ctx, mark), blocks)
        self._loops_open.pop()
        blocks[-1].append((0, f"pc = {head}; continue", s.pos))
        after = self._open(blocks)
        blocks[after].append((0, f"L[{lst}] = None", s.pos))
        self._patch(blocks, mark, after)

    def l_Simultaneously(self, s, ctx, blocks):
        body_name = f"B{next(self.uid)}"
        # the body runs as its own routine, with the same slots for locals
        self._declare(s.pattern, ctx)
        body_blocks: list = [[]]
        body_ctx = replace(ctx, env=dict(ctx.env), brk="", spawned=True)
        outer = (self._drops, self._asks, self._recalcs, self._pushes, self._shown, self._same, self._blinds, self._blind_calls,
                 self._branches)
        self._drops, self._asks, self._recalcs, self._pushes, self._shown = {}, {}, {}, {}, {}  # (numbered apart)
        self._same, self._blinds, self._blind_calls, self._branches = set(), {}, set(), {}
        self._depth += 1
        self._lower(s.body, body_ctx, body_blocks)
        self._depth -= 1
        rid = self._register(body_name)
        self.resume_drops[rid], self.reasks[rid], self.recalcs[rid] = self._drops, self._reasked(), self._recalcs
        self.pushes[rid], self.shown[rid] = self._pushes, self._shown
        self.blinds[rid], self.blind_calls[rid], self.masks[rid] = self._blinds, self._blind_calls, self._mask
        self.branches[rid] = self._branches
        (self._drops, self._asks, self._recalcs, self._pushes, self._shown, self._same, self._blinds, self._blind_calls,
         self._branches) = outer
        self._pending_bodies.append((body_name, body_blocks))
        nxt = len(blocks)
        self._stops_at(s, nxt)
        slots = [ctx.slots[n] for n in s.pattern.names]
        cur = blocks[-1]
        cur.append((0, f"F[1] = {nxt}", s.pos))
        cur.append((0, f"if _spawn(S, T, {rid}, L, {self.it(s.iter, ctx)}, {slots}, {s.pattern.is_tuple}): return WAIT", s.pos))
        cur.append((0, f"pc = {nxt}; continue", s.pos))
        self._open(blocks)

