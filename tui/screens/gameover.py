"""Game over: final scores with the tie-break values (a column each, headed by what it counts), the
winner(s), and the last table the rules showed; every table fits the screen's width (FittedTable)."""
from __future__ import annotations

from rich.text import Text
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, Static

from .closing import ClosesOnce, if_open
from .tables import FittedTable


def tiebreak_headings(game) -> list:
    """A heading for each tie-break value: the ruleset's label ("aces", "coins"), else "tie-break"
    (numbered when there are several)."""
    ties = game.tiebreaks()
    count = max([len(t) for t in ties] + [0])
    labels = list(getattr(game, "tiebreak_labels", lambda: [])())[:count]
    labels += [""] * (count - len(labels))
    return [label or ("tie-break" if count == 1 else f"tie-break {i + 1}") for i, label in enumerate(labels)]


def scores_rows(game) -> dict:
    """The final scores as a table: seat, player, score, each tie-break value, the winner's mark;
    the best first (game.ranking: by score in the winning direction, then by the tie-breaks)."""
    ties = game.tiebreaks()
    winners = set(game.winners)
    heads = tiebreak_headings(game)
    rows = []
    for p in _order(game):
        t = [str(v) for v in ties[p]] + [""] * (len(heads) - len(ties[p]))
        rows.append([str(p + 1), str(game.names[p]), str(game.scores[p])] + t + ["★" if p in winners else ""])
    score = "score (lowest wins)" if _lowest(game) else "score"
    return {"title": "Final scores", "columns": ["seat", "player", score] + heads + ["winner"], "rows": rows}


def _order(game) -> list:
    """The seats as the final scores list them: the best first."""
    ranking = getattr(game, "ranking", None)
    return ranking() if ranking is not None else list(range(len(game.names)))


def _lowest(game) -> bool:
    return bool(getattr(game.rules, "lowest_wins", False))


def scores_table(game) -> FittedTable:
    """The final scores, the winners' rows in bold."""
    order = _order(game)
    return FittedTable(scores_rows(game), bold=[order.index(p) for p in game.winners])


def verdict(game) -> str:
    w = game.winners
    names = [game.names[p] for p in w]
    lowest = " (the lowest score wins)" if _lowest(game) else ""
    if len(w) == 1:
        return f"{names[0]} wins with {game.scores[w[0]]}{lowest}."
    return f"Complete tie between {', '.join(names)} with {game.scores[w[0]]}{lowest}."


def tiebreak_note(game) -> str:
    """How ties on score are broken, in the ruleset's words ("" without a tie-break)."""
    heads = tiebreak_headings(game)
    labels = list(getattr(game, "tiebreak_labels", lambda: [])())
    if not heads:
        return ""
    low = bool(getattr(game.rules, "lowest_tiebreak_wins", False))
    lowest = list(getattr(game, "tiebreak_lowest", lambda: [])())[:len(heads)]
    lowest += [low] * (len(heads) - len(lowest))  # (each value's way: its entry's, else the ruleset's)
    if len(labels) < len(heads) or not all(labels):
        values = "lowest" if low else "best"
        if len(set(lowest)) > 1:
            values = "better"  # (some the lowest, some the highest)
        return f"A tie on score goes to the {values} tie-break values, compared in order."
    if len(set(lowest)) > 1:  # each in its way
        ways = [f"{'fewest' if w else 'most'} {h}" for h, w in zip(heads, lowest)]
        return f"A tie on score goes to the {ways[0]}, then the {', then the '.join(ways[1:])}."
    most = "fewest" if lowest[0] else "most"
    if len(heads) == 1:
        return f"A tie on score goes to the {most} {heads[0]}."
    return f"A tie on score goes to the {most} {heads[0]}, then {', '.join(heads[1:])}, in order."


class GameOverScreen(ClosesOnce, Screen):
    DEFAULT_CSS = "#last-table { margin-top: 1; }"
    BINDINGS = [
        Binding("n", "new_game", "New game"),
        Binding("f,escape", "table", "Final table"),  # (f: the final scores, from the table too)
        Binding("s", "save", "Save record"),
        Binding("q", "app.quit", "Quit"),
    ]

    def __init__(self, session) -> None:
        super().__init__()
        self.session = session

    def compose(self):
        g = self.session
        with VerticalScroll(id="gameover"):
            yield Static(Text(f"{g.rules.title}: game over", style="bold"), id="gameover-title")
            yield Static(scores_table(g), id="scores")
            yield Static(Text(verdict(g), style="bold"), id="verdict")
            yield Static(Text(tiebreak_note(g), style="dim"))
            last = self._last_table()
            if last is not None:  # the last table the rules showed (a round's end, say)
                yield Static(FittedTable(last), id="last-table")
        yield Footer()

    @if_open
    def on_mount(self) -> None:
        self.watch(self.query_one("#gameover"), "show_vertical_scrollbar", self._say_more)

    def _say_more(self, scrolls: bool) -> None:
        """A screen taller than the terminal says so on its first line (beside its scroll bar)."""
        title = Text(f"{self.session.rules.title}: game over", style="bold")
        if scrolls:
            title.append("   ↓ PgDn End: more below", style="dim")
        self.query_one("#gameover-title", Static).update(title)

    def _last_table(self):
        """The last table the rules showed, as the seat at the keyboard (or everyone) may read it."""
        from .tables import tables_of

        humans = self.session.humans
        tables = tables_of(self.session, humans[0] if len(humans) == 1 else None)
        return tables[-1] if tables else None

    def check_action(self, action: str, parameters) -> bool | None:
        """A server's table offers no save here, and a new game only at the start screen of
        `jux play --server` (not after `jux join`)."""
        if action in ("new_game", "save"):
            local = bool(getattr(self.session, "local", True))
            return local or (action == "new_game" and bool(getattr(self.app, "server", None)))
        return True

    def action_new_game(self) -> None:
        self.app.new_game()

    def action_table(self) -> None:
        self.dismiss(None)

    def action_save(self) -> None:
        self.app.ask_save(self.session)
