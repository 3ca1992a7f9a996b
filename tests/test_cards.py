"""Reading a card in full: a card kind's `text` and `powers` (checked before a game starts),
Game.read_card (never more than the seat may know), the terminal UI's card reader (key c: from the
table, the options and the hand; face-down cards show only their backs; the same screen in every
game that differs only in what the seat cannot see), the help's cards and keys, and long zones kept
compact at the table."""
from __future__ import annotations

import random

import pytest

from jux.interpreter.bots.random_bot import random_picker
from jux.interpreter.bots.sample import InfoSet
from jux.interpreter.engine.game import Game
from jux.interpreter.engine.ruleset import load_ruleset
from jux.tui.app import JuxApp
from jux.tui.screens.cards import CardsScreen, entry_label, reading_text, sections
from jux.tui.screens.game import GameScreen
from jux.tui.screens.help import help_text, screen_keys
from jux.tui.widgets.table import render_table
from test_rule_errors import at, edit, error, write
from test_table_snapshots import _deciding, save_file
from tui_helpers import screen_text, settle

GAMES = [("capital_jux", ()), ("capital_jux", ("infiltrator", "doomsayer", "aristocrat", "convertor")),
         ("guildhall", ()), ("bruges", ())]


@pytest.fixture(autouse=True)
def _data_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("JUX_DATA_DIR", str(tmp_path / "data"))


def played(name, tiles, players, seed, moves):
    g = Game.new(load_ruleset(name, tiles), players, seed=seed, start=False)
    g.autoplay(pick=random_picker(random.Random(seed).random), limit=moves)
    return g


# ------------------------------------------------------------------ the language


POWERED = edit("    label: \"{colour} {value}\"\n",
               "    label: \"{colour} {value}\"\n    text: Number cards\n    powers: {power: colour}\n")
POWERED = edit("  gain(p): |\n    gold[p] += 1\n",
               "  gain(p):\n    text: GAIN. Take a gold.\n    do: |\n      gold[p] += 1\n", POWERED)


def test_a_card_reads_its_kind_text_attributes_and_the_rule_its_powers_name(tmp_path):
    rules = load_ruleset(write(tmp_path, {"game.yaml": POWERED}))
    g = Game.new(rules, 1, seed=1)
    c = next(c for c in rules.cards if rules.card_labels[c] == "blue 2")
    r = g.read_card(c)  # (None: everything)
    assert r["label"] == "blue 2" and r["kind"] == "num" and r["kind_text"] == "Number cards"
    assert r["attributes"] == [["colour", "blue"], ["value", 2]]
    assert r["powers"] == [["gain", "GAIN. Take a gold."]]
    assert g.read_card(len(rules.cards)) is None and g.read_card(-1) is None and g.read_card("1") is None


@pytest.mark.parametrize("old, new, needle, message", [
    ("powers: {power: colour}", "powers: {powr: colour}", "powr", "powers names unknown slot 'powr' (did you mean 'power'?)"),
    ("powers: {power: colour}", "powers: {power: colur}", "power: colur", "powers reads unknown attribute 'colur'"),
])
def test_a_bad_powers_is_a_located_error(tmp_path, old, new, needle, message):
    text = edit(old, new, POWERED)
    e = error(tmp_path, text)
    assert message in e.message, str(e)
    assert (e.pos.line, e.pos.col) == at(text, needle)


def test_powers_must_be_a_mapping_of_names(tmp_path):
    e = error(tmp_path, edit("powers: {power: colour}", "powers: [power]", POWERED))
    assert "powers" in str(e)


@pytest.mark.parametrize("name, tiles", GAMES)
def test_every_card_kind_of_the_games_has_a_text(name, tiles):
    rules = load_ruleset(name, tiles)
    for kind, d in rules.spec.cards.items():
        assert d.get("text"), kind


