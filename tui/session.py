"""One game as the TUI plays it: the engine's Game, who sits in each seat (a human or a bot),
and whether it is saved. No Textual here, and no knowledge of any game."""
from __future__ import annotations

from dataclasses import dataclass
import os
from pathlib import Path

from ..interpreter.engine.undo import UndoRefused  # (undo's rule: interpreter/engine/undo.py)
from ..interpreter.errors import JuxError
from .saves import load_target, new_save_path, save_target, saves_dir

HUMAN = "human"


class RulesFailed(JuxError):
    """The rules' code failed on an answer (a rule error at run time, a loop that never stops):
    the game was taken back to just before that answer. The message says whose answer and where."""


@dataclass
class SeatSpec:
    name: str
    kind: str = HUMAN  # "human" or a bot spec understood by interpreter.bots ("random", ...)

    @property
    def human(self) -> bool:
        return self.kind == HUMAN


def random_seed() -> int:
    return int.from_bytes(os.urandom(4), "big") % 1_000_000


class Session:
    """A game, its seats, its bots and its save state.

    The screens read a game only through a session (never session.game): this is the interface
    that local play (Session) and remote play (tui/remote.py, RemoteSession) both provide.
    Reading: rules (the compiled ruleset, for its spec and title), names, humans (the seats played
    at this keyboard), bots (the seats this program plays: none remotely), view(viewer),
    pending (the decisions waiting: .player, .prompt, .options [.id .label .value .hint], .min,
    .max, .many, .keys, .unavailable), over, log_lines(viewer), tables(viewer), read_card(c,
    viewer), scores, tiebreaks(), tiebreak_labels(), tiebreak_lowest(), winners, ranking(), moment (changes with
    every answer), dirty, status() (a line on who is connected, or ""), time_left() (seconds left
    for this seat's oldest pending decision at a table with a turn timer, counting down; None:
    no timer, or nothing to decide), local (saving, loading
    and undo are offered). Doing: bot_decision(), play_bot(d), human_decision(prefer),
    answer(d, choice), undo_refusal(), undo(), listen(callback) (the callback is called when the
    game changed by itself: another player answered; never for a local game; None: stop)."""

    local = True

    def __init__(self, rules, seats: list, seed: int | None = None, game=None):
        from ..interpreter.bots import make_bot, seat_seed
        from ..interpreter.engine.game import Game

        self.rules = rules
        self.seats = [s if isinstance(s, SeatSpec) else SeatSpec(*s) for s in seats]
        if game is None:
            seed = random_seed() if seed is None else int(seed)
            game = Game.new(rules, len(self.seats), seed, names=[s.name for s in self.seats])
        self.game = game
        self.bots = {p: make_bot(s.kind, seat_seed(game.seed, p))
                     for p, s in enumerate(self.seats) if not s.human}
        self.saved = [list(a) for a in game.answers]  # the answers when last saved or loaded
        self.path: Path | None = None
        self._undo_cache = None  # (game, its number of answers, undo's plan or refusal)

    # ------------------------------------------------------------ seats

    @property
    def humans(self) -> list:
        return [p for p, s in enumerate(self.seats) if s.human]

    @property
    def names(self) -> list:
        return list(self.game.names)

    # ------------------------------------------------------------ what the screens read

    def view(self, viewer):
        return self.game.view(viewer)

    @property
    def pending(self) -> list:
        return self.game.pending

    @property
    def over(self) -> bool:
        return self.game.over

    def log_lines(self, viewer) -> list:
        return self.game.log_lines(viewer)

    def tables(self, viewer) -> list:
        return self.game.tables(viewer)

    def read_card(self, c, viewer):
        return self.game.read_card(c, viewer)

    @property
    def scores(self) -> list:
        return self.game.scores

    def tiebreaks(self) -> list:
        return self.game.tiebreaks()

    def tiebreak_labels(self) -> list:
        return self.game.tiebreak_labels()

    def tiebreak_lowest(self) -> list:
        return self.game.tiebreak_lowest()

    @property
    def winners(self) -> list:
        return self.game.winners

    def ranking(self) -> list:
        return self.game.ranking()

    @property
    def moment(self):
        """Changes with every answer (and with an undo's new game)."""
        return (self.game, len(self.game.answers))

    def status(self) -> str:
        return ""

    def time_left(self) -> float | None:
        """A local game has no turn timer."""
        return None

    def listen(self, callback) -> None:
        """A local game changes only through the screen: nothing to listen to (None: stop)."""

    @property
    def dirty(self) -> bool:
        """Whether answers were given since the last save (or load, or the start)."""
        return self.game.answers != self.saved

    # ------------------------------------------------------------ decisions

    def bot_decision(self):
        for d in self.game.pending:
            if d.player in self.bots:
                return d
        return None

    def human_decision(self, prefer: int | None = None):
        """A pending decision of a human seat: prefer's own if it has one, else the first."""
        first = None
        for d in self.game.pending:
            if d.player in self.bots:
                continue
            if d.player == prefer:
                return d
            if first is None:
                first = d
        return first

    def play_bot(self, d) -> None:
        """Let the bot in d's seat answer d, from that seat's view only."""
        from ..interpreter.bots.sample import bot_input
        from ..interpreter.errors import IllegalAnswer

        bot = self.bots[d.player]
        choice = bot.choose(bot_input(bot, self.game, d.player), d)

        def take():
            try:
                d.answer(choice)
            except IllegalAnswer:  # a faulty bot must not stall the table: take the first legal answer
                d.answer(list(range(d.min)) if d.many else (None if d.min == 0 else 0))
        self._ruled(d, take)

    def answer(self, d, choice) -> None:
        """A human's answer (IllegalAnswer on a bad one, changing nothing; RulesFailed when the
        rules fail on it, the game taken back to just before it)."""
        self._ruled(d, lambda: self.game.apply(choice, player=d.player, decision=d.id))

    def _ruled(self, d, take) -> None:
        """take() answers decision d; when the rules' code fails on that answer, the game goes
        back to just before it (replayed from its record) and RulesFailed says so."""
        from ..interpreter.engine.game import Game
        from ..interpreter.errors import IllegalAnswer

        before = len(self.game.answers)
        try:
            take()
        except IllegalAnswer:
            raise
        except JuxError as e:
            record = self.game.record()
            record["answers"] = record["answers"][:before]
            self.game = Game.from_record(record, self.rules)
            self._undo_cache = None
            who = self.names[d.player] if 0 <= d.player < len(self.names) else f"seat {d.player + 1}"
            raise RulesFailed(f"the rules failed on {who}'s answer: {e}") from None

    # ------------------------------------------------------------ undo

    def undo(self) -> int:
        """Take back the last answer of the one human seat, and every answer given after it.

        The game is rebuilt from its record cut just before that answer. Refused (UndoRefused,
        changing nothing) with no or several humans, when the human has not answered yet, or when
        taking it back would hide again what was learnt since: the random generator moved (a
        shuffle or a random draw happened) or the human came to know a card it did not know.
        Returns how many answers were taken back.
        """
        before, taken = self._undo_plan()
        self.game = before
        self._undo_cache = None
        return taken

    def undo_refusal(self) -> str | None:
        """Why undo would be refused now (the message undo() would give), or None when it is offered.
        Worked out once per game position (the UI asks each time it draws its key bar)."""
        try:
            self._undo_plan()
        except UndoRefused as e:
            return str(e)
        return None

    def _undo_plan(self):
        """(the game before the human's last answer, how many answers that takes back), or
        UndoRefused; kept for the game and number of answers it was made for."""
        game = self.game
        cache = getattr(self, "_undo_cache", None)
        if cache is not None and cache[0] is game and cache[1] == len(game.answers):
            if isinstance(cache[2], UndoRefused):
                raise cache[2]
            return cache[2]
        try:
            plan = self._make_undo_plan(game)
        except UndoRefused as e:
            self._undo_cache = (game, len(game.answers), e)
            raise
        self._undo_cache = (game, len(game.answers), plan)
        return plan

    def _make_undo_plan(self, game):
        from ..interpreter.engine.undo import undo_plan

        humans = self.humans
        if not humans:
            raise UndoRefused("Undo is for a human player: every seat here is a bot.")
        if len(humans) > 1:
            raise UndoRefused("Undo is not offered with two or more human players at the table.")
        return undo_plan(game, humans[0], self.rules)

    # ------------------------------------------------------------ save and load

    def save_data(self) -> dict:
        data = self.game.save()
        from .rulesets import source_of

        data["tui"] = {"seats": [s.kind for s in self.seats], "summary": self.summary(),
                       "source": source_of(self.rules)}  # (a path for rules that are not jux's own)
        return data

    def summary(self) -> dict:
        """What the load dialog lists of a save: the ruleset's title, the tiles, the players, the
        round (the ruleset's `round` counter, when it has one) and the answers so far."""
        from .tiles import variants_in_use

        g = self.game
        tiles = [info.title or name for info, name in variants_in_use(self.rules)
                 if info is not None and info.fills]
        out = {"title": self.rules.title, "tiles": tiles, "players": g.state.n,
               "answers": len(g.answers), "over": bool(g.over)}
        try:
            round_ = g.view(None)["counters"].get("round")
        except Exception:  # (a summary is a courtesy: never a reason for a save to fail)
            round_ = None
        if type(round_) is int:
            out["round"] = round_
        return out

    def save(self, path) -> Path:
        """Write the game (game.save() plus who sits where) atomically. JuxError on failure.
        A relative path is taken in the saves folder (save_target)."""
        from ..interpreter.files import save_json

        path = save_target(path)
        save_json(self.save_data(), path)
        self.saved = [list(a) for a in self.game.answers]
        self.path = path
        return path

    @classmethod
    def load(cls, path, kinds: list | None = None, paths=()) -> "Session":
        """A session from a save or a game record. JuxError (RecordError) on any failure, one line.

        Seats are human or bot as saved; a plain record (no seat kinds) takes `kinds` when the
        player count fits, else every seat is human. paths: the files the user named (a ruleset
        folder, variant files) that the save's ruleset and variants may name (records.py).
        """
        from ..interpreter.bots import bot_factory
        from ..interpreter.engine.game import Game
        from ..interpreter.engine.records import read_record
        from ..interpreter.errors import JuxError, RecordError
        from .rulesets import user_sources

        path = load_target(path)  # (a bare name: the saves folder's file of that name, if any)
        if not path.exists():
            raise RecordError(f"{path}: No such file or directory{_where_saves_are()}")
        data = read_record(path)
        try:
            game = Game.from_record(data, paths=[*(paths or ()), *user_sources(data)])
        except RecordError as e:
            again = RecordError(f"{path}: {e}")
            again.missing = getattr(e, "missing", None)
            raise again from None
        n = game.state.n
        saved = data.get("tui", {}).get("seats") if isinstance(data.get("tui"), dict) else None
        if isinstance(saved, list) and len(saved) == n and all(isinstance(k, str) for k in saved):
            kinds = saved
        elif not (kinds and len(kinds) == n):
            kinds = [HUMAN] * n
        for i, k in enumerate(kinds):
            if k != HUMAN:
                try:
                    bot_factory(k)  # an unknown bot is a JuxError here, not a crash later
                except JuxError as e:
                    raise JuxError(f"{path}: tui.seats[{i}]: {e}") from None
        s = cls(game.rules, [SeatSpec(name, k) for name, k in zip(game.names, kinds)], game=game)
        s.path = path
        return s

    def default_path(self) -> str:
        """A new file in the saves folder, named after the ruleset, the seed and the time (never
        the name of a save already there)."""
        return str(new_save_path(self.rules.name, self.game.seed))


def _where_saves_are() -> str:
    """' (saves are in FOLDER: jux play --load NAME finds them there)', or '' without one."""
    try:
        return f" (saves are in {saves_dir()}: jux play --load NAME finds them there)"
    except JuxError:
        return ""
