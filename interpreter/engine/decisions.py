"""Decisions: what a player is asked (Decision, its Options), and the checks of an answer's shape."""
from __future__ import annotations

from dataclasses import dataclass

from ..errors import IllegalAnswer
from .option_groups import cards_in
from .telling import apart, say, say_all, told_apart


@dataclass(frozen=True)
class Option:
    id: int
    label: str
    value: object
    hint: str | None = None  # what choosing it would do, in the rules' words (a choose's `hint`)


def _option_numbers(choice: list, n: int) -> bool:
    """Whether every item of choice is an option number from 0 to n - 1, and none twice."""
    for i in choice:
        if type(i) is not int or not 0 <= i < n:
            return False
    return len(set(choice)) == len(choice)


def _shaped_like(thing, option) -> bool:
    """Whether an `unavailable` thing has an option's shape: a tuple (or list) of as many items as
    a tuple option, else a value of the option's own type (a card for cards, a text for texts)."""
    if type(option) is tuple:
        return type(thing) in (tuple, list) and len(thing) == len(option)
    return type(thing) is type(option)


def _blamed(e: IllegalAnswer, T, choice) -> IllegalAnswer:
    """e, saying who gave which answer (e.player, e.answer)."""
    e.player, e.answer = T[2][0], choice
    return e


class Answering(Exception):
    """An error of autoplay's answer function, carried out through the rules' code unchanged."""


class Decision:
    """A choice a player must make: who, a prompt, the legal options, how many to pick.

    values are the options' raw values; prompt and options (with readable labels, rendered for
    the deciding player) are worked out only when asked for.
    """

    __slots__ = ("_game", "_t", "_d", "id", "player", "values", "min", "max", "many", "keys", "_prompt", "_options",
                 "_names")

    def __init__(self, game, thread: list):
        self._game = game
        self._t = thread
        self._d = d = thread[2]
        self.id = thread[6]
        self.player = d[0]
        self.values = d[1]
        self.min = d[2]
        self.max = d[3]
        self.many = d[4]
        # a `distinct` choose: each option's group (0, 1, ...: options alike share one); no two options
        # of one group may be picked
        self.keys = d[8] if len(d) > 8 else None
        self._prompt = self._options = self._names = None

    @property
    def optional(self) -> bool:
        return self.min == 0

    def answer(self, choice) -> None:
        """Answer this decision (as game.apply would); refused if it is no longer pending."""
        if self._t[2] is not self._d:
            raise IllegalAnswer("this decision has already been answered")
        self._game._answer(self._t, choice)

    @property
    def prompt(self) -> str:
        if self._prompt is None:
            d = self._t[2]
            g = self._game
            fn = g.rules.prompt_fns[d[6]] if d[6] >= 0 else None
            self._prompt = "Choose" if fn is None else g._render(fn(g.state, self._t[0][-1][2]), self.player)
        return self._prompt

    @property
    def name(self) -> str | None:
        """The decision's stable name: where its `choose` is written and what it binds,
        `ROUTINE.VARIABLE` (`player_turn.play`), which no rewording of the rules' texts
        changes (compiler/decision_names.py; docs/testing.md, "Names that no rewording changes")."""
        i = self._d[6]
        names = self._game.rules.decision_names
        return names[i] if 0 <= i < len(names) else None

    @property
    def options(self) -> list:
        """The options, each with its label and hint rendered for the deciding player. Cards that
        read alike but differ in what that player may know of them (a token on one, the zone each
        lies in) read with what tells them apart (telling.py), so that no two options that differ
        read the same; options alike in everything read the same (and may be offered as one)."""
        if self._options is None:
            g = self._game
            d = self._t[2]
            L = self._t[0][-1][2]
            names = self.names
            labels, hints = [], []
            hint_fn = g.rules.hint_fns.get(d[5])
            for v in self.values:
                if d[5] >= 0:
                    labels.append(say_all(g, g.rules.label_fns[d[5]](g.state, L, v), self.player, names))
                else:
                    labels.append(say(g, v, self.player, names))
                hints.append(say_all(g, hint_fn(g.state, L, v), self.player, names) if hint_fn is not None else None)
            labels = told_apart(g, self.player, self.values, labels, hints, names)
            self._options = [Option(i, label, v, hint or None)
                             for i, (label, v, hint) in enumerate(zip(labels, self.values, hints))]
        return self._options

    @property
    def names(self) -> dict:
        """{card: how it reads here}, for the cards of the options that read alike to the deciding
        player but differ in what that player may know of them (telling.apart); {} for most."""
        if self._names is None:
            cards = [c for v in self.values for c in cards_in(v)]
            self._names = apart(self._game, self.player, cards) if len(cards) > 1 else {}
        return self._names

    def plain_labels(self) -> list:
        """The options' labels as they read before cards alike were told apart (telling.py): an
        answer given as such a label (a scenario written before) still names the first of them."""
        g, d, L = self._game, self._t[2], self._t[0][-1][2]
        if d[5] >= 0:
            return [g._render(g.rules.label_fns[d[5]](g.state, L, v), self.player) for v in self.values]
        return [g._render_value(v, self.player) for v in self.values]

    def by_label(self, label: str, taken: list) -> int:
        """The number of the option that reads `label` (of several that read so, the first not
        among taken); a label as it read before cards alike were told apart (plain_labels) still
        names its option. IllegalAnswer when no option reads so."""
        for labels in ([o.label for o in self.options], self.plain_labels()):
            if label in labels:
                # a label may stand for several equal options: take the next unused one
                return next((i for i, x in enumerate(labels) if x == label and i not in taken), labels.index(label))
        labels = [o.label for o in self.options]
        sep = " | " if any("; " in x for x in labels) else "; "  # (labels of lists of lists hold "; ")
        raise IllegalAnswer(f"'{label}' is not one of the options: {sep.join(labels)}")

    def text(self, value) -> str:
        """A value of the rules (a card, a seat, a tuple of them) as the deciding player reads it
        (a card told apart from others that read alike as the options name it)."""
        return say(self._game, value, self.player, self.names)

    @property
    def unavailable(self) -> list:
        """What cannot be chosen now, and why, as the rules say (a choose's `unavailable` clause):
        [{"option": text, "reason": text}], rendered for the deciding player; [] when not given."""
        d = self._t[2]
        if len(d) < 8 or d[7] < 0:
            return []
        g = self._game
        items = g.rules.unavailable_fns[d[7]](g.state, self._t[0][-1][2])
        out = []
        for item in items or ():
            thing, reason = item if type(item) in (tuple, list) and len(item) == 2 else (item, "")
            out.append({"option": self._thing_label(thing), "reason": g._render_value(reason, self.player)})
        return out

    def _thing_label(self, thing) -> str:
        """An `unavailable` thing as the deciding player reads it: a value shaped like the options
        (a tuple of as many items, or a value of the same kind) reads as that option's own label
        would (the choose's `label`); anything else, such as a text, as its value."""
        g, d = self._game, self._t[2]
        if d[5] >= 0 and self.values and _shaped_like(thing, self.values[0]):
            try:
                return g._render(g.rules.label_fns[d[5]](g.state, self._t[0][-1][2], thing), self.player)
            except Exception:  # (a label that cannot read this thing: the thing as its value)
                pass
        return g._render_value(thing, self.player)

    def __repr__(self):
        return f"Decision(player={self.player}, prompt={self.prompt!r}, options={[o.label for o in self.options]})"
