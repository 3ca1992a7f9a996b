"""Code generation, statements that never stop at a decision: plain Python statements (class
PlainStatements, part of program.Compiler)."""
from __future__ import annotations

from dataclasses import replace
import re

from ..language.tree import (Call, CallStmt, Choose, For, Index, Int, ListComp, ListLit, Name,
                             Simultaneously, While, walk)
from ..limits import MAX_RANGE, SMALL_LOOP

# a compiled expression that only reads a local (plain or in a resumable routine's list): read
# again, it is the same value
PLAIN_READ = re.compile(r"v_\w+|L\[\d+\]")


def blind_prologues(lines: list) -> list:
    """The lines with `B = S.vis.blind is S.vis` (whether the game is played blind, read by the
    moves and reveals below) added to the first line of each function that reads B: its prologue
    (`Z = S.z`, `L = F[2]; ...` or `pass`), so that every line keeps its number."""
    out = list(lines)
    for i, line in enumerate(out[:-1]):
        if line.startswith("def "):
            end = next((j for j in range(i + 1, len(out)) if out[j].startswith("def ")), len(out))
            if re.search(r"\bB\b", "\n".join(out[i + 2:end])):
                head = out[i + 1]
                out[i + 1] = "    B = S.vis.blind is S.vis" if head == "    pass" else head + "; B = S.vis.blind is S.vis"
    return out


