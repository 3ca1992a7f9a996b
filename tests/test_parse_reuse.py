"""A routine's code is parsed once for all the texts of its file an editor sends (`jux lsp`, issue
38): the same code at the same place, or moved down or up by lines added or removed above it, or
in a copy of the file elsewhere, gives what a fresh parse gives: the same tree, every position
(`pos`, `name_pos`) and every error where a fresh parse puts it."""
from __future__ import annotations

import dataclasses
from pathlib import Path

from jux.interpreter.engine.ruleset import check_ruleset
from jux.interpreter.errors import Pos, RuleErrors
from jux.interpreter.files import edited
from jux.interpreter.reading import routines
from jux.interpreter.reading.spec import read_spec

ROOT = Path(__file__).resolve().parent.parent
GAME = ROOT / "rules" / "guildhall" / "game.yaml"


def positions(x, out=None) -> list:
    """Every Pos in x, depth first (dataclass fields, tuples, lists and dicts)."""
    out = [] if out is None else out
    if isinstance(x, Pos):
        out.append(x)
    elif dataclasses.is_dataclass(x) and not isinstance(x, type):
        for f in dataclasses.fields(x):
            positions(getattr(x, f.name), out)
    elif isinstance(x, (tuple, list)):
        for y in x:
            positions(y, out)
    elif isinstance(x, dict):
        for y in x.values():
            positions(y, out)
    return out


def spec_of(folder: Path, text: str, fresh: bool):
    if fresh:
        routines._PARSED.clear()
    with edited({str(folder / "game.yaml"): text}):
        spec = read_spec(folder)
    routines_ = {**spec.functions, **spec.procedures}
    return {n: (r.body, positions(r.body), r.pos) for n, r in routines_.items()}, \
        sorted((str(e.pos), e.message) for e in spec.errors)


def test_moved_code_gives_what_a_fresh_parse_gives(tmp_path):
    folder = tmp_path / "guild"
    folder.mkdir()
    text = GAME.read_text(encoding="utf-8")
    (folder / "game.yaml").write_text(text, encoding="utf-8")
    # a syntax error in one routine's code, so that errors move too
    at = text.index("procedures:")
    at = text.index("\n", text.index("|", at)) + 1
    indent = len(text[at:]) - len(text[at:].lstrip(" "))
    broken = text[:at] + " " * indent + "let x = (1 +\n" + text[at:]
    routines._PARSED.clear()
    spec_of(folder, broken, fresh=False)  # (parsed once: kept)
    for edit in ("\n\n\n" + broken, "# one line more\n" + broken, broken.replace("\n\n", "\n", 3),
                 broken, broken.replace("(1 +", "(1 + ")):
        kept_tree, kept_errors = spec_of(folder, edit, fresh=False)
        fresh_tree, fresh_errors = spec_of(folder, edit, fresh=True)
        assert kept_errors == fresh_errors and kept_errors
        assert kept_tree.keys() == fresh_tree.keys()
        for name in fresh_tree:
            assert kept_tree[name] == fresh_tree[name], name  # (positions included)


def test_code_moved_by_lines_above_it_is_not_parsed_again(tmp_path, monkeypatch):
    folder = tmp_path / "guild"
    folder.mkdir()
    text = GAME.read_text(encoding="utf-8")
    (folder / "game.yaml").write_text(text, encoding="utf-8")
    routines._PARSED.clear()
    spec_of(folder, text, fresh=False)
    parsed = []
    real = routines._parse_routine
    monkeypatch.setattr(routines, "_parse_routine", lambda *a, **k: parsed.append(a[0]) or real(*a, **k))
    spec_of(folder, "# a line more\n\n" + text, fresh=False)
    assert parsed == []
    at = text.index("procedures:")
    spec_of(folder, text[:at] + "procedures:\n  added: |\n    pass\n" + text[at + len("procedures:\n"):], fresh=False)
    assert parsed == ["added"]  # (only the new one)


def test_a_copy_elsewhere_names_its_own_file(tmp_path):
    text = GAME.read_text(encoding="utf-8").replace("\nprocedures:", "\nprocedures:\n  oops: |\n    let y = z\n", 1)
    found = []
    for name in ("one", "two"):
        folder = tmp_path / name
        folder.mkdir()
        (folder / "game.yaml").write_text(text, encoding="utf-8")
        try:
            check_ruleset(folder)
        except RuleErrors as e:
            found.append([str(x.pos) for x in e.errors])
    assert len(found) == 2 and all(p.startswith(str(tmp_path / "one")) for p in found[0])
    assert [p.replace("/two/", "/one/") for p in found[1]] == found[0]
