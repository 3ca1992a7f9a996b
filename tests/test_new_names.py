"""`jux new` writes only what its own `jux validate` accepts (issue 38): a name with '-' is written
with '_' in the rules (and said), names YAML would read as something else (null, true, yes) are
quoted, and what the system refuses is told in jux's words, with control characters escaped."""
from pathlib import Path

import pytest

from jux.interpreter.cli.main import main


@pytest.fixture
def jux(capsys, monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)

    def call(*args):
        capsys.readouterr()
        try:
            code = main([str(a) for a in args])
        except SystemExit as e:
            code = e.code
        out, err = capsys.readouterr()
        assert "Traceback" not in out + err, err
        return code, out, err

    return call


@pytest.mark.parametrize("name", ["my-game", "null", "true", "No", "yes"])
def test_a_new_game_of_any_name_it_takes_validates_and_passes_its_scenario(jux, name):
    code, out, err = jux("new", "game", name)
    assert code == 0, err
    code, out, err = jux("validate", name)
    assert code == 0 and out.startswith(f"ok: {name} "), out + err
    code, out, err = jux("test", name)
    assert code == 0 and "1 passed, 0 failed" in out, out + err


def test_a_dash_in_a_name_is_an_underscore_in_the_rules_and_jux_says_so(jux, tmp_path):
    code, out, _ = jux("new", "game", "my-game")
    assert "the game's name in its rules: my_game" in out
    assert "name: my_game" in (tmp_path / "my-game" / "game.yaml").read_text()
    code, out, err = jux("new", "tile", "my-tile", "--game", "my-game")
    assert code == 0, err
    assert "the tile's name in its rules: my_tile" in out
    code, out, err = jux("validate", "my-tile.yaml")
    assert code == 0, out + err
    assert jux("play", "my-game", "--tiles", "my-tile.yaml", "--print", "--seed", "1")[0] == 0


def test_what_the_system_refuses_is_said_in_jux_words(jux, tmp_path):
    (tmp_path / "afile").write_text("x")
    code, out, err = jux("new", "game", "afile/sub")
    assert code == 1 and err == "jux: afile: is a file, not a folder: jux new cannot write under it\n"
    code, out, err = jux("new", "game", "/".join(["a" * 60] * 80))
    assert code == 1 and len(err.splitlines()) == 1 and "the path is too long" in err, err
    assert "File name too long" not in err and len(err) < 200


def test_control_characters_in_a_refused_name_are_shown_escaped(jux):
    code, out, err = jux("new", "game", "x\x07y\x1b[31m")
    assert code == 1 and "'x\\x07y\\x1b[31m' cannot name a game" in err
    assert "\x07" not in err and "\x1b" not in err
