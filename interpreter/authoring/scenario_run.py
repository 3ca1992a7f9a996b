"""Running one scenario file (docs/testing.md): read it, load its ruleset and tiles, set up the
position, give the answers, check the expectations. The outcome lists every failure at its
place in the file; nothing a scenario file holds makes it raise."""
from __future__ import annotations

from collections import Counter
from copy import deepcopy
from dataclasses import dataclass, replace
import os
from pathlib import Path
import time

from ..engine.positions import SetupError
from ..errors import IllegalAnswer, JuxError, Pos, RuleError, RuleErrors, StepBudgetExceeded, did_you_mean
from ..reading.yaml_reader import display_path
from .scenario_expect import Failure, check, check_names, describe_pending, show
from .scenario_file import Scenario, read_scenario, ruleset_target, tile_names, tile_position
from . import scenario_cards as stable, scenario_decisions as decisions, scenario_groups as groups
from . import scenario_renamed as renamed
from .renames import Renames

PASSED, FAILED, XFAILED = "passed", "failed", "xfailed"


@dataclass(frozen=True)
class Outcome:
    """What running one scenario file gave."""

    file: str
    title: str
    status: str  # PASSED, FAILED, or XFAILED (it failed, and says it is expected to: `xfail`)
    failures: tuple = ()  # Failures (for XFAILED: the ones expected)
    log: tuple = ()  # the game's full log, when a game was set up
    xfail: str | None = None
    seconds: float = 0.0
    warnings: tuple = ()  # Failures that are warnings: an earlier spelling used, an answer left out

    @property
    def ok(self) -> bool:
        return self.status != FAILED

    def report(self) -> str:
        """The failures, one per line (comparisons on three), then the log."""
        out = [line for f in self.failures for line in f.lines()]
        if self.log:
            out.append("log:")
            out.extend(f"  {line}" for line in self.log)
        return "\n".join(out)


class _Stop(Exception):
    """The scenario cannot go on: its failures so far are the outcome."""

    def __init__(self, failures: list, expected: bool = True):
        self.failures = failures
        self.expected = expected  # whether `xfail` covers it (a failure of the rules, not of the file)


def run_file(path: Path) -> Outcome:
    """Run the scenario in a file; every problem, in the file or in the rules, is a failure."""
    t0 = time.perf_counter()
    path = Path(path)
    sc, game = None, None
    warnings: list = []
    try:
        sc = read_scenario(path)
        sc = replace(sc, data=deepcopy(sc.data))  # (spellings are rewritten in it: never in what is kept)
        game, failures = _run(sc, warnings)
        expected = True
    except RuleErrors as e:  # the file itself (YAML, keys, kinds of values)
        failures, expected = [Failure(x.pos or Pos(display_path(path), 1, 1), x.message) for x in e.errors], False
    except _Stop as e:
        failures, expected = e.failures, e.expected
        game = getattr(e, "game", None)
    except RecursionError:
        failures, expected = [Failure(_top(sc, path), "the rules call themselves without end")], True
    except Exception as e:  # a bug in jux itself: still a failure of one line, unless debugging
        if os.environ.get("JUX_DEBUG"):
            raise
        failures, expected = [Failure(_top(sc, path), f"internal error: {type(e).__name__}: {e} "
                                                      "(set JUX_DEBUG=1 for details)")], False
    failures = sorted(failures, key=lambda f: (f.pos.line, f.pos.col))  # (all in the one file)
    title = sc.title if sc else ""
    log = tuple(game.log_lines()) if game is not None else ()
    xfail = sc.data.get("xfail") if sc else None
    seconds = time.perf_counter() - t0
    if xfail and expected:
        if failures:
            return Outcome(display_path(path), title, XFAILED, tuple(failures), log, xfail, seconds, tuple(warnings))
        failures = [Failure(sc.at("xfail"), f"xfail: expected to fail ({xfail}), but every expectation held")]
    return Outcome(display_path(path), title, FAILED if failures else PASSED, tuple(failures), log, xfail, seconds,
                   tuple(warnings))


def _top(sc, path) -> Pos:
    return sc.at("run") if sc else Pos(display_path(path), 1, 1)