@pytest.mark.parametrize("name, tiles, label, words", [
    ("guildhall", (), "red assassin", "ASSASSIN. 0: discard one card"),
    ("guildhall", (), "2 VP (1 chapter): take a chapter", "move an incomplete chapter"),
    ("capital_jux", (), "blue 4", "AGENT (blue)"),
    ("capital_jux", ("infiltrator",), "blue 4", "INFILTRATOR: draw the top rebel card"),  # the tile in use
    ("bruges", (), "blue Prince", "Pay a yellow worker: get 1 point and take 2 guilders."),
])
def test_the_games_cards_read_their_powers(name, tiles, label, words):
    rules = load_ruleset(name, tiles)
    g = Game.new(rules, 2, seed=1)
    c = next(c for c in rules.cards if rules.card_labels[c] == label)
    r = g.read_card(c)
    assert words in " ".join([t for _, t in r["powers"]] + [str(v) for _, v in r["attributes"]])


# ------------------------------------------------------------------ what a seat may know


@pytest.mark.parametrize("name, tiles", GAMES)
def test_read_card_shows_a_card_only_to_a_seat_that_knows_it(name, tiles):
    g = played(name, tiles, 3, 2, 60)
    for seat in range(3):
        for c in range(len(g.rules.cards)):
            r = g.read_card(c, seat)
            if g.knows(seat, c):
                assert r["label"] == g.rules.card_labels[c]
            else:
                assert set(r) <= {"hidden", "back"} and r["hidden"] is True


def reader(g, seat) -> list:
    """The card reader as a seat sees it: each section, each line and what it reads."""
    return [(title, entry_label(e, {}).plain, reading_text(e).plain) for title, es in sections(g, seat) for e in es]


@pytest.mark.parametrize("name, tiles", GAMES)
def test_the_reader_depends_only_on_what_the_seat_may_know(name, tiles):
    for seed in range(3):
        g = played(name, tiles, 3, seed, 25 + 20 * seed)
        for seat in range(3):
            seen = reader(g, seat)
            assert seen
            for i in range(3):  # the same game with every card the seat does not know dealt again
                other = InfoSet(g, seat).sample(random.Random(100 * seed + i))
                assert reader(other, seat) == seen


def test_the_reader_lists_the_seats_own_zones_first_and_every_card_it_sees():
    g = played("guildhall", (), 2, 4, 120)
    secs = sections(g, 0)
    assert secs[0][0].startswith("your ")
    listed = sum(e.count for _, es in secs for e in es if e.reading)
    seen = sum(1 for z in g.view(0)["zones"] for c in z["cards"] if not c.get("hidden"))
    assert listed == seen


# ------------------------------------------------------------------ the table


def test_a_long_public_zone_is_compact_and_the_seats_own_area_comes_first():
    g = played("guildhall", (), 2, 7, 400)
    view = g.view(0)
    discard = next(z["cards"] for z in view["zones"] if z["name"] == "discard")
    assert len(discard) > 25
    lines = render_table(view, g.rules.spec, 0, width=44).plain.splitlines()
    line = next(s for s in lines if s.startswith("discard"))
    assert line.startswith(f"discard ({len(discard)}): ") and " more … " in line
    assert len(line) <= 3 * 44 and line.endswith(discard[-1]["label"])  # the top card is in sight
    you = next(i for i, s in enumerate(lines) if "(you)" in s)
    assert you < lines.index(line) < next(i for i, s in enumerate(lines) if s.startswith("  Player 2"))
    full = render_table(view, g.rules.spec, 0).plain  # without a width: every card
    assert " more … " not in full


def test_the_seats_own_zones_are_never_cut():
    g = played("guildhall", (), 2, 5, 400)
    view = g.view(0)
    hand = next(z["cards"] for z in view["zones"] if z["name"] == "hand" and z["owner"] == 0)
    text = render_table(view, g.rules.spec, 0, width=20).plain
    for c in hand:
        assert c["label"] in text


# ------------------------------------------------------------------ help


@pytest.mark.parametrize("name", ["capital_jux", "guildhall", "bruges"])
def test_help_lists_every_card_kinds_text_and_every_listed_card(name):
    rules = load_ruleset(name)
    flat = " ".join(help_text(rules, GameScreen).plain.split())
    for kind, d in rules.spec.cards.items():
        assert " ".join(d["text"].split()) in flat, kind
    for c in rules.cards:
        text = rules.card_attrs[c].get("text")
        if text:
            assert " ".join(text.split()) in flat


