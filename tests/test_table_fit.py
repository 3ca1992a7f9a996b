"""A table the rules show, and the final scores, fit the width they are drawn in and lose no cell:
drawn at 80 and 120 columns (and narrower), every word of every cell, heading and title is in the
output, and no line is wider than the width (tui/screens/tables.py: FittedTable)."""
from __future__ import annotations

import random
from collections import Counter

import pytest
from rich.console import Console

from jux.interpreter.engine.game import Game
from jux.interpreter.errors import IllegalAnswer
from jux.interpreter.engine.ruleset import load_ruleset
from jux.tui.screens.gameover import scores_rows, tiebreak_headings, tiebreak_note
from jux.tui.screens.tables import FittedTable, transposed

GAMES = [("capital_jux", ()), ("capital_jux", ("sentinel",)), ("capital_jux", ("outsider",)),
         ("bruges", ()), ("guildhall", ())]
_played = {}


def played(name, tiles=(), players=4):
    """A whole game of fixed pseudo-random picks (kept for the module)."""
    key = (name, tiles, players)
    if key not in _played:
        rng = random.Random(7)
        g = Game.new(load_ruleset(name, tiles), players, 5, names=["Ann", "Bob", "Cy", "Di"][:players])
        while not g.over:
            d = g.pending[0]
            n = len(d.values)
            try:
                g.apply(sorted(rng.sample(range(n), d.min or 1)) if d.many else rng.randrange(n), decision=d.id)
            except IllegalAnswer:  # two alike options (Guildhall): pick again
                pass
        _played[key] = g
    return _played[key]


def render(table: FittedTable, width: int) -> list[str]:
    console = Console(width=width, color_system=None, record=True, legacy_windows=False)
    console.print(table)
    return console.export_text().splitlines()


def words(table: dict) -> Counter:
    cells = [table.get("title", "")] + list(table["columns"]) + [v for r in table["rows"] for v in r]
    return Counter(w for v in cells for w in str(v).split())


def assert_nothing_lost(table: dict, width: int, **kw) -> list[str]:
    lines = render(FittedTable(table, **kw), width)
    assert all(len(line) <= width for line in lines), "\n".join(lines)
    shown = Counter(w for line in lines for w in line.split())
    for w, n in words(table).items():
        if len(w) <= width - 2:
            assert shown[w] >= n, f"{w!r} is {n} times in the table, {shown[w]} on screen at {width}:\n" + "\n".join(lines)
        else:  # wider than a line: folded, never cut
            assert w in "".join("".join(lines).split()), w
    return lines


def every_table():
    for name, tiles in GAMES:
        g = played(name, tiles)
        for t in g.tables(0):
            yield f"{name}{'+' + '+'.join(tiles) if tiles else ''}: {t['title']}", t
        yield f"{name}{'+' + '+'.join(tiles) if tiles else ''}: final scores", scores_rows(g)


@pytest.mark.parametrize("width", [80, 120, 74, 114, 60, 40, 24])
def test_every_table_of_every_game_loses_no_cell(width):
    seen = 0
    for _, table in every_table():
        assert_nothing_lost(table, width)
        seen += 1
    assert seen >= 14  # 3 round tables and the final scores for 3 Capital Jux games, Bruges' 2, Guildhall's 1


def test_a_wide_table_of_numbers_is_transposed_at_80_and_as_written_at_120():
    g = played("bruges")
    table = g.tables(0)[-1]
    assert len(table["columns"]) == 11
    console = Console(width=200)
    kind = lambda w: FittedTable(table).layout(console, console.options.update(width=w))[0]
    assert kind(74) == "transposed" and kind(114) == "as written"
    lines = assert_nothing_lost(table, 74)
    # players across, the rules' columns down: "track" then each player's value, in order
    assert lines[1].split() == ["player", "Ann", "Bob", "Cy", "Di"]
    for i, c in enumerate(table["columns"][1:], start=1):
        row = next(line for line in lines if line.startswith(c + " "))
        assert row[len(c):].split() == [r[i] for r in table["rows"]]


def test_a_round_table_keeps_its_rows_and_wraps_its_long_cells():
    g = played("capital_jux")
    console = Console(width=200)
    for table in g.tables(0):
        kinds = {FittedTable(table).layout(console, console.options.update(width=w))[0] for w in (74, 114)}
        assert kinds <= {"as written", "wrapped"}, table["title"]  # players stay down the side
        lines = assert_nothing_lost(table, 74)
        for r in table["rows"]:  # each row begins a line with its player and its first cells
            assert any(line.split()[:2] == [r[0], r[1].split()[0]] for line in lines), r


