"""`jux new game NAME`, `jux new tile NAME --game GAME` and `jux schema` (issue 27): what they write
validates, plays and passes its scenario, from any folder; they never overwrite; the schema line
points at the schema inside the installed package."""
from pathlib import Path

import pytest

from jux.interpreter.cli.main import main

ROOT = Path(__file__).resolve().parent.parent
SCHEMAS = ROOT / "interpreter" / "schema"


@pytest.fixture
def jux(capsys, monkeypatch, tmp_path):
    """jux in process, in an empty folder outside the project: (exit status, stdout, stderr)."""
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


def schema_of(path: Path) -> Path:
    first = path.read_text().splitlines()[0]
    prefix = "# yaml-language-server: $schema="
    assert first.startswith(prefix), first
    path = Path(first[len(prefix):])
    assert path.is_absolute()
    return path


def test_a_new_game_validates_plays_and_passes_its_scenario(jux, tmp_path):
    code, out, err = jux("new", "game", "dice_free")
    assert code == 0, err
    game, sc = tmp_path / "dice_free" / "game.yaml", tmp_path / "dice_free" / "scenarios" / "dice_free.yaml"
    assert out.splitlines() == [f"wrote {Path('dice_free/game.yaml')}", f"wrote {Path('dice_free/scenarios/dice_free.yaml')}",
                                "next: jux validate dice_free, jux test dice_free, jux play dice_free"]
    assert schema_of(game) == SCHEMAS / "ruleset.schema.json" and schema_of(sc) == SCHEMAS / "scenario.schema.json"
    assert "name: dice_free" in game.read_text() and "title: Dice Free" in game.read_text()
    assert jux("validate", "dice_free") == (0, "ok: dice_free (18 cards, 1 procedure)\n", "")
    assert jux("validate", "dice_free/game.yaml")[1] == "ok: dice_free (18 cards, 1 procedure)\n"
    code, out, _ = jux("test", "dice_free")
    assert code == 0 and out.splitlines()[-1].startswith("1 passed, 0 failed")
    code, out, _ = jux("play", "dice_free", "--print", "--seed", "4")
    assert code == 0 and ("Winner" in out or "tie" in out)
    assert jux("simulate", "dice_free/", "-n", "20", "-q", "--workers", "1")[0] == 0
    # from another folder, by path
    (tmp_path / "elsewhere").mkdir()
    assert main(["test", str(tmp_path / "dice_free" / "game.yaml")]) == 0


def test_jux_new_never_overwrites(jux, tmp_path):
    assert jux("new", "game", "mine")[0] == 0
    text = (tmp_path / "mine" / "game.yaml").read_text()
    (tmp_path / "mine" / "game.yaml").write_text(text + "# mine\n")
    code, out, err = jux("new", "game", "mine")
    assert code == 1 and out == "" and err == "jux: mine: already exists and is not an empty folder: jux new never overwrites\n"
    assert (tmp_path / "mine" / "game.yaml").read_text().endswith("# mine\n")
    assert jux("new", "tile", "t", "--game", "capital_jux")[0] == 0
    (tmp_path / "t.yaml").write_text("kept\n")
    code, _, err = jux("new", "tile", "t", "--game", "capital_jux")
    assert code == 1 and err == "jux: t.yaml: already exists: jux new never overwrites a file\n"
    assert (tmp_path / "t.yaml").read_text() == "kept\n"
    (tmp_path / "empty").mkdir()
    assert jux("new", "game", "empty")[0] == 0  # an empty folder is filled


@pytest.mark.parametrize("args,words", [
    (["new", "game", "9lives"], "'9lives' cannot name a game: a letter, then"),
    (["new", "game", "a b"], "'a b' cannot name a game"),
    (["new", "tile", "t"], "new tile: name its game: jux new tile NAME --game GAME"),
    (["new", "tile", "t", "--game", "no_such_game"], "new tile: no game 'no_such_game'"),
    (["new", "tile", "t", "--game", "."], "new tile: . is not a ruleset"),
])
def test_jux_new_refuses_what_it_cannot_write(jux, args, words):
    code, out, err = jux(*args)
    assert code == 1 and out == "" and words in err, err


def test_a_new_tile_of_a_catalogue_game_validates_and_plays(jux, tmp_path):
    code, out, err = jux("new", "tile", "tinker", "--game", "capital_jux")
    assert code == 0, err
    tile = tmp_path / "tinker.yaml"
    assert schema_of(tile) == SCHEMAS / "ruleset.schema.json"
    assert "game: capital_jux" in tile.read_text()
    assert out.splitlines()[-1] == "next: jux validate tinker.yaml, jux play capital_jux --tiles tinker.yaml"
    code, out, _ = jux("validate", "tinker.yaml")
    assert code == 0 and out.startswith("ok: tinker.yaml (76 cards, 18 procedures, with tinker.yaml")
    assert jux("play", "capital_jux", "--tiles", "tinker.yaml", "--print", "--seed", "2")[0] == 0


def test_a_new_tile_of_a_game_of_your_own_validates_and_plays(jux, tmp_path, monkeypatch):
    assert jux("new", "game", "fives")[0] == 0
    code, out, err = jux("new", "tile", "double", "--game", "fives/")
    assert code == 0, err
    assert "game: fives" in (tmp_path / "double.yaml").read_text()
    assert jux("validate", "double.yaml")[1] == "ok: double.yaml (18 cards, 1 procedure, with double.yaml)\n"
    assert jux("play", "fives", "--tiles", "double.yaml", "--print")[0] == 0
    # found from another folder too (the game beside the tile), and a tile inside the game is refused
    sub = tmp_path / "sub"
    sub.mkdir()
    monkeypatch.chdir(sub)
    assert jux("validate", "../double.yaml")[0] == 0
    monkeypatch.chdir(tmp_path / "fives")
    code, _, err = jux("new", "tile", "inner", "--game", ".")
    assert code == 1 and "inner.yaml would lie inside the ruleset ., as one of its rule files" in err
    # jux validate of the folder: the tile, and the game in its folder (not its scenarios)
    monkeypatch.chdir(tmp_path)
    code, out, _ = jux("validate", ".")
    assert code == 0 and out.splitlines() == ["ok: double.yaml (18 cards, 1 procedure, with double.yaml)",
                                              "ok: fives (18 cards, 1 procedure)"]
    # a tile of a game that is nowhere near: the error says where games are looked for
    monkeypatch.chdir(tmp_path)
    (tmp_path / "lost.yaml").write_text("variant:\n  name: lost\n  game: nowhere\n")
    code, _, err = jux("validate", "lost.yaml")
    assert code == 1 and "no game 'nowhere'" in err and "a game of your own is found in the tile's folder" in err


def test_jux_schema_prints_where_the_schemas_are(jux):
    code, out, _ = jux("schema")
    assert code == 0 and out.splitlines() == [f"ruleset: {SCHEMAS / 'ruleset.schema.json'}",
                                              f"scenario: {SCHEMAS / 'scenario.schema.json'}"]
    assert jux("schema", "scenario")[1] == f"{SCHEMAS / 'scenario.schema.json'}\n"
    assert jux("schema", "ruleset", "--uri")[1] == (SCHEMAS / "ruleset.schema.json").as_uri() + "\n"
    for line in out.splitlines():
        assert Path(line.split(": ", 1)[1]).is_file()


# jux new writes only what its own jux validate accepts (issue 38): a name with '-' is written with
# '_' in the rules (and said), names YAML would read as something else (null, true, yes) are quoted,
# and what the system refuses is told in jux's words, with control characters escaped.

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
