"""Does a file's data plainly fit its JSON Schema? A quick answer, so that a file that fits (nearly
every file jux reads) needs neither jsonschema nor the time its import takes (about a third of
reading a ruleset).

conforms(schema, data) is True, False, or None (not sure). It follows Draft 7 as jsonschema's
Draft7Validator does, for the keywords jux's schemas use; it says None for any other keyword and
for what it does not compare the way jsonschema does (an `enum` or `const` of lists or mappings,
the items of a list that must be unique when they are lists or mappings). Only True is used (the
file is taken as it is); for anything else jsonschema validates the file and says what is wrong,
so the messages are its. tests/test_schema.py checks that the two agree.
"""
from __future__ import annotations

import re

_IGNORED = frozenset(("$schema", "$id", "title", "description", "default", "definitions", "$comment", "examples"))
_SCALARS = (str, int, float, bool, type(None))
_PLAIN = _SCALARS + (list, dict)


def conforms(schema, data):
    """True when data fits schema, False when it does not, None when this cannot say."""
    try:
        return _fits(schema, data, schema)
    except RecursionError:
        return None


def _type_ok(t: str, x):
    if t == "object":
        return isinstance(x, dict)
    if t == "array":
        return isinstance(x, list)
    if t == "string":
        return isinstance(x, str)
    if t == "boolean":
        return isinstance(x, bool)
    if t == "null":
        return x is None
    if t == "number":
        return isinstance(x, (int, float)) and not isinstance(x, bool)
    if t == "integer":
        if isinstance(x, bool):
            return False
        return isinstance(x, int) or (isinstance(x, float) and x.is_integer())
    return None


def _equal(a, b):
    """jsonschema's equal for two scalars (true is not 1); None for lists and mappings."""
    if not isinstance(a, _SCALARS) or not isinstance(b, _SCALARS):
        return None
    if a is b:
        return True
    if isinstance(a, str) or isinstance(b, str):
        return a == b
    if isinstance(a, bool) or isinstance(b, bool):
        return False
    return a == b


def _all(results):
    """True if every one is True, False if one is False, else None."""
    out = True
    for r in results:
        if r is False:
            return False
        if r is None:
            out = None
    return out


def _fits(s, x, root):
    if not isinstance(x, _PLAIN):  # (a value YAML and JSON do not make: jsonschema decides)
        return None
    if s is True:
        return True
    if s is False:
        return False
    if not isinstance(s, dict):
        return None
    if "$ref" in s:  # (Draft 7: the keywords beside a $ref are ignored)
        ref = s["$ref"]
        if not isinstance(ref, str) or not ref.startswith("#/") or "~" in ref or "%" in ref:
            return None
        target = root
        for part in ref[2:].split("/"):
            if not isinstance(target, dict) or part not in target:
                return None
            target = target[part]
        return _fits(target, x, root)
    out = True
    for k, v in s.items():
        if k in _IGNORED:
            continue
        check = _KEYWORDS.get(k)
        r = check(v, x, s, root) if check is not None else None
        if r is False:
            return False
        if r is None:
            out = None
    return out


def _type(v, x, s, root):
    if isinstance(v, str):
        return _type_ok(v, x)
    if isinstance(v, list):
        found = [_type_ok(t, x) for t in v]
        return True if True in found else (None if None in found else False)
    return None


def _properties(v, x, s, root):
    if not isinstance(x, dict):
        return True
    return _all(_fits(sub, x[k], root) for k, sub in v.items() if k in x)


def _additional(v, x, s, root):
    if not isinstance(x, dict):
        return True
    if "patternProperties" in s:
        return None
    extra = [k for k in x if k not in s.get("properties", {})]
    if v is False:
        return not extra
    return _all(_fits(v, x[k], root) for k in extra)


def _property_names(v, x, s, root):
    if not isinstance(x, dict):
        return True
    return _all(_fits(v, k, root) for k in x)


def _required(v, x, s, root):
    if not isinstance(x, dict):
        return True
    return all(k in x for k in v)


def _enum(v, x, s, root):
    found = [_equal(x, e) for e in v]
    return True if True in found else (None if None in found else False)


def _const(v, x, s, root):
    return _equal(x, v)


def _items(v, x, s, root):
    if not isinstance(x, list):
        return True
    if isinstance(v, list):  # (items by position: additionalItems would apply past them)
        return None if "additionalItems" in s else _all(_fits(sub, i, root) for sub, i in zip(v, x))
    return _all(_fits(v, i, root) for i in x)


def _unique(v, x, s, root):
    if not v or not isinstance(x, list):
        return True
    out = True
    for i, a in enumerate(x):
        for b in x[i + 1:]:
            same = _equal(a, b)
            if same:
                return False
            if same is None:
                out = None
    return out


def _number_at_least(v, x, s, root):
    if not isinstance(x, (int, float)) or isinstance(x, bool):
        return True
    return x >= v


def _number_at_most(v, x, s, root):
    if not isinstance(x, (int, float)) or isinstance(x, bool):
        return True
    return x <= v


def _min_items(v, x, s, root):
    return len(x) >= v if isinstance(x, list) else True


def _max_items(v, x, s, root):
    return len(x) <= v if isinstance(x, list) else True


def _min_properties(v, x, s, root):
    return len(x) >= v if isinstance(x, dict) else True


def _pattern(v, x, s, root):
    return bool(re.search(v, x)) if isinstance(x, str) else True


def _all_of(v, x, s, root):
    return _all(_fits(sub, x, root) for sub in v)


def _any_of(v, x, s, root):
    found = [_fits(sub, x, root) for sub in v]
    return True if True in found else (None if None in found else False)


def _one_of(v, x, s, root):
    found = [_fits(sub, x, root) for sub in v]
    return None if None in found else found.count(True) == 1


_KEYWORDS = {"type": _type, "properties": _properties, "additionalProperties": _additional,
             "propertyNames": _property_names, "required": _required, "enum": _enum, "const": _const,
             "items": _items, "uniqueItems": _unique, "minimum": _number_at_least, "maximum": _number_at_most,
             "minItems": _min_items,
             "maxItems": _max_items, "minProperties": _min_properties, "pattern": _pattern, "allOf": _all_of,
             "anyOf": _any_of, "oneOf": _one_of}