def test_a_table_too_wide_to_wrap_or_turn_is_a_block_per_row():
    columns = ["player"] + [f"column number {i}" for i in range(12)]
    rows = [[f"P{r}"] + [f"value {r}.{i} with several words" for i in range(12)] for r in range(10)]
    table = {"title": "A wide one", "columns": columns, "rows": rows}
    console = Console(width=200)
    assert FittedTable(table).layout(console, console.options.update(width=74))[0] == "blocks"
    lines = assert_nothing_lost(table, 74)
    assert "player P0" in lines and "player P9" in lines
    assert_nothing_lost(table, 120)


def test_a_word_wider_than_the_screen_folds():
    table = {"title": "t", "columns": ["player", "note"], "rows": [["Ann", "x" * 60 + " end"]]}
    assert_nothing_lost(table, 40)
    assert_nothing_lost(table, 24)


def test_transposed_turns_rows_into_columns():
    cols, rows = transposed(["player", "a", "b"], [["Ann", "1", "2"], ["Bob", "3", "4"]])
    assert cols == ["player", "Ann", "Bob"] and rows == [["a", "1", "3"], ["b", "2", "4"]]


@pytest.mark.parametrize("name, tiles", GAMES)
def test_final_scores_head_every_column_and_line_up_the_tie_break_values(name, tiles):
    g = played(name, tiles)
    table = scores_rows(g)
    assert all(c.strip() for c in table["columns"])  # every column has a heading
    labels = g.tiebreak_labels()
    assert table["columns"][3:-1] == labels == tiebreak_headings(g)
    order = g.ranking()  # the rows: the best first (by score, then by the tie-break values)
    assert [g.scores[p] for p in order] == sorted(g.scores, reverse=True)
    assert set(order[:len(g.winners)]) == set(g.winners)
    lines = assert_nothing_lost(table, 80, bold=[order.index(p) for p in g.winners])
    head = next(i for i, line in enumerate(lines) if line.split()[:3] == ["seat", "player", "score"])
    assert head + 2 + len(g.names) <= len(lines)
    ends = []  # where each heading ends: a value is right-aligned under its heading
    at = 0
    for c in table["columns"][2:-1]:
        at = lines[head].index(c, at) + len(c)
        ends.append(at)
    for i, p in enumerate(order):
        line = lines[head + 2 + i]
        values = [str(g.scores[p])] + [str(v) for v in g.tiebreaks()[p]]
        assert [line[e - len(v):e] for e, v in zip(ends, values)] == values, line
        assert ("★" in line) == (p in g.winners)
    if labels:
        assert all(label in tiebreak_note(g) for label in labels)
    else:
        assert tiebreak_note(g) == ""


@pytest.mark.parametrize("width", [80, 24, 12])
def test_lists_commas_and_odd_spacing_lose_nothing(width):
    table = {"title": "odd", "columns": ["player", "list", "note"],
             "rows": [["Ann", "pink 4, green 6, green 5", "a,,b, c"], ["Bob", ", x", "1,000 and  more"],
                      ["Cy", "", "-"]]}
    assert_nothing_lost(table, width)


def test_a_table_taller_than_the_screen_says_there_is_more_and_scrolls():
    import asyncio

    from textual.app import App

    from jux.tui.screens.tables import MORE, TableScreen
    from tui_helpers import screen_text

    rows = [[f"P{r}", str(r), f"note {r}"] for r in range(40)]
    table = {"title": "Tall", "columns": ["player", "score", "note"], "rows": rows}

    async def main():
        app = App()
        async with app.run_test(size=(80, 24)) as pilot:
            app.push_screen(TableScreen(table))
            await pilot.pause()
            await pilot.pause()
            text = screen_text(app)
            assert MORE.strip() in text and "P0 " in text and "P39" not in text
            await pilot.press("end")
            await pilot.pause()
            assert "P39" in screen_text(app) and isinstance(app.screen, TableScreen)

    asyncio.run(main())


def test_a_short_table_says_nothing_more():
    import asyncio

    from textual.app import App

    from jux.tui.screens.tables import MORE, TableScreen
    from tui_helpers import screen_text

    table = {"title": "Short", "columns": ["player", "score"], "rows": [["Ann", "3"], ["Bob", "4"]]}

    async def main():
        app = App()
        async with app.run_test(size=(80, 24)) as pilot:
            app.push_screen(TableScreen(table))
            await pilot.pause()
            await pilot.pause()
            text = screen_text(app)
            assert "Press any key to continue" in text and MORE.strip() not in text

    asyncio.run(main())
