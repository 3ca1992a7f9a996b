"""The start screen: ruleset, its tiles (variants that fill a slot key, one choice per key: by hand,
from a preset the variant files allow, or drawn at random), number of players, per seat a name and
human or bot, the seed and the bots' delay."""
from __future__ import annotations

from rich.text import Text
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import Button, Footer, Input, Label, Static

from ..session import HUMAN, SeatSpec
from ..widgets.choice import Choice

NO_TILES = "none (base game)"
WITH_TILES = "by hand: one per key"
HAND = True  # the tiles-mode values: False (no tiles), HAND, or a preset of tui.tiles.presets
DELAYS = [("off", 0.0), ("short (0.2 s)", 0.2), ("0.4 s", 0.4), ("long (1 s)", 1.0)]


class StartScreen(Screen):
    AUTO_FOCUS = "#players"
    BINDINGS = [Binding("ctrl+s", "start", "Start"), Binding("ctrl+r", "reroll", "Random tiles"),
                Binding("escape", "app.quit", "Quit")]

    def __init__(self, ruleset: str | None = None, seats: list | None = None, tiles=None) -> None:
        """tiles: the variants offered first (names; the app's --tiles, or the last game's)."""
        super().__init__()
        from ...interpreter.errors import JuxError
        from ...interpreter.paths import default_ruleset

        from ..session import rulesets
        from ..tiles import parse_tiles

        self.rulesets = rulesets()
        try:
            default = default_ruleset()
        except JuxError:
            default = None
        self.ruleset = ruleset if ruleset in self.rulesets else (
            default if default in self.rulesets else (self.rulesets[0] if self.rulesets else None))
        self.seats = seats or []
        self.wanted = parse_tiles(tiles)
        self.rules = None  # the ruleset with the chosen tiles, once loaded
        self.keys: list = []  # TileKeys of the ruleset the tile rows are made for
        self.picks: list = []  # the tile picked for each of them
        self.tiles_on = False  # tiles chosen (else the base game)
        self.mode = False  # the tiles-mode choice: False, HAND or a preset
        self.extras: list = []  # variants asked for that are no tile (kept with every choice)
        self.known: set = set()  # the names of the variants of the ruleset's game
        self._rows_for = None  # the ruleset the tile rows are made for
        self._request = None  # (ruleset, tiles) being loaded or loaded last
        self._shown = 0  # the key whose tile's text is shown
        self._first = True  # the first ruleset loaded takes the player count of the seats given

    def compose(self):
        with VerticalScroll(id="start"):
            yield Static("jux: a new game", id="start-title")
            with Horizontal(classes="row"):
                yield Label("Ruleset", classes="label")
                yield Choice([(r, r) for r in self.rulesets], value=self.ruleset, id="ruleset")
            yield Static(Text(f"loading {self.ruleset}…" if self.ruleset else ""), id="ruleset-info")
            with Vertical(id="tiles-box") as box:
                box.display = False  # until the ruleset is loaded, and only if it has tiles
                with Horizontal(classes="row"):
                    yield Label("Tiles", classes="label")
                    yield Choice([(NO_TILES, False), (WITH_TILES, HAND)], value=False,
                                 id="tiles-mode")
                    reroll = Button("Draw again (ctrl+r)", id="reroll", classes="small")
                    reroll.display = False  # only for tiles drawn at random
                    yield reroll
                yield Vertical(id="tile-rows")
                yield Static("", id="tile-text")
            with Horizontal(classes="row"):
                yield Label("Players", classes="label")
                yield Choice([(str(n), n) for n in range(1, 9)], value=2, id="players")
            with Vertical(id="seats"):
                for i in range(max(2, len(self.seats))):
                    yield self._seat_row(i)
            with Horizontal(classes="row"):
                yield Label("Seed", classes="label")
                yield Input(placeholder="random", id="seed", classes="name")
                yield Label("Bot delay", classes="label")
                delay = float(getattr(self.app, "bot_delay", 0.4) or 0.0)
                delays = DELAYS if any(v == delay for _, v in DELAYS) else sorted(
                    DELAYS + [(f"{delay:g} s", delay)], key=lambda lv: lv[1])
                yield Choice(delays, value=delay, id="bot-delay")
            with Horizontal(classes="row"):
                yield Button("Start (ctrl+s)", id="start-button", variant="primary", disabled=True)
                yield Button("Load a game", id="load-button")
            yield Static("", id="start-error")
        yield Footer()

    def _seat_row(self, i: int) -> Horizontal:
        """Seat i's row (a name and human or bot); rows are made only as the player count needs them."""
        from ...interpreter.bots import bot_level, bot_names

        bots = bot_names()
        kinds = [("human", HUMAN)] + [(f"bot: {bot_level(b)} ({b})" if bot_level(b) else f"bot: {b}", b)
                                      for b in bots]
        seat = self.seats[i] if i < len(self.seats) else SeatSpec(
            f"Player {i + 1}", HUMAN if i == 0 else (bots[0] if bots else HUMAN))
        return Horizontal(
            Label(f"Seat {i + 1}", classes="label"),
            Input(value=seat.name, id=f"name-{i}", classes="name"),
            Choice(kinds, value=seat.kind if seat.kind in dict(kinds).values() else HUMAN,
                   id=f"kind-{i}", classes="kind"),
            classes="row seat", id=f"seat-{i}")

    def on_mount(self) -> None:
        # the ruleset loads in a thread started once the screen is drawn: before, it would take
        # its share of the time the first frame needs
        self.call_after_refresh(self._load_rules, self.ruleset)

    def _load_rules(self, name, tiles: tuple | None = None) -> None:
        """Load (parse, check, compile) a ruleset with tiles in a thread: the screen shows and
        answers meanwhile. tiles None: a ruleset just picked, with the tiles asked for first."""
        self.rules = None
        self.query_one("#start-button", Button).disabled = True
        if name is None:
            self.query_one("#start-error", Static).update("No ruleset found under rules/.")
            return
        self._request = (name, tiles)
        self.query_one("#ruleset-info", Static).update(Text(f"loading {name}…"))
        wanted = list(self.wanted) if tiles is None else None
        first = self._first
        self.run_worker(lambda: self._load_in_thread(name, tiles, wanted, first), thread=True,
                        exclusive=True, group="load")

    def _load_in_thread(self, name, tiles, wanted, first) -> None:
        from ...interpreter.engine import load_ruleset
        from ...interpreter.errors import JuxError

        from ..tiles import catalogue_of, tile_keys

        keys = choice = None
        rules = error = None
        try:
            base = load_ruleset(name)
            if tiles is None:  # a ruleset just picked: its tile choices, and the tiles to load
                cat = catalogue_of(base)
                keys = tile_keys(base, cat)
                choice = _choice(keys, cat, wanted, keep_unknown=first) + (set(cat),)
                tiles = _tiles_of(keys, *choice[:3])
            rules = load_ruleset(name, tiles) if tiles else base
        except JuxError as e:
            error = e
        except Exception as e:  # a broken rule or variant file must not take the screen down
            error = f"{type(e).__name__}: {e}"
        self.app.call_from_thread(self._loaded, name, tiles, keys, choice, rules, error)

    async def _loaded(self, name, tiles, keys, choice, rules, error) -> None:
        if not self.is_attached or self._request is None or self._request[0] != name or (
                self._request[1] is not None and self._request[1] != tiles):
            return  # another ruleset or other tiles were picked meanwhile
        self._request = (name, tiles)
        if keys is not None:
            await self._make_tile_rows(name, keys, choice)
            if not self.is_attached or self._request[0] != name:
                return
        err = self.query_one("#start-error", Static)
        info = self.query_one("#ruleset-info", Static)
        if error is not None:
            from ...interpreter.variants import VariantError

            if isinstance(error, VariantError):  # a wrong choice of tiles: one line
                err.update(Text(f"These tiles do not go together: {' '.join(str(error).split())}"))
            else:
                with_tiles = f" with {', '.join(tiles)}" if tiles else ""
                err.update(Text(f"{name}{with_tiles} does not load:\n{error}"))
            info.update("")
            self.call_after_refresh(err.scroll_visible)
            return
        self.rules = r = rules
        err.update("")
        self.query_one("#start-button", Button).disabled = False
        info.update(Text(f"{r.title}: {r.min_players} to {r.max_players} players"))
        players = self.query_one("#players", Choice)
        current = len(self.seats) if self.seats and self._first else (
            players.value if isinstance(players.value, int) else 2)
        self._first = False
        players.set_options([(str(n), n) for n in range(r.min_players, r.max_players + 1)])
        self._set_players(min(max(current, r.min_players), r.max_players))

    # ------------------------------------------------------------ tiles

    async def _make_tile_rows(self, name, keys: list, choice: tuple) -> None:
        """One row per slot key with tiles (a Choice of its tiles, then the chosen tile's text)."""
        from ..tiles import tile_label
        from ..widgets.table import colour_style

        on, picks, extras, self.known = choice
        self._rows_for = None
        self.keys = keys
        self.picks = list(picks)
        self.tiles_on = bool(on and keys)
        self.extras = extras
        box = self.query_one("#tiles-box")
        box.display = bool(keys)
        from ..tiles import presets, preset_of

        self.mode = (preset_of(keys, picks) or HAND) if self.tiles_on else False
        mode = self.query_one("#tiles-mode", Choice)
        mode.set_options([(NO_TILES, False), (WITH_TILES, HAND)] + presets(keys))
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
            from ..widgets.table import colour_style

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

    def on_descendant_focus(self, event) -> None:
        w = event.widget
        for node in [w, *w.ancestors]:
            sid = getattr(node, "id", None) or ""
            if sid.startswith("tile-") and sid[5:].isdigit():
                if int(sid[5:]) != self._shown and self._rows_for == self.ruleset:
                    self._show_text(int(sid[5:]))
                return

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

    def _set_players(self, n: int) -> None:
        sel = self.query_one("#players", Choice)
        if self.rules is not None:
            n = min(max(n, self.rules.min_players), self.rules.max_players)
        if sel.value != n:
            sel.value = n
        rows = self.query_one("#seats", Vertical)
        have = len(rows.children)
        if n > have:
            rows.mount_all([self._seat_row(i) for i in range(have, n)])
        for i, row in enumerate(rows.children):
            row.display = i < n

    def on_choice_changed(self, event: Choice.Changed) -> None:
        sid = event.choice.id or ""
        if sid == "ruleset" and event.value != self.ruleset and isinstance(event.value, str):
            self.ruleset = event.value
            self._load_rules(event.value)
        elif sid == "players" and isinstance(event.value, int):
            self._set_players(event.value)
        elif self._rows_for != self.ruleset:
            return  # tile rows of a ruleset being replaced
        elif sid == "tiles-mode" and event.value == event.choice.value and event.value != self.mode:
            self._set_mode(event.value)
        elif sid.startswith("tile-") and sid[5:].isdigit() and isinstance(event.value, str):
            i = int(sid[5:])
            if i < len(self.picks) and self.picks[i] != event.value and \
                    any(t.name == event.value for t in self.keys[i].tiles):
                from ..tiles import preset_of

                self.picks[i] = event.value
                self._shown = i
                self._show_mode(preset_of(self.keys, self.picks) or HAND)  # picked by hand now
                self._tiles_changed()
        elif sid == "bot-delay" and isinstance(event.value, (int, float)):
            self.app.bot_delay = float(event.value)

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

    def check_action(self, action: str, parameters) -> bool | None:
        if action == "reroll":  # only for a ruleset with tiles
            return bool(self.keys)
        return True

    def action_reroll(self) -> None:
        """Draw one tile per key at random (again)."""
        from ..tiles import RANDOM

        if self._rows_for == self.ruleset and self.keys:
            self._set_mode(RANDOM)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "start-button":
            self.action_start()
        elif event.button.id == "load-button":
            self.app.ask_load(None)
        elif event.button.id == "reroll":
            self.action_reroll()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.action_start()

    def seat_specs(self) -> list:
        n = self.query_one("#players", Choice).value
        out = []
        for i in range(n):
            name = self.query_one(f"#name-{i}", Input).value.strip() or f"Player {i + 1}"
            out.append(SeatSpec(name, self.query_one(f"#kind-{i}", Choice).value))
        return out

    def action_start(self) -> None:
        from ...interpreter.errors import JuxError
        from ...interpreter.records import MAX_NAME, NEW_SEED

        err = self.query_one("#start-error", Static)
        if self.rules is None:
            return
        seed_text = self.query_one("#seed", Input).value.strip()
        try:
            seed = int(seed_text) if seed_text else None
        except ValueError:
            seed = "bad"
        if seed is not None and (seed == "bad" or not -NEW_SEED <= seed < NEW_SEED):
            shown = seed_text if len(seed_text) <= 30 else seed_text[:30] + "…"
            err.update(Text(f"The seed must be a whole number from -2**63 to 2**63 - 1, not '{shown}'."))
            return
        seats = self.seat_specs()
        names = [s.name for s in seats]
        if len(set(names)) != len(names):
            err.update("Give each seat its own name.")
            return
        if any(len(n) > MAX_NAME or not n.isprintable() for n in names):
            err.update(f"A name has at most {MAX_NAME} characters, all printable.")
            return
        try:
            self.app.start_game(self.rules, seats, seed)
        except JuxError as e:
            err.update(Text(str(e)))


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
