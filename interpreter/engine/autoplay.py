"""Game.autoplay: answer decisions where the rules stop, without unwinding to a driver (and, with
direct=True, running the procedures that may stop as plain functions)."""
from __future__ import annotations

from itertools import product
import sys

from ..errors import DecisionLimit, JuxError
from ..runtime import threads
from ..runtime.state import DECIDE, NO_UNIFORM, SEATS, Seat
from .decisions import Answering, Decision


class Autoplay:
    """Game's part that answers decisions in a loop (autoplay)."""

    def autoplay(self, answer=None, limit: int | None = None, direct: bool = False, pick=None,
                 blind: bool = False, first: tuple | None = None, uniform=None) -> int:
        """Answer each decision with answer(decision) (an answer as apply takes) until the game
        is over, no decision is pending, or `limit` answers have been given; return how many
        were given. An illegal answer raises IllegalAnswer with the game at that decision (its
        player and answer in e.player and e.answer).

        A game made with Game.new(..., start=False) starts here. A decision outside
        `simultaneously` is answered where the rules stop, and they go on
        from there without unwinding to a driver: the same game as answering game.pending one
        by one, in less time. answer may read the game (view, copy) while it is called.

        pick, instead of answer: a function pick(n, lo, hi, many), or a list of one per seat,
        that answers from the decision's shape alone (n options; when many, a list of lo to hi
        option numbers, else one number, or none when lo is 0), asked without making a Decision.
        A pick with a true `legal` attribute (random_picker's) answers only legally: its answers
        are taken without being checked.

        direct=True is faster still: the procedures that may stop, but start no `simultaneously`,
        run as plain functions on the main thread, so the game's state does not say where they
        are until they return; with pick too, the threads of a `simultaneously` that are
        independent (independence.py) run one after another, each answered where it asks.
        answer may then view the game but not copy or save it (JuxError); limit is a most:
        needing more answers raises DecisionLimit (a JuxError). If answer raises, answers wrongly or the limit is
        met, the game is left unusable.

        blind=True: nothing will ever read who knows which card in this game (a simulation keeps
        only its result). When the rules never call knows() and the game keeps no log, its moves
        skip that work from here on (runtime/plans.py blind_table), and the game's views, saves
        and copies are refused afterwards. Otherwise blind changes nothing.

        first=(decision, choice): that pending decision answered with choice before the others
        (the rules then run on as autoplay runs them: a search's last answer in its tree, then
        its playout), not counted in limit.

        uniform, with direct and a legal pick: one random() function per seat, each seat's pick
        being the random picker over it (bots/random_bot.py's random_picker: one of n options as
        floor(random() * n), k of n as the first k of a partial Fisher-Yates shuffle). Once the
        game's first player is known, the rules' code draws those answers itself where they are
        asked (compiler/uniform.py): the same answers, without a call to pick.
        """
        if (answer is None) == (pick is None):
            raise TypeError("autoplay takes answer or pick")
        self._usable()
        if blind and not self.rules.reads_knowledge and self.state.log is None:
            self.state.vis = self.state.vis.blind
        answers = self.answers
        start = len(answers)
        most = sys.maxsize if limit is None else start + limit + (first is not None)  # len(answers) when it is met
        S = self.state
        take = self._take
        if callable(pick):
            pick = [pick] * S.n
        # picks that only ever answer an option number in range (random_picker's: `legal`) are
        # taken without checking each answer
        legal = pick is not None and all(getattr(p, "legal", False) for p in pick)
        # the seats' random() functions, drawn from in the rules' code (S.u) once the first player is known
        # (keyed by the Seat objects the rules' code asks with: a key found by identity, not compared)
        ready = dict(zip(SEATS, uniform)) if uniform is not None and direct and legal else None

        def at_once(T, L=None, waited=False) -> bool:
            """Answer thread T's decision now (False: not now); L: the locals of a routine run as
            a plain function (direct), for the decision's prompt and labels; waited: T is a thread
            of a `simultaneously` whose other threads have run (threads.join)."""
            if T[4] >= 0 and not waited:
                return False  # in `simultaneously`: answered after the other threads have run
            if len(answers) >= most:
                if direct:  # (out through the rules' code as it is)
                    raise Answering(DecisionLimit(f"still not over after {limit} answers"))
                return False
            try:
                if pick is not None:
                    d = T[2]
                    choice = (pick[d[0]](len(d[1]), d[2], d[3], d[4]) if len(d) < 9 else
                              pick[d[0]](len(d[1]), d[2], d[3], d[4], d[8]))
                elif L is None:
                    choice = answer(Decision(self, T))
                else:  # the locals as the top frame while the decision is asked
                    T[0].append([-1, 0, L])
                    choice = answer(Decision(self, T))
                    T[0].pop()
            except Exception as e:  # through the rules' code as it is, not as an error in a rule
                raise Answering(e) from None
            take(T, choice)
            return True

        def one(T, player, options, label_id, prompt_id, L=None, optional=False):
            """direct: a choose of one option (threads.decide_one) answered at once; its answer.
            With pick, an answer in range is taken without making the decision. optional: the
            choose may be declined (an answer of none)."""
            if type(options) is not list:
                options = list(options)
            if optional:
                return optional_one(T, player, options, label_id, prompt_id, L)
            if pick is not None and options and 0 <= player < S.n and len(answers) < most:
                try:  # (asked(), written out: the commonest choose in some games)
                    choice = pick[player](len(options), 1, 1, False)
                except Exception as e:  # through the rules' code as it is, not as an error in a rule
                    raise Answering(e) from None
                if legal or type(choice) is int and 0 <= choice < len(options):
                    if unset and T[4] < 0:
                        record(T, player, choice)
                    else:  # (record(), written out)
                        answers.append([+player if type(player) is Seat else int(player), choice])
                        S.steps = 0
                        if S.fresh:
                            S.fresh.clear()
                    T[3] = x = options[choice]
                    return x
                threads.decide_one(S, T, player, options, label_id, prompt_id)
                take(T, choice)  # any other answer as _take takes it, or refuses it
            elif threads.decide_one(S, T, player, options, label_id, prompt_id):
                at_once(T, L)
            return T[3]

        def optional_one(T, player, options, label_id, prompt_id, L, unavailable_id=-1):
            """one() for a choose of one that may be declined: with pick, none or an answer in
            range is taken without making the decision (as _take takes it)."""
            if pick is not None and options and 0 <= player < S.n and len(answers) < most:
                try:
                    choice = pick[player](len(options), 0, 1, False)
                except Exception as e:  # through the rules' code as it is, not as an error in a rule
                    raise Answering(e) from None
                if choice is None or (type(choice) is int and 0 <= choice < len(options)):
                    record(T, player, choice)
                    T[3] = x = None if choice is None else options[choice]
                    return x
                threads.decide(S, T, None, player, options, None, None, True, label_id, prompt_id, unavailable_id)
                take(T, choice)  # any other answer as _take takes it, or refuses it
                return T[3]
            if threads.decide(S, T, None, player, options, None, None, True, label_id, prompt_id, unavailable_id):
                at_once(T, L)
            return T[3]

        def pairs(T, player, xs, ys, label_id, prompt_id, L=None):
            """direct: a choose of one of the pairs [(x, y) for x in xs for y in ys], as one; with
            pick, an answer in range is taken without making the pairs."""
            if pick is not None and 0 <= player < S.n and len(answers) < most:
                if type(xs) is not list:
                    xs = list(xs)
                if type(ys) is not tuple and type(ys) is not list:
                    ys = tuple(ys)
                m = len(ys)
                n = len(xs) * m
                if n:  # (asked(), written out: a choose of pairs is the commonest in some games)
                    try:
                        choice = pick[player](n, 1, 1, False)
                    except Exception as e:  # through the rules' code as it is, not as an error in a rule
                        raise Answering(e) from None
                    if legal or type(choice) is int and 0 <= choice < n:
                        if unset and T[4] < 0:
                            record(T, player, choice)
                        else:
                            answers.append([+player if type(player) is Seat else int(player), choice])
                            S.steps = 0
                            if S.fresh:
                                S.fresh.clear()
                        T[3] = x = (xs[choice // m], ys[choice % m])
                        return x
                    threads.decide_one(S, T, player, list(product(xs, ys)), label_id, prompt_id)
                    take(T, choice)
                    return T[3]
            return one(T, player, list(product(xs, ys)), label_id, prompt_id, L)

        def many(T, player, options, count, upto, optional, label_id, prompt_id, unavailable_id=-1, key=None):
            """direct with pick, in a thread run alone (independence.py) or outside
            `simultaneously`: a choose of any kind answered at once; its answer. A list of option
            numbers in range is taken without making the decision; for a choose of one (with an
            `unavailable` clause: one() asks the others), an option number, as one() takes it."""
            if type(options) is not list:
                options = list(options)
            n = len(options)
            if n and key is None and 0 <= player < S.n and len(answers) < most:
                if upto is None and type(count) is int:  # `pick count`, as threads.bounds reads it
                    hi = count if count < n else n
                    lo = 0 if optional else hi
                else:
                    lo, hi, several = threads.bounds(n, count, upto, optional)
                    if not several:  # (hi is 1)
                        if lo == 0:
                            return optional_one(T, player, options, label_id, prompt_id, None, unavailable_id)
                        choice = asked(T, player, n)
                        if choice is not None:
                            T[3] = x = options[choice]
                            return x
                        threads.decide(S, T, None, player, options, count, upto, optional, label_id, prompt_id,
                                       unavailable_id)
                        take(T, picked)  # any other answer as _take takes it, or refuses it
                        return T[3]
                if hi:
                    try:
                        choice = pick[player](n, lo, hi, True)
                    except Exception as e:  # through the rules' code as it is, not as an error in a rule
                        raise Answering(e) from None
                    if legal:  # (a fresh list of distinct option numbers in range, as many as asked)
                        ok = True
                        x = list(map(options.__getitem__, choice))
                    else:
                        ok = type(choice) is list and lo <= len(choice) <= hi
                        if ok:  # (_option_numbers(choice, n), written out; the options picked, x, as it goes)
                            x = []
                            for i in choice:
                                if type(i) is not int or not 0 <= i < n:
                                    ok = False
                                    break
                                x.append(options[i])
                            else:
                                ok = len(set(choice)) == len(choice)
                            choice = choice[:]
                    if ok:
                        if unset and T[4] < 0:
                            record(T, player, choice)
                        else:  # (record(), written out: the commonest answer of a draft)
                            answers.append([+player if type(player) is Seat else int(player), choice])
                            S.steps = 0
                            if S.fresh:
                                S.fresh.clear()
                        T[3] = x
                        return x
                    threads.decide(S, T, None, player, options, count, upto, optional, label_id, prompt_id,
                                   unavailable_id)
                    take(T, choice)  # any other answer as _take takes it, or refuses it
                    return T[3]
            if threads.decide(S, T, None, player, options, count, upto, optional, label_id, prompt_id,
                              unavailable_id, key):
                at_once(T, None, True)
            return T[3]

        picked = None  # the last answer asked of pick

        def asked(T, player, n):
            """pick's answer to a choose of one of n options by player in thread T, taken as _take
            takes it when it is an option number (as record() takes it, written out: the commonest
            answer); else None (the answer is in `picked`)."""
            nonlocal picked, unset
            try:
                choice = pick[player](n, 1, 1, False)
            except Exception as e:  # through the rules' code as it is, not as an error in a rule
                raise Answering(e) from None
            if legal or type(choice) is int and 0 <= choice < n:  # as _take, its first case
                seat = +player if type(player) is Seat else int(player)
                if unset and T[4] < 0:  # (the first answer outside `simultaneously`, unless _take had one)
                    if self.first_player is None:
                        self.first_player = seat
                    unset = False
                    if ready:
                        S.u = ready
                answers.append([seat, choice])
                S.steps = 0
                if S.fresh:
                    S.fresh.clear()
                return choice
            picked = choice
            return None

        unset = self.first_player is None  # (False once the game's first player is known)

        def record(T, player, choice) -> None:
            """An answer pick gave, taken without a decision as _take takes one: the game's
            answers, its first player (a choose outside `simultaneously`), its steps."""
            nonlocal unset
            seat = +player if type(player) is Seat else int(player)  # (+: a Seat's int, without a call)
            if unset and T[4] < 0:
                if self.first_player is None:
                    self.first_player = seat
                unset = False
                if ready:
                    S.u = ready
            answers.append([seat, choice])
            S.steps = 0
            if S.fresh:  # as threads.decide does where the rules stop
                S.fresh.clear()

        S.auto = at_once
        S.direct = at_once if direct else None
        S.direct_one = one if direct else None
        S.direct_pairs = pairs if direct else None
        S.alone = direct and pick is not None  # nothing sees the game between answers
        S.direct_many = many if S.alone else None
        S.ans, S.most = answers, most
        if ready:
            S.ua = ready  # (a thread run alone: its answers never make the first player)
            if not unset:
                S.u = ready
        try:
            self._run()  # a game made with start=False starts here, its first decisions answered at once
            if first is not None:
                d, choice = first
                if d._game is not self or d._t[2] is not d._d:
                    raise JuxError("autoplay: the first decision given is not pending in this game")
                take(d._t, choice)
                self._run(d._t)
            while True:
                for T in S.threads:
                    if T[1] == DECIDE:
                        break
                else:
                    break
                if not at_once(T, None, True):
                    break  # the limit is met
                self._run(T)
        except Answering as e:
            self._broken = direct
            err, e.args = e.args[0], ()  # (err's context is e: no cycle of the two, nor of err and this frame,
            try:  # which would hold the rules' frames until the garbage collector found them)
                raise err from None
            finally:
                err = None
        except BaseException:
            self._broken = direct
            raise
        finally:
            S.auto = S.direct = S.direct_one = S.direct_pairs = S.direct_many = S.alone = None
            S.u = S.ua = NO_UNIFORM
        return len(answers) - start

    _broken = False  # a direct autoplay stopped by an error, inside a routine run as a plain function

    def _seen(self, doing: str) -> None:
        """Refuse what reads who knows which card in a game played blind (autoplay's blind)."""
        vis = self.state.vis
        if getattr(vis, "blind", None) is vis:
            raise JuxError(f"cannot {doing}: the game was played blind (autoplay(blind=True) kept no track "
                           "of who knows which card)")

    def _usable(self, doing: str = "play on") -> None:
        if self._broken:
            raise JuxError(f"cannot {doing}: an error stopped autoplay(direct=True) in the middle of the rules")
        if self.state.direct:
            raise JuxError(f"cannot {doing} while autoplay(direct=True) runs the rules as plain functions")
