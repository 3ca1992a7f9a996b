"""The start screen: ruleset, number of players, and per seat a name and human or bot."""
from __future__ import annotations

from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import Button, Footer, Input, Label, Select, Static

from ..session import HUMAN, SeatSpec


class StartScreen(Screen):
    BINDINGS = [Binding("ctrl+s", "start", "Start"), Binding("escape", "app.quit", "Quit")]

    def __init__(self, ruleset: str | None = None, seats: list | None = None) -> None:
        super().__init__()
        from interpreter.errors import JuxError
        from interpreter.loader import default_ruleset

        from ..session import rulesets

        self.rulesets = rulesets()
        try:
            default = default_ruleset()
        except JuxError:
            default = None
        self.ruleset = ruleset if ruleset in self.rulesets else (
            default if default in self.rulesets else (self.rulesets[0] if self.rulesets else None))
        self.seats = seats or []
        self.rules = None
        self._first = True  # the first ruleset loaded takes the player count of the seats given

    def compose(self):
        with VerticalScroll(id="start"):
            yield Static("jux: a new game", id="start-title")
            with Horizontal(classes="row"):
                yield Label("Ruleset", classes="label")
                yield Select([(r, r) for r in self.rulesets], value=self.ruleset, allow_blank=False,
                             id="ruleset")
            yield Static("", id="ruleset-info")
            with Horizontal(classes="row"):
                yield Label("Players", classes="label")
                yield Select([(str(n), n) for n in range(1, 9)], value=2, allow_blank=False, id="players")
            with Vertical(id="seats"):
                for i in range(max(2, len(self.seats))):
                    yield self._seat_row(i)
            with Horizontal(classes="row"):
                yield Label("Seed", classes="label")
                yield Input(placeholder="random", id="seed", classes="name")
            with Horizontal(classes="row"):
                yield Button("Start (ctrl+s)", id="start-button", variant="primary")
                yield Button("Load a game", id="load-button")
            yield Static("", id="start-error")
        yield Footer()

    def _seat_row(self, i: int) -> Horizontal:
        """Seat i's row (a name and human or bot); rows are made only as the player count needs them."""
        from interpreter.bots import bot_level, bot_names

        bots = bot_names()
        kinds = [("human", HUMAN)] + [(f"bot: {bot_level(b)} ({b})" if bot_level(b) else f"bot: {b}", b)
                                      for b in bots]
        seat = self.seats[i] if i < len(self.seats) else SeatSpec(
            f"Player {i + 1}", HUMAN if i == 0 else (bots[0] if bots else HUMAN))
        return Horizontal(
            Label(f"Seat {i + 1}", classes="label"),
            Input(value=seat.name, id=f"name-{i}", classes="name"),
            Select(kinds, value=seat.kind if seat.kind in dict(kinds).values() else HUMAN,
                   allow_blank=False, id=f"kind-{i}", classes="kind"),
            classes="row seat", id=f"seat-{i}")

    def on_mount(self) -> None:
        self.query_one("#players", Select).focus()
        self.query_one("#start-button", Button).disabled = True
        self._load_rules(self.ruleset)

    def _load_rules(self, name) -> None:
        """Load (parse, check, compile) a ruleset in a thread: the screen shows and answers meanwhile."""
        self.rules = None
        self.query_one("#start-button", Button).disabled = True
        if name is None:
            self.query_one("#start-error", Static).update("No ruleset found under rules/.")
            return
        self.query_one("#ruleset-info", Static).update(f"loading {name}…")
        self.run_worker(lambda: self._load_in_thread(name), thread=True, exclusive=True, group="load")

    def _load_in_thread(self, name) -> None:
        from interpreter.engine import load_ruleset
        from interpreter.errors import JuxError

        try:
            rules, error = load_ruleset(name), None
        except JuxError as e:
            rules, error = None, e
        self.app.call_from_thread(self._loaded, name, rules, error)

    def _loaded(self, name, rules, error) -> None:
        if name != self.ruleset or not self.is_attached:
            return  # another ruleset was picked meanwhile
        err = self.query_one("#start-error", Static)
        info = self.query_one("#ruleset-info", Static)
        if error is not None:
            err.update(f"{name} does not load:\n{error}")
            info.update("")
            return
        self.rules = r = rules
        err.update("")
        self.query_one("#start-button", Button).disabled = False
        info.update(f"{r.title}: {r.min_players} to {r.max_players} players")
        players = self.query_one("#players", Select)
        current = len(self.seats) if self.seats and self._first else (
            players.value if isinstance(players.value, int) else 2)
        self._first = False
        players.set_options([(str(n), n) for n in range(r.min_players, r.max_players + 1)])
        self._set_players(min(max(current, r.min_players), r.max_players))

    def _set_players(self, n: int) -> None:
        sel = self.query_one("#players", Select)
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

    def on_select_changed(self, event: Select.Changed) -> None:
        if event.select.id == "ruleset" and event.value != self.ruleset and isinstance(event.value, str):
            self.ruleset = event.value
            self._load_rules(event.value)
        elif event.select.id == "players" and isinstance(event.value, int):
            self._set_players(event.value)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "start-button":
            self.action_start()
        elif event.button.id == "load-button":
            self.app.ask_load(None)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.action_start()

    def seat_specs(self) -> list:
        n = self.query_one("#players", Select).value
        out = []
        for i in range(n):
            name = self.query_one(f"#name-{i}", Input).value.strip() or f"Player {i + 1}"
            out.append(SeatSpec(name, self.query_one(f"#kind-{i}", Select).value))
        return out

    def action_start(self) -> None:
        from interpreter.errors import JuxError

        err = self.query_one("#start-error", Static)
        if self.rules is None:
            return
        seed_text = self.query_one("#seed", Input).value.strip()
        try:
            seed = int(seed_text) if seed_text else None
        except ValueError:
            err.update(f"The seed must be a whole number, not '{seed_text}'.")
            return
        seats = self.seat_specs()
        names = [s.name for s in seats]
        if len(set(names)) != len(names):
            err.update("Give each seat its own name.")
            return
        try:
            self.app.start_game(self.rules, seats, seed)
        except JuxError as e:
            err.update(str(e))
