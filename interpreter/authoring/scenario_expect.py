"""A scenario's expectations: the names they use checked against the ruleset before the run
(check_names), and each one checked against the game after it (check), every failure at the
place of that expectation in the scenario file."""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from ..errors import Pos, did_you_mean

HIDDEN, KNOWN = "hidden", "known"
_NO = object()  # no value to compare
_ZONE_MAPS = ("zones", "zones_in_order", "sizes", "marks")


@dataclass(frozen=True)
class Failure:
    """One thing that did not hold: where it is written, what it is, and (for a comparison) the
    value expected and the one found, as an author writes them."""

    pos: Pos
    what: str
    expected: str | None = None
    actual: str | None = None
    extra: tuple = ()  # more lines to show under it (the log as one seat reads it)

    def lines(self) -> list:
        out = [f"{self.pos}: {self.what}"]
        if self.expected is not None:
            out += [f"  expected: {self.expected}", f"  actual:   {self.actual}"]
        return out + [f"  {line}" for line in self.extra]


def show(x, inner: bool = False) -> str:
    """A value as YAML's flow style writes it: [card 3, card 4], {coins: 2}, none, true. Inside a
    list or a mapping, a text that would not read back as that one text is quoted ("gold 3, 4",
    "none", "7"), so an expected and an actual value that differ never print the same."""
    if x is None:
        return "none"
    if isinstance(x, bool):
        return "true" if x else "false"
    if isinstance(x, (list, tuple)):
        return "[" + ", ".join(show(i, True) for i in x) + "]"
    if isinstance(x, dict):
        return "{" + ", ".join(f"{show(k, True)}: {show(v, True)}" for k, v in x.items()) + "}"
    if inner and isinstance(x, str) and _needs_quotes(x):
        return '"' + x.replace("\\", "\\\\").replace('"', '\\"') + '"'
    return str(x)


_WORDS = {"none", "null", "~", "true", "false", "yes", "no", "on", "off", ""}


def _needs_quotes(text: str) -> bool:
    """Whether a text in a flow list or mapping would read as something else unquoted."""
    if text.lower() in _WORDS or text != text.strip() or any(ch in text for ch in ",[]{}#\"\n"):
        return True
    if ": " in text or text.endswith(":") or text[0] in "'&*!|>%@`-?":
        return True
    try:
        float(text)
        return True
    except ValueError:
        return False


def _multiset(xs) -> list:
    return sorted(xs, key=lambda x: (str(type(x)), str(x)))


def _seat_key(k, n: int):
    """A seat written as a key (1, or "1"), or None when it is not a seat of this game."""
    try:
        s = int(k)
    except (TypeError, ValueError):
        return None
    return s if 0 <= s < n and not isinstance(k, bool) else None


# ---------------------------------------------------------------- before the run


