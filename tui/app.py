"""JuxApp: the Textual app that plays any ruleset, humans at one keyboard and bots.

    jux play                      the start screen: ruleset, players, a name and human/bot per seat
    jux play RULESET --seat human --seat random ...   straight to the table
    jux play RULESET --tiles a,b                       with those variants (tiles)
    jux play PATH                 a ruleset from any folder (offered on the start screen too)
    jux play --server URL         the start screen hosts a table at that server, or joins one with a code
"""
from __future__ import annotations

from pathlib import Path
import sys

from textual import events
from textual.app import App
from textual.binding import Binding

from .session import SeatSpec, Session


class JuxApp(App):
    CSS_PATH = "jux.tcss"
    TITLE = "jux"
    # Textual's command palette (ctrl+p) offers nothing jux needs, and its list crashed on PageUp
    # while it filled (found by tests/test_tui_keystorm.py)
    ENABLE_COMMAND_PALETTE = False
    BINDINGS = [Binding("ctrl+q", "quit", "Quit", priority=True, show=False)]

    def __init__(self, ruleset: str | None = None, seats: list | None = None, seed: int | None = None,
                 bot_delay: float = 0.4, load: str | None = None, tiles=None, session: Session | None = None,
                 paths=(), server: str | None = None) -> None:
        """seats: SeatSpecs (or (name, kind) pairs) to start at once; without them, the start screen.
        tiles: the variants (tiles) to play with: names in a list or separated by commas;
        on the start screen they are the choice offered first. load: a save to open at once;
        session: one already loaded (jux play --load reads it before the screen opens).
        paths: the files the user named (a ruleset folder, tile files), which a save may name.
        server: a server's address (ws://HOST:PORT): the start screen hosts a table there, or joins
        one with a code (screens/start_server.py); seats are then only what it offers first."""
        super().__init__()
        from .rulesets import is_path
        from .tiles import parse_tiles

        self.ruleset = ruleset
        # rulesets named by path: the start screen offers them besides jux's own and the user's
        self.named = [str(ruleset)] if ruleset and is_path(ruleset) else []
        self.tiles = parse_tiles(tiles)
        self.seats = [s if isinstance(s, SeatSpec) else SeatSpec(*s) for s in seats] if seats else None
        self.seed = seed
        self.bot_delay = bot_delay
        self.load_path = load
        self.loaded = session
        self.paths = [str(p) for p in paths or () if p]
        self.session: Session | None = None
        self.server = server
        self.invitation = None  # the codes of the table hosted last (tui/joining.py's Hosted)
        self.failure: str | None = None  # the last failure of the rules' code (tui.run prints it)

    def on_mount(self) -> None:
        if not self.is_headless and sys.__stdin__ is not None and sys.__stdin__.isatty():
            self.set_interval(1.0, self._check_terminal)
        if self.loaded is not None:
            self.show_session(self.loaded)
            return
        if self.load_path:
            if self.load_session(self.load_path):
                return
        if self.seats and not self.server:
            from ..interpreter.engine.ruleset import load_ruleset
            from ..interpreter.errors import JuxError

            try:
                rules = load_ruleset(self.ruleset, self.tiles)
            except JuxError:  # a wrong choice of tiles: the start screen shows why and offers the choice
                self.show_start()
                return
            try:
                self.start_game(rules, self.seats, self.seed)
            except JuxError as e:  # the rules failed before the first decision: nothing to show
                self.failure = str(e)
                self.exit(return_code=1)
        else:
            self.show_start()

    def _check_terminal(self) -> None:
        """End when the terminal is gone without a hangup signal reaching jux (`make play` in a
        terminal closed under it): Textual's input thread would otherwise spin at full speed."""
        if not sys.__stdin__.isatty():
            self.exit(return_code=1)

    # ------------------------------------------------------------ leaving

    @property
    def leaving(self) -> bool:
        """jux is ending (q then y, ctrl+q, a failure): keys typed after that are not acted on,
        and no screen opens (one pushed now would never be composed: 'q', 'y', 's' typed fast
        opened the save dialog on an app that was closing, and crashed it)."""
        return bool(getattr(self, "_exit", False))

    async def on_event(self, event) -> None:
        if self.leaving and isinstance(event, events.Key):
            return
        await super().on_event(event)

    def push_screen(self, screen, callback=None, wait_for_dismiss: bool = False):
        if self.leaving:
            return None
        return super().push_screen(screen, callback, wait_for_dismiss=wait_for_dismiss)

    # ------------------------------------------------------------ screens

    def _clear(self) -> None:
        game = sys.modules.get(f"{__package__}.screens.game")  # none imported yet: no game to stop
        for s in self.screen_stack:
            if game is not None and isinstance(s, game.GameScreen):
                s.stop()
        while len(self.screen_stack) > 1:
            self.pop_screen()

    def show_start(self) -> None:
        from .rulesets import is_path, source_of
        from .screens.start import StartScreen

        self._clear()
        ruleset = source_of(self.session.rules) if self.session else self.ruleset
        seats = self.session.seats if self.session else self.seats
        tiles = list(self.session.rules.variants) if self.session else self.tiles
        named = list(self.named)
        if ruleset and is_path(ruleset) and ruleset not in named:  # (a loaded game's own rules)
            named.append(ruleset)
        self.push_screen(StartScreen(ruleset, seats, tiles, named=named))

    def start_game(self, rules, seats: list, seed: int | None = None) -> None:
        self.show_session(Session(rules, seats, seed))

    def show_session(self, session: Session) -> None:
        from .screens.game import GameScreen

        self._clear()
        self.session = session
        self.push_screen(GameScreen(session, bot_delay=self.bot_delay))

    def rules_failed(self, message: str, then: str = "", notify: bool = True) -> None:
        """The rules' code failed in a game (screens/game.py): said now (unless the screen says
        it), with what happens then, and again, with exit status 1, when jux ends."""
        self.failure = message
        if not notify:
            return
        text = _one_line(f"{message}. {then}" if then else message)
        self.notify(text[:1].upper() + text[1:], severity="error", timeout=30, markup=False)

    def game_over(self, session: Session) -> None:
        from .screens.gameover import GameOverScreen

        self.push_screen(GameOverScreen(session))

    def new_game(self) -> None:
        self.show_start()

    # ------------------------------------------------------------ save, load, quit

    def ask_save(self, session: Session) -> None:
        """Ask where to save: a new file in the saves folder is offered (a name typed without a
        folder goes there too; a path with one, or with ~, goes where it says)."""
        from ..interpreter.errors import JuxError
        from .screens.dialogs import PathScreen

        try:
            default = session.default_path()
        except JuxError as e:  # (a $JUX_DATA_DIR that is no path): the user may still type one
            self.notify(_one_line(f"No saves folder: {e}"), severity="warning", timeout=8, markup=False)
            default = ""

        def done(path):
            if path:
                self.save_session(session, path)

        self.push_screen(PathScreen("Save the game to:", default), done)

    def save_session(self, session: Session, path) -> bool:
        """Save; on failure say why in one line and keep the game as it is."""
        from ..interpreter.errors import JuxError

        try:
            written = session.save(path)
        except (OSError, JuxError, TypeError, ValueError) as e:
            why = str(e) if isinstance(e, JuxError) else f"{path}: {getattr(e, 'strerror', None) or e}"
            self.notify(_one_line(f"Not saved (the game goes on): {why}"), severity="error", timeout=8,
                        markup=False)
            return False
        self.notify(_one_line(f"Saved to {written}"), markup=False)
        self._refresh_game()
        return True

    def ask_load(self, session: Session | None) -> None:
        """The load dialog: the saves folder's saves, newest first, or a path typed. Loading over
        a game with unsaved moves asks first."""
        from ..interpreter.errors import JuxError
        from .saves import list_saves, saves_dir
        from .screens.dialogs import LoadScreen

        try:
            folder = saves_dir()
        except JuxError:
            folder = None
        saves = list_saves(folder) if folder is not None else []

        def done(path):
            if path:
                self.load_over(path)

        self.push_screen(LoadScreen("Load a saved game (or a game record)", saves, folder), done)

    def load_over(self, path) -> bool:
        """Load path in place of the game on screen: read it first (a file that does not load
        changes nothing); when the game on screen has unsaved moves, ask before it is left."""
        from ..interpreter.errors import JuxError
        from .saves import load_target
        from .screens.dialogs import ConfirmScreen

        try:
            target = load_target(path)
        except JuxError as e:  # (a ~name that is no user's)
            self.notify(_one_line(f"Could not load it: {e}"), severity="error", timeout=8, markup=False)
            return False
        session = self._read_session(target)
        if session is None:
            return False
        if not self._unsaved_game_shown():
            self._show_loaded(session, path)
            return True

        def answer(yes):
            if yes:
                self._show_loaded(session, path)

        moves = len(self.session.game.answers) - len(self.session.saved)
        what = "moves that are not saved" if moves != 1 else "a move that is not saved"
        self.push_screen(ConfirmScreen(f"This game has {what}. Load {Path(str(path)).name} "
                                       "and lose them?", yes="Load", no="Cancel"), answer)
        return True

    def _unsaved_game_shown(self) -> bool:
        from .screens.game import GameScreen

        return (self.session is not None and self.session.dirty
                and any(isinstance(s, GameScreen) and s.session is self.session for s in self.screen_stack))

    def load_session(self, path) -> bool:
        """Load a save; on failure tell why and keep the current game."""
        session = self._read_session(path)
        if session is None:
            return False
        self._show_loaded(session, path)
        return True

    def _read_session(self, path) -> Session | None:
        from ..interpreter.errors import JuxError

        kinds = [s.kind for s in self.session.seats] if self.session else (
            [s.kind for s in self.seats] if self.seats else None)
        try:
            return Session.load(path, kinds, paths=self.paths)
        except JuxError as e:  # (the message names the file)
            self.notify(_one_line(f"Could not load it: {e}"), severity="error", timeout=8, markup=False)
            return None

    def _show_loaded(self, session: Session, path) -> None:
        self.show_session(session)
        self.notify(f"Loaded {Path(str(path)).name}", markup=False)

    def _refresh_game(self) -> None:
        from .screens.game import GameScreen

        for s in self.screen_stack:
            if isinstance(s, GameScreen) and not s.covered:
                s.refresh_table()

    async def action_quit(self) -> None:
        from .screens.leaving import leave

        leave(self)


def _one_line(text: str) -> str:
    return " ".join(str(text).split())
