"""Game records and saves, read strictly.

A record (or a save) comes from a file anyone may have edited: every field is checked for its type
and range before the engine sees it, and a problem is a RecordError saying where it is in the JSON
("answers[3]: ..."). JSON is read as the standard has it (no NaN or Infinity, no number too big
for its field), from a regular file of bounded size, nested at most MAX_NESTING deep.

Where a record's rules come from: its `ruleset` and `variants` name the catalogue (a folder under
rules/, a variant of variants/<game>/), or files the user named on the command line (`paths`).
Anything else is refused without being opened: a record cannot make jux read a file of the machine.
"""
from __future__ import annotations

import json
import math
import os
from pathlib import Path
import re

from ..errors import JuxError, RecordError
from ..files import MAX_READ_BYTES, read_text_bounded
from ..limits import MAX_NESTING
from ..runtime.state import MAX_SEATS

RECORD_FORMAT = "jux-record/1"
MAX_INT_DIGITS = 30  # digits of a JSON integer (a seed or a generator state has at most 20)
MAX_SEED = 2 ** 64  # a seed is taken modulo 2**64: larger ones say nothing more
NEW_SEED = 2 ** 63  # a new game's seed (--seed, the start screen) is below it: a run counts up from it
MAX_NAME = 100  # characters of a player's name
MAX_TEXT = 4096  # characters of a ruleset or variant name (or path)
MAX_VARIANTS = 100
MAX_ANSWERS = 100_000  # (simulate's bound on one game)
MAX_PICKS = 10_000  # options picked in one answer
MAX_OPTION = 2 ** 31  # an option number
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff]")  # (and lone surrogates: not Unicode)
_NAME = re.compile(r"\w{1,40}")


class _Bad(ValueError):
    """A number or constant JSON may not hold here; its text."""


# ------------------------------------------------------------------ JSON


def _constant(name: str):
    raise _Bad(name)


def _float(text: str) -> float:
    x = float(text)
    if not math.isfinite(x):
        raise _Bad(text)
    return x


def _int(text: str) -> int:
    if len(text) - text.startswith("-") > MAX_INT_DIGITS:
        raise _Bad(text)
    return int(text)


_TOKENS = re.compile(r'"(?:[^"\\]|\\.)*"|[^\s\[\]{}:,"]+', re.S)


def _where(text: str, token: str) -> str:
    """'line:col' of the first token outside strings equal to token ('' if not found)."""
    for m in _TOKENS.finditer(text):
        if m.group() == token:
            line = text.count("\n", 0, m.start()) + 1
            return f"{line}:{m.start() - (text.rfind(chr(10), 0, m.start()) + 1) + 1}"
    return ""


def loads(text: str, source: str):
    """JSON text as Python data, strictly; JuxError "SOURCE[:line:col]: what" otherwise."""
    try:
        data = json.loads(text, parse_constant=_constant, parse_float=_float, parse_int=_int)
    except json.JSONDecodeError as e:
        hint = "; truncated?" if e.pos >= len(text.rstrip()) - 1 else ""
        raise JuxError(f"{source}:{e.lineno}:{e.colno}: not valid JSON ({e.msg}{hint})") from None
    except _Bad as e:
        token = str(e)
        at = _where(text, token)
        at = f":{at}" if at else ""
        shown = token if len(token) <= 20 else token[:10] + "…" + f" ({len(token)} characters)"
        what = ("not a number JSON allows (no NaN or Infinity)" if token.lstrip("-") in ("NaN", "Infinity")
                else "a number too big" if "." not in token and "e" not in token.lower()
                else "a number out of range")
        raise JuxError(f"{source}{at}: {shown}: {what}") from None
    except RecursionError:
        raise JuxError(f"{source}: lists and objects nested too deeply (at most {MAX_NESTING})") from None
    except ValueError as e:  # (any other number the parser refuses)
        raise JuxError(f"{source}: not valid JSON ({e})") from None
    deep = too_deep(data)
    if deep is not None:
        raise JuxError(f"{source}: {deep}: lists and objects nested more than {MAX_NESTING} deep")
    return data


def read_json(path, limit: int = MAX_READ_BYTES):
    """The JSON of a regular file of at most `limit` bytes, read strictly (see loads)."""
    return loads(read_text_bounded(path, limit), str(path))


