"""Files that loaded in an earlier release keep loading (tests/corpus/README.md): the project's own
games and tiles as they were, and small files that each meet a check tightened since. A tightened
check warns, with the fix, in a file of language 1 and refuses only a file that says language: 2."""
from __future__ import annotations

from pathlib import Path
import shutil

import pytest

from jux.interpreter.bots import make_bot
from jux.interpreter.bots.sample import bot_input
from jux.interpreter.engine.game import Game
from jux.interpreter.engine.ruleset import build_ruleset
import jux.interpreter.reading.variants as variants_module
from jux.interpreter.errors import RuleErrors

CORPUS = Path(__file__).resolve().parent / "corpus"
OLD = CORPUS / "2026-11-23"
SNAPSHOTS = sorted(d for d in CORPUS.iterdir() if d.name.startswith("20"))
GAMES = [g for snap in SNAPSHOTS for g in sorted((snap / "rules").glob("*/")) if (g / "game.yaml").exists()]
TILES = [(snap, p.stem) for snap in SNAPSHOTS for p in sorted(snap.glob("variants/capital_jux/*/*.yaml"))]
TIGHTENED = CORPUS / "tightened"


def play_out(game, seats):
    bots = [make_bot(s, seed=i) for i, s in enumerate(seats)]
    while not game.over:
        d = game.pending[0]
        bot = bots[d.player]
        d.answer(bot.choose(bot_input(bot, game, d.player), d))
    return game


@pytest.mark.parametrize("folder", GAMES, ids=lambda p: f"{p.parent.parent.name}/{p.name}")
def test_the_games_of_earlier_releases_load_and_play(folder):
    rules = build_ruleset(folder)
    game = play_out(Game.new(rules, 3, seed=5), ["random"] * 3)
    assert game.over and game.winners


def test_the_corpus_has_the_releases_games_and_tiles():
    assert {f"{g.parent.parent.name}/{g.name}" for g in GAMES} >= {
        "2026-11-22-first/capital_jux", "2026-11-22/capital_jux", "2026-11-23/capital_jux", "2026-11-23/guildhall",
        "2026-11-24/bruges"}
    assert sum(1 for snap, _ in TILES if snap == OLD) == 16


@pytest.mark.parametrize("snap, tile", TILES, ids=lambda x: x if isinstance(x, str) else x.name)
def test_each_tile_of_a_release_loads_with_its_edition(snap, tile, monkeypatch):
    # the release's catalogue of tiles, so the edition and the other slots' defaults are its own
    monkeypatch.setattr(variants_module, "VARIANTS_DIR", snap / "variants")
    rules = build_ruleset(snap / "rules" / "capital_jux", (tile,))
    assert tile in rules.variants
    assert not [w for w in rules.spec.warnings if "language" in w.message]  # nothing tightened meets them


def test_an_example_tile_of_an_earlier_release_loads_onto_todays_game():
    rules = build_ruleset(_today("capital_jux"), (str(CORPUS / "2026-11-24" / "docs" / "examples" / "banker.yaml"),))
    assert any(v.endswith("banker.yaml") for v in rules.variants)


def _today(name):
    from jux.interpreter.reading.spec import ruleset_path
    return ruleset_path(name)


# ---------------------------------------------------------------- checks tightened since a release

INVENTOR = TIGHTENED / "inventor.yaml"
MARKED = TIGHTENED / "marked" / "game.yaml"
LATER = "(a warning in language 1, an error in a file that says language: 2)"


def _place(path: Path, needle: str) -> tuple:
    text = path.read_text()
    i = text.index(needle)
    return text.count("\n", 0, i) + 1, i - (text.rfind("\n", 0, i) + 1) + 1


def test_a_tile_that_validated_on_2026_11_23_loads_with_a_warning_that_says_the_fix():
    rules = build_ruleset(_today("capital_jux"), (str(INVENTOR),))
    (w,) = [w for w in rules.spec.warnings if w.pos.file.endswith("inventor.yaml")]
    assert w.message == ("counter 'inventor_resolving' holds a number, not a seat; add seat: true to counter "
                         f"'inventor_resolving' {LATER}")
    assert (w.pos.line, w.pos.col) == _place(INVENTOR, "p\n      if")
    # and it plays: the counter holds the seat while the power resolves
    game = play_out(Game.new(rules, 2, seed=3), ["random", "random"])
    assert game.over


