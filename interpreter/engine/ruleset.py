"""Rulesets: load_ruleset (read, check and compile rule files, cached: build_ruleset is the
pipeline) and Ruleset, what every game of a ruleset shares (cards, backs, zones, the compiled rules)."""
from __future__ import annotations

import gc
import re

from ..checks.checker import check
from ..compiler.layout import counter_start
from ..compiler.program import generate, link
from ..errors import JuxError, Pos
from ..files import editing, stop_point
from ..paths import default_ruleset
from ..reading.spec import read_spec, ruleset_path
from ..runtime import ops
from ..runtime.moves import settle_top
from ..runtime.plans import blind_table, plan_moves
from ..runtime.state import NO_UNIFORM, State, ZoneTable
from ..runtime.threads import dead_end
from . import compiled
from .keys import entry_name, ruleset_key, variant_names


class RuleRuntimeError(JuxError):
    """Rule code failed while running (e.g. the top of an empty zone used as a card)."""


# ------------------------------------------------------------------ rulesets


class Ruleset:
    """A loaded, checked and compiled ruleset: everything a Game needs, shared by all its games."""

    def __init__(self, spec, c: dict):
        """spec: the RuleSpec read from the files and checked; c: what the compiler made of it."""
        self.spec = spec
        self.name = spec.name
        self.title = spec.game.get("title", spec.name)
        self.digest = spec.digest
        self.variants = spec.variants
        self._c = c
        self.coverage = c["coverage"]  # with coverage: the run counts (runtime/counts.py), else None
        self.reads_knowledge = c["reads_knowledge"]  # some rule calls knows()
        self.layout = c["layout"]
        self.cards = c["cards"]
        self.card_attrs = c["card_attrs"]
        self.card_labels = c["card_labels"]
        # what everyone sees of each card: its back ({attribute: value}, or None when its kind has
        # none), how it reads when hidden, and its back as a key (kind, values...) for the bots
        self.card_backs = c["card_backs"]
        self.hidden_labels = c["hidden_labels"]
        self.back_keys = c["back_keys"]
        self.has_backs = any(b is not None for b in self.card_backs)
        # the rules' routines that may stop, by id, and last a dead end (a bot's sample: bots/stopped.py)
        self.routines = c["routines"] + (dead_end,)
        self.dead_end = len(c["routines"])
        # for bots' samples (bots/sample.py): by routine, the locals not live where it waits, and
        # each choose's decision made again from what a sample holds
        self.resume_drops = c["resume_drops"]
        self.reasks = c["reasks"]
        self.recalcs = c["recalcs"]  # (the live tainted locals worked out again or set to none: compiler/taint.py)
        self.pushes = c["pushes"]  # (a call's tainted arguments given again to the callee's frame)
        self.shown = c["shown"]  # (after a choose: the tainted locals its labels and prompt read)
        # (what follows from an answer to a choose, set to none in a sample of a seat that did not give it)
        self.blinds, self.blind_calls, self.masks = c["blinds"], c["blind_calls"], c["masks"]
        # (where a routine waits under a test of a secret number: the seats that know it, compiler/branches.py)
        self.branches = c["branches"]
        self.any_branch = any(c["branches"])
        for name in ("resume_drops", "reasks", "recalcs", "pushes", "shown", "blinds", "branches"):
            setattr(self, name, getattr(self, name) + ({},))  # (the dead end's: nothing)
        self.blind_calls, self.masks = self.blind_calls + (frozenset(),), self.masks + (None,)
        # the rules' functions the engine, views and bots call: an error in one names its rule
        self.label_fns = [self._located(f) for f in c["labels"]]
        self.hint_fns = {i: self._located(f) for i, f in c["hints"].items()}  # by label id
        self.prompt_fns = [self._located(f) for f in c["prompts"]]  # by choose: None for no prompt
        # by choose, as prompt_fns: the decision's stable name (compiler/decision_names.py)
        self.decision_names = c["decisions"]
        self.unavailable_fns = [self._located(f) for f in c["unavailables"]]
        self.score_fn = self._located(c["score"])
        self.tiebreak_fn = self._located(c["tiebreak"])
        # the zones players see sorted (a zone's `sort`): zone name -> the key function of a card
        self.sort_fns = {n: self._located(c["functions"][z["sort"]]) for n, z in spec.zones.items()
                         if isinstance(z, dict) and z.get("sort") in c["functions"]}
        # which score wins (game: winner): the lowest, or the highest; tie-breaks follow unless given
        self.lowest_wins, self.lowest_tiebreak_wins = _winner(spec.game.get("winner"))
        self.value_fn = self._located(c["functions"].get("value") or _better(c["score"], self.lowest_wins))
        self.worth_fn = self._located(c["functions"].get("worth"))  # what a card counts for, if not its value
        # a seat's standing during the game, in parts everyone may know: [(part, value), ...]
        self.standing_fn = self._located(c["functions"].get("standing"))
        # what the table shows besides zones and counters: [(title, function of no parameters)]
        self.table_fns = [(str(t), self._located(c["functions"][f])) for t, f in (spec.table or {}).items()
                          if f in c["functions"]]
        players = spec.game.get("players", {})
        self.min_players = int(players.get("min", 1))
        self.max_players = int(players.get("max", 1))
        self._vis = {}
        self._initial = {}

    @property
    def source(self) -> str:
        """The generated Python (for the curious and for debugging)."""
        return self._c["source"]

    def visibility(self, n: int) -> list:
        """Bit mask of the seats that see each zone's cards, for n players (a `top` zone: its top
        card), with what moves.py needs besides (runtime/state.py ZoneTable)."""
        if n not in self._vis:
            lay = self.layout
            everyone = (1 << n) - 1
            masks, follow = [], []
            for name, key in lay.fixed_zones:
                masks.append(0 if lay.zone_def[name]["visible"] == "none" else everyone)
                follow.append(everyone)
            for p in range(n):
                for name in lay.player_zones:
                    v = lay.zone_def[name]["visible"]
                    masks.append((1 << p) if v == "owner" else 0 if v == "none" else everyone)
                    follow.append((1 << p) if v == "owner" else everyone)
            table = ZoneTable(masks)
            table.follow = follow
            names = lay.zone_names_plain(n)
            kept = {m: set(d["kept_in"]) for m, d in self.spec.marks.items() if (d or {}).get("kept_in")}
            table.drop = [tuple(m for m, zones in kept.items() if name not in zones) for name in names]
            table.top = frozenset(zi for zi, name in enumerate(names) if lay.zone_def[name]["visible"] == "top")
            stacked: dict = {}  # zone name -> the cards of the kinds with a back stacked in it
            for c in self.cards:
                d = self.spec.cards[self.card_attrs[c]["kind"]]
                if d.get("back"):
                    for name in d.get("stacked_in") or ():
                        stacked.setdefault(name, set()).add(c)
            table.buried = {zi: frozenset(stacked[name]) for zi, name in enumerate(names) if name in stacked}
            for zi in table.top:  # under the top of a `top` zone, no card shows anything
                table.buried[zi] = frozenset(self.cards)
            plan_moves(table, everyone)
            table.blind = blind_table(table)
            self._vis[n] = table
        return self._vis[n]

    def initial_state(self, n: int) -> State:
        """The state before the flow runs: every card where its kind starts, counters at start."""
        if n not in self._initial:
            lay = self.layout
            vis = self.visibility(n)
            S = State.__new__(State)
            S.n = n
            S.vis = vis
            S.z = [[] for _ in range(lay.zone_count(n))]
            S.loc = [0] * len(self.cards)
            S.k = [0] * len(self.cards)
            for kind, zi in _start_zones(self):
                for c in self.cards:
                    if self.card_attrs[c]["kind"] == kind:
                        S.z[zi].append(c)
                        S.loc[c] = zi
                        S.k[c] = vis[zi]
            for zi in vis.top:  # a `top` zone that cards start in: only its top card is seen
                settle_top(S, zi)
            S.v = [counter_start(lay.counter_def[name]) for name, key in lay.fixed_counters]
            for p in range(n):
                S.v.extend(counter_start(lay.counter_def[name]) for name, key in lay.counter_slots())
            S.v.extend(lay.made_slots())  # (the keys of each family's zones made now: none yet)
            S.m = {}
            S.rng = 0
            S.threads = []
            S.next_tid = 1
            S.steps = 0
            S.log = S.lv = None
            S.auto = S.direct = S.direct_one = S.direct_pairs = S.direct_many = S.alone = None
            S.u = S.ua = NO_UNIFORM
            S.fresh = []
            S.o = [0] * len(S.z)  # (every card known by the seats that see its zone)
            self._initial[n] = S
        return self._initial[n]

    def procedure_texts(self) -> dict:
        return {n: r.text for n, r in self.spec.procedures.items() if r.text}

    def _located(self, fn):
        """fn (compiled rule code called from outside the rules' run) with its errors turned into
        RuleRuntimeError at their rule's file:line:col."""
        if fn is None or not callable(fn):
            return fn

        def call(*args):
            try:
                return fn(*args)
            except JuxError:
                raise
            except RecursionError as e:
                pos = self.where(e)
                raise RuleRuntimeError(f"{pos}: the rules call themselves without end" if pos else str(e)) from None
            except Exception as e:
                pos = self.where(e)
                said = _describe(e, self.spec, pos)
                raise RuleRuntimeError(f"{pos}: {said}" if pos else said) from None
        return call

    def where(self, exc: BaseException) -> Pos | None:
        """The rule position of the innermost generated-code frame of a traceback."""
        tb = exc.__traceback__
        pos = None
        fn = self._c["filename"]
        while tb is not None:
            if tb.tb_frame.f_code.co_filename == fn:
                line = tb.tb_lineno - 1
                lp = self._c["line_pos"]
                if 0 <= line < len(lp) and lp[line] is not None:
                    pos = lp[line]
            tb = tb.tb_next
        return pos