class PlainStatements:
    """Methods of program.Compiler: statements as plain Python (s_*), with coverage counts."""

    def plain(self, stmts, ctx, ind):
        """Emit statements that never stop at a decision."""
        for s in stmts:
            if self.coverage and s.pos is not None:  # (not the `return` a valued routine ends with)
                self._emit(ind, self._count(s), s)
            getattr(self, "s_" + type(s).__name__)(s, ctx, ind)

    def _count(self, s, what: str | None = None) -> str:
        """With coverage: the line that counts a run of statement s (or of a function)."""
        self.sites.append((s.pos, what or type(s).__name__.lower()))
        return f"_C[{len(self.sites) - 1}] += 1"

    def _emit(self, ind, text, s):
        self.out.emit(ind, text, s.pos)

    def s_Let(self, s, ctx, ind):
        self._declare(s.pattern, ctx)
        guard = "if S.log is not None: " if set(s.pattern.names) <= self._quiet else ""
        if not guard and s.pattern.names[0] not in self._sets and self._let_loop(s, ctx, ind):
            return
        value = self._as_set(s.value, ctx) if s.pattern.names[0] in self._sets else self.ex(s.value, ctx)
        self._emit(ind, f"{guard}{self._pat(s.pattern, ctx.env)} = {value}", s)

    def _let_loop(self, s, ctx, ind) -> bool:
        """`let x = [e for v in xs if c]` over what is no zone, of no faster form, as a loop that
        appends to a new list: CPython 3.11 makes a function for a comprehension, and calls and
        frees it, each time it runs (about 1,000 instructions); v is named apart (`_lv3`), so it
        can be no other name of the routine. The same items in the same order, the same tests."""
        e = s.value
        if not isinstance(e, ListComp) or len(e.fors) != 1 or e.fors[0].pattern.is_tuple or s.pattern.is_tuple:
            return False
        f = e.fors[0]
        if self.zone_index(f.iter, ctx) is not None or self._fused(e.fors, ctx) is not None:
            return False
        if self._pipeline(e.elt, e.fors, ctx) is not None or self._product(e, ctx) or self.known_items(e, ctx) \
                or self.unrolled(e, ctx):
            return False
        self._lets = n = getattr(self, "_lets", 0) + 1
        inner = replace(ctx, env={**ctx.env, f.pattern.names[0]: f"_lv{n}"})
        self._emit(ind, f"_lc{n} = []", s)
        self._emit(ind, f"for _lv{n} in {self.it(f.iter, ctx)}:", s)
        add = f"_lc{n}.append({self.ex(e.elt, inner)})"
        self._emit(ind + 1, add if f.cond is None else f"if {self.ex(f.cond, inner)}: {add}", s)
        self._emit(ind, f"{self._pat(s.pattern, ctx.env)} = _lc{n}", s)
        return True

    def _declare(self, pattern, ctx):
        for n in pattern.names:
            if n not in ctx.env:
                if ctx.resumable:
                    ctx.env[n] = f"L[{ctx.slots[n]}]"
                else:
                    ctx.env[n] = f"v_{n}"

    def s_Assign(self, s, ctx, ind):
        if s.name in ctx.env:
            target = ctx.env[s.name]
        else:
            target = self.counter_ref(s.name, s.index, ctx, key=s.key)
        if s.op == "+=" and not self.number(s.value, ctx):  # xs += xs: bounded as `+` is
            self._emit(ind, f"{target} = _add({target}, {self.ex(s.value, ctx)})", s)
        else:
            self._emit(ind, f"{target} {s.op} {self.ex(s.value, ctx)}", s)

    def s_SetMark(self, s, ctx, ind):
        default = (self.marks.get(s.target.name) or {}).get("default")
        self._emit(ind, f"_set_mark(S, {self.ex(s.target.obj, ctx)}, {s.target.name!r}, {self.ex(s.value, ctx)}, "
                        f"{default!r})", s)

    def s_If(self, s, ctx, ind):
        for i, (cond, body) in enumerate(s.branches):
            self._emit(ind, f"{'if' if i == 0 else 'elif'} {self.ex(cond, ctx)}:", s)
            self._body(body, ctx, ind + 1, s.pos)
        if s.orelse is not None:
            self._emit(ind, "else:", s)
            self._body(s.orelse, ctx, ind + 1, s.pos)

    def _body(self, body, ctx, ind, pos):
        n = len(self.out.lines)
        self.plain(body, ctx, ind)
        if len(self.out.lines) == n:
            self.out.emit(ind, "pass", pos)

    def walked(self, e, ctx) -> str:
        """e as the items a plain-Python `for` walks: a copy taken first (the body may move the
        cards of a zone it walks), unless e is made afresh (a call, a comprehension) or constant."""
        if isinstance(e, Call) and e.func == "range":
            return self._range(e, ctx)
        fresh = (isinstance(e, (ListComp, ListLit)) or (isinstance(e, Call) and e.func in (
            "turn_order", "reverse", "sort_by", "made")) or (isinstance(e, Name) and e.id not in ctx.env and (
                e.id == "players" or e.id in self.spec.constants)))
        return self.it(e, ctx) if fresh else f"tuple({self.it(e, ctx)})"

    def _range(self, e, ctx) -> str:
        """range(...): its numbers are charged to the step budget (a loop over them, or a
        comprehension, is as many steps), and there are at most MAX_RANGE of them; a short range
        of whole numbers written out (range(2)) is known here, and is a plain range."""
        if self._constant_range(e, SMALL_LOOP, ctx):
            return f"range({', '.join(map(str, self._known_ints(e.args, ctx)))})"
        return f"_range(S, {str(e.pos)!r}{''.join(', ' + self.it(x, ctx) for x in e.args)})"

    def _constant_range(self, e, most: int = MAX_RANGE, ctx=None) -> bool:
        """Whether e is range(...) of whole numbers known here (written out, or the length of a
        constant list), at most `most` of them."""
        if not (isinstance(e, Call) and e.func == "range" and 1 <= len(e.args) <= 3):
            return False
        values = self._known_ints(e.args, ctx)
        return values is not None and (len(values) < 3 or values[2] != 0) and len(range(*values)) <= most

    def _known_ints(self, args, ctx) -> list | None:
        """The whole numbers args are, when each is one written out or `len(name)` of a constant
        list (with ctx: a name no local hides); else None."""
        out = []
        for x in args:
            if isinstance(x, Int):
                out.append(x.value)
            elif (ctx is not None and isinstance(x, Call) and x.func == "len" and len(x.args) == 1
                  and isinstance(x.args[0], Name) and x.args[0].id not in ctx.env
                  and isinstance(self.spec.constants.get(x.args[0].id), list)):
                out.append(len(self.spec.constants[x.args[0].id]))
            else:
                return None
        return out

    def _counts_rounds(self, s, ctx) -> bool:
        """Whether a `for` counts its rounds against the step budget. Not over a range (its numbers
        were charged already), nor over a few items known when the rules are compiled (the
        players, a constant list, range(2): limits.SMALL_LOOP) when its body runs no loop, choose
        or procedure, and calls only functions of loop-free code (_leaf): its rounds add a bounded
        share of work to each counted step."""
        it = s.iter
        if isinstance(it, Call) and it.func == "range" and not self._constant_range(it, SMALL_LOOP, ctx):
            return False  # (charged by _range)
        few = (self._constant_range(it, SMALL_LOOP, ctx) or (isinstance(it, Call) and it.func == "turn_order")
               or (isinstance(it, Name) and it.id not in ctx.env and (it.id == "players" or (
                   isinstance(self.spec.constants.get(it.id), list) and len(self.spec.constants[it.id]) <= SMALL_LOOP))))
        return not (few and self._leaf(s.body))

    def _leaf(self, body) -> bool:
        """Whether a body runs no loop, `simultaneously`, choose or call of a procedure, nor calls
        a function that does or may call itself (a function of loop-free code: its work is
        bounded as the body's own expressions are)."""
        return not any(isinstance(n, (For, While, Simultaneously, Choose, CallStmt))
                       or (isinstance(n, Call) and n.func in self.spec.procedures)
                       or (isinstance(n, Call) and n.func in self.spec.functions and n.func not in self._leaf_functions)
                       for n in walk(body))

    @property
    def _leaf_functions(self) -> frozenset:
        """The functions whose code, and that of every function they call, runs no loop,
        `simultaneously`, choose or call of a procedure, and that cannot call themselves."""
        if getattr(self, "_leaves", None) is None:
            spec = self.spec
            out = set(spec.functions) - self.calls_itself
            while True:
                drop = {f for f in out if any(
                    isinstance(n, (For, While, Simultaneously, Choose, CallStmt))
                    or (isinstance(n, Call) and (n.func in spec.procedures or n.func in spec.functions and n.func not in out))
                    for n in walk(spec.functions[f].body))}
                if not drop:
                    break
                out -= drop
            self._leaves = frozenset(out)
        return self._leaves

    def s_For(self, s, ctx, ind):
        self._declare(s.pattern, ctx)
        self._emit(ind, f"for {self._pat(s.pattern, ctx.env)} in {self.walked(s.iter, ctx)}:", s)
        if self._counts_rounds(s, ctx):
            self._emit(ind + 1, "S.steps += 1", s)
            self._emit(ind + 1, f"if S.steps > BUDGET: _budget(S, {str(s.pos)!r})", s)
        self._body(s.body, replace(ctx, brk="break"), ind + 1, s.pos)

    def s_While(self, s, ctx, ind):
        self._emit(ind, f"while {self.ex(s.cond, ctx)}:", s)
        self._emit(ind + 1, "S.steps += 1", s)
        self._emit(ind + 1, f"if S.steps > BUDGET: _budget(S, {str(s.pos)!r})", s)
        self._body(s.body, replace(ctx, brk="break"), ind + 1, s.pos)

    def s_Break(self, s, ctx, ind):
        for line in ctx.brk.split("\n"):
            self._emit(ind, line, s)

    def _played_zone(self, e) -> str | None:
        """', fixed, per' (the layout's zones that are no seat's, and each seat's) for a move
        into a zone that keeps who played each card (`played_by: true`); else None."""
        name = e.id if isinstance(e, Name) else e.obj.id if isinstance(e, Index) and isinstance(e.obj, Name) else None
        lay = self.layout
        if name is None or not (lay.zone_def.get(name) or {}).get("played_by"):
            return None
        return f", {len(lay.fixed_zones)}, {len(lay.player_zones)}"

    def _plainly_entered(self, e) -> bool:
        """Whether a card moved into zone e may need no more than an int plan (runtime/plans.py
        move_plan): e is not a `visible: top` zone and no mark falls off a card entering it."""
        name = e.id if isinstance(e, Name) else e.obj.id if isinstance(e, Index) and isinstance(e.obj, Name) else None
        if name is None or name not in self.layout.zone_def:
            return False
        kept = [(d or {}).get("kept_in") for d in self.spec.marks.values()]
        return self.layout.zone_def[name].get("visible") != "top" and not any(k and name not in k for k in kept)

    def _top_zones(self) -> bool:
        """Whether some zone of the rules is `visible: top`."""
        return any(d.get("visible") == "top" for d in self.layout.zone_def.values())

    def s_Move(self, s, ctx, ind):
        dest = self.zone_index(s.dest, ctx)
        src = self.zone_index(s.what, ctx)
        played = self._played_zone(s.dest)
        if played is not None:  # the zone keeps who played each card
            if src is not None:
                self._emit(ind, f"_played_move_all(S, {src}, {dest}, {s.bottom}{played})", s)
            else:
                self._emit(ind, f"_played_move(S, {self.ex(s.what, ctx)}, {dest}{played}, {s.bottom})", s)
        elif src is not None and not s.bottom and self._plainly_entered(s.dest) and not self._top_zones():
            # a whole zone in a game played blind: moves.move_all's cards and places, without a call
            # (no plan is None without a `top` zone and where no mark falls off: nothing else to do)
            self._emit(ind, f"_ms = {src}; _md = {dest}", s)
            self._emit(ind, "if B and _ms != _md:", s)
            self._emit(ind + 1, "_mw = Z[_ms]", s)
            self._emit(ind + 1, "if _mw:", s)
            self._emit(ind + 2, "Z[_ms] = []; Z[_md].extend(_mw); _ml = S.loc", s)
            self._emit(ind + 2, "for _mx in _mw: _ml[_mx] = _md", s)
            self._emit(ind, "else: _move_all(S, _ms, _md, False)", s)
        elif src is not None:
            self._emit(ind, f"_move_all(S, {src}, {dest}, {s.bottom})", s)
        elif not s.bottom and self._plainly_entered(s.dest):
            what = self.ex(s.what, ctx)
            if not PLAIN_READ.fullmatch(what):  # (read once)
                self._emit(ind, f"_mw = {what}", s)
                what = "_mw"
            # one card whose move only changes where it is and who knows it (an int plan, the
            # commonest): moves.move's first case, without a call (the zones read from the function's
            # Z, which is S.z)
            blind = not self._top_zones()
            if blind:  # (a game played blind: its place only; who knows it is read nowhere there)
                self._emit(ind, f"if B and type({what}) is _Card: _md = {dest}; _ml = S.loc; "
                                f"Z[_ml[{what}]].remove({what}); Z[_md].append({what}); _ml[{what}] = _md", s)
            self._emit(ind, f"{'elif' if blind else 'if'} type({what}) is _Card and (_mh := S.vis.plan[(_ms := S.loc[{what}])][(_md := {dest})])"
                            f".__class__ is int: Z[_ms].remove({what}); Z[_md].append({what}); "
                            f"S.loc[{what}] = _md; S.k[{what}] = _mh", s)
            if blind:
                # a list in a game played blind: each card's zone and place, as moves.move does
                # there (no plan is None without a `top` zone, and no mark falls off here)
                self._emit(ind, f"elif type({what}) is list and B:", s)
                self._emit(ind + 1, f"_md = {dest}; _mz = Z[_md]; _ml = S.loc", s)
                self._emit(ind + 1, f"for _mx in tuple({what}): Z[_ml[_mx]].remove(_mx); _mz.append(_mx); "
                                    "_ml[_mx] = _md", s)
            self._emit(ind, f"else: _move(S, {what}, {dest})", s)
        else:
            self._emit(ind, f"{'_move_under' if s.bottom else '_move'}(S, {self.ex(s.what, ctx)}, {dest})", s)

    def s_Draw(self, s, ctx, ind):
        played = self._played_zone(s.dest)
        if played is not None:  # the zone keeps who played each card
            self._emit(ind, f"_played_draw(S, {self.ex(s.count, ctx)}, {self.zone_index(s.src, ctx)}, "
                            f"{self.zone_index(s.dest, ctx)}{played})", s)
            return
        src, dest = self.zone_index(s.src, ctx), self.zone_index(s.dest, ctx)
        if self._plainly_entered(s.dest) and not self._top_zones():
            # a game played blind: moves.draw's cards and places, without a call (no plan is None)
            self._emit(ind, f"_mn = {self.ex(s.count, ctx)}; _ms = {src}; _md = {dest}", s)
            self._emit(ind, "if B and type(_mn) is int:", s)
            self._emit(ind + 1, "_mw = Z[_ms]; _mz = Z[_md]; _ml = S.loc", s)
            self._emit(ind + 1, "while _mn > 0 and _mw: _mn -= 1; _mx = _mw.pop(); _mz.append(_mx); _ml[_mx] = _md", s)
            self._emit(ind, "else: _draw(S, _mn, _ms, _md)", s)
            return
        self._emit(ind, f"_draw(S, {self.ex(s.count, ctx)}, {src}, {dest})", s)

    def s_Shuffle(self, s, ctx, ind):
        self._emit(ind, f"_shuffle(S, {self.zone_index(s.zone, ctx)})", s)

    def s_Remove(self, s, ctx, ind):
        name = s.zone.obj.id  # (checked: a family's zone, name[key])
        base, _, slot = self.layout.families[name]
        self._emit(ind, f"_remove(S, {slot}, {base}, {self.ex(s.zone.index, ctx)}, {name!r})", s)

    def s_Reveal(self, s, ctx, ind):
        to = self.ex(s.to, ctx) if s.to is not None else "None"
        what = self.it(s.what, ctx)
        if PLAIN_READ.fullmatch(what) and (to == "None" or PLAIN_READ.fullmatch(to)):
            # (a game played blind: moves.reveal returns at once, so no call; only where reading
            # what is shown and to whom can raise no error, so that nothing else changes)
            self._emit(ind, f"if not B: _reveal(S, {what}, {to})", s)
            return
        self._emit(ind, f"_reveal(S, {what}, {to})", s)

    def s_Log(self, s, ctx, ind):
        if s.to is None:
            self._emit(ind, f"if S.log is not None: S.log.append(_event(S, {self.text(s.message, ctx)}))", s)
            return
        orelse = "None" if s.orelse is None else self.text(s.orelse, ctx)
        self._emit(ind, f"if S.log is not None: S.log.append(_event_to(S, {self.ex(s.to, ctx)}, "
                        f"{self.text(s.message, ctx)}, {orelse}))", s)

    def s_Show(self, s, ctx, ind):
        self._emit(ind, f"if S.log is not None: S.log.append(_table(S, {self.text(s.title, ctx)}, "
                        f"{self.ex(s.columns, ctx)}, {self.ex(s.rows, ctx)}))", s)

    def s_Return(self, s, ctx, ind):
        value = "None" if s.value is None else self.ex(s.value, ctx)
        if ctx.resumable:  # the value for the caller's `let x = f(...)` is left in the thread
            self._emit(ind, f"T[3] = {value}; return RET" if self._valued else "return RET", s)
        else:
            self._emit(ind, "return" if s.value is None else f"return {value}", s)

    def s_CallStmt(self, s, ctx, ind):
        if self.inlinable_call(s, ctx):  # (a procedure called from this place only: inline_calls.py)
            self.inline_call(s, ctx, ind)
            return
        args = "".join(", " + self.ex(a, ctx) for a in s.args)
        direct = ctx.direct and self.stmt_suspends(s)  # a routine that may stop, run as a plain function
        if s.slot_key is None:
            self._emit(ind, f"D_{s.func}(S, T{args})" if direct else f"P_{s.func}(S{args})", s)
        elif self.powers:  # count the slot's use and the score change of the seat it is for
            self._emit(ind, f"_k = {self.ex(s.slot_key, ctx)}; _a = ({args[2:]}{',' if args else ''})", s)
            call = ("_t = SLOT_{0}[_k]; (_t[2](S, *_a) if _t[0] < 0 else _t[3](S, T, *_a))" if direct
                    else "SLOT_{0}[_k][2](S, *_a)").format(s.func)
            self._emit(ind, f"_b = _SLOT_IN(S, {s.func!r}, _k, _a); {call}; _SLOT_OUT(S, _b)", s)
        elif direct:
            self._emit(ind, f"_t = SLOT_{s.func}[{self.ex(s.slot_key, ctx)}]; "
                            f"(_t[2](S{args}) if _t[0] < 0 else _t[3](S, T{args}))", s)
        else:
            self._emit(ind, f"SLOT_{s.func}[{self.ex(s.slot_key, ctx)}][2](S{args})", s)
