"""A table of the server: its Game, its seats (humans by code, bots played on the server), who is
connected, and each connection's seat.

Answers go through `Table.answer`, which checks that the sender's seat owns the decision, that it
is still pending (the server numbers decisions itself, as a replay of the stored answers does: an
id is not used again once answered, unless an undo takes that answer back), that seq is above the
seat's last accepted one (by at most SEQ_STEP: no seq locks a seat out) and that the engine takes the choice;
it then applies it and lets the bots play until a human must answer. Nothing is shown to anyone
before the server stores those answers (app.py); when the store fails, `rebuild` brings the game
back to its last stored answer. `broadcast` sends what each connection may see: a seat its view,
its own pending decisions and its log lines (messages.py), the spectators one public position
(public.py), never the seed nor another seat's decisions.

A table may set a turn timer (`timer`: seconds a human may take over a decision) and an away limit
(`away`: seconds a human seat may stay without a connection): past either, a stand-in bot (`stand_in`,
greedy by default) answers for that seat, until the player answers or comes back; the table says so
in its notices.

Undo (`Table.undo`) is offered at a table where one human plays against bots, to that seat: it
takes back the seat's last answer and the bots' answers after it, under the engine's rule
(engine/undo.py: not when something was shuffled or drawn at random since, nor when the seat saw
a hidden card since). The state just before each of the seat's answers is kept (its random
generator and what each card's knowers are), so the rule needs no replay. Nothing here knows a
game."""
from __future__ import annotations

import time

from ..bots import make_bot, seat_seed
from ..bots.sample import bot_input
from ..engine.game import Game
from ..engine.undo import NOTHING, OVER, learnt_since
from ..errors import IllegalAnswer, JuxError
from ..runtime.state import DECIDE
from .messages import seat_state
from .public import public_state
from .protocol import ProtocolError, message
from .store import FAILED, OPEN, OVER, PLAYING

HUMAN = "human"
STAND_IN = "greedy"  # the stand-in bot of a table that names none (create's stand_in)
MAX_BOT_ANSWERS = 100_000  # answers the bots give in one go before the table is stopped
SEQ_STEP = 1_000_000  # how far above a seat's last seq (0 before its first) its next may be


class Client:
    """One connection: its table and seat (None: a spectator), the log lines it has been sent,
    and its outbox (app.py writes it)."""

    def __init__(self, send=None):
        self.table = None
        self.seat = None
        self.spectator = False
        self.sent_log = 0  # the log events (a spectator: the public log's lines) this connection was sent
        self.sent_notices = 0
        self.log_reset = False  # the game was rewound (undo): its next state carries the whole log
        self.public_log = None  # a spectator: the table's public log it was sent lines of (public.py)
        self.send = send  # send(message dict): queue a message to this connection

    def post(self, public) -> None:
        """A spectator: the table's latest position (public.py), in place of one not sent yet."""
        self.public = public

    @property
    def joined(self) -> bool:
        return self.table is not None


