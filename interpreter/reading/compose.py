"""The sections of a ruleset's files merged into one, and variants composed onto them: removals,
additions, overrides (a chain that previous(...) follows), slot keys filled, hook points offered.
Every problem is added to the errors list at the place it concerns (spec.read_spec reports them)."""
from __future__ import annotations

import re

from ..errors import RuleError, did_you_mean
from .yaml_reader import Located

SECTIONS = ("game", "constants", "cards", "zones", "counters", "marks", "slots", "functions",
            "procedures", "table", "flow", "renamed")
_NOT_NAMES = ("game", "flow", "renamed")  # (sections whose keys name nothing a variant removes or overrides)


def _either(words: list) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


_ROUTINES = ("functions", "procedures")
_SIG_NAME = re.compile(r"\s*([A-Za-z_]\w*)")


def entry_name(section: str, key) -> str:
    """The name an entry of a section defines (a function's or procedure's without its parameters)."""
    if section in _ROUTINES:
        m = _SIG_NAME.match(str(key))
        return m.group(1) if m else str(key)
    return str(key)


def merge_file(merged: dict, where: dict, loc: Located, errors: list):
    """Add one rule file's sections to the ruleset; a name defined twice is an error."""
    for section, value in loc.data.items():
        if section == "variant":
            continue
        if section == "flow" or section == "game":
            if merged[section] is not None and merged[section] != {}:
                errors.append(RuleError(loc.marks[("key", section)], f"'{section}' is given in two files"))
                continue
            merged[section] = value
            where[(section, "")] = loc.marks[(section,)]
            if section == "flow":
                merged["flow_src"] = loc.blocks.get((section,))
            continue
        where.setdefault((section, ""), loc.marks.get(("key", section)))  # (the section's first heading)
        for key, item in (value or {}).items():
            name = entry_name(section, key)
            if name in merged[section]:
                errors.append(RuleError(loc.marks[("key", section, key)], f"{section} '{name}' is defined twice"))
                continue
            merged[section][name] = [(key, item, loc, (section, key))] if section in _ROUTINES \
                else (item, loc, (section, key))
            where[(section, name)] = loc.marks[("key", section, key)]
            _note_fields(where, loc, section, key, name, item)


def _note_slot_keys(where: dict, loc: Located, key, name: str, table) -> None:
    """The place of each key's procedure of a slot, ("slots", slot, key), for checks to point at."""
    for k in table if isinstance(table, dict) else ():
        where[("slots", name, k)] = loc.marks.get(("slots", key, k)) or loc.marks[("key", "slots", key)]


def _note_fields(where: dict, loc: Located, section: str, key, name: str, item) -> None:
    """The places of a card kind's `back`, `back_label`, `stacked_in` and `powers` (and of their items), and
    of a counter's `track`, in where, for checks to point at: ("cards", kind, "back") and
    ("cards", kind, "back", i), ..., ("counters", name, "track")."""
    if section == "slots":
        _note_slot_keys(where, loc, key, name, item)
        return
    if section == "counters" and isinstance(item, dict):
        where.pop(("counters", name, "track"), None)
        if "track" in item:
            where[("counters", name, "track")] = loc.marks.get(("counters", key, "track")) or loc.marks[("key", "counters", key)]
        return
    if section == "zones" and isinstance(item, dict):  # a zone's `sort` (the function it names), `most`, ...
        for field in ("sort", "most", "start", "visible"):  # (start, visible: where a family's are wrong)
            where.pop(("zones", name, field), None)
            if field in item and (field in ("sort", "most") or item.get("per") == "made"):
                where[("zones", name, field)] = loc.marks.get(("zones", key, field)) or loc.marks[("key", "zones", key)]
        return
    if section != "cards" or not isinstance(item, dict):
        return
    _note_values(where, loc, key, name, item)
    for k in ("back", "back_label", "stacked_in", "powers"):
        where.pop(("cards", name, k), None)
        if k in item:
            where[("cards", name, k)] = loc.marks.get(("cards", key, k)) or loc.marks[("key", "cards", key)]
        items = item.get(k)
        for i in range(len(items) if isinstance(items, list) else 0):
            where[("cards", name, k, i)] = loc.marks.get(("cards", key, k, i))
        for slot in items if isinstance(items, dict) else ():  # powers: {slot: attribute}
            where[("cards", name, k, slot)] = (loc.marks.get(("key", "cards", key, k, slot))
                                               or loc.marks.get(("cards", key, k)))


