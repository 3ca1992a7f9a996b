"""Game over: final scores with the tie-break values, the winner(s), and the last table the rules showed."""
from __future__ import annotations

from rich.table import Table
from rich.text import Text
from textual.binding import Binding
from textual.containers import ScrollableContainer, VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, Static


def scores_table(game) -> Table:
    scores = game.scores
    ties = game.tiebreaks()
    winners = set(game.winners)
    t = Table(title="Final scores", title_justify="left", expand=False)
    t.add_column("Seat", justify="right")
    t.add_column("Player")
    t.add_column("Score", justify="right")
    if any(ties):
        t.add_column("Tie-break")
    t.add_column("")
    for p, name in enumerate(game.names):
        row = [str(p + 1), Text(name), str(scores[p])]  # (a name is never markup)
        if any(ties):
            row.append(" ".join(map(str, ties[p])))
        row.append("★ winner" if p in winners else "")
        t.add_row(*row, style="bold" if p in winners else "")
    return t


def verdict(game) -> str:
    w = game.winners
    names = [game.names[p] for p in w]
    if len(w) == 1:
        return f"{names[0]} wins with {game.scores[w[0]]}."
    return f"Complete tie between {', '.join(names)} with {game.scores[w[0]]}."


class GameOverScreen(Screen):
    BINDINGS = [
        Binding("n", "new_game", "New game"),
        Binding("t,escape", "table", "Final table"),
        Binding("s", "save", "Save record"),
        Binding("q", "app.quit", "Quit"),
    ]

    def __init__(self, session) -> None:
        super().__init__()
        self.session = session

    def compose(self):
        g = self.session.game
        with VerticalScroll(id="gameover"):
            yield Static(Text(f"{g.rules.title}: game over", style="bold"))
            yield Static(scores_table(g), id="scores")
            yield Static(Text(verdict(g), style="bold"), id="verdict")
            yield Static(Text("Tie-break: the ruleset's tie-break values, compared in order.", style="dim")
                         if any(g.tiebreaks()) else "")
            last = self._last_table()
            if last is not None:  # the last table the rules showed (a round's end, say)
                from .tables import rich_table

                from rich.measure import Measurement

                table = rich_table(last)
                shown = Static(table, id="last-table")
                # the table wraps its cells to the screen's width, down to its narrowest; a table
                # wider than that scrolls sideways
                console = self.app.console
                shown.styles.min_width = Measurement.get(console, console.options, table).minimum
                with ScrollableContainer(id="last-table-box"):
                    yield shown
        yield Footer()

    def _last_table(self):
        """The last table the rules showed, as the seat at the keyboard (or everyone) may read it."""
        from .tables import tables_of

        humans = self.session.humans
        tables = tables_of(self.session.game, humans[0] if len(humans) == 1 else None)
        return tables[-1] if tables else None

    def action_new_game(self) -> None:
        self.app.new_game()

    def action_table(self) -> None:
        self.dismiss(None)

    def action_save(self) -> None:
        self.app.ask_save(self.session)
