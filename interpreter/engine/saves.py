"""Game records (ruleset, seed, answers), saves (a record and its state) and copies. Records and saves
are read and checked in records.py."""
from __future__ import annotations

from ..errors import IllegalAnswer, JuxError, RecordError
from .records import RECORD_FORMAT
from .ruleset import Ruleset


class Saves:
    """Game's part that writes records and saves, replays them, and copies the game."""

    def record(self) -> dict:
        """The game record: ruleset, seed, players and answers; replays to this exact game."""
        return {"format": RECORD_FORMAT, "ruleset": self.rules.name, "variants": list(self.rules.variants),
                "digest": self.rules.digest,
                "players": self.state.n, "seed": self.seed, "names": list(self.names),
                "answers": [list(a) for a in self.answers]}

    def save(self) -> dict:
        """A save: the record plus the state it leads to (checked on load)."""
        self._usable("save the game")
        self._seen("save the game")
        d = self.record()
        d["state"] = self.state.to_json()
        return d

    @classmethod
    def from_record(cls, record, rules: Ruleset | None = None, log: bool = True, ruleset=None,
                    paths=()):
        """Replay a record (or a save) to the game it describes. Raises RecordError (a JuxError)
        when it cannot, whatever the record holds (records.check_record checks every field).

        The rules: `rules` if given; else `ruleset` (a name or path) with the record's variants;
        else the record's ruleset and variants, which must be in jux's catalogue (rules/,
        variants/) or among `paths`, the files and folders the user named: a record never makes
        jux read another file (records.record_rules)."""
        from .records import check_record, record_rules

        check_record(record)
        if rules is None:
            rules = record_rules(record, ruleset, paths)
        digest = record["digest"]
        if digest != rules.digest:
            e = RecordError(f"the record was made with other rule files for '{rules.name}' "
                            f"(digest {digest}, these rules are {rules.digest}): replay it with the rule "
                            f"files it was made with")
            e.missing = "rule files"  # (what a command adds its own words to: how to name them)
            raise e
        try:
            g = cls.new(rules, record["players"], record["seed"], record.get("names"), log=log)
        except JuxError as e:
            raise RecordError(f"the record's setup is invalid: {e}") from None
        answers = record["answers"]
        for i, (player, choice) in enumerate(answers):
            try:
                g.apply(choice, player=player)
            except IllegalAnswer as e:
                raise RecordError(f"answers[{i}]: answer {i + 1} of {len(answers)} does not fit the game: {e}") from None
        if "state" in record:
            now = g.state.to_json()
            try:
                same = record["state"] == now or _unlocaled(record["state"]) == _unlocaled(now)
            except RecursionError:  # (check_record bounds the nesting: not expected)
                same = False
            if not same:
                raise RecordError("state: the saved state does not match the game its answers give (edited file?)")
        return g

    load = from_record

    def copy(self, log: bool = False):
        """An independent copy (for search); without the log unless asked."""
        self._usable("copy the game")
        self._seen("copy the game")
        g = type(self).__new__(type(self))
        g.rules = self.rules
        g.state = self.state.copy(log=log)
        g.seed = self.seed
        g.names = self.names
        g.answers = list(self.answers)
        g.first_player = self.first_player
        return g


def _unlocaled(state) -> object:
    """A saved state without the locals of where its threads wait: what a save made by another
    version of jux may hold differently for the same game (the locals a routine keeps, noted
    knowledge in hidden slots), while the game a save loads is always the one its answers give."""
    if not isinstance(state, dict) or not isinstance(state.get("threads"), list):
        return state
    threads = [[[f[:2] if isinstance(f, list) else f for f in t[0]]] + t[1:]
               if isinstance(t, list) and t and isinstance(t[0], list) else t for t in state["threads"]]
    return {**state, "threads": threads}
