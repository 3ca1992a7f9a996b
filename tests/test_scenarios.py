"""Scenario tests written as data: every worked example and clarification of a rulebook is one
YAML file in tests/scenarios/, run here as one pytest case (its id is the file name).

A scenario sets up a position, runs one procedure of the ruleset with Game.scenario, answers the
decisions it reaches, and checks the result. The format (every key but title, source, ruleset,
players and run is optional):

    title:   Round end - spending gold to keep cards (rulebook, "EXAMPLE (Round end)")
    source:  "004: 3. ROUND END / 000 caption: The player discards 3 discs ..."
    ruleset: capital_jux          # a ruleset name (a folder under rules/) or a path
    tiles: [infiltrator]          # variants (power tiles) to play with; colours not named get
                                  # their A tile (default: none, the base game)
    players: 3
    names:   [John, Mary, Bob]    # seat names, as the log shows them (default "Player 1", ...)
    seed:    0                    # the game's random seed (default 0)

    zones:                        # the position: cards by label, bottom first (the LAST is the TOP)
      capital: [blue 3, blue 4]   # Cards are taken from where the ruleset starts them (the deck,
      "hometown[0]": [blue 5]     # the modifier deck); the cards not listed stay there, under any
      "modifiers[blue]": [modifier -3]   # card listed for that zone, which go on top.
      deck: [pink 5]              # pink 5 is the top card of the deck
    set_aside:                    # makes a start zone hold exactly what `zones` lists (or nothing):
      deck: "starting_draw[0]"    # its other cards are moved to the zone named (pick one the run
                                  # does not touch), e.g. for "if the deck is empty ..."
    counters: {gold: [3, 0, 0], gold_pile: 5, start_player: 0}   # per-player counters as lists
    marks: {"hometown[0]": {green 4: {sentinel: 1}}}   # marks on the first card of that label

    run:  check_limits            # the procedure run from the position
    args: [0, yellow]             # its arguments: ints are seats, strings are strings

    answers:                      # answered in order, each to the decision pending for `player`
      - {player: 0, choose: "spend 1 gold to keep your blue cards"}
      - player: 1
        prompt: "over the capital"           # optional: a substring of the decision's prompt
        options: [lowest blue, lowest yellow]  # optional: exactly the labels offered (a multiset)
        optional: false                      # optional: whether the decision may be declined
        unavailable: {"rebel 3 into another district": "flag's district (yellow)"}
                                             # optional: exactly what the decision says cannot be
                                             # chosen, each with a substring of its reason
        choose: [blue 2, blue 3]             # an option label, an option index, or a list of them

    expect:
      over: true                  # the procedure ran to its end, no decision left (the default)
      pending: [1, 2]             # the seats with a decision waiting (use with over: false)
      zones: {"hometown[0]": [blue 5], discard: [pink 4, pink 5]}   # exact contents, as multisets
      zones_in_order: {"modifiers[yellow]": [modifier +4, modifier -1]}   # exact, bottom first
      sizes: {deck: 2, "hand[1]": 6}          # numbers of cards
      counters: {gold: [0, 0, 0], gold_pile: 8}
      marks: {"hometown[0]": {green 4: {sentinel: 2}}}   # the marks of the first card of that
                                  # label in the zone ({} for none); a card not there fails
      no_marks: [capital]         # zones whose cards carry no marks at all
      log: ["spends 1 gold", "discards"]       # substrings of the full log, in this order (each in
                                               # a later line than the one before)
      not_in_log: ["draws a card"]             # substrings found in no line of the full log
      log_for: {1: ["places a face-down card"]}    # the same, in the log as seat 1 may read it
      not_in_log_for: {1: ["modifier +4"]}
      views: {1: {"modifiers[yellow]": [hidden]}}  # what game.view(seat) shows of a zone (a
                                                   # multiset): card labels, `hidden` for a card
                                                   # it may not see, `known` for any card it sees
      scores: [17, 17, 12]        # game.scores
      tiebreaks: [[1, 2], [2, 0]] # the leading entries of each seat's game.tiebreaks()
      winners: [1]                # game.winners

    xfail: "why"                  # a known bug in the rules: expected to fail (strict)

Every expectation is checked and all mismatches are reported at once, with the log.
"""
from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
import yaml

from jux.interpreter.engine import Game, load_ruleset
from jux.interpreter.errors import IllegalAnswer

HERE = Path(__file__).parent / "scenarios"
FILES = sorted(HERE.rglob("*.yaml"))

TOP_KEYS = {"title", "source", "ruleset", "tiles", "players", "names", "seed", "zones", "set_aside",
            "counters", "marks", "run", "args", "answers", "expect", "xfail"}
EXPECT_KEYS = {"over", "pending", "zones", "zones_in_order", "sizes", "counters", "marks", "no_marks",
               "log", "not_in_log", "log_for", "not_in_log_for", "views", "scores", "tiebreaks", "winners"}
ANSWER_KEYS = {"player", "choose", "options", "prompt", "optional", "unavailable"}
HIDDEN, KNOWN = "hidden", "known"


