"""The authors' docs stay true to the files: docs/authoring.md's hook points and words of the
appendix against the power-tile edition and the tiles, docs/testing.md's format against the
scenario schema, the `jux test` output shown in docs/testing.md, docs/authoring.md and the README
against the command itself, the example tile's scenarios, and docs/language.md's words of the
language against the grammar."""
import re
import shutil
from pathlib import Path

import pytest
import yaml

from jux.interpreter.errors import RuleError
from jux.interpreter.authoring.scenario_file import find_scenarios, keys_of
from jux.interpreter.authoring.scenario_run import PASSED, run_file
from jux.interpreter.language.source import Source
from jux.interpreter.language.parse_errors import keywords, reserved_words
from jux.interpreter.language.parse import parse_block

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
EDITION = ROOT / "variants" / "capital_jux" / "power_tiles.yaml"


def section(doc: Path, title: str) -> str:
    text = doc.read_text()
    start = text.index(f"\n## {title}\n")
    end = text.find("\n## ", start + 1)
    return text[start:end if end > 0 else len(text)]


def table(text: str) -> list:
    """The rows of the first Markdown table in text, as lists of cells (header and rule left out)."""
    rows = [line for line in text.splitlines() if line.startswith("|")]
    return [[c.strip() for c in row.strip("|").split("|")] for row in rows[2:]]


# ---------------------------------------------------------------- hook points


def _signature(key: str) -> tuple:
    m = re.fullmatch(r"(\w+)(?:\((.*)\))?", key.strip())
    return m[1], tuple(p.strip() for p in (m[2] or "").split(",") if p.strip())


def _edition() -> dict:
    """name -> (kind, params) of what the power-tile edition defines."""
    data = yaml.safe_load(EDITION.read_text())
    out = {}
    for section_name, kind in (("functions", "function"), ("procedures", "procedure"), ("zones", "zone")):
        for key in data.get(section_name) or {}:
            name, params = _signature(key)
            out[name] = (kind, params)
    return out


def _overrides() -> dict:
    """name -> the tiles of the catalogue that list it under variant.overrides."""
    out: dict = {}
    for f in sorted((ROOT / "variants" / "capital_jux").glob("*/*.yaml")):
        head = yaml.safe_load(f.read_text())["variant"]
        for name in head.get("overrides") or []:
            out.setdefault(name, set()).add(head["name"])
    return out


def test_the_hook_points_table_is_true_to_the_edition_and_the_tiles():
    rows = table(section(DOCS / "authoring.md", "Hook points"))
    edition, overrides = _edition(), _overrides()
    documented = {}
    for hook, kind, what, changed_by in rows:
        name, params = _signature(hook.strip("`"))
        assert name in edition, f"{hook}: the edition defines no '{name}'"
        assert edition[name] == (kind, params), f"{hook} ({kind}): the edition has {edition[name]}"
        assert what, hook
        tiles = set() if changed_by == "none" else {t.strip() for t in changed_by.split(",")}
        assert tiles == overrides.get(name, set()), f"{hook}: changed by {sorted(overrides.get(name, ()))}"
        documented[name] = kind
    # every point a tile changes is in the table, and every point the edition's header names
    assert set(overrides) <= set(documented), sorted(set(overrides) - set(documented))
    hooks = set(yaml.safe_load(EDITION.read_text())["variant"]["hooks"])  # the edition's own list
    assert hooks <= set(documented), sorted(hooks - set(documented))
    assert "power_possible" in documented and "turn_options" in documented


def test_the_appendix_words_name_what_the_rules_have():
    from jux.interpreter.engine.ruleset import load_ruleset

    rules = load_ruleset("capital_jux", ["power_tiles"])
    spec = rules.spec
    rows = table(section(DOCS / "authoring.md", "The appendix's words in the rule files"))
    assert rows[0][0].startswith("home base") and "`hometown[p]`" in rows[0][1]
    assert spec.zones["hometown"]["title"] == "home base" and spec.zones["hometown"]["per"] == "player"
    for words, names in rows:
        for kind, name in re.findall(r"the (zone|counter|function) `(\w+)", names):
            have = {"zone": spec.zones, "counter": spec.counters, "function": spec.functions}[kind]
            assert name in have, f"{words}: no {kind} '{name}'"


# ---------------------------------------------------------------- the scenario format and jux test


def _format_block() -> dict:
    text = section(DOCS / "testing.md", "The format")
    block = text.split("```yaml\n", 1)[1].split("```", 1)[0]
    return yaml.safe_load(block)


def test_testing_md_gives_every_key_of_the_format_and_no_other():
    from jux.interpreter.reading.schema import schema_validator

    data = _format_block()
    assert list(data) == keys_of()
    assert sorted(data["expect"]) == sorted(keys_of("expect"))
    assert {k for a in data["answers"] for k in a} == set(keys_of("answers"))
    errors = [e.message for e in schema_validator("scenario").iter_errors(data)]
    assert not errors, errors


