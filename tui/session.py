"""One game as the TUI plays it: the engine's Game, who sits in each seat (a human or a bot),
and whether it is saved. No Textual here, and no knowledge of any game."""
from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

HUMAN = "human"


class UndoRefused(Exception):
    """An undo that is not allowed; the message says why, in words for the player."""


@dataclass
class SeatSpec:
    name: str
    kind: str = HUMAN  # "human" or a bot spec understood by interpreter.bots ("random", ...)

    @property
    def human(self) -> bool:
        return self.kind == HUMAN


def random_seed() -> int:
    return int.from_bytes(os.urandom(4), "big") % 1_000_000


def rulesets() -> list:
    """The ruleset folders under rules/ (names), as `jux rules` lists them."""
    from interpreter.paths import RULES_DIR

    if not RULES_DIR.is_dir():
        return []
    return sorted(d.name for d in RULES_DIR.iterdir()
                  if d.is_dir() and not d.name.startswith((".", "_")) and any(d.glob("*.yaml")))


class Session:
    """A game, its seats, its bots and its save state."""

    def __init__(self, rules, seats: list, seed: int | None = None, game=None):
        from interpreter.bots import make_bot, seat_seed
        from interpreter.engine import Game

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

    # ------------------------------------------------------------ seats

    @property
    def humans(self) -> list:
        return [p for p, s in enumerate(self.seats) if s.human]

    @property
    def names(self) -> list:
        return list(self.game.names)

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
        from interpreter.bots.sample import bot_input
        from interpreter.errors import IllegalAnswer

        bot = self.bots[d.player]
        choice = bot.choose(bot_input(bot, self.game, d.player), d)
        try:
            d.answer(choice)
        except IllegalAnswer:  # a faulty bot must not stall the table: take the first legal answer
            d.answer(list(range(d.min)) if d.many else (None if d.min == 0 else 0))

    def answer(self, d, choice) -> None:
        """A human's answer (IllegalAnswer on a bad one, changing nothing)."""
        self.game.apply(choice, player=d.player, decision=d.id)

    # ------------------------------------------------------------ undo

    def undo(self) -> int:
        """Take back the last answer of the one human seat, and every answer given after it.

        The game is rebuilt from its record cut just before that answer. Refused (UndoRefused,
        changing nothing) with no or several humans, when the human has not answered yet, or when
        taking it back would hide again what was learnt since: the random generator moved (a
        shuffle or a random draw happened) or the human came to know a card it did not know.
        Returns how many answers were taken back.
        """
        from interpreter.engine import Game
        from interpreter.errors import JuxError

        humans = self.humans
        if not humans:
            raise UndoRefused("Undo is for a human player: every seat here is a bot.")
        if len(humans) > 1:
            raise UndoRefused("Undo is not offered with two or more human players at the table.")
        seat = humans[0]
        answers = self.game.answers
        last = next((i for i in range(len(answers) - 1, -1, -1) if answers[i][0] == seat), None)
        if last is None:
            raise UndoRefused("Nothing to undo: you have not decided anything yet.")
        record = self.game.record()
        record["answers"] = [list(a) for a in answers[:last]]
        try:
            before = Game.from_record(record, rules=self.rules)
        except JuxError as e:  # (a game made through Python with names a record cannot hold)
            raise UndoRefused(f"Cannot undo: {e}") from None
        now = self.game.state
        if before.state.rng != now.rng:
            raise UndoRefused("Cannot undo: something was shuffled or drawn at random since your last decision.")
        bit = 1 << seat
        if any(not k0 & bit and k1 & bit for k0, k1 in zip(before.state.k, now.k)):
            raise UndoRefused("Cannot undo: you have seen a hidden card since your last decision.")
        taken = len(answers) - last
        self.game = before
        return taken

    # ------------------------------------------------------------ save and load

    def save_data(self) -> dict:
        data = self.game.save()
        data["tui"] = {"seats": [s.kind for s in self.seats]}
        return data

    def save(self, path) -> Path:
        """Write the game (game.save() plus who sits where) atomically. JuxError on failure."""
        from interpreter.engine import save_json

        path = _user_path(path)
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
        from interpreter.bots import bot_factory
        from interpreter.engine import Game
        from interpreter.errors import JuxError, RecordError
        from interpreter.records import read_record

        path = _user_path(path)
        data = read_record(path)
        try:
            game = Game.from_record(data, paths=paths)
        except RecordError as e:
            raise RecordError(f"{path}: {e}") from None
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
        if self.path is not None:
            return str(self.path)
        return f"{self.rules.name}-{self.game.seed}.save.json"


def _user_path(path) -> Path:
    """path with ~ expanded; JuxError if it cannot be (an unknown user's ~name)."""
    from interpreter.errors import JuxError

    if not str(path).strip():
        raise JuxError("no file named (an empty path)")
    try:
        return Path(path).expanduser()
    except (RuntimeError, ValueError) as e:
        raise JuxError(f"{path}: {e}") from None