_CACHE: dict = {}  # the rulesets loaded in this process, the last used last
CACHE_KEPT = 16  # (a balance sweep loads hundreds: the oldest are let go)
# A ruleset let go is a reference cycle (its namespace holds its functions, whose globals it is),
# which only a full pass of the cyclic garbage collector frees; Python makes one when the objects
# that survived the last grew by a quarter, so in a sweep whose games allocate little, dozens of
# rulesets (about 0.7 MB each) wait for it. One is made after every CACHE_KEPT let go.
_let_go = 0


def load_ruleset(name_or_path=None, variants=(), coverage: bool | str = False) -> Ruleset:
    """Load, check and compile a ruleset by name (a folder under rules/) or path, with variants
    (names of files under variants/<game>/, or paths; e.g. power tiles). Raises RuleErrors, or
    VariantError for a wrong choice of variants.

    Without a name, the default ruleset (named in rules/default) is loaded.

    Compiled rulesets are kept for the process (the last CACHE_KEPT), keyed by path, variants and
    the files' contents, and on disk in the compile cache (compiled.py), keyed by the same and
    more. With coverage the ruleset is compiled apart, counting what runs (rules.coverage,
    coverage.py); with coverage "powers", only the slot calls (runtime/counts.py).
    """
    path = ruleset_path(default_ruleset() if name_or_path is None else name_or_path)
    variants = variant_names(variants)
    if editing():  # an editor's unsaved texts (files.edited): checked afresh, never kept
        return build_ruleset(path, variants, coverage)
    key = ruleset_key(path, variants, coverage)
    rules = _CACHE.pop(key, None)
    if rules is None:
        rules = _cached_build(key, path, variants, coverage)
    _CACHE[key] = rules
    global _let_go
    while len(_CACHE) > CACHE_KEPT:
        del _CACHE[next(iter(_CACHE))]
        _let_go += 1
        if _let_go >= CACHE_KEPT:
            _let_go = 0
            gc.collect()
    return rules