class Table:
    def __init__(self, table_id: str, rules, source: str, tiles: list, seats: list, seed: int,
                 options: dict | None = None, state: str = OPEN):
        self.id = table_id
        self.rules = rules
        self.source = source  # the ruleset as stored (a catalogue name or a --rules path)
        self.tiles = list(tiles)
        self.seats = [dict(s) for s in seats]  # [{"name", "kind"}]: kind "human" or a bot spec
        self.options = dict(options or {})
        self.state = state
        self._seed = seed  # (secret: never sent)
        self.clients: list = []
        self.joined: set = set()  # the human seats that came since the table opened
        self.failure: str | None = None
        self.notices: list = []  # what the table says of its seats (a bot stood in for one), for everyone
        self.gone_since = {p: time.monotonic() for p, s in enumerate(self.seats) if s["kind"] == HUMAN}
        self.stand_ins: dict = {}
        self.public_log: list = []  # the public log's lines (a new list after an undo) ...
        self.public_events = 0  # ... of the game's log events before this one
        self.public = None  # the spectators' latest position (public.py)
        self.ended = None  # when its game ended (time.monotonic())
        self.seq_floor: dict = {}  # seat -> the seq of its last undo (no answer at or below it is taken)
        self._new_game()

    def _new_game(self) -> None:
        self.game = Game.new(self.rules, len(self.seats), self._seed, names=[s["name"] for s in self.seats])
        self.bots = {p: make_bot(s["kind"], seat_seed(self._seed, p)) for p, s in enumerate(self.seats)
                     if s["kind"] != HUMAN}
        self.rows: list = []  # the stored answers: (seat, decision, answer, seq)
        self.last_seq = {p: self.seq_floor.get(p) for p in range(len(self.seats))}
        self._before = None  # (row, rng, knowers) just before the undo seat's last answer
        self._ids: dict = {}  # thread id -> (its decision's list, the server's id of the decision)
        self._next_id = 1
        self.since: dict = {}  # a pending decision's id -> when it came (time.monotonic())
        self._number()

    # ------------------------------------------------------------ decisions' ids

    def _number(self) -> None:
        """Give each newly pending decision the next id (in the order the engine lists them; a
        replay of the same answers gives the same ids)."""
        live = {}
        for t in self.game.state.threads:
            if t[1] == DECIDE:
                known = self._ids.get(t[6])
                if known is not None and known[0] is t[2]:
                    live[t[6]] = known
                else:
                    live[t[6]] = (t[2], self._next_id)
                    self.since[self._next_id] = time.monotonic()
                    self._next_id += 1
        self._ids = live
        if len(self.since) > len(live):
            ids = {v[1] for v in live.values()}
            self.since = {k: v for k, v in self.since.items() if k in ids}

    def decision_id(self, d) -> int:
        return self._ids[d.id][1]

    def _find(self, decision_id: int):
        for d in self.game.pending:
            if self._ids.get(d.id, (None, None))[1] == decision_id:
                return d
        return None

    # ------------------------------------------------------------ seats

    @property
    def humans(self) -> list:
        return [p for p, s in enumerate(self.seats) if s["kind"] == HUMAN]

    def connected(self, seat: int) -> bool:
        return any(c.seat == seat and not c.spectator for c in self.clients)

    def seat_list(self) -> list:
        return [{"name": s["name"], "bot": s["kind"] != HUMAN,
                 "connected": s["kind"] != HUMAN or self.connected(p)} for p, s in enumerate(self.seats)]

    def all_joined(self) -> bool:
        return all(p in self.joined for p in self.humans)

    # ------------------------------------------------------------ answering

    def answer(self, seat, decision_id: int, choice, seq: int) -> list:
        """Apply a human's answer and let the bots play on; the new answers [(seat, decision,
        answer, seq)] to store. ProtocolError, the game unchanged, when it is refused."""
        if seat is None:
            raise ProtocolError("spectator", "a spectator does not answer")
        self.check_playing()
        d = self._find(decision_id)
        if d is None:
            raise ProtocolError("decision_gone", f"decision {decision_id} is not pending (answered, or never was)")
        if d.player != seat:
            raise ProtocolError("not_your_decision", f"decision {decision_id} is another seat's")
        self.check_seq(seat, seq)
        if d.many and type(choice) is not list:
            raise ProtocolError("illegal_answer", f"decision {decision_id} is a choice of several: answer with a "
                                                  "list of option ids")
        before = self._snapshot(seat, seq)
        try:
            self.game.apply(choice, player=seat, decision=d.id)  # (IllegalAnswer changes nothing)
        except IllegalAnswer as e:
            raise ProtocolError("illegal_answer", str(e)) from None
        except JuxError as e:
            self._rules_failed(e)
        rows = [(seat, decision_id, self.game.answers[-1][1], seq)]
        self._before = before if before is not None else self._before
        self._number()
        try:
            rows += self.play_bots()
        except JuxError as e:
            self._rules_failed(e)
        return rows

    def check_seq(self, seat: int, seq: int) -> None:
        """seq must be above the seat's last (stale_seq) by at most SEQ_STEP (bad_seq)."""
        last = self.last_seq[seat]
        if last is not None and seq <= last:
            raise ProtocolError("stale_seq", f"seq {seq} is not above {last}, this seat's last answer's")
        if seq > (last or 0) + SEQ_STEP:
            raise ProtocolError("bad_seq", f"seq {seq} is more than {SEQ_STEP:,} above this seat's last "
                                           f"({last or 0}): a seat's seq goes up by 1 to {SEQ_STEP:,} at a time")

    def _rules_failed(self, e: JuxError):
        """The rules' code failed on an answer: back to the last stored answer, and say so."""
        self.rebuild()
        raise ProtocolError("rules_error", f"the rules failed on this answer ({e}); the game is where it was")

    def check_playing(self) -> None:
        if self.failure:
            raise ProtocolError("table_failed", f"the table stopped: {self.failure}")
        if self.state == OPEN:
            raise ProtocolError("not_started", "the table waits for every human seat to join")
        if self.game.over:
            raise ProtocolError("game_over", "the game is over")

    def play_bots(self) -> list:
        """Let the bots answer until a human must (or the game ends): [(seat, decision, answer, None)]."""
        rows = []
        game = self.game
        while len(rows) < MAX_BOT_ANSWERS:
            d = next((d for d in game.pending if d.player in self.bots), None)
            if d is None:
                return rows
            bot = self.bots[d.player]
            did = self.decision_id(d)
            choice = bot.choose(bot_input(bot, game, d.player), d)
            try:
                game.apply(choice, player=d.player, decision=d.id)
            except IllegalAnswer:  # a faulty bot must not stall the table: the first legal answer
                game.apply(list(range(d.min)) if d.many else (None if d.min == 0 else 0), player=d.player,
                           decision=d.id)
            rows.append((d.player, did, game.answers[-1][1], None))
            self._number()
        raise JuxError(f"the bots gave {MAX_BOT_ANSWERS} answers without a human's turn")

    def committed(self, rows: list) -> None:
        """The answers were stored: they are the table's from now on."""
        self.rows += rows
        for seat, _, _, seq in rows:
            if seq is not None:
                self.last_seq[seat] = max(seq, self.last_seq[seat] or seq)
        if self.game.over:
            self.state = OVER
            self.ended = self.ended or time.monotonic()

    def replay(self, rows: list) -> None:
        """Apply stored answers [(seat, decision, answer, seq)] to the game as they were given
        (JuxError when they do not fit it: other rules, or an edited database)."""
        for i, (seat, decision_id, choice, seq) in enumerate(rows):
            d = self._find(decision_id)
            if d is None or d.player != seat:
                raise JuxError(f"answer {i + 1}: decision {decision_id} of seat {seat + 1} is not pending")
            self._before = self._snapshot(seat, seq) or self._before
            self.game.apply(choice, player=seat, decision=d.id)
            self._number()
            self.committed([(seat, decision_id, choice, seq)])

    def rebuild(self) -> None:
        """Back to the last stored answer (after a store that failed, or rules that failed)."""
        rows = self.rows
        self._new_game()
        self.replay(rows)

    # ------------------------------------------------------------ undo

    def _snapshot(self, seat, seq):
        """What undo's rule needs of the game just before a human's answer of the one human seat
        (seq: it is the human's own, not a stand-in's): (its row's number, the random generator,
        each card's knowers); None for any other answer."""
        if seq is None or self.humans != [seat]:
            return None
        state = self.game.state
        return (len(self.game.answers), state.rng, list(state.k))

    def undo_refusal(self, seat) -> str | None:
        """Why this connection's seat may not undo now (words for the player), or None."""
        if seat is None:
            return "A spectator does not undo."
        if len(self.humans) != 1:
            return "Undo is offered only at a table where one human plays against bots."
        if self.failure:
            return f"The table stopped: {self.failure}"
        if self.state == OPEN:
            return "The game has not started."
        if self.game.over:
            return OVER
        if self._before is None:
            return NOTHING
        state = self.game.state
        return learnt_since(self._before[1:], (state.rng, state.k), seat)

    def undo(self, seat, seq: int) -> int:
        """Check an undo of seat (ProtocolError `undo_refused`, or `stale_seq`, changing nothing):
        the number of the first stored answer it takes back."""
        if seat is not None:
            self.check_seq(seat, seq)
        why = self.undo_refusal(seat)
        if why:
            raise ProtocolError("undo_refused", why)
        return self._before[0]

    def rewound(self, first: int, seat, seq: int) -> None:
        """The undo is stored: the game is replayed from its answers before row first, and every
        connection is sent the whole rewound log next."""
        self.seq_floor[seat] = seq
        self.rows = self.rows[:first]
        self.rebuild()
        self.public_log, self.public_events = [], 0  # (a spectator's next state carries it all, log_reset)
        for c in self.clients:
            if not c.spectator:
                c.sent_log, c.log_reset = 0, True

    def fail(self, why: str) -> None:
        self.failure = why
        self.state = FAILED

    # ------------------------------------------------------------ turn timer, away seats

    def overdue(self, now: float) -> list:
        """[(decision id, why)] of the humans' decisions a stand-in bot should answer now: past
        the turn timer ("time"), or of a seat away longer than the table allows ("away")."""
        timer, away = self.options.get("timer"), self.options.get("away")
        if not (timer or away) or self.state != PLAYING or self.failure or self.game.over:
            return []
        out = []
        for d in self.game.pending:
            if d.player in self.bots:
                continue
            did = self.decision_id(d)
            if timer and now - self.since.get(did, now) >= timer:
                out.append((did, "time"))
            elif away and not self.connected(d.player) and now - self.gone_since.get(d.player, now) >= away:
                out.append((did, "away"))
        return out

    def stand_in(self, decision_id: int, why: str) -> list:
        """A stand-in bot answers this human decision (then the bots play on): the rows to store."""
        d = self._find(decision_id)
        if d is None or d.player in self.bots:
            return []
        seat = d.player
        if seat not in self.stand_ins:
            self.stand_ins[seat] = make_bot(self.options.get("stand_in") or STAND_IN, seat_seed(self._seed, seat))
        bot = self.stand_ins[seat]
        try:
            try:
                self.game.apply(bot.choose(bot_input(bot, self.game, seat), d), player=seat, decision=d.id)
            except IllegalAnswer:
                self.game.apply(list(range(d.min)) if d.many else (None if d.min == 0 else 0), player=seat,
                                decision=d.id)
            rows = [(seat, decision_id, self.game.answers[-1][1], None)]
            self._number()
            rows += self.play_bots()
        except JuxError as e:
            self._rules_failed(e)
        name = self.seats[seat]["name"]
        text = (f"{name}'s time ran out: a bot answered for them" if why == "time"
                else f"{name} is away: a bot plays for them until they come back")
        if not self.notices or self.notices[-1] != text:
            self.notices.append(text)
        return rows

    def start(self) -> list:
        """Every human seat came: the game starts; the bots' first answers to store."""
        self.state = PLAYING
        return self.play_bots()

    # ------------------------------------------------------------ what each connection sees

    def welcome(self, client: Client) -> dict:  # (tiles: every variant in play, not only those `create` named)
        return message("welcome", table=self.id, seat=None if client.spectator else client.seat,
                       names=list(self.game.names), ruleset=self.rules.name, tiles=list(self.rules.variants),
                       seq=None if client.spectator else self.last_seq[client.seat], timer=self.options.get("timer"),
                       away=self.options.get("away"), stand_in=self.options.get("stand_in") or STAND_IN)

    def listing(self) -> dict:
        """The table as `tables` lists it."""
        return {"table": self.id, "ruleset": self.rules.name, "tiles": list(self.tiles), "players": len(self.seats),
                "state": self.state, "seats": self.seat_list(),
                "free": [p for p in self.humans if not self.connected(p)], "answers": len(self.rows)}

    def broadcast(self) -> None:
        """Each seat's connection its own state; the spectators one position, made once (public.py)."""
        self.public = None
        for c in list(self.clients):
            if c.spectator:
                self.public = self.public or public_state(self)
                c.post(self.public)
            else:
                c.send(seat_state(self, c))


__all__ = ["Client", "Table", "HUMAN"]
