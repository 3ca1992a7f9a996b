"""Rule files checked against the JSON Schema (schema/): every way a file breaks it, as short
messages at the places they concern."""
from __future__ import annotations

from functools import lru_cache
import json
from pathlib import Path

from ..errors import Pos, RuleError, did_you_mean
from .conforms import conforms
from .yaml_reader import Located

SCHEMA_DIR = Path(__file__).resolve().parent.parent / "schema"


@lru_cache(maxsize=None)
def schema_validator(name: str = "ruleset"):
    """The validator of schema/NAME.schema.json (Draft 7)."""
    return _Validator(json.loads((SCHEMA_DIR / f"{name}.schema.json").read_text()))


class _Validator:
    """jsonschema's Draft7Validator of a schema, made when first needed: data that plainly fits
    the schema (conforms.py) has no errors, and jsonschema is not even imported for it."""

    def __init__(self, schema: dict):
        self.schema = schema
        self._made = None

    def iter_errors(self, data):
        if conforms(self.schema, data) is True:
            return iter(())
        return self.validator.iter_errors(data)

    @property
    def validator(self):
        if self._made is None:
            import jsonschema

            self._made = jsonschema.Draft7Validator(self.schema)
        return self._made

    def __getattr__(self, name):  # (anything else a Draft7Validator does)
        if name.startswith("_"):
            raise AttributeError(name)
        return getattr(self.validator, name)


def _schema_errors(loc: Located, validator) -> list:
    """Every way a file breaks the schema, as short messages at the places they concern."""
    out, seen = [], set()
    for err in validator.iter_errors(loc.data):
        for e in _schema_error(err, loc, validator.schema):
            key = (e.pos, e.message)
            if key not in seen:
                seen.add(key)
                out.append(e)
    return out


_TYPE_WORDS = {"string": "a string", "integer": "an integer", "boolean": "true/false",
               "object": "a mapping (key: value)", "array": "a list", "null": "nothing",
               "number": "a number"}
_NAME_RULE = "a letter or '_', then letters, digits or '_'"


def _where(path) -> str:
    return ".".join(str(p) for p in path) or "the file"


def _show(x) -> str:
    """A value as an author wrote it, briefly."""
    if x is None:
        return "nothing"
    if isinstance(x, bool):
        return "true" if x else "false"
    if isinstance(x, str):
        return repr(x if len(x) <= 30 else x[:27] + "...")
    if isinstance(x, (int, float)):
        return str(x)
    if isinstance(x, list):
        return "a list"
    if isinstance(x, dict):
        return "a mapping"
    return type(x).__name__


def _json_type_ok(t, x) -> bool:
    if isinstance(t, list):
        return any(_json_type_ok(i, x) for i in t)
    return {"string": isinstance(x, str), "integer": isinstance(x, int) and not isinstance(x, bool),
            "number": isinstance(x, (int, float)) and not isinstance(x, bool),
            "boolean": isinstance(x, bool), "null": x is None, "object": isinstance(x, dict),
            "array": isinstance(x, list)}.get(t, True)


def _resolve(sub: dict, root: dict) -> dict:
    """Follow local $refs and single-item allOf wrappers to the schema that says the type."""
    for _ in range(10):
        if "$ref" in sub and sub["$ref"].startswith("#/"):
            node = root
            for part in sub["$ref"][2:].split("/"):
                node = node[part]
            sub = node
        elif "type" not in sub and len(sub.get("allOf", ())) == 1:
            sub = sub["allOf"][0]
        else:
            break
    return sub


def _kinds(sub: dict) -> list:
    """What a schema accepts, in words: ['a string', 'a mapping (keys: start, per, text)']."""
    t = sub.get("type")
    if t == "object" and sub.get("properties"):
        return [f"a mapping (keys: {', '.join(sub['properties'])})"]
    if isinstance(t, str):
        t = [t]
    return [_TYPE_WORDS.get(i, i) for i in t] if t else ["another value"]


def _either(words: list) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


def _describe(sub: dict) -> str:
    return _either(_kinds(sub))


def _key_pos(loc: Located, path) -> Pos:
    """Where the key of the value at path is written (else the value, else the file start)."""
    return (loc.marks.get(("key",) + tuple(path)) if path else None) or _value_pos(loc, path)


def _value_pos(loc: Located, path) -> Pos:
    path = tuple(path)
    while path and path not in loc.marks:
        path = path[:-1]
    return loc.marks.get(path) or loc.marks.get(()) or next(iter(loc.marks.values()))


