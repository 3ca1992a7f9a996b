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
        from ..session import rulesets

        self.rulesets = rulesets()
        self.ruleset = ruleset if ruleset in self.rulesets else (
            "capital_jux" if "capital_jux" in self.rulesets else (self.rulesets[0] if self.rulesets else None))
        self.seats = seats or []
        self.rules = None

    def compose(self):
        from interpreter.bots import bot_names

        kinds = [("human", HUMAN)] + [(f"bot: {b}", b) for b in bot_names()]
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
                for i in range(8):
                    seat = self.seats[i] if i < len(self.seats) else SeatSpec(
                        f"Player {i + 1}", HUMAN if i == 0 else (bot_names()[0] if bot_names() else HUMAN))
                    with Horizontal(classes="row seat", id=f"seat-{i}"):
                        yield Label(f"Seat {i + 1}", classes="label")
                        yield Input(value=seat.name, id=f"name-{i}", classes="name")
                        yield Select(kinds, value=seat.kind if seat.kind in dict(kinds).values() else HUMAN,
                                     allow_blank=False, id=f"kind-{i}", classes="kind")
            with Horizontal(classes="row"):
                yield Label("Seed", classes="label")
                yield Input(placeholder="random", id="seed", classes="name")
            with Horizontal(classes="row"):
                yield Button("Start (ctrl+s)", id="start-button", variant="primary")
                yield Button("Load a game", id="load-button")
            yield Static("", id="start-error")
        yield Footer()

    def on_mount(self) -> None:
        self._load_rules(self.ruleset)
        if self.seats:
            self._set_players(len(self.seats))
        self.query_one("#players", Select).focus()

    def _load_rules(self, name) -> None:
        from interpreter.engine import load_ruleset
        from interpreter.errors import JuxError

        err = self.query_one("#start-error", Static)
        info = self.query_one("#ruleset-info", Static)
        self.rules = None
        if name is None:
            err.update("No ruleset found under rules/.")
            return
        try:
            self.rules = load_ruleset(name)
        except JuxError as e:
            err.update(f"{name} does not load:\n{e}")
            info.update("")
            self.query_one("#start-button", Button).disabled = True
            return
        err.update("")
        self.query_one("#start-button", Button).disabled = False
        r = self.rules
        info.update(f"{r.title}: {r.min_players} to {r.max_players} players")
        players = self.query_one("#players", Select)
        current = players.value if isinstance(players.value, int) else 2
        players.set_options([(str(n), n) for n in range(r.min_players, r.max_players + 1)])
        self._set_players(min(max(current, r.min_players), r.max_players))

    def _set_players(self, n: int) -> None:
        sel = self.query_one("#players", Select)
        if self.rules is not None:
            n = min(max(n, self.rules.min_players), self.rules.max_players)
        if sel.value != n:
            sel.value = n
        for i in range(8):
            self.query_one(f"#seat-{i}").display = i < n

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