def _run(sc: Scenario, warnings: list):
    """(game, failures) of a scenario whose file is well formed; _Stop when it cannot go on. What
    it names by an earlier spelling of the rules reads as they spell it now, with a warning added
    to warnings (scenario_renamed.py)."""
    from ..engine.game import Game
    from ..engine.ruleset import RuleRuntimeError, load_ruleset
    from ..reading.variants import VariantError

    try:
        target = ruleset_target(sc)
        tiles = tile_names(sc)
    except RuleError as e:
        raise _Stop([Failure(e.pos, e.message)], expected=False) from None
    try:
        rules = load_ruleset(target, tiles)
    except VariantError as e:
        raise _Stop([Failure(tile_position(sc, str(e)), f"tiles: {e}")], expected=False) from None
    except RuleErrors as e:
        more = f" (and {len(e.errors) - 1} more: run jux validate)" if len(e.errors) > 1 else ""
        raise _Stop([Failure(sc.value_at("ruleset"), f"ruleset: the rules have errors: {e.errors[0]}{more}")],
                    expected=False) from None
    except JuxError as e:
        raise _Stop([Failure(sc.value_at("ruleset"), f"ruleset: {e}")], expected=False) from None
    n = sc.data["players"]
    renames = Renames(rules.spec.renamed)
    renamed.card_labels(sc, rules, renames, warnings)
    unnamed = stable.named(sc, rules)  # (cards named by what they are: no such card)
    unknown = decisions.names(sc, rules, renames, warnings)  # (decisions by a name the rules do not have)
    named = [Failure(e.pos, e.message) for e in unnamed + check_names(sc, rules, n) + unknown]
    if named and (unnamed or not rules.min_players <= n <= rules.max_players):
        raise _Stop(named, expected=False)
    try:
        zones = _zones_with_set_aside(rules, sc.data.get("zones") or {}, sc.data.get("set_aside") or {})
        game = Game.scenario(rules, n, zones=zones, counters=sc.nothing("counters") or {},
                             run=sc.data["run"], args=list(sc.data.get("args") or []),
                             seed=sc.data.get("seed", 0), names=sc.data.get("names"), marks=sc.nothing("marks"),
                             rest=sc.data.get("rest", "stay"))
    except SetupError as e:  # (every problem of the position at once, each at its entry, with the names')
        setup = [Failure(_setup_pos(sc, x.where), str(x)) for x in e.errors]
        raise _Stop(named + [f for f in setup if f not in named], expected=False) from None
    except (RuleRuntimeError, StepBudgetExceeded) as e:
        raise _Stop([Failure(sc.at("run"), f"run: the rules stopped with an error: {e}")]) from None
    except JuxError as e:
        raise _Stop(named + [Failure(sc.at("run"), f"the position cannot be set up: {e}")], expected=False) from None
    if named:  # (names the expectations or answers give that the game does not have)
        raise _Stop(named, expected=False)
    failures, stopped = _answer(sc, game, renames, warnings)
    if stopped:
        stop = _Stop(failures)
        stop.game = game
        raise stop
    try:
        renamed.log_words(sc, game, renames, warnings)
        return game, failures + check(sc, game)
    except (RuleRuntimeError, StepBudgetExceeded) as e:  # (scores, views: rule code runs)
        return game, failures + [Failure(sc.at("expect"), f"expect: the rules stopped with an error: {e}")]


def _setup_pos(sc: Scenario, where: tuple) -> Pos:
    """The place of the entry a SetupError is about: zones of set_aside cards come first."""
    if where and where[0] == "zones" and where[1] not in (sc.data.get("zones") or {}):
        return sc.at("set_aside")
    if where and where[0] == "zones" and len(where) == 3:
        return sc.value_at(*where)
    return sc.at(*where) if where else sc.at("run")


def _zones_with_set_aside(rules, zones: dict, set_aside: dict) -> dict:
    """The zones to place, plus the cards to move out of each set-aside start zone.

    A start zone (one the ruleset fills with a kind of card) keeps every card of that kind that is
    not listed anywhere; set_aside moves those leftovers to another zone, so the start zone holds
    exactly the cards listed for it. The set-aside cards go under anything listed for the target."""
    zones = {k: list(v or []) for k, v in zones.items()}
    listed = Counter(label for labels in zones.values() for label in labels)
    for start_zone, target in set_aside.items():
        kinds = rules.layout.zone_def.get(start_zone, {}).get("start") or ()
        leftover = []
        for c in rules.cards:
            if rules.card_attrs[c]["kind"] in kinds:
                label = rules.card_labels[c]
                if listed[label] > 0:
                    listed[label] -= 1  # this copy is placed by `zones`
                else:
                    leftover.append(label)
        zones[target] = leftover + zones.get(target, [])
    return zones