def _note_values(where: dict, loc: Located, key, name: str, item: dict) -> None:
    """The place of each value of a card kind's attributes, ("cards", kind, "attributes", attr, i),
    and of its list items', ("cards", kind, "list", i, attr): for the check of their types."""
    attrs = item.get("attributes")
    for attr, values in attrs.items() if isinstance(attrs, dict) else ():
        for i in range(len(values) if isinstance(values, list) else 0):
            where[("cards", name, "attributes", attr, i)] = loc.marks.get(("cards", key, "attributes", attr, i))
        if not isinstance(values, list):
            where[("cards", name, "attributes", attr)] = loc.marks.get(("cards", key, "attributes", attr))
    own = item.get("list")
    for i, entry in enumerate(own if isinstance(own, list) else ()):
        for attr in entry if isinstance(entry, dict) else ():
            where[("cards", name, "list", i, attr)] = loc.marks.get(("cards", key, "list", i, attr))


def _defined_in(merged: dict, name: str) -> list:
    return [s for s in SECTIONS if s not in _NOT_NAMES and name in merged[s]] + \
        (["flow"] if name == "flow" and merged["flow"] is not None else [])


def apply_variant(merged: dict, where: dict, loc: Located, errors: list, elsewhere=None):
    """Compose a variant file onto the merged ruleset: removals, then additions and overrides."""
    head = loc.data["variant"]
    vname = head.get("name")
    overrides = list(head.get("overrides") or [])
    removes = list(head.get("removes") or [])
    known = sorted({n for s in SECTIONS if s not in _NOT_NAMES for n in merged[s]})
    for i, name in enumerate(removes):
        sections = _defined_in(merged, name)
        if not sections or name == "flow":
            errors.append(RuleError(loc.marks[("variant", "removes", i)], f"variant '{vname}' removes "
                                    f"'{name}', which the rules do not define{did_you_mean(name, known)}"))
        for s in sections:
            del merged[s][name]
    defined = set()
    for section, value in loc.data.items():
        if section in ("variant", "game"):
            if section == "game":
                errors.append(RuleError(loc.marks[("key", "game")], f"variant '{vname}' cannot change "
                                        "the 'game' section"))
            continue
        if section == "flow":
            defined.add("flow")
            if "flow" not in overrides:
                errors.append(RuleError(loc.marks[("key", "flow")], f"variant '{vname}' gives a 'flow': "
                                        "list 'flow' under variant.overrides to replace the rules' flow"))
                continue
            merged["flow"] = value
            merged["flow_src"] = loc.blocks.get(("flow",))
            where[("flow", "")] = loc.marks[("flow",)]
            continue
        for key, item in (value or {}).items():
            name = entry_name(section, key)
            kpos = loc.marks[("key", section, key)]
            defined.add(name)
            if section == "slots":
                _fill_slot(merged, where, loc, key, name, item, vname, overrides, errors)
                continue
            if section in _ROUTINES and name in merged[section] and name in overrides:
                offered = _hooks_offered(merged, head)
                if offered and name not in offered:  # (tightened since language 1: checks/versions.py)
                    i = overrides.index(name)
                    merged.setdefault("tightened", []).append((
                        loc.marks[("variant", "overrides", i)], f"variant '{vname}' overrides "
                        f"'{name}', which is not a hook point of {_either(sorted(set(offered.values())))}; "
                        f"its hook points: {', '.join(offered)}",
                        f"override a hook point instead, or list '{name}' under the hooks of the variant that "
                        "offers them"))
            if name in merged[section]:
                if name not in overrides:
                    old = where.get((section, name))
                    at = f" (at {old})" if old else ""
                    errors.append(RuleError(kpos, f"variant '{vname}': '{name}' is already defined{at}; "
                                            "list it under variant.overrides to change it"))
                    continue
                if section in _ROUTINES:
                    merged[section][name].append((key, item, loc, (section, key)))
                else:
                    merged[section][name] = (item, loc, (section, key))
                where[(section, name)] = kpos
                _note_fields(where, loc, section, key, name, item)
                continue
            if name in overrides:
                others = elsewhere(section, name) if elsewhere else []
                hint = (f" (the variant '{others[0]}' defines it: list '{others[0]}' under variant.requires)"
                        if others else did_you_mean(name, merged[section]))
                errors.append(RuleError(kpos, f"variant '{vname}' overrides '{name}', but the rules "
                                        f"define no {section[:-1] if section != 'cards' else 'card kind'} "
                                        f"'{name}'{hint}"))
                continue
            other = _defined_in(merged, name)
            if other:
                errors.append(RuleError(kpos, f"variant '{vname}': '{name}' is already a "
                                        f"{other[0][:-1]} of the rules; choose another name"))
                continue
            merged[section][name] = [(key, item, loc, (section, key))] if section in _ROUTINES \
                else (item, loc, (section, key))
            where[(section, name)] = kpos
            _note_fields(where, loc, section, key, name, item)
    for i, name in enumerate(overrides):
        if name not in defined:
            errors.append(RuleError(loc.marks[("variant", "overrides", i)], f"variant '{vname}' lists "
                                    f"'{name}' under overrides but does not define it"))
    _warn_score_without_standing(merged, loc, vname, overrides, defined)
    _replace_help(merged, head)
    routines = set(merged["functions"]) | set(merged["procedures"])
    for i, name in enumerate(head.get("hooks") or ()):
        if name in routines:
            merged["hooks"][name] = vname
        else:
            errors.append(RuleError(loc.marks[("variant", "hooks", i)], f"variant '{vname}' offers the hook point "
                                    f"'{name}', but no function or procedure is called '{name}'"
                                    f"{did_you_mean(name, routines)}"))


