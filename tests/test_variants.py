"""Variants as an author meets them: composing a variant onto a ruleset (add, override with
previous(...), remove), choosing tiles (defaults, requirements, one per slot key), and every
mistake reported as one clear line at the file, line and column (through the real `jux` command)."""
from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest

from jux import Game, load_ruleset
from jux.interpreter.reading.variants import VariantError

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "docs" / "examples" / "banker.yaml"


def tile(tmp_path, text, name="mine.yaml") -> Path:
    p = tmp_path / name
    p.write_text(textwrap.dedent(text))
    return p


HEAD = """\
variant:
  name: mine
  game: capital_jux
  requires: [power_tiles]
"""


def test_a_colour_not_named_gets_its_a_tile_and_the_edition_comes_first():
    rules = load_ruleset("capital_jux", ["outsider", "sentinel"])
    assert rules.variants == ("power_tiles", "outsider", "cleric", "sentinel", "scholar")


def test_two_tiles_of_one_colour_and_unknown_names_are_refused_with_the_valid_names():
    with pytest.raises(VariantError) as e:
        load_ruleset("capital_jux", ["merchant", "follower"])
    assert "'merchant' and 'follower' both fill power yellow" in str(e.value)
    assert "yellow: merchant, follower, aristocrat, sentinel" in str(e.value)
    with pytest.raises(VariantError) as e:
        load_ruleset("capital_jux", ["infiltrater"])
    assert "unknown variant 'infiltrater' for capital_jux (did you mean 'infiltrator'?)" in str(e.value)
    assert "blue: agent, infiltrator, recruiter, outsider" in str(e.value)


def test_the_example_tile_of_the_authoring_guide_validates_and_plays(run):
    r = run("validate", EXAMPLE)
    assert r.returncode == 0 and "with power_tiles, agent, cleric, " in r.stdout
    r = run("simulate", "capital_jux", "--tiles", EXAMPLE, "--games", "20", "--players", "3",
            "--records", "recs", "--quiet")
    assert r.returncode == 0, r.stderr
    record = json.loads(Path("recs/game-0.json").read_text())
    assert str(EXAMPLE) in record["variants"]  # by path: not in the catalogue
    assert Game.from_record(record, paths=[EXAMPLE]).over  # (a file the user names: a record cannot)


def test_an_override_calls_the_definition_it_replaces(tmp_path):
    p = tile(tmp_path, HEAD + textwrap.dedent("""\
          overrides: [score]
        slots:
          power: {yellow: mine}
        procedures:
          mine(p, card): log "nothing"
        functions:
          score(p): previous(p) + 100
        """))
    plain = load_ruleset("capital_jux", ["follower"])
    mine = load_ruleset("capital_jux", [str(p)])
    a = Game.new(plain, players=2, seed=3)
    b = Game.new(mine, players=2, seed=3)
    assert [s + 100 for s in a.scores] == b.scores


@pytest.mark.parametrize("body, message", [
    ("functions:\n  score(p): '1'\n",
     "mine.yaml:6:3: variant 'mine': 'score' is already defined (at "),
    ("  overrides: [scroe]\nfunctions:\n  scroe(p): '1'\n",
     "mine.yaml:7:3: variant 'mine' overrides 'scroe', but the rules define no function 'scroe' (did you mean 'score'?)"),
    ("  overrides: [score]\nfunctions:\n  score(p, q): previous(p)\n",
     "mine.yaml:7:3: 'score' overrides"),
    ("functions:\n  extra(p): previous(p)\n",
     "mine.yaml:6:13: 'previous(...)' calls the definition an override replaces, but 'extra' here overrides nothing"),
    ("  removes: [start_playr]\n",
     "mine.yaml:5:13: variant 'mine' removes 'start_playr', which the rules do not define (did you mean 'start_player'?)"),
    ("  overrides: [score]\n",
     "mine.yaml:5:15: variant 'mine' lists 'score' under overrides but does not define it"),
    ("  colour: blue\n",
     "mine.yaml:5:3: variant: unknown key 'colour'"),
    ("  overrides: [score]\nfunctions:\n  score(p): previos(p) + 1\n",
     "mine.yaml:7:13: unknown function 'previos' (did you mean 'previous'?)"),
])
def test_variant_mistakes_are_one_line_at_the_place(run, tmp_path, body, message):
    tile(tmp_path, HEAD + body)
    r = run("validate", "mine.yaml")
    assert r.returncode == 1
    assert message in r.stderr, r.stderr


def test_a_variant_for_another_game_and_a_file_that_is_no_variant(run, tmp_path):
    tile(tmp_path, "variant:\n  name: x\n  game: other_game\n", "other.yaml")
    r = run("simulate", "capital_jux", "--tiles", "other.yaml", "--games", "1")
    assert r.returncode == 1 and "other.yaml:3:9: the variant 'x' is for 'other_game', not 'capital_jux'" in r.stderr
    tile(tmp_path, "constants: {a: 1}\n", "plain.yaml")
    r = run("simulate", "capital_jux", "--tiles", "plain.yaml", "--games", "1")
    assert r.returncode == 1 and "plain.yaml:1:1: not a variant" in r.stderr