def test_the_same_tile_in_language_2_is_refused_where_the_fix_goes(tmp_path):
    tile = tmp_path / "inventor.yaml"
    tile.write_text(INVENTOR.read_text().replace("  game: capital_jux\n", "  game: capital_jux\n  language: 2\n"))
    with pytest.raises(RuleErrors) as e:
        build_ruleset(_today("capital_jux"), (str(tile),))
    (err,) = e.value.errors
    assert err.message == ("counter 'inventor_resolving' holds a number, not a seat (a counter that holds a "
                           "seat says seat: true)")
    assert err.pos.file.endswith("inventor.yaml") and (err.pos.line, err.pos.col) == _place(tile, "p\n      if")
    # the fix the warning gave makes it load clean
    tile.write_text(tile.read_text().replace("  inventor_resolving: 0\n",
                                             "  inventor_resolving: {start: 0, seat: true}\n"))
    rules = build_ruleset(_today("capital_jux"), (str(tile),))
    assert not [w for w in rules.spec.warnings if w.pos.file.endswith("inventor.yaml")]


def test_a_game_of_language_1_warns_of_marks_and_counters_given_other_values():
    rules = build_ruleset(MARKED.parent)
    got = sorted((w.pos.line, w.pos.col, w.message) for w in rules.spec.warnings)
    assert got == [
        (*_place(MARKED, "1\n"), "mark 'tapped' holds true or false, not a number; drop the default of mark "
                                 f"'tapped' (a mark without one holds what is set) {LATER}"),
        (*_place(MARKED, '"{p} drew"'), "counter 'last' holds a number, not a text; start counter 'last' at "
                                        f"none (it then holds what is put in it) {LATER}"),
    ]
    assert play_out(Game.new(rules, 2, seed=1), ["random", "random"]).over


def test_the_same_game_in_language_2_is_refused(tmp_path):
    folder = tmp_path / "marked"
    shutil.copytree(MARKED.parent, folder)
    game = folder / "game.yaml"
    game.write_text(game.read_text().replace("max: 2}}", "max: 2}, language: 2}"))
    with pytest.raises(RuleErrors) as e:
        build_ruleset(folder)
    assert sorted(x.message for x in e.value.errors) == ["counter 'last' holds a number, not a text",
                                                         "mark 'tapped' holds true or false, not a number"]


def test_the_games_language_covers_every_file_of_the_ruleset(tmp_path):
    folder = tmp_path / "marked"
    shutil.copytree(MARKED.parent, folder)
    (folder / "game.yaml").write_text((folder / "game.yaml").read_text().replace("set c.tapped = 1\n", "")
                                      .replace('    last = "{p} drew"\n', "    spare(p)\n"))
    (folder / "more.yaml").write_text("procedures:\n  spare(p): |\n    last = p\n")
    game = folder / "game.yaml"
    game.write_text(game.read_text().replace("max: 2}}", "max: 2}, language: 2}"))
    with pytest.raises(RuleErrors) as e:  # the ruleset's second file is strict too
        build_ruleset(folder)
    assert [x.pos.file.endswith("more.yaml") for x in e.value.errors] == [True]


@pytest.mark.parametrize("text", [
    "game: {name: marked, players: {min: 2, max: 2}, language: 3}",
    "game: {name: marked, players: {min: 2, max: 2}, language: two}",
])
def test_a_language_jux_does_not_know_is_told(tmp_path, text):
    folder = tmp_path / "marked"
    shutil.copytree(MARKED.parent, folder)
    game = folder / "game.yaml"
    game.write_text(game.read_text().replace("game: {name: marked, players: {min: 2, max: 2}}", text))
    with pytest.raises(RuleErrors) as e:
        build_ruleset(folder)
    (err,) = e.value.errors
    assert (err.pos.line, "language" in err.message) == (3, True), str(err)