def too_deep(data, limit: int = MAX_NESTING) -> str | None:
    """Where data (lists and dicts) is nested more than `limit` deep, or contains itself; None if
    nowhere. Shared parts are measured once, so this is linear in the data's size."""
    heights: dict = {}

    def height(x, depth: int, where: str) -> int:
        t = type(x)
        if t is not list and t is not dict:
            return 0
        k = id(x)
        h = heights.get(k)
        if h is None:
            if depth >= limit:  # (a list inside itself reaches it too)
                raise _Deep(where)
            items = x.items() if t is dict else enumerate(x)
            h = 0
            for key, v in items:
                if type(v) is list or type(v) is dict:
                    if t is dict:
                        key = key if type(key) is str and _NAME.fullmatch(key) else json.dumps(str(key))[:42]
                        inner = f"{where}.{key}" if where else key
                    else:
                        inner = f"{where}[{key}]"
                    h = max(h, height(v, depth + 1, inner))
            h += 1
            heights[k] = h
        if depth + h > limit:
            raise _Deep(where)
        return h

    try:
        height(data, 0, "")
    except _Deep as e:
        return _short(str(e) or "the top")
    return None


class _Deep(Exception):
    pass


def _short(where: str) -> str:
    return where if len(where) <= 60 else where[:57] + "…"


# ------------------------------------------------------------------ fields


def _shown(x, most: int = 40) -> str:
    """x as a short text for a message (a list or an object cut short)."""
    import reprlib

    r = reprlib.Repr()
    r.maxstring = r.maxother = r.maxlong = most
    r.maxlist = r.maxdict = 6
    r.maxlevel = 3
    if type(x) is int and x.bit_length() > 200:
        return f"a number of about {int(x.bit_length() * 0.30103) + 1:,} digits"
    try:
        text = r.repr(x)
    except (ValueError, RecursionError):  # (an int inside too long to write)
        return f"a {type(x).__name__} too big to show"
    return text if len(text) <= most else text[:most - 1] + "…"


def _whole(x) -> bool:
    return type(x) is int


def _text(where: str, x, most: int) -> str:
    if type(x) is not str:
        raise RecordError(f"{where}: not a text but {_shown(x)}")
    if not x.strip() or len(x) > most:
        raise RecordError(f"{where}: a text of 1 to {most} characters, not {_shown(x)}")
    bad = _CONTROL.search(x)
    if bad:
        raise RecordError(f"{where}: a character a text may not hold ({ascii(bad.group())}) in {_shown(x)}")
    return x


def check_record(record) -> None:
    """Check every field of a record or save (any Python value); RecordError "where: what"."""
    if type(record) is not dict:
        raise RecordError(f"not a jux game record (expected an object with \"format\": \"{RECORD_FORMAT}\")")
    if record.get("format") != RECORD_FORMAT:
        raise RecordError(f"not a jux game record (expected \"format\": \"{RECORD_FORMAT}\")")
    deep = too_deep(record)
    if deep is not None:
        raise RecordError(f"{deep}: lists and objects nested more than {MAX_NESTING} deep")
    for key in ("ruleset", "players", "seed", "answers", "digest"):
        if key not in record:
            raise RecordError(f"the record has no '{key}' (truncated?)")
    _text("ruleset", record["ruleset"], MAX_TEXT)
    variants = record.get("variants")
    if variants is not None:
        if type(variants) is not list:
            raise RecordError(f"variants: not a list of variant names but {_shown(variants)}")
        if len(variants) > MAX_VARIANTS:
            raise RecordError(f"variants: {len(variants)} variants, more than {MAX_VARIANTS}")
        for i, v in enumerate(variants):
            _text(f"variants[{i}]", v, MAX_TEXT)
    digest = record["digest"]  # which rule files made the game: without it a stale record would replay
    if type(digest) is not str or not digest.strip() or len(digest) > 128 or _CONTROL.search(digest):
        raise RecordError(f"digest: not the digest of rule files but {_shown(digest)}")
    players = record["players"]
    if not _whole(players) or not 1 <= players <= MAX_SEATS:
        raise RecordError(f"players: a whole number from 1 to {MAX_SEATS}, not {_shown(players)}")
    seed = record["seed"]
    if not _whole(seed) or not -MAX_SEED < seed < MAX_SEED:
        raise RecordError(f"seed: a whole number between -2**64 and 2**64, not {_shown(seed)}")
    names = record.get("names")
    if names is not None:
        if type(names) is not list or len(names) != players:
            raise RecordError(f"names: not a list of {players} names (one per player) but {_shown(names)}")
        for i, n in enumerate(names):
            _text(f"names[{i}]", n, MAX_NAME)
    answers = record["answers"]
    if type(answers) is not list:
        raise RecordError(f"answers: not a list of [player, choice] but {_shown(answers)}")
    if len(answers) > MAX_ANSWERS:
        raise RecordError(f"answers: {len(answers):,} answers, more than a game has ({MAX_ANSWERS:,})")
    for i, a in enumerate(answers):
        _check_answer(f"answers[{i}]", a, players)
    if "state" in record and type(record["state"]) is not dict:
        raise RecordError(f"state: not the state of a game but {_shown(record['state'])}")


