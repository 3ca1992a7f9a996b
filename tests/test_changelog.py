"""CHANGELOG.md is by version, and its newest version is the one `jux --version` and pyproject.toml
name (issue 38); the public API the README names is what `from jux import ...` gives."""
import re
from pathlib import Path

import jux
from jux.interpreter.cli.main import main

ROOT = Path(__file__).resolve().parent.parent


def test_the_newest_version_of_the_changelog_is_jux_version(capsys):
    text = (ROOT / "CHANGELOG.md").read_text()
    versions = re.findall(r"^## (\d+\.\d+\.\d+)(?: \((\d{4}-\d\d-\d\d)\))?$", text, re.M)
    assert versions, "CHANGELOG.md has no '## X.Y.Z (date)' section"
    assert not re.search(r"^## Unreleased", text, re.M) or text.index("## Unreleased") < text.index("## " + versions[0][0])
    newest = versions[0][0]
    try:
        main(["--version"])
    except SystemExit:
        pass
    assert capsys.readouterr().out == f"jux {newest}\n"
    assert re.search(rf'^version = "{re.escape(newest)}"$', (ROOT / "pyproject.toml").read_text(), re.M)
    # newest first, each version once
    numbers = [tuple(map(int, v.split("."))) for v, _ in versions]
    assert numbers == sorted(set(numbers), reverse=True)


def test_the_public_api_the_readme_names_is_what_jux_exports():
    readme = (ROOT / "README.md").read_text()
    para = readme[readme.index("The public API is what `from jux import ...` gives"):]
    para = para[: para.index("\n\n")]
    named = set(re.findall(r"`(\w+)`", para.split("with the")[0])) - {"from"}
    assert named == set(jux.__all__)
    for name in jux.__all__:
        assert getattr(jux, name) is not None