def _load(path: Path) -> dict:
    data = yaml.safe_load(path.read_text())
    assert isinstance(data, dict), f"{path.name}: a scenario is a mapping"
    unknown = set(data) - TOP_KEYS
    assert not unknown, f"{path.name}: unknown keys {sorted(unknown)} (known: {sorted(TOP_KEYS)})"
    for key in ("title", "source", "ruleset", "players", "run"):
        assert key in data, f"{path.name}: '{key}' is missing"
    unknown = set(data.get("expect") or {}) - EXPECT_KEYS
    assert not unknown, f"{path.name}: unknown expect keys {sorted(unknown)} (known: {sorted(EXPECT_KEYS)})"
    for i, a in enumerate(data.get("answers") or []):
        assert isinstance(a, dict) and "player" in a and "choose" in a, \
            f"{path.name}: answer {i + 1} needs 'player' and 'choose'"
        unknown = set(a) - ANSWER_KEYS
        assert not unknown, f"{path.name}: answer {i + 1} has unknown keys {sorted(unknown)}"
    return data


def _params():
    out = []
    for f in FILES:
        try:
            data = _load(f)
        except Exception:  # a malformed file fails its own case (in run_scenario), not the collection
            data = {}
        marks = []
        if data.get("xfail"):
            marks.append(pytest.mark.xfail(strict=True, reason=str(data["xfail"])))
        out.append(pytest.param(f, id=str(f.relative_to(HERE).with_suffix("")), marks=marks))
    return out


def _zones_with_set_aside(rules, zones: dict, set_aside: dict) -> dict:
    """The zones to place, plus the cards to move out of each set-aside start zone.

    A start zone (one the ruleset fills with a kind of card) keeps every card of that kind that is
    not listed anywhere; set_aside moves those leftovers to another zone, so the start zone holds
    exactly the cards listed for it.
    """
    zones = {k: list(v or []) for k, v in zones.items()}
    if not set_aside:
        return zones
    lay = rules.layout
    listed = Counter(label for labels in zones.values() for label in labels)
    for start_zone, target in set_aside.items():
        kinds = lay.zone_def.get(start_zone, {}).get("start")
        assert kinds, f"set_aside: '{start_zone}' is not a zone where the ruleset starts cards"
        leftover = []
        for c in rules.cards:
            if rules.card_attrs[c]["kind"] in kinds:
                label = rules.card_labels[c]
                if listed[label] > 0:
                    listed[label] -= 1  # this copy is placed by `zones`
                else:
                    leftover.append(label)
        # the set-aside cards go first (under anything listed for the target zone)
        zones[target] = leftover + zones.get(target, [])
    return zones


def _seat_key(k) -> int:
    return int(k)  # YAML gives seat keys as ints; accept "1" too


def _multiset(xs) -> list:
    return sorted(xs, key=lambda x: (str(type(x)), str(x)))


def _find_in_order(lines: list, subs: list) -> str | None:
    """None if every substring is found in the lines in order; else a message."""
    i = 0
    for s in subs:
        while i < len(lines) and s not in lines[i]:
            i += 1
        if i == len(lines):
            if any(s in line for line in lines):
                return f"'{s}' is in the log, but not after the lines matched before it"
            return f"'{s}' is not in the log"
        i += 1
    return None


def _match_view(cards: list, want: list) -> str | None:
    """None if the viewed cards match `want` as a multiset; `known` matches any card shown."""
    shown = [HIDDEN if c.get("hidden") else c["label"] for c in cards]
    rest = Counter(shown)
    for w in want:
        if w != KNOWN:
            if rest[w] == 0:
                return f"expected {_multiset(want)}, got {_multiset(shown)}"
            rest[w] -= 1
    unmatched = [x for x in rest.elements()]
    n_known = want.count(KNOWN)
    if len(unmatched) != n_known or HIDDEN in unmatched:
        return f"expected {_multiset(want)}, got {_multiset(shown)}"
    return None


def _describe_pending(game) -> str:
    if not game.pending:
        return "none"
    return "; ".join(f"player {d.player}: {d.prompt!r} options {[o.label for o in d.options]}" for d in game.pending)


