"""The game screen: the table (one seat's view), the decision panel and the log.

Bots answer first, each after a short visible delay; then the table waits for a human. With two or
more humans at the keyboard, a pass screen covers the table whenever the keyboard must change
hands, so the table only ever shows the view of the human who is deciding. A table the rules show
(`show`, e.g. at the end of a round) that is new to the seat at the keyboard opens over the game,
and the game (bots too) waits until a key closes it (rules_tables.py). The session may be a server's seat (tui/remote.py)."""
from __future__ import annotations

from rich.markup import escape
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, RichLog, Static

from ..widgets.decision import DecisionPanel
from ..widgets.game_log import GameLog
from ..widgets.table import TableView
from .navigation import Navigation
from .rules_tables import RulesTables
from .status_line import status_line
from .closing import if_open

DEFAULT_DELAY = 0.4


class GameScreen(Navigation, RulesTables, Screen):
    # Help and Quit first: the footer shows as many as fit (80 columns: the first seven or so)
    BINDINGS = [
        Binding("question_mark,f1", "help", "Help"),
        Binding("q", "app.quit", "Quit"),
        Binding("c", "cards", "Cards"),
        Binding("g", "log", "Log"),
        Binding("right_square_bracket", "seat(1)", "Next seat"),
        Binding("left_square_bracket", "seat(-1)", "Previous seat", show=False),
        Binding("f", "scores", "Final scores"),
        Binding("u", "undo", "Undo"),
        Binding("u", "undo_refused", "Undo", show=False),  # when undo is not offered: u says why
        Binding("s", "save", "Save"),
        Binding("l", "load", "Load"),
        Binding("r", "last_table", "Last table"),
        Binding("d", "bot_delay", "Bot delay"),
        Binding("i", "invitation", "Invitation codes"),
        Binding("enter", "enter", "Confirm", show=False),  # from any focus (the table's too)
    ]

    def __init__(self, session, bot_delay: float = 0.0) -> None:
        super().__init__()
        self.session = session
        self.bot_delay = bot_delay
        self._last_delay = bot_delay or DEFAULT_DELAY  # what the delay key turns back on
        humans = session.humans
        self.multi = len(humans) >= 2
        # whose view the table shows: the single human, or (several humans) the one at the keyboard
        self.viewer: int | None = humans[0] if len(humans) == 1 else None
        self.covered = self.multi
        self.pass_screen = None
        self._timer = None
        self._log_viewer = object()
        self._log_count = 0
        self._finished = False
        self._stopped = False
        self.failed = False  # the rules failed on a bot's answer: the game stopped (_bot_plays)
        self._count_seen(humans or [None])

    def compose(self):
        yield Static("", id="status")
        with Horizontal(id="main"):
            with VerticalScroll(id="table-scroll"):
                yield TableView("", id="table")
            with Vertical(id="side"):
                yield DecisionPanel(id="decision")
                yield GameLog(id="log", wrap=True, markup=False, max_lines=2000, min_width=20)
        yield Footer()

    @if_open
    def on_mount(self) -> None:
        self.query_one("#log", RichLog).border_title = "Log"
        from ..tiles import variants_in_use

        scroll = self.query_one("#table-scroll")
        scroll.border_title = escape(self.session.rules.title)
        tiles = [info.title or name for info, name in variants_in_use(self.session.rules)
                 if info is not None and info.fills]
        if tiles:  # the tiles in use (their text: help)
            scroll.border_subtitle = escape("tiles: " + ", ".join(tiles))
        self.session.listen(self._changed)
        if not self.session.local:  # (remote play: a table with a turn timer counts down)
            self.set_interval(1.0, self._tick)
        self.call_after_refresh(self.advance)

    def _changed(self, note: str | None = None) -> None:
        """Remote play: the game changed by itself (note: what the table or the server said)."""
        if note:
            self.notify(note, severity="warning", timeout=6, markup=False)
        if self._stopped:
            return
        self._draw_status()  # (the connection's state, also while a table of the rules is open over it)
        if self._timer is None:
            self.advance()

    # ------------------------------------------------------------ drawing

    def on_game_log_rewrap(self, event) -> None:
        self._log_viewer = object()  # (refresh_table writes the whole log again)
        self.refresh_table()

    def refresh_table(self) -> None:
        g = self.session
        view = None if self.covered else g.view(self.viewer)
        self.query_one(TableView).show(view, g.rules.spec, self.viewer)
        self._draw_status()
        self._refresh_undo_key()
        log = self.query_one("#log", RichLog)
        if self.covered:
            log.clear()
            self._log_viewer = object()
            return
        lines = g.log_lines(self.viewer)
        if self._log_viewer != self.viewer or len(lines) < self._log_count:
            log.clear()
            self._log_viewer = self.viewer
            self._log_count = 0
        if len(lines) > self._log_count:
            from .tables import log_text, tables_of

            tables = {t.get("at"): t for t in tables_of(g, self.viewer)}
            for i in range(self._log_count, len(lines)):
                if i in tables:  # a line each: RichLog scrolls by the entries it was given
                    for part in log_text(tables[i]).split("\n"):
                        log.write(part)
                else:
                    log.write(lines[i])
        self._log_count = len(lines)

    @property
    def watching(self) -> bool:
        """A spectator of a server's table: no seat, nothing to answer."""
        return not self.session.humans and not self.session.local

    def _draw_status(self) -> None:
        self.query_one("#status", Static).update(status_line(self.session, self.viewer, self.covered, self.watching))

    def _tick(self) -> None:
        """Each second: the turn timer's time left counts down on the status line."""
        if self.session.time_left() is not None and not self._stopped:
            self._draw_status()

    # ------------------------------------------------------------ the loop

    def _refresh_undo_key(self) -> None:
        """Redraw the key bar when whether undo is offered may have changed (new answers, another
        game, the table hidden or shown)."""
        key = (self.session.moment, self.covered)
        if key != getattr(self, "_undo_key", None):
            self._undo_key = key
            self.refresh_bindings()

    def advance(self) -> None:
        """Run bots until a human must decide or the game ends, then show that."""
        self._timer = None
        if self._stopped:
            return
        if self._table_open:
            return
        panel = self.query_one(DecisionPanel)
        while True:
            g = self.session
            if g.over:
                self._game_over()
                return
            if self._show_new_table():
                return
            d = self.session.bot_decision()
            if d is None:
                break
            if self.bot_delay > 0:
                self.refresh_table()
                panel.wait(f"{g.names[d.player]} (bot) is thinking…")
                self._timer = self.set_timer(self.bot_delay, self._bot_step)
                return
            if not self._bot_plays(d):
                return
        h = self.session.human_decision(prefer=self.viewer)
        if h is None:  # (remote play: another seat is deciding; locally this cannot happen while the game runs)
            self.refresh_table()
            waiting = ", ".join(g.names[p] for p in sorted({d.player for d in g.pending}))
            if self.watching:  # (a spectator answers nothing)
                return panel.wait(f"You are watching: {waiting} to play." if waiting else "You are watching.")
            return panel.wait(f"Waiting for {waiting}…" if waiting else "Waiting…")
        if self.multi and (self.covered or h.player != self.viewer):
            self._hide_table(h.player)
            return
        self.viewer = h.player
        self.refresh_table()
        if panel.decision is not h:  # (a remote decision still pending is the same object: kept as it is)
            panel.show(h, g.names[h.player])

    def check_action(self, action: str, parameters) -> bool | None:
        """The delay key only with bots at the table; the last-table key once a table was shown;
        undo only when the session would undo now (one human, and nothing learnt since: see
        Session.undo), else u only says why (a key the footer does not show)."""
        if action in ("undo", "undo_refused"):
            offered = self.undo_offered() and not self.failed
            return offered if action == "undo" else not offered
        if action == "bot_delay":
            return bool(self.session.bots)
        if action in ("save", "load"):  # (a server's table is kept by the server)
            return self.session.local
        if action == "invitation":  # the codes of the table this program hosted
            hosted = getattr(self.app, "invitation", None)
            return hosted is not None and hosted.session is self.session
        if action == "last_table":
            return self._tables_seen.get(self.viewer, 0) > 0
        if action == "scores":  # (f: the final scores, once there are some)
            return self.session.over
        if action in ("log", "seat", "cards"):  # (nothing to read while the table is hidden)
            return not self.covered
        return True

    def action_bot_delay(self) -> None:
        """Bots play with a short visible delay, or at once."""
        if self.bot_delay > 0:
            self._last_delay = self.bot_delay
        self.bot_delay = 0.0 if self.bot_delay > 0 else self._last_delay
        self.app.bot_delay = self.bot_delay  # the next game's start screen offers it
        self.notify(f"Bot delay: {self.bot_delay:g} s" if self.bot_delay else "Bot delay: off (bots play at once)",
                    timeout=3)
        if not self.bot_delay and self._timer is not None:  # a bot waiting to play: play now
            self._timer.stop()
            self._timer = None
            self._bot_step()

    def _bot_step(self) -> None:
        self._timer = None
        d = self.session.bot_decision()
        if d is not None and not self._bot_plays(d):
            return
        self.advance()

    def _bot_plays(self, d) -> bool:
        """The bot answers d. When the rules fail on its answer the game cannot go on (the bot
        would answer the same): it stops, back to before that answer, which s saves; False."""
        from ..session import RulesFailed

        try:
            self.session.play_bot(d)
        except RulesFailed as e:
            self.stop()
            self.failed = True
            self.app.rules_failed(str(e), notify=False)
            self.refresh_table()
            self._refresh_undo_key()
            text = str(e)
            self.query_one(DecisionPanel).wait(
                f"{text[:1].upper()}{text[1:]}.\nThe game cannot go on: s saves it as it was before that answer, "
                "q quits.")
            return False
        return True

    def _hide_table(self, seat: int | None) -> None:
        """Hide the table; when seat is known, ask to pass the keyboard to it."""
        self.covered = True
        self.refresh_table()
        self.query_one(DecisionPanel).wait("")
        if self.pass_screen is None:
            from .passing import PassScreen

            self.pass_screen = PassScreen()
            self.app.push_screen(self.pass_screen, self._on_passed)
        if seat is not None:
            self.pass_screen.set_target(seat, self.session.names[seat])

    def _on_passed(self, seat) -> None:
        self.pass_screen = None
        self.viewer = seat
        self.covered = False
        self.refresh_bindings()
        self.advance()

    def _game_over(self) -> None:
        if self._finished:
            return
        self._finished = True
        from .tables import tables_of

        for v in self._tables_seen:  # the final scores show the last table
            self._tables_seen[v] = len(tables_of(self.session, v))
        self.refresh_bindings()
        if self.pass_screen is not None:
            ps, self.pass_screen = self.pass_screen, None
            ps.dismiss(None)
        self.covered = False
        self.refresh_table()
        self.query_one(DecisionPanel).wait("The game is over. f: final scores, n: new game")
        self.app.game_over(self.session)

    def on_decision_panel_answered(self, event: DecisionPanel.Answered) -> None:
        from ...interpreter.errors import IllegalAnswer
        from ..session import RulesFailed

        try:
            self.session.answer(event.decision, event.choice)
        except IllegalAnswer as e:
            self.notify(str(e), severity="error", markup=False)
            self.advance()
            return
        except RulesFailed as e:  # the game is back before this answer: the player chooses again
            self.app.rules_failed(str(e), "The game is back to before that answer: choose again.")
            self.advance()
            return
        if self.multi and not any(d.player == self.viewer for d in self.session.pending) and not self.session.over:
            self._hide_table(None)  # the keyboard changes hands: hide this player's table at once
        self.advance()

    def on_key(self, event) -> None:
        ch = event.character
        if ch and len(ch) == 1 and ch in "0123456789" and not self.covered:  # 0: decline
            event.stop()
            self.query_one(DecisionPanel).pick_number(int(ch))

    # ------------------------------------------------------------ actions

    def action_scores(self) -> None:
        if self.session.over:
            self.app.game_over(self.session)

    def key_n(self) -> None:
        """New game (once the game is over)."""
        if self.session.over and (self.session.local or getattr(self.app, "server", None)):
            self.app.new_game()

    def undo_offered(self) -> bool:
        return not self.covered and self.session.undo_refusal() is None

    def action_undo_refused(self) -> None:
        if self.covered:
            return
        why = ("The game stopped: the rules failed on a bot's answer." if self.failed
               else self.session.undo_refusal() or "Undo is not offered here.")
        self.notify(why, severity="warning", timeout=6, markup=False)

    def action_undo(self) -> None:
        """Take back the human's last decision (one human at the table), if nothing was revealed since."""
        from ..session import UndoRefused

        if self.covered:
            return
        try:
            taken = self.session.undo()
        except UndoRefused as e:
            self.notify(str(e), severity="warning", timeout=6, markup=False)
            return
        if self._timer is not None:  # a bot was about to answer in the game just taken back
            self._timer.stop()
            self._timer = None
        self._finished = False
        others = taken - 1
        self.notify("Your last decision is taken back" +
                    (f" (and {others} answer{'s' if others != 1 else ''} of the bots after it)." if others else "."))
        self.advance()

    def action_help(self) -> None:
        from .help import HelpScreen

        self.app.push_screen(HelpScreen(self.session.rules))

    def action_cards(self) -> None:
        """Read any card the seat at the keyboard can see, in full (screens/cards.py)."""
        from .cards import CardsScreen, highlighted_values

        if not self.covered:
            first = highlighted_values(self.query_one(DecisionPanel))  # the highlighted option's cards first
            self.app.push_screen(CardsScreen(self.session, self.viewer, first))

    def action_invitation(self) -> None:
        """The codes of the table hosted here, again (to pass on)."""
        from .invitation import InvitationScreen

        self.app.push_screen(InvitationScreen(self.app.invitation))

    def action_save(self) -> None:
        self.app.ask_save(self.session)

    def action_load(self) -> None:
        self.app.ask_load(self.session)

    def on_unmount(self) -> None:
        self.session.listen(None)  # (remote play: the connection ends with the screen)
        self.stop()

    def stop(self) -> None:
        self._stopped = True
        if self._timer is not None:
            self._timer.stop()
            self._timer = None
