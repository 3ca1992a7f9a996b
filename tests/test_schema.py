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
