"""The published JSON Schema of rule and variant files: draft-07, every property described, no
unknown keys; and every rule and variant file points an editor at it in its first line."""
from __future__ import annotations

import json
import re
from pathlib import Path

import jsonschema
import pytest

ROOT = Path(__file__).resolve().parent.parent
SCHEMA = ROOT / "interpreter" / "schema" / "ruleset.schema.json"
FILES = sorted(list((ROOT / "rules").rglob("*.yaml")) + list((ROOT / "variants").rglob("*.yaml"))
               + [f for f in (ROOT / "docs" / "examples").rglob("*.yaml")  # (not the scenarios beside a tile)
                  if re.search(r"^(game|variant):", f.read_text(), re.M)])


def _objects(node, path="#"):
    if isinstance(node, dict):
        if node.get("type") == "object" or "properties" in node:
            yield path, node
        for k, v in node.items():
            yield from _objects(v, f"{path}/{k}")
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _objects(v, f"{path}/{i}")


def test_the_schema_is_draft_07_and_every_property_is_described():
    schema = json.loads(SCHEMA.read_text())
    jsonschema.Draft7Validator.check_schema(schema)
    assert schema["$schema"] == "http://json-schema.org/draft-07/schema#"
    for path, obj in _objects(schema):
        for name, prop in obj.get("properties", {}).items():
            assert prop.get("description"), f"{path}/properties/{name} has no description"
        if "properties" in obj:
            assert obj.get("additionalProperties") is False, f"{path} allows unknown keys"


@pytest.mark.parametrize("path", FILES, ids=[str(f.relative_to(ROOT)) for f in FILES])
def test_each_rule_and_variant_file_begins_with_the_schema_line(path):
    first = path.read_text().splitlines()[0]
    m = re.fullmatch(r"# yaml-language-server: \$schema=(\S+)", first)
    assert m, f"{path.relative_to(ROOT)}: the first line is {first!r}"
    assert (path.parent / m.group(1)).resolve() == SCHEMA.resolve(), f"{m.group(1)} is not the schema"


# ---- the quick answer (reading/conforms.py) agrees with jsonschema

def _data_files():
    """(schema name, data) of every rule, variant, corpus and scenario file as jux reads it."""
    from jux.interpreter.reading.yaml_reader import read_file

    out = []
    for f in sorted(set(FILES) | set((ROOT / "tests" / "corpus").rglob("*.yaml"))
                    | set((ROOT / "tests" / "data").rglob("*.yaml")) | set((ROOT / "rules").rglob("*.yaml"))):
        try:
            data = read_file(f).data
        except Exception:  # (a file broken on purpose: nothing to validate)
            continue
        scenario = "scenarios" in f.parts or (isinstance(data, dict) and "ruleset" in data and "game" not in data
                                              and "variant" not in data)
        out.append((f, "scenario" if scenario else "ruleset", data))
    return out


def _mutations(data, rng, n):
    """n copies of data, each with one change a broken file could have: a key dropped, added or
    misspelt, a value of another type, a list emptied or an item repeated."""
    import copy

    others = [None, True, False, 0, -1, 1.5, 2.0, "x", "Bad name", "", [], {}, [1, 1], ["a", "a"], {"x": 1},
              float("nan"), 10 ** 30]
    out = []
    for _ in range(n):
        d = copy.deepcopy(data)
        spots = []

        def visit(node):
            if isinstance(node, dict):
                for k in list(node):
                    spots.append((node, k))
                    visit(node[k])
            elif isinstance(node, list):
                for i in range(len(node)):
                    spots.append((node, i))
                    visit(node[i])
        visit(d)
        if not spots:
            continue
        node, key = rng.choice(spots)
        what = rng.randrange(5)
        if what == 0 and isinstance(node, dict):
            del node[key]
        elif what == 1 and isinstance(node, dict):
            node[str(key) + rng.choice(["s", "_x", ""]) if rng.random() < 0.8 else 7] = node[key]
        elif what == 2 and isinstance(node[key], list):
            node[key] = node[key][:1] * 2 if node[key] and rng.random() < 0.5 else []
        else:
            node[key] = rng.choice(others)
        out.append(d)
    return out


def test_the_quick_answer_agrees_with_jsonschema_on_every_file_and_on_broken_copies():
    import random

    from jux.interpreter.reading.conforms import conforms

    schemas = {name: json.loads((SCHEMA.parent / f"{name}.schema.json").read_text()) for name in ("ruleset", "scenario")}
    validators = {name: jsonschema.Draft7Validator(s) for name, s in schemas.items()}
    rng = random.Random(28)
    told = {True: 0, False: 0, None: 0}
    files = _data_files()
    assert len(files) > 60
    for f, name, data in files:
        if f in FILES:  # (jux's own files plainly fit: jsonschema is not needed to read them)
            assert conforms(schemas[name], data) is True, f
        for d in [data] + _mutations(data, rng, 12):
            quick = conforms(schemas[name], d)
            told[quick] += 1
            if quick is not None:
                assert quick == validators[name].is_valid(d), (f, d)
    assert told[True] > 100 and told[False] > 300, told