def _warn_score_without_standing(merged: dict, loc: Located, vname, overrides: list, defined: set) -> None:
    """A warning (in merged["warnings"]) when a variant overrides score(p) but neither overrides
    nor adds standing(p): the table shows the standing as the score (or, in rules without one,
    no score at all), so points the variant adds to the score alone would be missing from what
    the players see until the final scores. The variant's title is noted (merged["score_apart"]):
    at the game's end the standing shows its part of the score (engine/views.py)."""
    if "score" not in overrides or "standing" in defined:
        return
    at = loc.marks[("variant", "overrides", overrides.index("score"))]
    head = loc.data["variant"]
    merged.setdefault("score_apart", []).append(str(head.get("title") or vname))
    if "standing" in merged["functions"]:
        message = (f"variant '{vname}' overrides 'score' but not 'standing': the table shows each "
                   "player's standing(p) as their score, so points added to score(p) alone are not shown; "
                   "add them as a part of the standing instead: standing(p): previous(p) + "
                   "[(\"name of the part\", points)] (where score(p) is the sum of the standing's parts, "
                   "that scores them too)")
    else:
        message = (f"variant '{vname}' overrides 'score', but the rules give no 'standing': the table "
                   "shows no score, so the points score(p) adds are seen only in the final scores; add "
                   "standing(p): [(\"name of the part\", points), ...] (parts every player may know, adding "
                   "up to the score) to show them at the table")
    merged.setdefault("warnings", []).append(RuleError(at, message))


def _replace_help(merged: dict, head: dict) -> None:
    """A variant's help sections (variant.help: {title: text}) replace the game's sections of the
    same title, where they stand, and the others are added after them; its summary
    (variant.summary) replaces the game's text: the help of a game with the variant reads in the
    variant's words."""
    sections, summary = head.get("help"), head.get("summary")
    if not isinstance(merged["game"], dict):
        return
    if isinstance(sections, dict):
        merged["game"] = {**merged["game"], "help": {**(merged["game"].get("help") or {}), **sections}}
    if summary:
        merged["game"] = {**merged["game"], "text": summary}


def _hooks_offered(merged: dict, head: dict) -> dict:
    """The hook points the variants a variant requires offer: name -> the variant offering it."""
    required = set(head.get("requires") or ())
    return {n: v for n, v in merged["hooks"].items() if v in required}


def _fill_slot(merged: dict, where: dict, loc: Located, key, name: str, item, vname, overrides, errors):
    """A variant's entries of a slot: keys of the slot (a new key only when the variant overrides
    the slot), each filled by one variant at most."""
    table = merged["slots"].get(name)
    item = item if isinstance(item, dict) else {}
    if table is None:
        merged["slots"][name] = (dict(item), loc, ("slots", key))
        where[("slots", name)] = loc.marks[("key", "slots", key)]
        _note_slot_keys(where, loc, key, name, item)
        return
    keys = table[0]
    kept = {}
    for k, proc in item.items():
        kpos = loc.marks.get(("key", "slots", key, k)) or loc.marks[("key", "slots", key)]
        if k not in keys and name not in overrides:  # (tightened since language 1: checks/versions.py)
            listed = ", ".join(map(str, keys))
            merged.setdefault("tightened", []).append((
                kpos, f"slot '{name}' has no key '{k}'{did_you_mean(str(k), map(str, keys))}; its keys: {listed}",
                f"fill one of its keys, or list '{name}' under variant.overrides to add the key"))
        other = merged["fills"].get((name, k))
        if other is not None and other[0] != vname:
            errors.append(RuleError(kpos, f"variants '{other[0]}' (at {other[1]}) and '{vname}' both fill slot "
                                          f"'{name}' key '{k}': a game takes one of them"))
            continue
        merged["fills"][(name, k)] = (vname, kpos)
        kept[k] = proc
    merged["slots"][name] = ({**keys, **kept}, loc, ("slots", key))
    _note_slot_keys(where, loc, key, name, kept)