# Each file of tightened/ with what it meets: (place, the error of language 2); language 1 says the
# fix after the error's words. The games play as the release of 2026-11-23 played them (its scores
# with these seeds and bots, taken from that release).
LOOSE = TIGHTENED / "loose" / "game.yaml"
SPY = TIGHTENED / "spy.yaml"
MET = {
    "loose": [
        ('c.value == "6"', "'==' compares a number with a text: they are never equal",
         "compare a number with a value of its own type"),
        ('c.value != "1"', "'!=' compares a number with a text: they are always different",
         "compare a number with a value of its own type"),
        ('"6" in', "'in' looks for a text among numbers: it is never there", "look for one of the numbers it holds"),
        ("p + 1", "'+' adds two numbers, joins two texts or two lists, not a seat and a number",
         "a seat is not a number: next_seat(p) and prev_seat(p) give the seats beside p"),
        ('value}"\n    set', "a seat has no attribute 'value' (only cards have attributes)",
         "name the card (a seat or a number is no card)"),
        ("seen =", "'set' puts a mark on a card, not on a seat", "name the card (a seat or a number is no card)"),
    ],
    "spy": [
        ("home_total]", "variant 'spy' overrides 'home_total', which is not a hook point of power_tiles; its hook "
         "points: setup, prepare_next_round, card_places, lay_down_district, play_home, play_capital, turn_options, "
         "turn_unavailable, take_action, resolve, resolve_district, resolve_home, score_bonus_all, gain_gold, "
         "max_of, val, home_districts, kept, standing, score, value, gold_supply, power_possible, power_hint, "
         "district_max, end_of_round", "override a hook point instead, or list 'home_total' under the hooks of the variant that "
         "offers them"),
        ("purple: spy", "slot 'power' has no key 'purple'; its keys: blue, pink, yellow, green",
         "fill one of its keys, or list 'power' under variant.overrides to add the key"),
    ],
}
FILES = {"loose": (LOOSE, lambda f: (f.parent, ())), "spy": (SPY, lambda f: (_today("capital_jux"), (str(f),)))}
RELEASE_SCORES = {"loose": [1, 1, 1], "marked": [2, 3]}  # seed 2, random bots seeded 0, 1, 2


def _seeded_play(rules, players):
    game = Game.new(rules, players, seed=2)
    bots = [make_bot("random", seed=i) for i in range(players)]
    while not game.over:
        d = game.pending[0]
        d.answer(bots[d.player].choose(None, d))
    return game


@pytest.mark.parametrize("name", sorted(MET))
def test_each_tightened_check_warns_with_its_fix_in_language_1(name):
    path, target = FILES[name]
    rules = build_ruleset(*target(path))
    got = sorted((w.pos.line, w.pos.col, w.message) for w in rules.spec.warnings if w.pos.file.endswith(path.name))
    assert got == sorted((*_place(path, needle), f"{error}; {fix} {LATER}") for needle, error, fix in MET[name])
    game = _seeded_play(rules, 3 if name == "loose" else 2)
    assert game.over
    if name in RELEASE_SCORES:
        assert game.scores == RELEASE_SCORES[name]


def test_the_small_games_play_as_the_release_played_them():
    assert _seeded_play(build_ruleset(MARKED.parent), 2).scores == RELEASE_SCORES["marked"]


@pytest.mark.parametrize("name", sorted(MET))
def test_each_tightened_check_refuses_in_language_2(name, tmp_path):
    path, target = FILES[name]
    text = path.read_text()
    text = (text.replace("max: 3}}", "max: 3}, language: 2}") if name == "loose"
            else text.replace("  game: capital_jux\n", "  game: capital_jux\n  language: 2\n"))
    copy = tmp_path / name / path.name
    copy.parent.mkdir()
    copy.write_text(text)
    with pytest.raises(RuleErrors) as e:
        build_ruleset(*target(copy))
    got = sorted((x.pos.line, x.pos.col, x.message) for x in e.value.errors)
    assert got == sorted((*_place(copy, needle), error) for needle, error, fix in MET[name])


def test_the_docs_example_of_a_warning_of_language_1_is_real(tmp_path, run):
    shutil.copytree(MARKED.parent, tmp_path / "marked")
    doc = (Path(__file__).resolve().parent.parent / "docs" / "language.md").read_text()
    shown = doc.split("$ jux validate marked\n", 1)[1].split("```", 1)[0]
    p = run("validate", "marked")
    assert p.returncode == 0 and p.stderr + p.stdout == shown
    game = tmp_path / "marked" / "game.yaml"
    game.write_text(game.read_text().replace("max: 2}}", "max: 2}, language: 2}"))
    p = run("validate", "marked")
    assert p.returncode == 1
    assert "marked/game.yaml:21:20: mark 'tapped' holds true or false, not a number\n" in p.stderr


def test_the_docs_example_in_language_2_validates_clean():
    rules = build_ruleset(Path(__file__).resolve().parent.parent / "docs" / "examples" / "strict")
    assert rules.spec.warnings == [] and set(rules.spec.languages.values()) == {2}
    game = play_out(Game.new(rules, 3, seed=4), ["random"] * 3)
    assert game.over and game.counter("done") is True
