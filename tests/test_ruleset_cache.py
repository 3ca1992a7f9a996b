"""An edited tile is always seen: load_ruleset keys a variant given by its path by where the file is
and what it holds, not by the name it was given (a tile edited while jux runs was not reloaded, and
two tests' banker.yaml in two folders, validated in one process, gave the first one's result)."""
import os

from jux.interpreter.engine.ruleset import load_ruleset

TILE = """\
variant:
  name: banker
  title: {title}
  game: capital_jux
  requires: [power_tiles]
slots:
  power: {{yellow: banker}}
procedures:
  banker(p, card): |
    gold[p] += {gain}
"""


def test_a_tile_edited_between_two_loads_is_read_again(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    tile = tmp_path / "banker.yaml"
    tile.write_text(TILE.format(title="Banker", gain=1))
    first = load_ruleset("capital_jux", ["banker.yaml"])
    assert load_ruleset("capital_jux", ["banker.yaml"]) is first  # (unchanged: kept)
    stat = tile.stat()
    tile.write_text(TILE.format(title="Banker", gain=2))  # the same size, the same time: only its content
    os.utime(tile, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    again = load_ruleset("capital_jux", ["banker.yaml"])
    assert again is not first and again.spec.digest != first.spec.digest
    assert "value=2" in repr(again.spec.procedures["banker"].body) and "value=2" not in repr(first.spec.procedures["banker"].body)


def test_the_same_name_in_two_folders_is_two_tiles(tmp_path, monkeypatch):
    """Seen: test_validate_types' banker.yaml, validated after another test's banker.yaml in the
    same worker, gave the other one's result."""
    for gain in (1, 2):
        folder = tmp_path / f"folder{gain}"
        folder.mkdir()
        (folder / "banker.yaml").write_text(TILE.format(title="Banker", gain=gain))
        monkeypatch.chdir(folder)
        rules = load_ruleset("capital_jux", ["banker.yaml"])
        assert f"value={gain}" in repr(rules.spec.procedures["banker"].body)
