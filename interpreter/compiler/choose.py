"""Code generation, decisions: a `choose` in a routine that may stop (l_Choose) and in its D_
version (s_Choose), with the functions for its labels, hints, prompt and unavailable options
(class Chooses, part of compile.Compiler)."""
from __future__ import annotations

from .expr import Ctx


class Chooses:
    """Methods of compile.Compiler: the decisions a `choose` asks."""

    def s_Choose(self, s, ctx, ind):
        """A choose in a D_ version: answered at once (Game.autoplay with direct=True)."""
        label_id, prompt_id, unavailable_id = self._choose_fns[id(s)]
        by = self.ex(s.by, ctx) if s.by is not None else "0"
        count = self.ex(s.count, ctx) if s.count is not None else "None"
        upto = self.ex(s.upto, ctx) if s.upto is not None else "None"
        options = self.ex(s.options, ctx)
        # the locals, for the decision's labels (none when alone: a pick answers, reading no labels)
        L = "" if self._locals_list == "None" or ctx.alone else ", S.alone or " + self._locals_list
        one = count == upto == "None" and not s.optional and unavailable_id < 0
        optional_one = count == upto == "None" and s.optional and unavailable_id < 0
        pairs = self._pairs(s.options, ctx) if one else None  # (xs, ys): the options are xs x ys
        key = "" if s.distinct is None else ", " + self.ex(s.distinct, ctx)
        if one:
            call = f"_decide_one(S, T, {by}, {options}, {label_id}, {prompt_id})"
        else:
            call = (f"_decide(S, T, None, {by}, {options}, {count}, {upto}, {s.optional}, {label_id}, "
                    f"{prompt_id}, {unavailable_id}{key})")
        # the answer into the pattern's names
        self._declare(s.pattern, ctx)
        pat = self._pat(s.pattern, ctx.env)
        if s.pattern.is_tuple:
            assign = f"{pat} = T[3] if T[3] is not None else ({', '.join('None' for _ in s.pattern.names)})"
        else:
            assign = f"{pat} = T[3]"
        # a uniformly random seat's answer drawn here (uniform.py): any choose but a `distinct`
        # one of a single option (which no rules write)
        drawn = s.distinct is None or count != "None" or upto != "None"
        # (what autoplay is asked otherwise, reading the drawn options and count: uniform_any)
        drawn_rest = (f"{'_uq' if count != 'None' else 'None'}, {'_uq' if count == 'None' and upto != 'None' else upto}, "
                      f"{s.optional}, {label_id}, {prompt_id}, {unavailable_id}{key}")
        if ctx.spawned:  # a thread run as a generator: _join has the decision answered
            self._emit(ind, f"if {call}: yield {self._locals_list}", s)
        elif pairs:  # the same, without making every pair when it can
            self.uniform_pairs(ind, s, ctx, by, pairs[0], pairs[1], f"{label_id}, {prompt_id}{L}", pat, assign)
            return
        elif one:  # Game.autoplay's answer at once, given the locals for the decision's labels
            self.uniform_one(ind, s, ctx, by, options, f"{label_id}, {prompt_id}{L}", pat, assign)
            return
        elif optional_one:  # the same, for a choose of one that may be declined
            self.uniform_any(ind, s, ctx, by, options, count, upto, pat, assign)
            self._emit(ind, "else:", s)
            self._emit(ind + 1, f"S.direct_one(T, _ub, _uo, {label_id}, {prompt_id}{L or ', None'}, True)", s)
            self._emit(ind + 1, assign, s)
            return
        elif ctx.alone:  # answered now by a pick: the other threads need not reach their decisions first
            if drawn:
                self.uniform_any(ind, s, ctx, by, options, count, upto, pat, assign, key[2:])
                self._emit(ind, "else:", s)
                self._emit(ind + 1, f"S.direct_many(T, _ub, _uo, {drawn_rest})", s)
                self._emit(ind + 1, assign, s)
                return
            rest = f"{upto}, {s.optional}, {label_id}, {prompt_id}, {unavailable_id}{key}"
            self._emit(ind, f"S.direct_many(T, {by}, {options}, {count}, {rest})", s)
        else:  # (with a pick that answers alone, as in a thread run alone)
            if drawn:
                self.uniform_any(ind, s, ctx, by, options, count, upto, pat, assign, key[2:])
                self._emit(ind, f"elif S.direct_many: S.direct_many(T, _ub, _uo, {drawn_rest})", s)
            else:
                args = f"{upto}, {s.optional}, {label_id}, {prompt_id}, {unavailable_id}{key}"
                self._emit(ind, f"if S.direct_many: S.direct_many(T, {by}, {options}, {count}, {args})", s)
            self._emit(ind, f"elif {call}: S.direct(T{L})", s)
        self._emit(ind, assign, s)

    def l_Choose(self, s, ctx, blocks):
        cur = blocks[-1]
        label_id = self._label_fn(s, ctx)
        prompt_id = self._prompt_fn(s, ctx)
        unavailable_id = self._unavailable_fn(s, ctx)
        self._choose_fns[id(s)] = (label_id, prompt_id, unavailable_id)
        by = self.ex(s.by, ctx) if s.by is not None else "0"
        count = self.ex(s.count, ctx) if s.count is not None else "None"
        upto = self.ex(s.upto, ctx) if s.upto is not None else "None"
        nxt = len(blocks)
        self._stops_at(s, nxt)
        cur.append((0, f"F[1] = {nxt}", s.pos))
        decide = "_decide"
        if self.coverage:
            self.chooses.append(s.pos)
            decide = f"_CHOSEN[{len(self.chooses) - 1}]"
        # stop, unless the game answers at once (Game.autoplay: a decision outside `simultaneously`)
        if decide == "_decide" and count == upto == "None" and not s.optional and unavailable_id < 0:
            call = f"_decide_one(S, T, {by}, {self.ex(s.options, ctx)}, {label_id}, {prompt_id})"
        else:
            key = "" if s.distinct is None else ", " + self.ex(s.distinct, ctx)
            call = (f"{decide}(S, T, F, {by}, {self.ex(s.options, ctx)}, {count}, {upto}, "
                    f"{s.optional}, {label_id}, {prompt_id}, {unavailable_id}{key})")
        # asked again, in a bot's sample, from what the sample holds (bots/sample.py)
        self._asks[nxt] = (s.pos, call.replace(decide + "(", "_decide(", 1))
        if ctx.spawned:  # (Game.autoplay answers them after the other threads have run)
            cur.append((0, f"if {call}: return WAIT", s.pos))
        else:
            cur.append((0, f"if {call} and not (S.auto and S.auto(T)): return WAIT", s.pos))
        cur.append((0, f"pc = {nxt}; continue", s.pos))
        b = blocks[self._open(blocks)]
        b.extend((i, t, s.pos) for i, t in self._answered_by(by))
        self._declare(s.pattern, ctx)
        if s.pattern.is_tuple:
            none = "(" + ", ".join("None" for _ in s.pattern.names) + ")"
            b.append((0, f"{self._pat(s.pattern, ctx.env)} = T[3] if T[3] is not None else {none}", s.pos))
        else:
            b.append((0, f"{self._pat(s.pattern, ctx.env)} = T[3]", s.pos))

    def _label_fn(self, s, ctx) -> int:
        """The label (and hint) of a choose's options, as functions of the locals and the option,
        worked out only when a player looks; -1 when the options read as their values."""
        if s.label is None and s.hint is None:
            return -1
        lid = len(self.labels)
        env = dict(ctx.env)
        if s.pattern.is_tuple:
            for i, n in enumerate(s.pattern.names):
                env[n] = f"o[{i}]"
        else:
            env[s.pattern.names[0]] = "o"
        code = self.text(s.label, Ctx(env, True)) if s.label is not None else "(o,)"
        self.labels.append((s.pos, code))
        if s.hint is not None:
            self.hints[lid] = (s.hint.pos, self.text(s.hint, Ctx(env, True)))
        return lid

    def _prompt_fn(self, s, ctx) -> int:
        """The choose's number: each choose has one, which its decision's record keeps (its
        stable name is decisions[number], decision_names.py), with its prompt as a function of the
        locals when it has one (PR{number})."""
        pid = len(self.prompts)
        code = None if s.prompt is None else self.text(s.prompt, Ctx(dict(ctx.env), True))
        self.prompts.append((s.pos, code))
        self.decisions.append(self.decision_names.get(id(s)))
        return pid

    def _unavailable_fn(self, s, ctx) -> int:
        """The `unavailable` clause as a function of the locals, worked out only when asked for."""
        if s.unavailable is None:
            return -1
        uid = len(self.unavailables)
        self.unavailables.append((s.pos, self.ex(s.unavailable, Ctx(dict(ctx.env), True))))
        return uid