def _code_hint(path: tuple, inst, kinds: list) -> str:
    """Effect code that YAML read as a number or a yes/no (`score(p): 0`): say to quote it."""
    if not (path and path[0] in ("functions", "procedures", "flow") and type(inst) in (int, float, bool)
            and "a string" in kinds):
        return ""
    return f" (effect code is text: write it in quotes, '{str(inst).lower() if type(inst) is bool else inst}')"


_YES_NO = {"yes": "true", "no": "false", "on": "true", "off": "false", "y": "true", "n": "false"}


def _takes_true_false(sub: dict, root: dict) -> bool:
    """Whether a schema (or one of its branches) takes true or false."""
    sub = _resolve(sub, root)
    t = sub.get("type")
    if t == "boolean" or (isinstance(t, list) and "boolean" in t):
        return True
    return any(_takes_true_false(b, root) for b in [*sub.get("oneOf", ()), *sub.get("anyOf", ())])


def _yes_no(err, root: dict) -> str:
    """A yes/no word where true/false was meant: YAML 1.2 reads it as text (`show: no`)."""
    inst = err.instance
    if not (isinstance(inst, str) and inst.lower() in _YES_NO):
        return ""
    if not _takes_true_false(err.schema if err.validator == "type" else {err.validator: err.validator_value}, root):
        return ""
    return (f"{_where(tuple(err.absolute_path))}: {inst!r} is text in YAML 1.2, not true or false: "
            f"write {_YES_NO[inst.lower()]}")


def _schema_error(err, loc: Located, root: dict) -> list:
    path = tuple(err.absolute_path)
    if err.validator in ("type", "oneOf", "anyOf") and _yes_no(err, root):
        return [RuleError(_value_pos(loc, path), _yes_no(err, root))]
    where = _where(path)
    v = err.validator
    inst = err.instance
    if "propertyNames" in err.schema_path:  # a key that is not a valid name; inst is the key
        kpos = loc.marks.get(("key",) + path + (inst,)) or _value_pos(loc, path)
        if path and path[-1] in ("functions", "procedures") and len(path) == 1:
            return [RuleError(kpos, f"{where}: '{inst}' is not a valid signature: write 'name' or "
                                    "'name(a, b)' with names for the parameters")]
        return [RuleError(kpos, f"{where}: '{inst}' is not a valid name ({_NAME_RULE})")]
    if v == "additionalProperties":
        props = list(err.schema.get("properties", {}))
        out = []
        for key in [k for k in inst if k not in props]:
            kpos = loc.marks.get(("key",) + path + (key,)) or _value_pos(loc, path)
            hint = did_you_mean(str(key), props) or f" (allowed: {', '.join(props)})"
            what = "unknown section" if not path else "unknown key"
            out.append(RuleError(kpos, f"{where}: {what} '{key}'{hint}" if path else f"{what} '{key}'{hint}"))
        return out
    if v == "required":
        missing = [r for r in err.validator_value if isinstance(inst, dict) and r not in inst]
        return [RuleError(_key_pos(loc, path), f"{where}: '{m}' is missing (required)") for m in missing[:1]]
    pos = _value_pos(loc, path)
    if v == "type":
        return [RuleError(pos, f"{where}: expected {_describe(err.schema)}, found {_show(inst)}"
                               f"{_code_hint(path, inst, _kinds(err.schema))}")]
    if v == "enum":
        return [RuleError(pos, f"{where}: {_show(inst)} is not one of {', '.join(map(str, err.validator_value))}")]
    if v in ("oneOf", "anyOf"):
        branches = [_resolve(b, root) for b in err.validator_value]
        fitting = [i for i, b in enumerate(branches) if _json_type_ok(b.get("type", []), inst)
                   or "type" not in b]
        if len(fitting) == 1:
            subs = [c for c in (err.context or ()) if c.relative_schema_path and c.relative_schema_path[0] == fitting[0]]
            out = []
            for c in subs:
                out.extend(_schema_error(c, loc, root))
            if out:
                return out
        kinds = [k for b in branches for k in _kinds(b)]
        return [RuleError(pos, f"{where}: expected {_either(kinds)}, found {_show(inst)}{_code_hint(path, inst, kinds)}")]
    if v == "pattern":
        return [RuleError(pos, f"{where}: {_show(inst)} is not a valid name ({_NAME_RULE})")]
    if v == "minimum":
        return [RuleError(pos, f"{where}: must be at least {err.validator_value}, found {_show(inst)}")]
    if v == "minItems":
        return [RuleError(pos, f"{where}: the list must not be empty")]
    if v == "uniqueItems":
        return [RuleError(pos, f"{where}: the list names an item twice")]
    return [RuleError(pos, f"{where}: {err.message}")]