def _check_answer(where: str, a, players: int) -> None:
    if type(a) is not list or len(a) != 2:
        raise RecordError(f"{where}: not [player, choice] but {_shown(a)}")
    player, choice = a
    if not _whole(player) or not 0 <= player < players:
        raise RecordError(f"{where}: the player is a seat from 0 to {players - 1}, not {_shown(player)}")
    if choice is None or (_whole(choice) and 0 <= choice < MAX_OPTION):
        return
    if type(choice) is list and len(choice) <= MAX_PICKS and all(_whole(c) and 0 <= c < MAX_OPTION for c in choice):
        return
    raise RecordError(f"{where}: the choice is an option number, a list of them or null, not {_shown(choice)}")


# ------------------------------------------------------------------ where the rules come from


def _path_like(name: str) -> bool:
    """Whether the loader takes this variant name as a file path (else: a catalogue name)."""
    return "/" in name or "\\" in name or Path(name).suffix in (".yaml", ".yml")


def _same_file(a: str, b: str) -> bool:
    try:
        return os.path.realpath(a) == os.path.realpath(b)
    except (OSError, ValueError):
        return False


def _ruleset_source(name: str, ruleset, paths):
    """What to load for the record's ruleset: the one the caller names, a path the user named
    whose ruleset has this name, or the catalogue's folder of this name. RecordError otherwise."""
    from ..paths import RULES_DIR
    from .ruleset import load_ruleset

    if ruleset is not None:
        return ruleset
    for p in paths:
        if not p or not _path_like(str(p)) and not os.path.isdir(str(p)):
            continue  # (a catalogue name, seen below)
        try:
            if load_ruleset(p).name == name:
                return p
        except JuxError:
            continue  # (a variant file, or rules with errors: not this record's ruleset)
    from ..reading.spec import catalogue_rulesets

    known = catalogue_rulesets()
    if name in known:
        return RULES_DIR / name
    e = RecordError(f"ruleset: {_shown(name, 60)} is not a ruleset of jux (known: {', '.join(known)}); "
                    "for other rules, name their folder on the command line")
    e.missing = "ruleset"  # (what a command adds its own words to: its option for the folder)
    raise e


def _variant_source(where: str, name: str, paths) -> str:
    """A variant of the record as the loader should get it: a catalogue name as it is, a path
    only if the user named that file. RecordError otherwise (the file is never opened)."""
    if not _path_like(name):
        return name
    given = [str(p) for p in paths if p]
    for p in given:
        if _same_file(name, p):
            return p
    for p in given:  # the record's path as written elsewhere: the user's file of the same name
        if os.path.basename(p) == os.path.basename(name) and _path_like(p):
            return p
    raise RecordError(f"{where}: {_shown(name, 60)} is a file, not a variant of jux's catalogue; name the file "
                      "on the command line (--tiles FILE) to use it")


def record_rules(record: dict, ruleset=None, paths=()):
    """The Ruleset a checked record replays with (see the module's text). ruleset: a name or path
    the caller names to use instead of the record's; paths: files the user named. RecordError."""
    from .ruleset import load_ruleset

    paths = [p for p in (paths or ()) if p]
    variants = [_variant_source(f"variants[{i}]", v, paths) for i, v in enumerate(record.get("variants") or [])]
    source = _ruleset_source(record["ruleset"], ruleset, paths)
    try:
        return load_ruleset(source, variants)
    except JuxError as e:
        raise RecordError(f"cannot load ruleset {_shown(record['ruleset'], 60)}: {e}") from None


def read_record(path):
    """A record or save file's data, read and checked (JuxError "PATH: where: what")."""
    data = read_json(path)
    try:
        check_record(data)
    except RecordError as e:
        raise RecordError(f"{path}: {e}") from None
    return data


__all__ = ["RECORD_FORMAT", "loads", "read_json", "too_deep", "check_record", "record_rules", "read_record"]
