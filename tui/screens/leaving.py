"""Quitting (q, ctrl+q: the app's action_quit). A finished game quits at once, as does a spectator.
A local game with moves not saved asks first. A seat of a server's table asks first, and the
question says how to come back (its code with `jux join`, or Rejoin on the start screen) and what
the table does meanwhile: its away rule and turn timer as the server gave them in `welcome`
(docs/protocol.md): a stand-in bot plays the seat, or the table waits. No knowledge of any game."""
from __future__ import annotations

from .dialogs import ConfirmScreen
from .closing import if_open


class LeaveScreen(ConfirmScreen):
    """The question before leaving a server's table: wide enough for the command that comes back
    (jux.tcss sizes dialogs, and the app's stylesheet outranks a screen's default CSS: set here)."""

    @if_open
    def on_mount(self) -> None:
        super().on_mount()
        box = self.query_one(".dialog")
        box.styles.width = 80
        box.styles.padding = (1, 1)


def leave(app) -> None:
    """What q and ctrl+q do (JuxApp.action_quit)."""
    session = app.session
    if session is None or session.over:  # (a finished game has nothing to lose)
        app.exit()
        return
    if session.local:
        if session.dirty:
            _ask(app, ConfirmScreen("This game is not saved. Quit anyway?"))
        else:
            app.exit()
        return
    if session.seat is None or not _shown(app, session):  # (a spectator leaves nothing behind)
        app.exit()
        return
    _ask(app, LeaveScreen(leaving_text(session), yes="Leave", no="Stay"))


def _ask(app, screen) -> None:
    if isinstance(app.screen, ConfirmScreen):
        return  # (a question is up already)

    def done(yes):
        if yes:
            app.exit()

    app.push_screen(screen, done)


def _shown(app, session) -> bool:
    from .game import GameScreen

    return any(isinstance(s, GameScreen) and s.session is session for s in app.screen_stack)


def leaving_text(session) -> str:
    """The question: how to come back to this seat, and what the table does without its player."""
    names = session.names
    seat = session.seat
    who = f"{names[seat]}, seat {seat + 1}" if 0 <= seat < len(names) else f"seat {seat + 1}"
    return (f"Leave the table? Your seat ({who}) stays yours: come back with\n"
            f"jux join {session.client.code} --server {session.url}\n"
            "or Rejoin on the start screen of jux play.\n\n"
            f"Meanwhile {meanwhile(getattr(session, 'welcome', None) or {})}")


def meanwhile(welcome: dict) -> str:
    """What the server does with a seat whose player is away, from the table's options."""
    timer, away = _seconds(welcome.get("timer")), _seconds(welcome.get("away"))
    bot = str(welcome.get("stand_in") or "greedy")
    if away and timer:
        return (f"a bot ({bot}) answers each of your decisions after {timer}, and every one once you "
                f"have been away {away}, until you come back.")
    if away:
        return f"once you have been away {away}, a bot ({bot}) plays your seat until you come back."
    if timer:
        return (f"the table waits up to {timer} for each of your decisions; then a bot ({bot}) "
                "answers it, until you come back.")
    return ("the table waits for you: it has no away rule and no turn timer, so no bot plays your "
            "seat and the game does not go on without you.")


def _seconds(v) -> str | None:
    """'90 seconds', '5 minutes', '1 minute 30 seconds'; None when there is no such limit."""
    if not isinstance(v, (int, float)) or isinstance(v, bool) or v <= 0:
        return None
    s = round(v)
    if s < 60:
        return f"{v:g} second{'s' if v != 1 else ''}"
    m, s = divmod(s, 60)
    parts = [f"{m} minute{'s' if m != 1 else ''}"] + ([f"{s} second{'s' if s != 1 else ''}"] if s else [])
    return " ".join(parts)


__all__ = ["leave", "leaving_text", "meanwhile", "LeaveScreen"]