def _shown_runs(text: str) -> list:
    """(command, output) of every '$ jux test ...' shown in the plain code blocks of a doc (but
    those of a block that makes its files first with `jux new`: tests/test_readme.py runs those in
    a copy of the checkout)."""
    runs, inside, current = [], None, None
    for line in text.splitlines():
        if line.startswith("```"):
            inside = None if inside is not None else line[3:].strip()
            current = None
        elif inside == "" and line.startswith("$ jux new "):
            inside = "new"
        elif inside == "" and line.startswith("$ "):
            current = [line[2:], []] if line.startswith("$ jux test") else None
            if current:
                runs.append(current)
        elif inside == "" and current is not None:
            current[1].append(line)
    return [(cmd, "\n".join(out)) for cmd, out in runs]


def _same(cmd: str, shown: str, cwd: Path):
    """Run a shown `jux ...` command in cwd (in process) and compare its output with what the doc
    shows (the time it took aside)."""
    import contextlib
    import io
    import os

    from jux.interpreter.cli.main import main

    out = io.StringIO()
    old = os.getcwd()
    os.chdir(cwd)
    try:
        with contextlib.redirect_stdout(out):
            main([a.strip("'") for a in re.findall(r"'[^']*'|\S+", cmd)[1:]])
    finally:
        os.chdir(old)
    time = re.compile(r" in \d+\.\d\ds")
    assert time.sub(" in T", out.getvalue().rstrip("\n")) == time.sub(" in T", shown), cmd


@pytest.mark.parametrize("doc", ["docs/testing.md", "README.md"])
def test_the_jux_test_output_shown_is_real(doc):
    runs = _shown_runs((ROOT / doc).read_text())
    assert runs, f"{doc} shows no run of jux test"
    for cmd, shown in runs:
        _same(cmd, shown, ROOT)


def test_the_walkthrough_runs_as_shown(tmp_path):
    """docs/authoring.md's jux test runs: the banker's scenarios copied to mytiles/, first with
    the mistake the walkthrough makes, then as docs/examples has them."""
    mine = tmp_path / "mytiles"
    shutil.copytree(DOCS / "examples", mine)
    first, fixed = _shown_runs(section(DOCS / "authoring.md", "4. Tests: scenarios"))
    take = mine / "banker_take.yaml"
    right = take.read_text()
    take.write_text(right.replace("Ann gains a gold token]", "Ann takes a gold token]"))
    assert take.read_text() != right
    _same(*first, tmp_path)
    take.write_text(right)
    _same(*fixed, tmp_path)


def test_the_scenario_schema_describes_every_key_and_allows_no_other():
    import json

    import jsonschema

    schema = json.loads((ROOT / "interpreter" / "schema" / "scenario.schema.json").read_text())
    jsonschema.Draft7Validator.check_schema(schema)
    defs = schema["definitions"]

    def objects(node):
        if isinstance(node, dict):
            if "properties" in node:
                yield node
            for v in node.values():
                yield from objects(v)

    for obj in objects(schema):
        assert obj.get("additionalProperties") is False
        for name, prop in obj["properties"].items():
            ref = prop.get("$ref", "").rsplit("/", 1)[-1]
            assert prop.get("description") or defs.get(ref, {}).get("description"), name


def test_the_example_tiles_scenarios_pass():
    files = find_scenarios(str(DOCS / "examples"))
    assert len(files) >= 4 and all("banker" in f.name for f in files)
    for f in files:
        first = f.read_text().splitlines()[0]
        assert first == "# yaml-language-server: $schema=../../interpreter/schema/scenario.schema.json", f
        outcome = run_file(f)
        assert outcome.status == PASSED, outcome.report()
        assert "banker.yaml" in yaml.safe_load(f.read_text())["tiles"]


# ---------------------------------------------------------------- the words of the language


def test_language_md_lists_the_words_of_the_grammar_and_which_are_reserved():
    text = (DOCS / "language.md").read_text()
    m = re.search(r"These words are the language's own: `([^`]+)`\. Those that can begin an\s+"
                  r"expression, `([^`]+)`, cannot name anything", text)
    assert m, "the paragraph on the words of the language"
    assert set(m[1].split()) == keywords()
    assert set(m[2].split()) == reserved_words() == {"true", "false", "none", "not", "if"}


def test_from_names_a_local_and_true_cannot():
    src = Source("t.yaml", 1, 1)
    parse_block('let from = 1\nlog "{from}"', src)  # as the mentalist tile does
    for word in sorted(reserved_words()):
        with pytest.raises(RuleError) as e:
            parse_block(f"let x = 1\nlet {word} = 2", src)
        assert str(e.value) == (f"t.yaml:2:5: '{word}' is a word of the language and cannot name "
                                "anything: choose another name")