def test_overriding_what_only_another_variant_adds_names_the_one_to_require(run, tmp_path):
    tile(tmp_path, "variant:\n  name: mine\n  game: capital_jux\n  overrides: [power_possible]\n"
                   "functions:\n  power_possible(d, p, card): 'true'\n")
    r = run("validate", "mine.yaml")
    assert r.returncode == 1
    assert ("mine.yaml:6:3: variant 'mine' overrides 'power_possible', but the rules define no function "
            "'power_possible' (the variant 'power_tiles' defines it: list 'power_tiles' under "
            "variant.requires)") in r.stderr, r.stderr


def test_rules_shows_a_tile_file_of_ones_own_and_its_errors(run, tmp_path):
    banker = Path(__file__).resolve().parent.parent / "docs" / "examples" / "banker.yaml"
    (tmp_path / "banker.yaml").write_text(banker.read_text())
    r = run("rules", "banker.yaml")
    assert r.returncode == 0, r.stderr
    out = " ".join(r.stdout.split())
    assert "power yellow" in out and "banker (nobles)" in out and "Requires: power_tiles" in out, out
    assert "Play with: jux play capital_jux --tiles banker.yaml" in out
    tile(tmp_path, HEAD + "  overrides: [scroe]\nfunctions:\n  scroe(p): '1'\n")
    r = run("rules", "mine.yaml")  # the errors, as jux validate gives them
    assert r.returncode == 1 and "mine.yaml:7:3: variant 'mine' overrides 'scroe'" in r.stderr, r.stderr


def test_rules_tiles_lists_the_sixteen_tiles_by_colour_with_their_text(run):
    r = run("rules", "capital_jux", "--tiles")
    assert r.returncode == 0
    for name in ("agent", "infiltrator", "recruiter", "outsider", "cleric", "doomsayer", "missionary",
                 "mentalist", "merchant", "follower", "aristocrat", "sentinel", "scholar", "convertor",
                 "discoverer", "dualist"):
        assert name in r.stdout
    assert r.stdout.index("power blue") < r.stdout.index("power pink") < r.stdout.index("power green")
    assert "look at it secretly" in " ".join(r.stdout.split())


def test_validate_variants_checks_every_tile(run):
    r = run("validate", ROOT / "variants")
    assert r.returncode == 0, r.stderr
    assert r.stdout.count("ok: ") == 17


def test_defaults_come_with_their_requirements_or_with_another_key_of_their_slot(monkeypatch):
    from jux.interpreter.reading import variants
    from jux.interpreter.reading.variants import VariantInfo, choose

    def info(name, fills=(), default=False, requires=()):
        return VariantInfo(name, "g", Path(f"{name}.yaml"), default=default, requires=tuple(requires),
                           fills={"power": tuple(fills)} if fills else {})

    cat = {i.name: i for i in (
        info("edition"), info("a_red", ["red"], True, ["edition"]), info("b_red", ["red"], False, ["edition"]),
        info("plain_blue", ["blue"], True), info("other_blue", ["blue"]), info("house"))}
    monkeypatch.setattr(variants, "catalogue", lambda game: cat)
    order = {"power": ["red", "blue"]}
    names = lambda xs: [i.name for i in choose("g", xs, order)]  # noqa: E731
    assert names(["house"]) == ["house"]  # fills nothing, requires nothing: no defaults
    assert names(["edition"]) == ["edition", "a_red"]  # a_red's requirement is in the game
    assert names(["b_red"]) == ["edition", "b_red", "plain_blue"]  # another key of plain_blue's slot
    assert names(["other_blue"]) == ["other_blue"]  # a_red needs the edition, which is not chosen


def test_the_catalogue_reads_an_editor_s_unsaved_header():
    """jux lsp checks what the author is typing: a catalogue variant's header (its slot keys,
    requires) comes from the editor's text, and the disk's again once the editor lets go."""
    from jux.interpreter.reading import variants
    from jux.interpreter import files
    from jux.interpreter.paths import VARIANTS_DIR

    f = VARIANTS_DIR / "capital_jux" / "nobles" / "merchant.yaml"
    text = f.read_text()
    assert "power: {yellow: merchant}" in text
    with files.edited({f: text.replace("power: {yellow: merchant}", "power: {yellow: merchant, pink: merchant}")}):
        assert variants.catalogue("capital_jux")["merchant"].fills == {"power": ("yellow", "pink")}
    assert variants.catalogue("capital_jux")["merchant"].fills == {"power": ("yellow",)}