def run_scenario(path: Path):
    data = _load(path)
    rules = load_ruleset(data["ruleset"], data.get("tiles") or ())
    n = int(data["players"])
    zones = _zones_with_set_aside(rules, data.get("zones") or {}, data.get("set_aside") or {})
    game = Game.scenario(rules, n, zones=zones, counters=data.get("counters") or {},
                         run=data["run"], args=list(data.get("args") or []),
                         seed=int(data.get("seed", 0)), names=data.get("names"), marks=data.get("marks"))

    # ---- answers
    for i, a in enumerate(data.get("answers") or [], 1):
        p = int(a["player"])
        mine = game.pending_for(p)
        if not mine:
            pytest.fail(f"{path.name}: answer {i} (player {p}, {a['choose']!r}): no decision is waiting "
                        f"for player {p}; pending: {_describe_pending(game)}\nlog:\n  " + "\n  ".join(game.log_lines()))
        d = mine[0]
        labels = [o.label for o in d.options]
        if "options" in a:
            assert _multiset(labels) == _multiset(a["options"]), (
                f"{path.name}: answer {i}: player {p} is offered {labels}, expected {a['options']}")
        if "optional" in a:
            assert d.optional == a["optional"], (
                f"{path.name}: answer {i}: player {p}'s decision optional={d.optional}, expected {a['optional']}")
        if "unavailable" in a:
            want = a["unavailable"] or {}
            got = {u["option"]: u["reason"] for u in d.unavailable}
            assert sorted(got) == sorted(want) and all(want[k] in got[k] for k in want), (
                f"{path.name}: answer {i}: player {p} is told {got} cannot be chosen, expected {want}")
        if "prompt" in a:
            assert a["prompt"] in d.prompt, (
                f"{path.name}: answer {i}: player {p}'s prompt is {d.prompt!r}, expected it to contain {a['prompt']!r}")
        try:
            game.apply(a["choose"], player=p)
        except IllegalAnswer as e:
            pytest.fail(f"{path.name}: answer {i} (player {p}, {a['choose']!r}) refused: {e}")

    # ---- expectations
    exp = data.get("expect") or {}
    errors = []
    over = exp.get("over", True)
    if game.over != over:
        errors.append(f"over: expected {over}, got {game.over}; pending: {_describe_pending(game)}")
    if "pending" in exp:
        got = sorted(d.player for d in game.pending)
        if got != sorted(exp["pending"]):
            errors.append(f"pending: expected decisions for {sorted(exp['pending'])}, got {got}")
    for name, labels in (exp.get("zones") or {}).items():
        got = game.zone(name)
        if _multiset(got) != _multiset(labels or []):
            errors.append(f"zone {name}: expected {_multiset(labels or [])}, got {_multiset(got)}")
    for name, labels in (exp.get("zones_in_order") or {}).items():
        got = game.zone(name)
        if got != list(labels or []):
            errors.append(f"zone {name} (bottom first): expected {list(labels or [])}, got {got}")
    for name, size in (exp.get("sizes") or {}).items():
        got = len(game.zone(name))
        if got != size:
            errors.append(f"zone {name}: expected {size} cards, got {got}")
    for name, value in (exp.get("counters") or {}).items():
        got = game.counter(name)
        if got != value:
            errors.append(f"counter {name}: expected {value}, got {got}")
    for name, by_label in (exp.get("marks") or {}).items():
        got = game.marks(name)
        labels = game.zone(name)
        for label, want in by_label.items():
            have = next((m for lab, m in got if lab == label), {})
            if label not in labels:
                errors.append(f"marks: no card '{label}' in {name}")
            elif have != (want or {}):
                errors.append(f"marks of {label} in {name}: expected {want or {}}, got {have}")
    for name in exp.get("no_marks") or []:
        got = game.marks(name)
        if got:
            errors.append(f"marks in {name}: expected none, got {got}")
    lines = game.log_lines()
    if exp.get("log"):
        msg = _find_in_order(lines, exp["log"])
        if msg:
            errors.append(f"log: {msg}")
    for s in exp.get("not_in_log") or []:
        if any(s in line for line in lines):
            errors.append(f"log: '{s}' should not be in the log")
    for seat, subs in (exp.get("log_for") or {}).items():
        msg = _find_in_order(game.log_lines(_seat_key(seat)), subs)
        if msg:
            errors.append(f"log as seat {seat} reads it: {msg}: {game.log_lines(_seat_key(seat))}")
    for seat, subs in (exp.get("not_in_log_for") or {}).items():
        seen = game.log_lines(_seat_key(seat))
        for s in subs:
            if any(s in line for line in seen):
                errors.append(f"log as seat {seat} reads it: '{s}' should not be there: {seen}")
    if exp.get("views"):
        names_of = rules.layout.zone_names(n)
        for seat, zmap in exp["views"].items():
            view = game.view(_seat_key(seat))
            for name, labels in zmap.items():
                key = name.replace(" ", "")
                assert key in names_of, f"{path.name}: views: no zone '{name}'"
                cards = view["zones"][names_of.index(key)]["cards"]
                msg = _match_view(cards, list(labels or []))
                if msg:
                    errors.append(f"view of seat {seat}, zone {name}: {msg}")
    if "scores" in exp and game.scores != exp["scores"]:
        errors.append(f"scores: expected {exp['scores']}, got {game.scores}")
    if "tiebreaks" in exp:
        got = game.tiebreaks()
        want = exp["tiebreaks"]
        if len(got) != len(want) or any(list(g[:len(w)]) != list(w) for g, w in zip(got, want)):
            errors.append(f"tiebreaks: expected leading entries {want}, got {got}")
    if "winners" in exp and game.winners != exp["winners"]:
        errors.append(f"winners: expected {exp['winners']}, got {game.winners}")
    if errors:
        pytest.fail(f"{path.name}: {data['title']}\n  " + "\n  ".join(errors)
                    + "\nlog:\n  " + "\n  ".join(lines), pytrace=False)
    return game


def test_there_are_scenarios():
    assert FILES, "no scenario files in tests/scenarios/"


@pytest.mark.parametrize("path", _params())
def test_scenario(path):
    run_scenario(path)
