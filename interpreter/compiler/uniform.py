"""Code generation: a choose of a D_ version answered in the rules' own code when every seat
answers uniformly at random (Game.autoplay's `uniform`), without a call to autoplay (class
UniformAnswers, part of compile.Compiler).

While autoplay runs with `uniform` (one random() function per seat, each seat's pick being the
random picker over it: one of n options as floor(random() * n); `pick k` of n as the first k of a
partial Fisher-Yates shuffle of 0..n-1) and the game's first player is known, S.u maps each seat
to its function (S.ua from the start, for a thread of a `simultaneously` run alone, whose answers
never make the first player), S.ans is the game's answers and S.most their most. A choose of one, of pairs or
of `pick k` then draws its answer where it is asked and records it as autoplay does ([seat,
answer] appended, the steps counted from 0, the cards moved since the last choose forgotten).
Anything else (S.u empty, no option, a seat not in S.u, the limit met) calls autoplay as before.
"""
from __future__ import annotations

from ..language.tree import ListComp, ListLit


class UniformAnswers:
    """Methods of compile.Compiler: the uniform answers drawn in place."""

    def _uniform_test(self, by: str, ctx) -> str:
        # (in a thread run alone, S.ua: its answer never makes the game's first player)
        return f"(_ur := S.{'ua' if ctx.alone else 'u'}.get(_ub := {by})) is not None and len(S.ans) < S.most"

    def _uniform_record(self, ind: int, s) -> None:
        self._emit(ind, "S.ans.append([+_ub, _uc]); S.steps = 0", s)
        self._emit(ind, "if S.fresh: S.fresh.clear()", s)

    def _as_list(self, ind: int, name: str, node, code: str, s, ctx) -> None:
        """name = code (node's), made a list as autoplay makes it unless it is one (a list made
        there, a zone's) or a constant's tuple or list (indexed alike)."""
        self._emit(ind, f"{name} = {code}", s)
        listed = (isinstance(node, (ListLit, ListComp)) and code.startswith("[")
                  or code.startswith("Z[") and self.zone_index(node, ctx) is not None
                  or code.startswith("list(") and _closed(code, 4)
                  or any(k == code and type(v) in (list, tuple) for k, v in self.consts.values()))
        if not listed:
            self._emit(ind, f"if type({name}) is not list: {name} = list({name})", s)

    def uniform_pairs(self, ind: int, s, ctx, by: str, xs: str, ys: str, rest: str, pat: str, assign: str) -> None:
        """A choose of one of the pairs xs x ys (autoplay's pairs); its answer into pat (else: assign)."""
        self._as_list(ind, "_ux", s.options.fors[0].iter, xs, s, ctx)
        items = s.options.fors[1].iter
        if isinstance(items, ListLit):
            m, yy = str(len(items.items)), ys
        else:
            self._emit(ind, f"_uy = {ys}", s)
            self._emit(ind, "if type(_uy) is not tuple and type(_uy) is not list: _uy = tuple(_uy)", s)
            m, yy = "len(_uy)", "_uy"
        self._emit(ind, f"if {self._uniform_test(by, ctx)} and (_un := len(_ux) * {m}):", s)
        self._emit(ind + 1, "_uc = _floor(_ur() * _un)", s)
        self._uniform_record(ind + 1, s)
        self._emit(ind + 1, f"T[3] = {pat} = (_ux[_uc // {m}], {yy}[_uc % {m}])", s)
        self._emit(ind, "else:", s)
        self._emit(ind + 1, f"S.direct_pairs(T, _ub, _ux, {yy}, {rest})", s)
        self._emit(ind + 1, assign, s)

    def uniform_one(self, ind: int, s, ctx, by: str, options: str, rest: str, pat: str, assign: str) -> None:
        """A choose of one option (autoplay's one); its answer into pat (else: assign)."""
        self.uniform_any(ind, s, ctx, by, options, "None", "None", pat, assign)
        self._emit(ind, "else:", s)
        self._emit(ind + 1, f"S.direct_one(T, _ub, _uo, {rest})", s)
        self._emit(ind + 1, assign, s)

    def uniform_any(self, ind: int, s, ctx, by: str, options: str, count: str, upto: str, pat: str,
                    assign: str, key: str = "") -> None:
        """Any other choose autoplay's many or optional one answers: one option
        that may be declined or has an `unavailable` clause, `pick count` or `pick up to upto`,
        optional or not, `distinct` (key: its key of an option, compiled; then the options are
        taken as the random picker takes them: all shuffled, each unless one of its group is taken
        already, as many as drawn of the groups); its answer drawn as the random picker draws it (how many, then which), in
        T[3] and pat (assign: pat from T[3], for an answer that may be none). The caller emits what autoplay does otherwise (from `else:`/`elif`), which may read
        _ub (the seat), _uo (the options, a list) and _uq (count or upto)."""
        self._as_list(ind, "_uo", s.options, options, s, ctx)
        test = self._uniform_test(by, ctx)
        if count == upto == "None":  # one option (none: an answer of n, one past the last)
            self._emit(ind, f"if {test} and (_un := len(_uo)):", s)
            if s.optional:
                self._emit(ind + 1, "_uc = _floor(_ur() * (_un + 1))", s)
                self._emit(ind + 1, "if _uc == _un: _uc = None", s)
                self._uniform_record(ind + 1, s)
                self._emit(ind + 1, "T[3] = None if _uc is None else _uo[_uc]", s)
                self._emit(ind + 1, assign, s)
            else:
                self._emit(ind + 1, "_uc = _floor(_ur() * _un)", s)
                self._uniform_record(ind + 1, s)
                self._emit(ind + 1, f"T[3] = {pat} = _uo[_uc]", s)
            return
        # hi: as many as asked, at most the options; lo: 0 if optional, else hi for `pick count`,
        # else 1 (or hi if less); how many: lo if lo >= hi, else lo to hi alike
        self._emit(ind, f"_un = len(_uo); _uq = {count if count != 'None' else upto}", s)
        # (distinct: at most as many as there are groups, as threads.decide bounds it)
        most = f"(_ug := 1 + max(_uy := _groups({key}, _uo)))" if key else "_un"
        self._emit(ind, f"if {test} and _un and type(_uq) is int and (_uh := _uq if _uq < {most} else {'_ug' if key else '_un'}):", s)
        if s.optional:
            how_many = "0 if _uh <= 0 else _floor(_ur() * (_uh + 1))"
        elif count != "None":
            how_many = "_uh"
        else:
            how_many = "_uh if _uh <= 1 else 1 + _floor(_ur() * _uh)"
        self._emit(ind + 1, f"_uk = {how_many}", s)
        self._emit(ind + 1, "_uc = _NUMBERS[:_un] if _un <= 64 else list(range(_un)); _ui = 0", s)
        self._emit(ind + 1, f"while _ui < {'_un - 1' if key else '_uk'}:", s)  # (distinct: all shuffled)
        self._emit(ind + 2, "_uj = _ui + _floor(_ur() * (_un - _ui)); _uc[_ui], _uc[_uj] = _uc[_uj], _uc[_ui]; _ui += 1", s)
        self._emit(ind + 1, "_uc = _distinct_picks(_uc, _uy, _uk)" if key else "del _uc[_uk:]", s)
        self._uniform_record(ind + 1, s)
        self._emit(ind + 1, f"T[3] = {pat} = list(map(_uo.__getitem__, _uc))", s)


def _closed(code: str, at: int) -> bool:
    """Whether the parenthesis opening at code[at] closes at the end of code (none in a string)."""
    depth = 0
    for i in range(at, len(code)):
        if code[i] in "'\"":
            return False
        depth += {"(": 1, ")": -1}.get(code[i], 0)
        if depth == 0:
            return i == len(code) - 1
    return False
