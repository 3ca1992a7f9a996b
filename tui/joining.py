"""Joining a server's table from the terminal UI: with a code (a seat's or the spectator code), or by
making the table first (`create`, docs/protocol.md) and joining the host's own seat. Each function
blocks on the network (the start screen runs it in a thread; `jux join` before the screen opens)
and says what went wrong in one line (JuxError). No Textual here, and no knowledge of any game."""
from __future__ import annotations

from dataclasses import dataclass

from ..interpreter.errors import JuxError

MAX_TIMER = 86400  # seconds: the protocol's bound on a table's turn timer


@dataclass(frozen=True)
class Hosted:
    """A table made at a server: its id, the codes of its human seats ({seat: code}), the spectator
    code, the seats' names, the server, and the session of the host's own seat (None when joining it
    failed: failed says why, and every code is shown, the host's too)."""
    table: str
    codes: dict
    spectate: str
    names: list
    url: str
    session: object
    failed: str | None = None

    @property
    def seat(self):
        return None if self.session is None else self.session.seat

    @property
    def own_code(self) -> str:
        """The host's own code: the first human seat's."""
        return self.codes[min(self.codes)] if self.codes else ""


def table_rules(welcome: dict, rules_path=None):
    """The table's ruleset with its tiles (welcome's `ruleset` and `tiles`), compiled here only to
    draw the table and read cards' texts; rules_path: its files when it is not one of jux's own."""
    from ..interpreter.engine.ruleset import load_ruleset

    name, tiles = str(welcome.get("ruleset")), [str(t) for t in welcome.get("tiles") or []]
    try:
        return load_ruleset(rules_path or name, tiles)
    except JuxError as e:
        raise JuxError(f"cannot read the table's ruleset '{name}' here ({e})") from None


def join(url: str, code: str, rules=None, rules_path=None, keep: bool = True):
    """A RemoteSession of the table of this code (a seat's, or the spectator code: seat None).
    rules: the table's ruleset compiled already (the host's); else it is compiled from welcome.
    keep: a seat's table is kept in the list of known tables (the start screen offers to rejoin it)."""
    from ..interpreter.server.client import request
    from .remote import RemoteSession

    code = code.strip()
    if not code:
        raise JuxError("type a table's code (a seat's invitation code or the spectator code)")
    welcome = request(url, "hello", "welcome", code=code)  # a bad code: one line, now
    if rules is None:
        rules = table_rules(welcome, rules_path)
    session = RemoteSession(url, code, rules, welcome)
    if keep and session.seat is not None:
        _keep(url, code, welcome, rules)
    return session


def _keep(url: str, code: str, welcome: dict, rules, **hosted) -> None:
    """Keep the table in the known tables (tui/known_tables.py; a failure to write is not the game's)."""
    from .known_tables import KnownTable, remember

    seat = welcome.get("seat")
    remember(KnownTable(url=url, code=code, table=str(welcome.get("table") or ""),
                        seat=seat if isinstance(seat, int) else None,
                        names=[str(n) for n in welcome.get("names") or []],
                        ruleset=str(getattr(rules, "title", "") or welcome.get("ruleset") or ""), **hosted))


def timer_seconds(text: str):
    """The turn timer typed on the start screen: None (empty: no timer) or seconds (JuxError)."""
    text = text.strip()
    if not text:
        return None
    try:
        v = float(text)
    except ValueError:
        v = None
    if v is None or v != v or not 0 < v <= MAX_TIMER:
        shown = text if len(text) <= 20 else text[:20] + "…"
        raise JuxError(f"The turn timer is a number of seconds, more than 0 and at most {MAX_TIMER} "
                       f"(empty: none), not '{shown}'.")
    return int(v) if v == int(v) else v


def host(url: str, rules, seats: list, timer=None) -> Hosted:
    """Make a table of these rules (their name and variants) and seats (SeatSpecs: a name, human or a
    bot) at the server, then join the first human seat (the host's)."""
    from ..interpreter.server.client import request
    from .session import HUMAN

    fields = {"ruleset": rules.name, "players": len(seats), "names": [s.name for s in seats],
              "seats": [HUMAN if s.human else s.kind for s in seats], "tiles": list(rules.variants)}
    if timer is not None:
        fields["timer"] = timer
    if not any(s.human for s in seats):
        raise JuxError("A table at a server has at least one human seat.")
    created = request(url, "create", "created", **fields)
    codes = {int(p): str(c) for p, c in (created.get("codes") or {}).items()}
    session, failed = None, None
    try:
        session = join(url, codes[min(codes)], rules=rules, keep=False)
    except JuxError as e:  # (the table is made: its codes must not be lost with the error)
        failed = str(e)
    made = Hosted(str(created.get("table")), codes, str(created.get("spectate")),
                  [s.name for s in seats], url, session, failed)
    _keep(url, codes[min(codes)], {"table": made.table, "seat": min(codes), "names": made.names}, rules,
          hosted=True, codes=dict(codes), spectate=made.spectate)  # (also when joining failed: to try again)
    return made


__all__ = ["Hosted", "host", "join", "table_rules", "timer_seconds"]
