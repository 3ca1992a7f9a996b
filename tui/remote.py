"""RemoteSession: one seat of a server's table (`jux serve`, docs/protocol.md), read through the same
interface as a local Session (tui/session.py), so the screens have one code path for both.

Everything it shows comes from the server's messages for this seat: the view, this seat's pending
decisions, its log and tables, who is connected, the results at the end. The connection
(interpreter/server/client.py, TableClient: it comes back by itself) runs as an asyncio task in the
app's own loop; each new state calls the screen back (listen). An answer is sent and its decision
leaves `pending` at once; the server's next state (or its error, shown to the player) says the rest.
The engine's Game is never imported here: the ruleset is compiled from its name and tiles only for
what every player may read (its spec: how the table is drawn, the cards' texts). No Textual here,
and no knowledge of any game."""
from __future__ import annotations

import asyncio
from dataclasses import dataclass
import time


@dataclass(frozen=True)
class RemoteOption:
    id: int
    label: str
    value: object = None  # (the server sends labels, never the rules' values)
    hint: str | None = None
    group: str | None = None  # the name of its group when the options come in two steps
    cards: tuple = ()  # the ids of the cards it names that this seat knows (the server's `cards`)


class RemoteDecision:
    """A pending decision of this seat as the server sent it (the attributes of the engine's
    Decision that the decision panel reads)."""

    def __init__(self, msg: dict, player: int):
        self.msg = msg
        self.id = msg["id"]  # the server's id of it
        self.player = player
        self.prompt = str(msg.get("prompt", ""))
        self.min, self.max, self.many = msg.get("min", 1), msg.get("max", 1), bool(msg.get("many"))
        self.keys = msg.get("keys")
        self.unavailable = list(msg.get("unavailable") or [])
        self.options = [RemoteOption(o["id"], str(o.get("label", "")), None, o.get("hint"),
                                     str(o["group"]) if o.get("group") is not None else None,
                                     tuple(c for c in o.get("cards") or () if type(c) is int))
                        for o in msg.get("options") or []]
        # the two steps' groups, as the server worked them out from the values (option_rows.groups_of)
        groups: dict = {}
        for i, o in enumerate(self.options):
            if o.group is not None:
                groups.setdefault(o.group, []).append(i)
        self.groups = list(groups.items()) if groups else None

    @property
    def optional(self) -> bool:
        return self.min == 0