def _answer(sc: Scenario, game, renames: Renames, warnings: list):
    """Give the answers in order: (failures, whether they stopped before the last answer). The
    checks of a decision (prompt, options, ...) that do not hold are failures, but the answer is
    still given; an answer that is refused, or finds no decision waiting, stops them."""
    from ..engine.ruleset import RuleRuntimeError

    failures = []
    answers = list(sc.data.get("answers") or [])
    for i, a in enumerate(answers):
        at = ("answers", i)
        mine = game.pending_for(a["player"])
        if mine and stable.names_any(a.get("choose")):  # (cards by what they are, options by value)
            choose, wrong = stable.answer_of(a["choose"], mine[0], game, sc, at + ("choose",))
            if wrong:
                return failures + [Failure(e.pos, f"answer {i + 1}: {e.message}") for e in wrong], True
            a = dict(a, choose=choose, written=stable.written(a["choose"]))
        elif mine:
            if isinstance(a.get("choose"), list):  # (an option that is a list, given by its items)
                a = dict(a, choose=groups.answer_of(a["choose"], mine[0], game), written=a["choose"])
            labels = [o.label for o in mine[0].options]
            a = renamed.answer(sc, a, at, mine[0], labels, renames, warnings)
            # (the next answer as these rules spell it, to tell an answer to a question not asked now)
            nxt = renamed.answer(sc, answers[i + 1], (), mine[0], labels, renames, []) if i + 1 < len(answers) else None
            if renamed.not_asked(sc, a, nxt, i, labels, warnings, mine[0].name):
                continue
        p, choose = a["player"], a["choose"]
        name = f"answer {i + 1} (player {p}, {show(a.get('written', choose))})"
        refused = a.get("refused", False)
        mine = game.pending_for(p)
        if not mine:
            why = f"no decision is waiting for player {p}"
            if refused is not False:  # (expected: nothing is asked of that player now)
                failures += _refusal(sc, at, i, refused, why)
                continue
            over = "" if game.pending else (" (the run is over: if the rules no longer ask this question, "
                                            "as it has one answer now, remove this answer)")
            return failures + [Failure(sc.value_at(*at), f"{name}: {why}; "
                                                         f"pending: {describe_pending(game)}{over}")], True
        d = mine[0]
        labels = [o.label for o in d.options]
        failures += _decision_checks(sc, a, at, i, p, d, labels)
        try:
            game.apply(choose, player=p)
        except IllegalAnswer as e:
            if refused is not False:
                failures += _refusal(sc, at, i, refused, str(e))
                continue
            hint = did_you_mean(choose, labels) if isinstance(choose, str) else ""
            return failures + [Failure(sc.value_at(*at, "choose"), f"{name} refused: {e}{hint}")], True
        except (RuleRuntimeError, StepBudgetExceeded) as e:
            return failures + [Failure(sc.value_at(*at, "choose"), f"{name}: the rules stopped with an error: {e}")], True
        if refused is not False:
            return failures + [Failure(sc.at(*at, "refused"), f"{name}: expected to be refused, but it was "
                                                             "accepted (the game went on with it)")], True
    return failures, False


def _refusal(sc, at: tuple, i: int, refused, message: str) -> list:
    """The failure of a refusal that was expected (`refused: true`, or a substring of its message)
    when its message does not hold the text expected, else nothing."""
    if refused is True or (isinstance(refused, str) and refused in message):
        return []
    return [Failure(sc.at(*at, "refused"), f"answer {i + 1}: the refusal (a substring of its message)",
                    f"'{refused}'", f"'{message}'")]


def _decision_checks(sc, a: dict, at: tuple, i: int, p: int, d, labels: list) -> list:
    """The checks of a decision (decision, prompt, options, optional, unavailable) that do not hold."""
    failures = decisions.check(sc, a, at, i, d)
    if "prompt" in a and a["prompt"] not in d.prompt:
        failures.append(Failure(sc.at(*at, "prompt"), f"answer {i + 1}: the prompt (a substring)",
                                f"'{a['prompt']}'", f"'{d.prompt}'"))
    if "options" in a and sorted(labels) != sorted(a["options"]):
        failures.append(Failure(sc.at(*at, "options"), f"answer {i + 1}: the options offered to player {p}",
                                show(sorted(a["options"])), show(sorted(labels))))
    if "optional" in a and d.optional != a["optional"]:
        failures.append(Failure(sc.at(*at, "optional"), f"answer {i + 1}: whether the decision may be declined",
                                show(a["optional"]), show(d.optional)))
    if "unavailable" in a:
        want = a["unavailable"] or {}
        got = {u["option"]: u["reason"] for u in d.unavailable}
        if sorted(got) != sorted(want) or not all(want[k] in got[k] for k in want):
            failures.append(Failure(sc.at(*at, "unavailable"), f"answer {i + 1}: what cannot be chosen, and why",
                                    show(want), show(got)))
    return failures
