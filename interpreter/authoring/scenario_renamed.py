"""A scenario written before the rules reworded what it names (renames.py): its card labels,
options, prompts and log words read as the rules spell them now, each with a warning at its place
that says what to write; and an answer to a question the rules no longer ask (it has one answer)
is left out with a warning."""
from __future__ import annotations

from .renames import Renames
from .scenario_expect import Failure


def warn(sc, warnings: list, path: tuple, old, new) -> None:
    warnings.append(Failure(sc.value_at(*path), f"warning: '{old}' is '{new}' in these rules now (they "
                                                f"reworded it): write '{new}'"))


def card_labels(sc, rules, renames: Renames, warnings: list) -> None:
    """Rewrite, in sc.data, the card labels of the position and of the expectations that name no
    card now but an earlier label of one."""
    if not renames:
        return
    order = list(dict.fromkeys(rules.card_labels))  # (an earlier label of several cards: the first, as it was)
    labels = set(order)
    data = sc.data

    def fix_list(path, xs):
        if not isinstance(xs, list):
            return xs
        out = list(xs)
        for i, x in enumerate(xs):
            if isinstance(x, str) and x not in labels:
                new = renames.label(x, order, first=True)
                if new is not None:
                    warn(sc, warnings, path + (i,), x, new)
                    out[i] = new
        return out

    def fix_keys(path, table):
        if not isinstance(table, dict):
            return table
        out = {}
        for k, v in table.items():
            new = renames.label(k, order, first=True) if isinstance(k, str) and k not in labels else None
            if new is not None:
                warn(sc, warnings, path + (k,), k, new)
            out[new or k] = v
        return out

    for zone, xs in list((data.get("zones") or {}).items()):
        data["zones"][zone] = fix_list(("zones", zone), xs)
    for zone, table in list((data.get("marks") or {}).items()):
        data["marks"][zone] = fix_keys(("marks", zone), table)
    expect = data.get("expect") or {}
    for key in ("zones", "zones_in_order"):
        for zone, xs in list((expect.get(key) or {}).items()):
            expect[key][zone] = fix_list(("expect", key, zone), xs)
    for zone, table in list((expect.get("marks") or {}).items()):
        expect["marks"][zone] = fix_keys(("expect", "marks", zone), table)
    for seat, zones in list((expect.get("views") or {}).items()):
        for zone, xs in list((zones or {}).items()) if isinstance(zones, dict) else ():
            zones[zone] = fix_list(("expect", "views", seat, zone), xs)


def answer(sc, a: dict, at: tuple, d, labels: list, renames: Renames, warnings: list) -> dict:
    """The answer a with its choice, options and prompt as the rules spell them now."""
    if not renames:
        return a
    a = dict(a)
    choose = a.get("choose")
    picks = choose if isinstance(choose, list) else [choose]
    fixed = []
    for j, x in enumerate(picks):
        new = renames.label(x, labels) if isinstance(x, str) and x not in labels else None
        if new is not None:
            warn(sc, warnings, at + (("choose", j) if isinstance(choose, list) else ("choose",)), x, new)
        fixed.append(new or x)
    a["choose"] = fixed if isinstance(choose, list) else fixed[0]
    if isinstance(a.get("options"), list):
        opts = list(a["options"])
        for j, x in enumerate(opts):
            new = renames.label(x, labels) if isinstance(x, str) and x not in labels else None
            if new is not None:
                warn(sc, warnings, at + ("options", j), x, new)
                opts[j] = new
        a["options"] = opts
    if isinstance(a.get("prompt"), str) and a["prompt"] not in d.prompt:
        new = renames.part(a["prompt"], [d.prompt])
        if new is not None:
            warn(sc, warnings, at + ("prompt",), a["prompt"], new)
            a["prompt"] = new
    return a


def log_words(sc, game, renames: Renames, warnings: list) -> None:
    """Rewrite, in sc.data's expectations, the log words found in no line of the log now but in
    their spelling now."""
    if not renames:
        return
    expect = sc.data.get("expect") or {}
    everything = game.log_lines()
    if isinstance(expect.get("log"), list):
        expect["log"] = _fix_words(sc, ("expect", "log"), expect["log"], everything, renames, warnings)
    for seat, words in list((expect.get("log_for") or {}).items()):
        try:
            lines = game.log_lines(int(seat))
        except (TypeError, ValueError, IndexError):
            continue
        expect["log_for"][seat] = _fix_words(sc, ("expect", "log_for", seat), words, lines, renames, warnings)


def _fix_words(sc, path, words, lines, renames, warnings):
    if not isinstance(words, list):
        return words
    out = list(words)
    for i, w in enumerate(words):
        if isinstance(w, str) and not any(w in line for line in lines):
            new = renames.part(w, lines)
            if new is not None:
                warn(sc, warnings, path + (i,), w, new)
                out[i] = new
    return out


def not_asked(sc, a: dict, nxt: dict | None, i: int, labels: list, warnings: list, name: str | None = None) -> bool:
    """Whether answer i answers a question the rules no longer ask: its choice is none of the
    options of the decision waiting, and the next answer's is one (that question has one answer,
    and the rules take it without asking). It is then left out, with a warning. When the answers
    name their decisions (`decision:`), the decision waiting, `name`, says it: answer i is not
    left out when it names that decision, nor when the next answer names another."""
    if a.get("refused", False) is not False or nxt is None:
        return False
    if name is not None and (a.get("decision") == name or nxt.get("decision", name) != name):
        return False

    def fits(x):
        xs = x if isinstance(x, list) else [x]
        return all((isinstance(y, str) and y in labels) or (type(y) is int and 0 <= y < len(labels)) for y in xs)

    if fits(a.get("choose")) or nxt.get("player") != a.get("player") or not fits(nxt.get("choose")):
        return False
    if isinstance(a.get("prompt"), str) and isinstance(nxt.get("prompt"), str) and a["prompt"] == nxt["prompt"]:
        return False
    warnings.append(Failure(sc.value_at("answers", i), f"warning: answer {i + 1} answers a question these "
                                                       "rules no longer ask (it has one answer, taken without "
                                                       "asking): it is left out; remove it"))
    return True