class RemoteSession:
    """One seat of a server's table (see the module's text and Session's for the interface)."""

    local = False
    bots: dict = {}  # (the server plays the bots)
    dirty = False
    path = None

    def __init__(self, url: str, code: str, rules, welcome: dict, patience: float = 300.0):
        from ..interpreter.server.client import TableClient

        self.url = url
        self.rules = rules
        self.welcome = dict(welcome)  # (the table's options: what happens to a seat whose player is away)
        self.client = TableClient(url, code, patience=patience)
        self.client.on_drop = self._dropped
        self.seat = welcome.get("seat")
        self._names = list(welcome.get("names") or [])
        self.state: dict | None = None
        self.connected = False
        self.failed: str | None = None
        self.notices: list = []  # what the table said so far
        self._decisions: dict = {}  # server id -> RemoteDecision (the same object while it is pending)
        self._sent: set = set()  # the ids answered, until the server's state no longer lists them
        self._undoing = False  # an undo was sent: this seat's decisions wait for the server's next state
        self._count = 0  # states received (the moment)
        self._timer = (None, 0.0)  # the last state's timer_left, and when it came
        self._callback = None
        self._task = None
        self._tasks: set = set()

    # ------------------------------------------------------------ the connection

    def listen(self, callback) -> None:
        """Start the connection in the running loop (the app's); callback(note) on each change.
        None: stop listening and close the connection (the screen is gone)."""
        self._callback = callback
        if callback is None:
            if self._task is not None:
                self._task.cancel()
                self._task = None
            if self.client.ws is not None:
                ws, self.client.ws = self.client.ws, None
                self._keep(asyncio.get_running_loop().create_task(ws.close()))
            return
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._run())

    async def _run(self) -> None:
        from ..interpreter.errors import JuxError

        try:
            while True:
                msg = await self.client.next()
                if msg.get("type") == "state":
                    news = self._take(msg)
                    self._tell("; ".join(news) or None)
                elif msg.get("type") == "error":
                    self._sent.clear()  # (an answer refused: its decision is offered again)
                    self._undoing = False
                    self._tell(f"The server refused it: {msg.get('message')}")
        except JuxError as e:  # the server stayed away longer than the client waits
            self.failed = str(e)
            self.connected = False
            self._tell(f"Connection lost: {e}")
        except asyncio.CancelledError:
            raise

    def _take(self, msg: dict) -> list:
        """Take a state; the table's notices that are new to this player (a bot stood in for a seat)."""
        notices = [str(n) for n in msg.get("notices") or []]
        if not self.connected:  # (the first state after hello holds every notice so far)
            news, self.notices = notices[len(self.notices):], notices
        else:
            news = notices
            self.notices += notices
        self.state = msg
        self._undoing = False
        self.connected = True
        self.failed = None
        self._count += 1
        self._timer = (msg.get("timer_left"), time.monotonic())  # (counted down from now: time_left)
        self.seat = self.client.seat if self.client.seat is not None else self.seat
        self._names = list(self.client.names or self._names)
        live = {}
        for d in msg.get("decisions") or []:
            old = self._decisions.get(d.get("id"))
            live[d["id"]] = old if old is not None and old.msg == d else RemoteDecision(d, self.seat)
        self._decisions = live
        self._sent &= set(live)
        return news

    def _dropped(self) -> None:
        self.connected = False
        self._sent.clear()
        self._tell(None)

    def _tell(self, note) -> None:
        if self._callback is not None:
            self._callback(note)

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
        await self.client.close()

    # ------------------------------------------------------------ what the screens read

    @property
    def names(self) -> list:
        return list(self._names)

    @property
    def humans(self) -> list:
        return [self.seat] if self.seat is not None else []

    @property
    def seats(self) -> list:
        from .session import HUMAN, SeatSpec

        seats = (self.state or {}).get("seats") or [{"name": n, "bot": False} for n in self._names]
        return [SeatSpec(s.get("name", ""), "bot" if s.get("bot") else HUMAN) for s in seats]

    def _view(self) -> dict:
        return (self.state or {}).get("view") or {}

    def view(self, viewer):
        if self.state is None:
            return None
        return dict(self._view(), log=self.log_lines(viewer))

    @property
    def pending(self) -> list:
        """This seat's decisions not answered yet, then the others' (seat only: who is deciding)."""
        mine = [d for i, d in self._decisions.items() if i not in self._sent and not self._undoing]
        others = [_Waiting(p) for p in self._view().get("waiting_for") or [] if p != self.seat]
        return mine + others

    @property
    def over(self) -> bool:
        return bool((self.state or {}).get("over"))

    def log_lines(self, viewer) -> list:
        return list(self.client.log)

    def tables(self, viewer) -> list:
        return list(self._view().get("tables") or [])

    def read_card(self, c, viewer):
        """Card c in full, from this seat's view (only a card it knows is there with its id)."""
        from ..interpreter.engine.card_reading import reading

        for z in self._view().get("zones") or []:
            for info in z.get("cards") or []:
                if info.get("id") == c and not info.get("hidden"):
                    return reading(self.rules, info)
        return None

    def _result(self, key, default):
        return (self.state or {}).get(key, default)

    @property
    def scores(self) -> list:
        return list(self._result("scores", None) or [0] * len(self._names))

    def tiebreaks(self) -> list:
        return self._result("tiebreaks", None) or [[] for _ in self._names]

    def tiebreak_labels(self) -> list:
        return self._result("tiebreak_labels", None) or []

    def tiebreak_lowest(self) -> list:
        return self._result("tiebreak_lowest", None) or []

    @property
    def winners(self) -> list:
        return list(self._result("winners", None) or [])

    def ranking(self) -> list:
        return list(self._result("ranking", None) or range(len(self._names)))

    @property
    def moment(self):
        return (self._count, len(self._sent))

    def status(self) -> str:
        """Who is connected (the others: you are), or that the connection is coming back."""
        if self.failed:
            return "disconnected"
        if not self.connected:
            return "reconnecting…" if self._count else "connecting…"
        seats = (self.state or {}).get("seats") or []
        away = [s.get("name", "") for s in seats if not s.get("connected")]
        if not (self.state or {}).get("started"):
            return "waiting for " + ", ".join(away) if away else "starting"
        return "away: " + ", ".join(away) if away else "all connected"

    def time_left(self) -> float | None:
        """Seconds left for this seat's oldest pending decision (the last state's `timer_left`,
        less the time since it came, never below 0); None: no timer, or nothing to decide."""
        left, at = self._timer
        if not isinstance(left, (int, float)) or isinstance(left, bool) or not self.connected:
            return None
        if all(i in self._sent for i in self._decisions):  # (answered: the server's next state says the rest)
            return None
        return max(0.0, float(left) - (time.monotonic() - at))

    # ------------------------------------------------------------ doing

    def bot_decision(self):
        return None  # (the server plays the bots)

    def play_bot(self, d) -> None:
        raise AssertionError("the server plays the bots")

    def human_decision(self, prefer=None):
        mine = [d for d in self.pending if isinstance(d, RemoteDecision)]
        return mine[0] if mine else None

    def answer(self, d, choice) -> None:
        """Send the answer; the decision leaves pending until the server says otherwise."""
        self._sent.add(d.id)
        self._keep(asyncio.get_running_loop().create_task(self.client.answer(d.id, choice)))

    def _keep(self, task) -> None:
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def undo_refusal(self) -> str | None:
        """None when the server offers undo to this seat now (its last state's `undo`), else why not."""
        state = self.state or {}
        if not self.connected:
            return "Undo waits for the connection to the server."
        if state.get("undo") is True:
            return None
        return str(state.get("undo_refusal") or "Undo is not offered at this table now.")

    def undo(self) -> int:
        """Ask the server to take back this seat's last answer (and the bots' after it); the
        server's next state is the rewound game. Returns 1 (the seat's answer)."""
        from .session import UndoRefused

        why = self.undo_refusal()
        if why:
            raise UndoRefused(why)
        self.state = dict(self.state, undo=False, undo_refusal="Undo is on its way to the server.")
        self._undoing = True
        self._keep(asyncio.get_running_loop().create_task(self.client.undo()))
        return 1


class _Waiting:
    """Another seat that is deciding (the screen shows who the table waits for; nothing more)."""

    def __init__(self, player: int):
        self.player = player


__all__ = ["RemoteSession", "RemoteDecision"]