def check_names(sc, rules, n: int) -> list:
    """RuleErrors for every seat, zone, card, counter and mark the scenario names that this game
    does not have (the setup's own are checked as the position is set up)."""
    errors = []
    if not rules.min_players <= n <= rules.max_players:
        errors.append(sc.error(("players",), f"players: {rules.name} is for {rules.min_players} to "
                                             f"{rules.max_players} players, not {n}", value=True))
        return errors
    names = sc.data.get("names")
    if names is not None and len(names) != n:
        errors.append(sc.error(("names",), f"names: {len(names)} names for {n} players"))
    for i, a in enumerate(sc.data.get("answers") or []):
        if a["player"] >= n:
            errors.append(sc.error(("answers", i, "player"), f"answer {i + 1}: no player {a['player']} "
                                                             f"(seats are 0 to {n - 1})", value=True))
    zones = rules.layout.zone_names(n)
    labels = set(rules.card_labels[c] for c in rules.cards)
    lay = rules.layout
    counters = list(lay.counter_index) + list(lay.player_counters)

    def zone(path, name):
        key = str(name).replace(" ", "")
        if key not in zones:
            errors.append(sc.error(path, f"no zone '{name}'" + (did_you_mean(key, zones) or
                                                                f" (zones: {', '.join(zones)})")))
            return False
        return True

    def label(path, text):
        if text not in labels:
            errors.append(sc.error(path, f"no card '{text}' in this ruleset{did_you_mean(str(text), labels)}",
                                   value=True))

    for key in ("zones", "marks"):
        for name in sc.data.get(key) or {}:
            zone((key, name), name)
    for start, target in (sc.data.get("set_aside") or {}).items():
        if zone(("set_aside", start), start):
            if not lay.zone_def.get(start, {}).get("start"):
                errors.append(sc.error(("set_aside", start), f"set_aside: '{start}' is not a zone where "
                                                             "the ruleset starts cards"))
            zone(("set_aside", start), target)
    exp = sc.data.get("expect") or {}
    for key in ("zones", "zones_in_order"):
        for name, items in (exp.get(key) or {}).items():
            if zone(("expect", key, name), name):
                for i, text in enumerate(items or []):
                    label(("expect", key, name, i), text)
    for name in exp.get("sizes") or {}:
        zone(("expect", "sizes", name), name)
    for name in exp.get("made") or {}:
        if name not in lay.families:
            errors.append(sc.error(("expect", "made", name), f"no family of zones made during play '{name}'"
                                   + (did_you_mean(str(name), lay.families) or f" (families: {', '.join(lay.families)})"
                                      if lay.families else " (no zone is declared per: made)")))
    for name, by_label in (exp.get("marks") or {}).items():
        if zone(("expect", "marks", name), name):
            for text, marks in by_label.items():
                label(("expect", "marks", name, text), text)
                for mark in marks or {}:
                    if mark not in rules.spec.marks:
                        errors.append(sc.error(("expect", "marks", name, text, mark),
                                               f"no mark '{mark}'{did_you_mean(str(mark), rules.spec.marks)}"))
    for i, name in enumerate(exp.get("no_marks") or []):
        zone(("expect", "no_marks", i), name)
    for name in exp.get("counters") or {}:
        if name not in counters:
            errors.append(sc.error(("expect", "counters", name), f"no counter '{name}'{did_you_mean(str(name), counters)}"))
    for key in ("log_for", "not_in_log_for", "views"):
        for seat, value in (exp.get(key) or {}).items():
            if _seat_key(seat, n) is None:
                errors.append(sc.error(("expect", key, seat), f"{key}: no seat {seat} (seats are 0 to {n - 1})"))
            elif key == "views":
                for name, items in value.items():
                    if zone(("expect", key, seat, name), name):
                        for i, text in enumerate(items or []):
                            if text not in (HIDDEN, KNOWN):
                                label(("expect", key, seat, name, i), text)
    return errors


# ---------------------------------------------------------------- after the run


def describe_pending(game) -> str:
    if not game.pending:
        return "none"
    return "; ".join(f"player {d.player}: {d.prompt!r} options {show([o.label for o in d.options])}"
                     for d in game.pending)


def _find_in_order(lines: list, subs: list):
    """None if every substring is found in the lines in order; else (index of the first that is
    not, why)."""
    i = 0
    for k, s in enumerate(subs):
        while i < len(lines) and s not in lines[i]:
            i += 1
        if i == len(lines):
            if any(s in line for line in lines):
                return k, f"'{s}' is in the log, but not after the lines matched before it"
            return k, f"'{s}' is not in the log"
        i += 1
    return None


def _match_view(cards: list, want: list) -> bool:
    """Whether the viewed cards match `want` as a multiset; `known` matches any card shown."""
    shown = [HIDDEN if c.get("hidden") else c["label"] for c in cards]
    rest = Counter(shown)
    for w in want:
        if w != KNOWN:
            if rest[w] == 0:
                return False
            rest[w] -= 1
    unmatched = list(rest.elements())
    return len(unmatched) == want.count(KNOWN) and HIDDEN not in unmatched