def _cached_build(key, path, variants, coverage) -> Ruleset:
    """build_ruleset through the compile cache: what it made for the same files, names and jux."""
    if compiled.cache_dir() is None:
        return build_ruleset(path, variants, coverage)
    disk_key = entry_name(key, path, variants)
    got = compiled.load(disk_key)
    if got is not None:
        spec, generated = got
        return Ruleset(spec, link(spec, generated))
    spec = read_spec(path, variants)
    generated = generate(spec, check(spec), coverage)
    compiled.store(disk_key, spec, generated)
    return Ruleset(spec, link(spec, generated))


def check_ruleset(name_or_path, variants=()):
    """What load_ruleset finds wrong, without compiling: the ruleset's files read and checked
    (the compiler finds nothing an author wrote wrong). Raises as load_ruleset does; returns the
    checked RuleSpec. For an editor's unsaved texts (`jux lsp`), each check sooner."""
    spec = read_spec(ruleset_path(name_or_path), variant_names(variants))
    stop_point()  # (an editor's newer edit may come first: files.edited)
    check(spec)
    return spec


def build_ruleset(path, variants=(), coverage: bool | str = False) -> Ruleset:
    """The pipeline, each stage once, each handing the next what it made (docs/architecture.md):
    the rule files read and composed (reading), checked (checks), compiled (compiler)."""
    spec = read_spec(path, variants)
    return Ruleset(spec, link(spec, generate(spec, check(spec), coverage)))





