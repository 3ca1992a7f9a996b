"""The start screen's choice of tiles (variants that fill a slot key, one per key: by hand, from a
preset the variant files allow, or drawn at random): a part of StartScreen (start.py), kept apart."""
from __future__ import annotations

from rich.text import Text
from textual.containers import Horizontal, Vertical
from textual.widgets import Label, Static

from ..widgets.choice import Choice

HAND = True  # the tiles-mode values: False (no tiles), HAND, or a preset of tui.tiles.presets


def mode_labels(word: str) -> list:
    """The first two tiles-mode options, in the ruleset's word for a slot key (tiles.key_word)."""
    return [("none (base game)", False), (f"by hand: one per {word}", HAND)]


class TileChoices:
    """StartScreen's tile rows, the tiles-mode choice and the tile text (see StartScreen for the state)."""

    async def _make_tile_rows(self, name, keys: list, choice: tuple) -> None:
        """One row per slot key with tiles (a Choice of its tiles, then the chosen tile's text)."""
        from ..tiles import tile_label
        from ..widgets.words import colour_style

        on, picks, extras, self.known, word = choice
        self._rows_for = None
        self.keys = keys
        self.picks = list(picks)
        self.tiles_on = bool(on and keys)
        self.extras = extras
        box = self.query_one("#tiles-box")
        box.display = bool(keys)
        from ..tiles import preset_of, presets

        self.mode = (preset_of(keys, picks) or HAND) if self.tiles_on else False
        mode = self.query_one("#tiles-mode", Choice)
        mode.set_options(mode_labels(word) + presets(keys, word))
        mode.value = self.mode
        self.query_one("#reroll").display = False
        self.refresh_bindings()
        rows = self.query_one("#tile-rows", Vertical)
        await rows.remove_children()
        new = []
        for i, (k, pick) in enumerate(zip(keys, picks)):
            key = Label(Text(k.key, style=colour_style(k.key)), classes="label")
            sel = Choice([(tile_label(t), t.name) for t in k.tiles], value=pick,
                         id=f"tile-{i}", classes="tile")
            new.append(Horizontal(key, sel, classes="row tile-row"))
        await rows.mount_all(new)
        rows.display = self.tiles_on
        defaults = {k.default for k in keys}
        self._shown = next((i for i, pick in enumerate(picks) if pick in self.wanted and pick not in defaults),
                           0)
        self._show_text()
        self._rows_for = name

    def _show_text(self, i: int | None = None) -> None:
        """The text of the tile picked for key i (the one last picked or focused)."""
        if i is not None:
            self._shown = i
        t = Text()
        if self.tiles_on and 0 <= self._shown < len(self.keys):
            from ..tiles import flat
            from ..widgets.words import colour_style

            k = self.keys[self._shown]
            info = next((x for x in k.tiles if x.name == self.picks[self._shown]), None)
            if info is not None:
                t.append(k.key, style=colour_style(k.key) or "bold")
                t.append(f" {info.title or info.name}", style="bold")
                if info.text:
                    t.append(": " + flat(info.text))
        box = self.query_one("#tile-text", Static)
        box.update(t)
        box.display = bool(t)

    def chosen_tiles(self) -> tuple:
        """The variants the tile choices on screen ask for."""
        return _tiles_of(self.keys, self.tiles_on, self.picks, self.extras)

    def _tiles_changed(self) -> None:
        if self.extras:  # what was wrong in the tiles asked for at the start goes once tiles are picked
            tiles = {t.name for k in self.keys for t in k.tiles}
            self.extras = [e for e in self.extras if e in self.known and e not in tiles]
        self.query_one("#tile-rows").display = self.tiles_on
        self._show_text()
        tiles = self.chosen_tiles()
        if self._request != (self.ruleset, tiles):
            self._load_rules(self.ruleset, tiles)

    def _show_mode(self, mode) -> None:
        """Show mode as the tiles-mode choice (the Changed it causes finds it already set)."""
        from ..tiles import RANDOM

        self.mode = mode
        self.tiles_on = mode is not False
        sel = self.query_one("#tiles-mode", Choice)
        if sel.value != mode:
            sel.value = mode
        self.query_one("#reroll").display = mode == RANDOM

    def _set_mode(self, mode) -> None:
        """No tiles, tiles by hand (the picks on screen), or a preset (its picks, put on screen)."""
        from ..tiles import preset_picks

        if mode not in (False, HAND):
            picks = preset_picks(self.keys, mode)
            if picks is None:
                return
            self.picks = picks
            self._shown = 0
            for i, pick in enumerate(picks):  # self.picks first: the Changed events find them set
                sel = self.query_one(f"#tile-{i}", Choice)
                if sel.value != pick:
                    sel.value = pick
        self._show_mode(mode)
        self._tiles_changed()

    def action_reroll(self) -> None:
        """Draw one tile per key at random (again)."""
        from ..tiles import RANDOM

        if self._rows_for == self.ruleset and self.keys:
            self._set_mode(RANDOM)


def _choice(keys: list, cat: dict, wanted: list, keep_unknown: bool) -> tuple:
    """(tiles on, the tile picked per key, other variants) for the variants asked for: a key none
    of them fills gets its default tile. Variants that are no tile are kept, except those a tile
    requires anyway; names no file has and a second tile for one key are kept only when keep_unknown
    (so that loading says what is wrong; the first change of a tile on screen drops them)."""
    wanted = [w for w in wanted if w]
    tile_names = {t.name for k in keys for t in k.tiles}
    required = {r for k in keys for t in k.tiles for r in t.requires}
    picks = []
    for k in keys:
        names = [t.name for t in k.tiles]
        pick = next((w for w in wanted if w in names), None)
        picks.append(pick or k.default or names[0])
    # kept as asked, so that loading says what is wrong: a name no file has, a second tile for a key
    extras = [w for w in wanted if w not in required and w not in picks and (
        (w in cat and w not in tile_names) or keep_unknown)]
    on = bool(keys) and any(w in tile_names or w in required for w in wanted)
    return on, picks, extras


def _tiles_of(keys: list, on: bool, picks: list, extras: list) -> tuple:
    out = list(dict.fromkeys(picks)) if on and keys else []
    return tuple(out + [e for e in extras if e not in out])