def check(sc, game) -> list:
    """Every expectation that does not hold in the game, as Failures (all of them, in file order)."""
    exp = sc.data.get("expect") or {}
    out = []

    def fail(path, what, expected=_NO, actual=_NO, extra=()):
        # (a value of none is compared as any other: only a failure with no comparison has none)
        out.append(Failure(sc.at("expect", *path) if path or "expect" in sc.data else sc.at("run"),
                           what, None if expected is _NO else show(expected, True),
                           None if actual is _NO else show(actual, True), tuple(extra)))

    over = exp.get("over", True)
    if game.over != over:
        why = f"over (pending: {describe_pending(game)})" if game.pending else "over"
        fail(("over",) if "over" in exp else (), why, over, game.over)
    if "pending" in exp:
        got = sorted(d.player for d in game.pending)
        if got != sorted(exp["pending"]):
            fail(("pending",), "pending: the seats with a decision waiting", sorted(exp["pending"]), got)
    for name, labels in (exp.get("zones") or {}).items():
        got = game.zone(name)
        if _multiset(got) != _multiset(labels or []):
            fail(("zones", name), f"zone {name}", _multiset(labels or []), _multiset(got))
    for name, labels in (exp.get("zones_in_order") or {}).items():
        got = game.zone(name)
        if got != list(labels or []):
            fail(("zones_in_order", name), f"zone {name} (bottom first)", list(labels or []), got)
    for name, size in (exp.get("sizes") or {}).items():
        got = len(game.zone(name))
        if got != size:
            fail(("sizes", name), f"zone {name}: number of cards", size, got)
    for name, keys in (exp.get("made") or {}).items():
        got = game.made(name)
        if got != list(keys or []):
            fail(("made", name), f"the zones of {name} made now (their keys, in the order they were made)",
                 list(keys or []), got)
    for name, value in (sc.nothing("expect", "counters") or {}).items():
        got = game.counter(name, labels=True)
        if got != value:
            fail(("counters", name), f"counter {name}", value, got)
    for name, by_label in (sc.nothing("expect", "marks") or {}).items():
        got, labels = game.marks(name), game.zone(name)
        for label, want in by_label.items():
            have = next((m for lab, m in got if lab == label), {})
            if label not in labels:
                fail(("marks", name, label), f"marks: no card '{label}' in {name}")
            elif have != (want or {}):
                fail(("marks", name, label), f"marks of {label} in {name}", want or {}, have)
    for i, name in enumerate(exp.get("no_marks") or []):
        got = game.marks(name)
        if got:
            fail(("no_marks", i), f"marks in {name}", None, {lab: m for lab, m in got})
    lines = game.log_lines()
    if exp.get("log"):
        miss = _find_in_order(lines, exp["log"])
        if miss:
            fail(("log", miss[0]), f"log: {miss[1]}")
    for i, s in enumerate(exp.get("not_in_log") or []):
        found = next((line for line in lines if s in line), None)
        if found is not None:
            fail(("not_in_log", i), f"log: '{s}' should not be in the log, but a line reads: {found}")
    for seat, subs in (exp.get("log_for") or {}).items():
        seen = game.log_lines(int(seat))
        miss = _find_in_order(seen, subs)
        if miss:
            fail(("log_for", seat, miss[0]), f"log as seat {seat} reads it: {miss[1]}",
                 extra=[f"log as seat {seat} reads it:"] + [f"  {line}" for line in seen])
    for seat, subs in (exp.get("not_in_log_for") or {}).items():
        seen = game.log_lines(int(seat))
        for i, s in enumerate(subs):
            found = next((line for line in seen if s in line), None)
            if found is not None:
                fail(("not_in_log_for", seat, i), f"log as seat {seat} reads it: '{s}' should not be "
                                                  f"there, but a line reads: {found}")
    if exp.get("views"):
        names_of = game.rules.layout.zone_names(game.state.n)
        for seat, zmap in exp["views"].items():
            view = game.view(int(seat))
            for name, labels in zmap.items():
                at = names_of.index(str(name).replace(" ", ""))  # (a view holds only the zones made now)
                zname, key, owner = game.rules.layout.zone_of(at)
                cards = next((z["cards"] for z in view["zones"]
                              if (z["name"], z["key"], z["owner"]) == (zname, key, owner)), [])
                if not _match_view(cards, list(labels or [])):
                    shown = [HIDDEN if c.get("hidden") else c["label"] for c in cards]
                    fail(("views", seat, name), f"view of seat {seat}, zone {name}",
                         _multiset(labels or []), _multiset(shown))
    if "scores" in exp and game.scores != exp["scores"]:
        fail(("scores",), "scores", exp["scores"], game.scores)
    if "tiebreaks" in exp:
        got, want = game.tiebreaks(), exp["tiebreaks"]
        if len(got) != len(want) or any(list(g[:len(w)]) != list(w) for g, w in zip(got, want)):
            fail(("tiebreaks",), "tiebreaks (the leading entries of each seat's)", want, [list(g) for g in got])
    if "winners" in exp and game.winners != exp["winners"]:
        fail(("winners",), "winners", exp["winners"], game.winners)
    return out