def test_help_lists_every_key_of_the_game_screen():
    keys = help_text(load_ruleset("bruges"), GameScreen).plain
    keys = keys[keys.index("\nKeys\n"):keys.index("\nGoal\n")]
    bound = {k for b in GameScreen.BINDINGS for k in b.key.split(",")}
    assert {"c", "s", "l", "u", "d", "r", "q", "f"} <= bound
    names = {"question_mark": "?", "f1": "F1", "enter": "Enter", "right_square_bracket": "]", "left_square_bracket": "["}
    for k in bound:
        assert f"{names.get(k, k)} " in keys, k
    assert "n new game" in keys  # a key_ method
    assert [k for k, _ in screen_keys(GameScreen)].count("u") == 1  # bound twice (undo and its refusal)


# ------------------------------------------------------------------ the reader on screen


async def _reader(pilot):
    await _deciding(pilot)
    await pilot.press("c")
    await settle(pilot, pilot.app, CardsScreen)
    await pilot.pause()


def test_the_reader_opens_on_the_highlighted_option_and_hides_face_down_cards(tmp_path):
    path = save_file(tmp_path, "bruges", (), 3, 80)

    async def main():
        app = JuxApp(load=str(path), bot_delay=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await _reader(pilot)
            g = app.session.game
            reader = app.screen
            shown = reader.shown
            assert reader.query_one("#cards-list").get_option_at_index(0).prompt.plain == "the highlighted option"
            assert shown.where == "your hand"
            hand = next(z["cards"] for z in g.view(0)["zones"] if z["name"] == "hand" and z["owner"] == 0)
            assert shown.reading["label"] == hand[0]["label"]  # option 1 plays the first hand card
            text = reader.query_one("#card-text").content.plain
            attrs = g.rules.card_attrs[shown.reading["id"]]
            assert " ".join(attrs["text"].split()) in " ".join(text.split())
            assert f"price {attrs['price']}" in text and hand[0]["label"] in text
            # a hand card from the list
            lines = reader.query_one("#cards-list")
            at = next(i for i, o in enumerate(reader.lines) if o.disabled and o.prompt.plain == "your hand")
            lines.highlighted = at + 1
            await pilot.pause()
            assert reader.shown.where == "your hand" and reader.shown is not shown  # the list's own line
            # another seat's face-down hand: what its backs show, nothing of the cards
            at = next(i for i, o in enumerate(reader.lines) if o.id and reader.entries[int(o.id.split("-")[1])].where
                      == "Bob's hand")
            lines.highlighted = at
            await pilot.pause()
            text = reader.query_one("#card-text").content.plain
            assert "face down" in text and "You cannot see their faces" in text
            bob = next(z for z in g.view(None)["zones"] if z["name"] == "hand" and z["owner"] == 1)["cards"]
            visible = {c["label"] for z in g.view(0)["zones"] for c in z["cards"] if not c.get("hidden")}
            secret = [c for c in bob if c["label"] not in visible]
            assert secret
            screen = screen_text(app)
            for c in secret:
                assert c["label"] not in text and c["label"] not in screen
            await pilot.press("escape")
            await settle(pilot, app, GameScreen)

    import asyncio

    asyncio.run(main())


def test_snapshot_card_reader_in_bruges(snap_compare, tmp_path):
    path = save_file(tmp_path, "bruges", (), 3, 80)
    assert snap_compare(JuxApp(load=str(path), bot_delay=0), terminal_size=(80, 24), run_before=_reader)


def test_snapshot_help_shows_the_keys(snap_compare, tmp_path):
    async def ready(pilot):
        await _deciding(pilot)
        await pilot.press("question_mark")
        from jux.tui.screens.help import HelpScreen

        await settle(pilot, pilot.app, HelpScreen)
        await pilot.pause()

    path = save_file(tmp_path, "guildhall", (), 2, 40)
    assert snap_compare(JuxApp(load=str(path), bot_delay=0), terminal_size=(80, 24), run_before=ready)
