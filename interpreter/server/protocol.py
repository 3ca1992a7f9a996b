"""The wire protocol of `jux serve` (docs/protocol.md): JSON text frames, each an object with the
protocol's version ("v": 1) and a "type".

`parse(frame)` reads one frame from a client strictly: a frame that is not text, too large, not
JSON, not an object, of another version, of an unknown type, with a missing, unknown or mistyped
field is a ProtocolError (a code and a message for the client), never another exception. The
other functions build the server's messages. Nothing here knows a game."""
from __future__ import annotations

import json

VERSION = 1
MAX_FRAME = 64 * 1024  # characters of a client's frame (a larger one is refused with an error)
MAX_CODE = 200  # characters of an invitation code
MAX_TEXT = 200  # characters of a ruleset, tile or bot name
MAX_ITEMS = 1000  # items of a list (seats, tiles, picks)
MAX_INT = 2 ** 53  # a number a client sends (JavaScript's safe integers)


class ProtocolError(Exception):
    """A message the server refuses: code (docs/protocol.md's error codes) and words for a person."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code
        self.message = message


def _int(x) -> bool:
    return type(x) is int and -MAX_INT <= x <= MAX_INT


def _seq(x) -> bool:
    return type(x) is int and 1 <= x <= MAX_INT


def _text(x) -> bool:
    return type(x) is str and 0 < len(x) <= MAX_TEXT


def _choice(x) -> bool:
    """An answer: an option number, a list of option numbers, or null (declining)."""
    return x is None or _int(x) or (type(x) is list and len(x) <= MAX_ITEMS and all(_int(i) for i in x))


def _texts(x) -> bool:
    return type(x) is list and len(x) <= MAX_ITEMS and all(_text(t) for t in x)


def _code(x) -> bool:
    return type(x) is str and 0 < len(x) <= MAX_CODE


def _seconds(x) -> bool:
    return x is None or (type(x) in (int, float) and 0 < x <= 86400)


# type -> {field: (check, what it must be, required)}
CLIENT_MESSAGES = {
    "hello": {"code": (_code, f"a text of 1 to {MAX_CODE} characters", True)},
    "answer": {"decision": (_int, "a whole number", True),
               "choice": (_choice, "an option number, a list of option numbers, or null", True),
               "seq": (_seq, "a whole number from 1 (to 2^53)", True)},
    "undo": {"seq": (_seq, "a whole number from 1 (to 2^53)", True)},
    "ping": {},
    "create": {"ruleset": (_text, f"a text of 1 to {MAX_TEXT} characters", True),
               "tiles": (_texts, f"a list of at most {MAX_ITEMS} texts", False),
               "players": (_int, "a whole number", True),
               "seats": (_texts, f"a list of at most {MAX_ITEMS} texts ('human' or a bot)", True),
               "names": (_texts, f"a list of at most {MAX_ITEMS} texts", False),
               "timer": (_seconds, "a number of seconds (up to a day) or null", False),
               "away": (_seconds, "a number of seconds (up to a day) or null", False),
               "stand_in": (_text, "a bot", False)},
    "tables": {},
}

ERROR_CODES = {
    "binary": "a frame must be text (UTF-8 JSON), not binary",
    "too_large": "the frame is larger than the server reads",
    "bad_json": "the frame is not JSON",
    "not_object": "a message is a JSON object",
    "bad_version": "the protocol version is not one the server speaks",
    "unknown_type": "no message has this type",
    "bad_field": "a field is missing, unknown, given twice, or of the wrong type",
    "bad_code": "no table has this code",
    "not_joined": "say hello with a code first",
    "already_joined": "this connection already joined a table",
    "spectator": "a spectator does not answer",
    "not_started": "the table waits for every human seat to join",
    "not_your_decision": "the decision is another seat's",
    "decision_gone": "the decision is no longer pending (answered, or never was)",
    "stale_seq": "seq is not above the last answer's (a replayed or duplicate message)",
    "bad_seq": "seq is more than 1,000,000 above the seat's last",
    "illegal_answer": "the answer is not one the decision allows",
    "game_over": "the game is over",
    "undo_refused": "undo is not offered now (the message says why)",
    "table_failed": "the table could not be brought back (its rules changed or fail): it is stopped",
    "rules_error": "the rules' code failed on this answer: the game is where it was",
    "bad_table": "the table cannot be made as asked",
    "storage": "the server could not store the answer (full disk, locked database): nothing changed",
    "rate_limited": "too many messages: the connection is closed",
    "full": "the server holds as many tables as it may",
    "too_many_tables": "this connection made as many tables as it may for now",
    "table_full": "the table has as many connections as the server lets one table have",
    "code_busy": "this seat's code has as many connections as the server lets one code have",
    "busy": "too many spectators are joining this table this second: try again in a moment",
    "too_many_connections": "this address has as many connections as the server allows: the connection is closed",
    "internal": "the server failed on this message (logged): nothing changed",
}


def parse(frame) -> dict:
    """One client frame as a checked message (a dict with "type"); ProtocolError otherwise."""
    if not isinstance(frame, str):
        raise ProtocolError("binary", ERROR_CODES["binary"])
    if len(frame) > MAX_FRAME:
        raise ProtocolError("too_large", f"a frame has at most {MAX_FRAME} characters, not {len(frame)}")
    try:
        msg = json.loads(frame, parse_constant=_no_constant, object_pairs_hook=_once)
    except (ValueError, RecursionError):  # (JSONDecodeError is a ValueError; so is a NaN)
        raise ProtocolError("bad_json", "the frame is not JSON") from None
    if not isinstance(msg, dict):
        raise ProtocolError("not_object", "a message is a JSON object, with \"v\" and \"type\"")
    v = msg.get("v")
    if type(v) is not int or v != VERSION:
        raise ProtocolError("bad_version", f"\"v\" must be {VERSION} (this server speaks version {VERSION})")
    kind = msg.get("type")
    fields = CLIENT_MESSAGES.get(kind) if type(kind) is str else None
    if fields is None:
        known = ", ".join(CLIENT_MESSAGES)
        raise ProtocolError("unknown_type", f"\"type\" must be one of: {known}")
    for key in msg:
        if key not in fields and key not in ("v", "type"):
            raise ProtocolError("bad_field", f"{kind}: no field '{_cut(key)}'")
    for key, (check, what, required) in fields.items():
        if key not in msg:
            if required:
                raise ProtocolError("bad_field", f"{kind}: '{key}' is missing ({what})")
            continue
        if not check(msg[key]):
            raise ProtocolError("bad_field", f"{kind}: '{key}' must be {what}")
    return msg


def _once(pairs: list) -> dict:
    """A JSON object whose keys are each given once (a strict reader takes no second value)."""
    out = {}
    for key, value in pairs:
        if key in out:
            raise ProtocolError("bad_field", f"'{_cut(key)}' is given twice in one object")
        out[key] = value
    return out


def _no_constant(name: str):
    raise ValueError(name)


def _cut(text: str, most: int = 40) -> str:
    text = "".join(c if c.isprintable() else "?" for c in text[:most])
    return text + ("…" if len(text) >= most else "")


def dumps(msg: dict) -> str:
    return json.dumps(msg, separators=(",", ":"), ensure_ascii=False)


def message(kind: str, **fields) -> dict:
    return {"v": VERSION, "type": kind, **fields}


def error(code: str, text: str | None = None) -> dict:
    return message("error", code=code, message=text or ERROR_CODES.get(code, code))


__all__ = ["VERSION", "MAX_FRAME", "ProtocolError", "CLIENT_MESSAGES", "ERROR_CODES", "parse", "dumps",
           "message", "error"]
