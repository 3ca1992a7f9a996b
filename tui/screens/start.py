"""The start screen: ruleset (those named on the command line, jux's own, the user's own rules
folder), its tiles (start_tiles.py), number of players, per seat a name and human or bot, the seed
and the bots' delay. At a server (`jux play --server URL`, start_server.py) it hosts a table of
these instead (with a turn timer for the seed and the delay) or joins one with a code."""
from __future__ import annotations

from rich.text import Text
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import Button, Footer, Input, Label, Static

from ..session import HUMAN, SeatSpec
from ..widgets.choice import Choice
from .start_rejoin import Rejoin
from .start_server import ServerPlay
from .start_tiles import HAND, TileChoices, _choice, _tiles_of, mode_labels  # noqa: F401
from .closing import if_open, still_open

DELAYS = [("off", 0.0), ("short (0.2 s)", 0.2), ("0.4 s", 0.4), ("long (1 s)", 1.0)]


class StartScreen(Rejoin, ServerPlay, TileChoices, Screen):
    AUTO_FOCUS = "#players"
    BINDINGS = [Binding("ctrl+s", "start", "Start"), Binding("ctrl+s", "host", "Host the table"),
                Binding("ctrl+r", "reroll", "Random tiles"), Binding("ctrl+o", "rejoin", "Rejoin"),
                Binding("escape", "app.quit", "Quit")]

    def __init__(self, ruleset: str | None = None, seats: list | None = None, tiles=None, named=(),
                 user_folder=None) -> None:
        """ruleset: the one shown first (a built-in name or a path); tiles: the variants offered
        first (names; the app's --tiles, or the last game's); named: rulesets named by path (on the
        command line), offered first; user_folder: the user's rules folder (default: DATA_DIR/rules)."""
        super().__init__()
        from ...interpreter.errors import JuxError
        from ...interpreter.paths import default_ruleset
        from ..rulesets import offered
        from ..tiles import parse_tiles

        self.entries, self.note = offered(named, user_folder)
        self.rulesets = [e.source for e in self.entries]  # what load_ruleset takes, for each
        try:
            default = default_ruleset()
        except JuxError:
            default = None
        self.ruleset = self._find(ruleset) or self._find(default) or (
            self.rulesets[0] if self.rulesets else None)
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
            yield Static(Text(f"jux: a new table at {self.server}" if self.server else "jux: a new game"),
                         id="start-title")
            yield from self._rejoin_rows()
            with Horizontal(classes="row"):
                yield Label("Ruleset", classes="label")
                yield Choice(self._ruleset_options(), value=self.ruleset, id="ruleset")
            yield Static(Text(f"loading {self._shown_name(self.ruleset)}…" if self.ruleset else ""), id="ruleset-info")
            with Vertical(id="tiles-box") as box:
                box.display = False  # until the ruleset is loaded, and only if it has tiles
                with Horizontal(classes="row"):
                    yield Label("Tiles", classes="label")
                    yield Choice(mode_labels("slot"), value=False, id="tiles-mode")
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
            if self.server:
                yield self._timer_row()
            with Horizontal(classes="row") as row:
                row.display = not self.server  # (a server's table has its own secret seed, and plays its bots)
                yield Label("Seed", classes="label")
                yield Input(placeholder="random", id="seed", classes="name")
                yield Label("Bot delay", classes="label")
                delay = float(getattr(self.app, "bot_delay", 0.4) or 0.0)
                delays = DELAYS if any(v == delay for _, v in DELAYS) else sorted(
                    DELAYS + [(f"{delay:g} s", delay)], key=lambda lv: lv[1])
                yield Choice(delays, value=delay, id="bot-delay")
            with Horizontal(classes="row"):
                yield Button("Host the table (ctrl+s)" if self.server else "Start (ctrl+s)", id="start-button",
                             variant="primary", disabled=True)
                if not self.server:
                    yield Button("Load a game", id="load-button")
            yield Static("", id="start-error")
            if self.server:
                yield from self._join_rows()
        yield Footer()

    def _seat_row(self, i: int) -> Horizontal:
        """Seat i's row (a name and human or bot); rows are made only as the player count needs them."""
        from ...interpreter.bots import bot_choices, level_spec

        kinds = [("human", HUMAN)] + bot_choices()
        seat = self.seats[i] if i < len(self.seats) else SeatSpec(
            f"Player {i + 1}", HUMAN if i == 0 else kinds[2][1])  # (a medium bot)
        kind = level_spec(seat.kind)
        return Horizontal(
            Label(f"Seat {i + 1}", classes="label"),
            Input(value=seat.name, id=f"name-{i}", classes="name"),
            Choice(kinds, value=kind if kind in dict(kinds).values() else HUMAN,
                   id=f"kind-{i}", classes="kind"),
            classes="row seat", id=f"seat-{i}")

    @if_open
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
        self.query_one("#ruleset-info", Static).update(Text(f"loading {self._shown_name(name)}…"))
        wanted = list(self.wanted) if tiles is None else None
        first = self._first
        self.run_worker(lambda: self._load_in_thread(name, tiles, wanted, first), thread=True,
                        exclusive=True, group="load")

    def _load_in_thread(self, name, tiles, wanted, first) -> None:
        from ...interpreter.engine.ruleset import load_ruleset
        from ...interpreter.errors import JuxError
        from ..tiles import catalogue_of, key_word, tile_keys

        keys = choice = None
        rules = error = None
        try:
            base = load_ruleset(name)
            if tiles is None:  # a ruleset just picked: its tile choices, and the tiles to load
                cat = catalogue_of(base)
                keys = tile_keys(base, cat)
                choice = _choice(keys, cat, wanted, keep_unknown=first) + (set(cat), key_word(base, keys))
                tiles = _tiles_of(keys, *choice[:3])
            rules = load_ruleset(name, tiles) if tiles else base
        except JuxError as e:
            error = e
        except Exception as e:  # a broken rule or variant file must not take the screen down
            error = f"{type(e).__name__}: {e}"
        self.app.call_from_thread(self._loaded, name, tiles, keys, choice, rules, error)

    async def _loaded(self, name, tiles, keys, choice, rules, error) -> None:
        if not still_open(self) or self._request is None or self._request[0] != name or (
                self._request[1] is not None and self._request[1] != tiles):
            return  # another ruleset or other tiles were picked meanwhile
        self._request = (name, tiles)
        if keys is not None:
            await self._make_tile_rows(name, keys, choice)
            if not still_open(self) or self._request[0] != name:
                return
        err = self.query_one("#start-error", Static)
        info = self.query_one("#ruleset-info", Static)
        if error is not None:
            from ...interpreter.reading.variants import VariantError

            if isinstance(error, VariantError):  # a wrong choice of tiles: one line
                err.update(Text(f"These tiles do not go together: {' '.join(str(error).split())}"))
            else:
                with_tiles = f" with {', '.join(tiles)}" if tiles else ""
                err.update(Text(f"{self._shown_name(name)}{with_tiles} does not load:\n{error}"))
            info.update(self._info())
            self.call_after_refresh(err.scroll_visible)
            return
        self.rules = r = rules
        err.update("")
        self.query_one("#start-button", Button).disabled = False
        info.update(self._info(f"{r.title}: {r.min_players} to {r.max_players} players"))
        self._check_rulesets()
        players = self.query_one("#players", Choice)
        current = len(self.seats) if self.seats and self._first else (
            players.value if isinstance(players.value, int) else 2)
        self._first = False
        players.set_options([(str(n), n) for n in range(r.min_players, r.max_players + 1)])
        self._set_players(min(max(current, r.min_players), r.max_players))

    # ------------------------------------------------------------ the rulesets offered

    def _find(self, source) -> str | None:
        """The source in the list for a name or path (a path as written or absolute), or None."""
        import os

        if not source:
            return None
        if str(source) in self.rulesets:
            return str(source)
        real = os.path.realpath(str(source)) if os.path.exists(str(source)) else None
        return next((e.source for e in self.entries if real and e.where != "built in"
                     and os.path.realpath(e.source) == real), None)

    def _entry(self, source):
        return next((e for e in self.entries if e.source == source), None)

    def _shown_name(self, source) -> str:
        e = self._entry(source)
        return e.name if e is not None else str(source)

    def _ruleset_options(self) -> list:
        return [(e.label, e.source) for e in self.entries]

    def _info(self, head: str = "") -> Text:
        """The line under the ruleset: its title and players, where it comes from (when not
        built in), why it is broken, and a note on the user's rules folder."""
        from ..rulesets import BUILT_IN, USER

        e = self._entry(self.ruleset)
        lines = [head] if head else []
        if e is not None and e.where == USER:
            lines.append(f"from your rules folder: {e.source}")
        elif e is not None and e.where != BUILT_IN:
            lines.append(f"from {e.source}")
        if self.note:
            lines.append(self.note)
        return Text("\n".join(lines))

    def _check_rulesets(self) -> None:
        """Once, after the first ruleset loaded: load the others not built in, in a thread, and
        list those that do not load as broken (with their first error under the list when picked)."""
        from ..rulesets import BUILT_IN, check

        if getattr(self, "_checking", False):
            return
        self._checking = True
        todo = [e for e in self.entries if e.where != BUILT_IN]
        if not todo:
            return

        def work():
            for e in todo:
                check(e)
            self.app.call_from_thread(self._checked)

        self.run_worker(work, thread=True, group="check")

    def _checked(self) -> None:
        if still_open(self):
            self.query_one("#ruleset", Choice).set_options(self._ruleset_options())

    def on_descendant_focus(self, event) -> None:
        w = event.widget
        for node in [w, *w.ancestors]:
            sid = getattr(node, "id", None) or ""
            if sid.startswith("tile-") and sid[5:].isdigit():
                if int(sid[5:]) != self._shown and self._rows_for == self.ruleset:
                    self._show_text(int(sid[5:]))
                return

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

    def check_action(self, action: str, parameters) -> bool | None:
        if action == "reroll":  # only for a ruleset with tiles
            return bool(self.keys)
        if action == "rejoin":  # only with a table to rejoin (start_rejoin.py)
            return bool(self.rejoinable)
        if action in ("start", "host"):  # (one key: at a server it hosts the table)
            return bool(self.server) == (action == "host")
        return True

    def action_host(self) -> None:
        self.action_start()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "start-button":
            self.action_start()
        elif event.button.id == "load-button":
            self.app.ask_load(None)
        elif event.button.id == "reroll":
            self.action_reroll()
        elif event.button.id == "join-button":
            self._join()
        else:
            self._rejoin_pressed(event.button.id or "")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        if event.input.id == "join-code":
            self._join()
        else:
            self.action_start()

    def seat_specs(self) -> list:
        n = self.query_one("#players", Choice).value
        out = []
        for i in range(n):
            name = self.query_one(f"#name-{i}", Input).value.strip() or f"Player {i + 1}"
            out.append(SeatSpec(name, self.query_one(f"#kind-{i}", Choice).value))
        return out

    def action_start(self) -> None:
        from ...interpreter.engine.records import MAX_NAME, NEW_SEED
        from ...interpreter.errors import JuxError

        err = self.query_one("#start-error", Static)
        if self.rules is None or self.query_one("#start-button", Button).disabled:
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
        if self.server:
            return self._host(seats)
        try:
            self.app.start_game(self.rules, seats, seed)
        except JuxError as e:
            err.update(Text(str(e)))
