"""Tracks: a counter that is a marker on a sequence of spaces, each space with its own data.

A counter declares `track: {points: step_points}` (each thing a space shows, from a list
constant: one value per space) or, when it is one per item of a list, the spaces of each item:
`track: {left: {colour: left_colours, price: prices}, right: {...}}`; or, when which track is
in play is itself a counter's value (a sheet's side), `track: {by: side, front: {...}, back: {...}}`.
Its value is the number of spaces reached (0: none yet). The rules read the constants as they like; the table draws the
track, and `check` makes sure the constants exist and agree.
"""
from __future__ import annotations


def _per_list(spec, counter: dict):
    """The list constant a counter is one per item of (None if it is not)."""
    per = counter.get("per")
    if isinstance(per, list):
        per = per[1]
    return per if per and per != "player" else None


def _keyed(track: dict) -> bool:
    return any(isinstance(v, dict) for v in track.values())


def selector(spec, name: str) -> str | None:
    """The counter whose value says which of counter `name`'s tracks is in play (`by:`), if any."""
    c = spec.counters.get(name)
    track = c.get("track") if isinstance(c, dict) else None
    return track.get("by") if isinstance(track, dict) and isinstance(track.get("by"), str) and _keyed(track) else None


def spaces(spec, name: str) -> dict | None:
    """The spaces of counter `name`'s track: {key: [{thing: value, ...} per space]} (key None when
    every item of the counter has the same track), or None when it is no track."""
    c = spec.counters.get(name)
    track = c.get("track") if isinstance(c, dict) else None
    if not track:
        return None
    tables = [(k, v) for k, v in track.items() if k != "by"] if _keyed(track) else [(None, track)]
    out = {}
    for key, table in tables:
        columns = {thing: list(spec.constants.get(const) or []) for thing, const in table.items()}
        n = min((len(v) for v in columns.values()), default=0)
        out[key] = [{thing: values[i] for thing, values in columns.items()} for i in range(n)]
    return out


def check(spec) -> list:
    """(where, message) for every track that names a missing or non-list constant, lists of
    unequal lengths, or keys that are not the items its counter is one per."""
    out = []
    for name, c in spec.counters.items():
        track = c.get("track") if isinstance(c, dict) else None
        if not track:
            continue
        pos = spec.where.get(("counters", name, "track")) or spec.where.get(("counters", name))
        by = selector(spec, name)
        if by is not None:
            if by not in spec.counters:
                out.append((pos, f"counter '{name}': the track's 'by' names '{by}', which is not a counter"))
            tables = [(f"{name}.{k}", v) for k, v in track.items() if k != "by"]
        elif _keyed(track):
            if not all(isinstance(v, dict) for v in track.values()):
                out.append((pos, f"counter '{name}': a track is either the spaces ({{points: a_list}}) or the "
                                 "spaces of each item ({left: {...}, right: {...}}), not both"))
                continue
            items = spec.constants.get(_per_list(spec, c) or "")
            if not isinstance(items, list):
                out.append((pos, f"counter '{name}' has a track for each item, but it is not one per item of "
                                 "a list (per: LIST or per: [player, LIST])"))
                continue
            keys = [str(k) for k in track]
            missing = [str(i) for i in items if str(i) not in keys]
            extra = [k for k in keys if k not in map(str, items)]
            if missing or extra:
                out.append((pos, f"counter '{name}': the track's items must be those of "
                                 f"'{_per_list(spec, c)}' ({', '.join(map(str, items))})"
                                 + (f"; missing {', '.join(missing)}" if missing else "")
                                 + (f"; not an item: {', '.join(extra)}" if extra else "")))
            tables = [(f"{name}.{k}", v) for k, v in track.items()]
        else:
            tables = [(name, track)]
        for where, table in tables:
            lengths = {}
            for thing, const in table.items():
                v = spec.constants.get(const)
                if not isinstance(v, list) or not v:
                    out.append((pos, f"track of '{where}': '{thing}' names '{const}', which is not a list "
                                     "constant (one value per space)"))
                else:
                    lengths[thing] = len(v)
            if len(set(lengths.values())) > 1:
                out.append((pos, f"track of '{where}': its lists differ in length ("
                                 + ", ".join(f"{t} {n}" for t, n in lengths.items()) + ")"))
    return out