def _start_zones(rules):
    lay = rules.layout
    out = []
    for name, z in lay.zone_def.items():
        for kind in z.get("start", []):
            zi = lay.zone_index.get(name)
            if isinstance(zi, int):
                out.append((kind, zi))
    return out


def _describe(e: Exception, spec=None, pos=None) -> str:
    """What went wrong when rule code ran, in the rules' words (never Python's); on a none, which
    value of the statement at pos (in spec) may have been none, and when (nones.py)."""
    if isinstance(e, ops.RuleRuntimeError):
        return str(e)
    if isinstance(e, (TypeError, AttributeError)) and "NoneType" in str(e):
        from .nones import why_none

        said = _in_rule_words(str(e)) if isinstance(e, TypeError) else "none has no attributes"
        none_counters = [n for n, d in spec.counters.items() if isinstance(d, dict) and "start" in d
                         and d["start"] is None] if spec is not None else ()
        why = why_none(spec, pos, none_counters) if spec is not None else ""
        return f"a value is none where a card or number is needed ({said}){why}"
    if isinstance(e, TypeError):
        said = _in_rule_words(str(e))
        return said
    if isinstance(e, (IndexError, KeyError)):
        return f"no such item: {e}" if isinstance(e, KeyError) else "no such item: a position past the end of the list"
    if isinstance(e, ZeroDivisionError):
        return "division by zero"
    if isinstance(e, OverflowError):
        return "a number too large"
    if isinstance(e, ValueError):
        return "a value the operation cannot take"
    return "the rules failed here"


_TYPE_WORDS = {"int": "a number", "float": "a number", "bool": "true/false", "str": "a text", "NoneType": "none",
               "list": "a list", "tuple": "a tuple", "Card": "a card", "Seat": "a seat", "dict": "a table",
               "range": "a list", "generator": "a list", "set": "a list", "frozenset": "a list"}
_OPERAND = re.compile(r"unsupported operand type\(s\) for ([^:]+): '(\w+)' and '(\w+)'")
_COMPARE = re.compile(r"'([^']+)' not supported between instances of '(\w+)' and '(\w+)'")
_UNARY = re.compile(r"bad operand type for unary (\S+): '(\w+)'")
_CONCAT = re.compile(r'can only concatenate (\w+) \(not "(\w+)"\) to \w+')


def _word(name: str) -> str:
    return _TYPE_WORDS.get(name, "a value")


def _in_rule_words(message: str) -> str:
    """A TypeError's message as the rules say it: '+' cannot take a number and a text."""
    m = _OPERAND.search(message)
    if m:
        op = m.group(1).strip().replace("** or pow()", "**")
        return f"'{op}' cannot take {_word(m.group(2))} and {_word(m.group(3))}"
    m = _COMPARE.search(message)
    if m:
        return f"'{m.group(1)}' cannot compare {_word(m.group(2))} with {_word(m.group(3))}"
    m = _UNARY.search(message)
    if m:
        return f"'{m.group(1)}' cannot take {_word(m.group(2))}"
    m = _CONCAT.search(message)
    if m:
        return f"'+' cannot join {_word(m.group(1))} and {_word(m.group(2))}"
    return "a value of the wrong type for this operation"


def _winner(w) -> tuple:
    """(lowest score wins, lowest tie-break wins) from the game's `winner`: "lowest" or "highest"
    (the default), or {score: ..., tiebreak: ...}, the tie-break following the score unless given."""
    if isinstance(w, dict):
        low = w.get("score") == "lowest"
        return low, (w.get("tiebreak") == "lowest") if "tiebreak" in w else low
    return w == "lowest", w == "lowest"


def _better(score, lowest: bool):
    """A seat's position value for bots when the ruleset gives no value(p): the score, or, where
    the lowest score wins, the score negated (bots take a higher value as better)."""
    if not lowest or score is None:
        return score
    return lambda S, p: -score(S, p)
