"""Plurals agree with their numbers wherever a ruleset writes text (logs, prompts, labels, hints,
reasons): no "card(s)", and no number followed by a plural noun unless plural() wrote it. The
strings are read from the parsed rules; what a placeholder holds is what `jux validate` infers."""
from __future__ import annotations

import re

import pytest

from jux.interpreter.checks.checker import Checker
from jux.interpreter.checks.infer import Infer
from jux.interpreter.reading.spec import read_spec
from jux.interpreter.language.tree import Call, Str, walk
from jux.interpreter.language.types import NUMBER, members

# words ending in s that are no plural nouns ("{n} is", "{n} VP")
NOT_PLURALS = {"is", "was", "has", "as", "its", "this", "us", "plus", "times", "less", "begins", "ends", "starts"}


class TypesSeen(Infer):
    """Type inference that keeps the type of every expression it sees in its last round."""

    def __init__(self, *args):
        super().__init__(*args)
        self.seen: dict = {}

    def expr(self, e, env):
        t = super().expr(e, env)
        if self.report:
            self.seen[id(e)] = t
        return t


def strings_of(spec):
    """Every string of the rules' code: (its Str node)."""
    bodies = [r.body for r in spec.functions.values()] + [r.body for r in spec.procedures.values()]
    if spec.flow is not None:
        bodies.append(spec.flow.body)
    for body in bodies:
        for n in walk(body):
            if isinstance(n, Str):
                yield n


def disagreements(ruleset, variants=()) -> list:
    """'file:line: text' for each string that writes '(s)' or a number and a plural noun itself."""
    spec = read_spec(ruleset, variants)
    checker = Checker(spec)
    seen = TypesSeen(spec, checker.attrs, checker.cards)
    seen.run()
    out = []
    for s in strings_of(spec):
        parts = s.parts
        where = f"{s.pos.file.split('/')[-1]}:{s.pos.line}"
        for i, p in enumerate(parts):
            if isinstance(p, str):
                if "(s)" in p:
                    out.append(f"{where}: '(s)' in {p!r}")
                continue
            after = parts[i + 1] if i + 1 < len(parts) and isinstance(parts[i + 1], str) else ""
            m = re.match(r"\s+([A-Za-z]+)\b", after)
            t = seen.seen.get(id(p))
            number = t is not None and members(t) and all(x == NUMBER for x in members(t))
            is_plural = isinstance(p, Call) and p.func == "plural"
            if m and number and not is_plural and m.group(1).endswith("s") and m.group(1) not in NOT_PLURALS:
                out.append(f"{where}: a number and '{m.group(1)}' without plural()")
    return out


@pytest.mark.parametrize("ruleset", ["guildhall", "bruges"])
def test_plurals_agree_with_their_numbers(ruleset):
    assert disagreements(ruleset) == []


@pytest.mark.parametrize("tiles", [(), ("agent", "cleric", "merchant", "scholar"),
                                   ("infiltrator", "doomsayer", "follower", "convertor"),
                                   ("recruiter", "missionary", "aristocrat", "discoverer"),
                                   ("outsider", "mentalist", "sentinel", "dualist")])
def test_plurals_agree_with_their_numbers_in_capital_jux_and_its_tiles(tiles):
    assert disagreements("capital_jux", list(tiles)) == []


def test_the_scan_finds_what_it_looks_for(tmp_path):
    """A ruleset that writes 'card(s)' and '{n} guilders' is caught; plural() and '{p} draws' are not."""
    d = tmp_path / "words"
    d.mkdir()
    (d / "game.yaml").write_text('''\
game: {name: words, players: {min: 2, max: 2}}
cards:
  c: {label: "{value}", attributes: {value: [1, 2]}}
zones:
  deck: {visible: none, start: [c]}
counters:
  gold: {per: player, start: 0}
functions:
  score(p): gold[p]
flow: |
  for p in players {
    let n = len(deck)
    log "{p} draws {n} card(s)."
    log "{p} pays {gold[p]} guilders."
    log "{p} draws {plural(n, \\"card\\")}; {p} plays; {n} is a number."
  }
''')
    found = disagreements(d)
    assert len(found) == 2 and "'(s)'" in found[0] and "'guilders' without plural()" in found[1], found


def played_decisions(ruleset, players, seed, limit=400):
    """Every decision of a random game (up to limit), as the deciding player reads it: (decision,
    the actions counter or None, labels, hints, unavailable lines, prompt)."""
    import random

    from jux.interpreter.bots.random_bot import random_answer
    from jux.interpreter.engine.game import Game
    from jux.interpreter.engine.ruleset import load_ruleset

    g = Game.new(load_ruleset(ruleset), players, seed)
    rnd = random.Random(seed).random
    seen = []
    while not g.over and len(seen) < limit:
        d = g.pending[0]
        actions = g.counter("actions") if ruleset == "guildhall" else None
        seen.append((d.prompt, actions, [o.label for o in d.options], [o.hint for o in d.options],
                     [f"{u['option']}: {u['reason']}" for u in d.unavailable]))
        d.answer(random_answer(d, rnd))
    return g, seen


@pytest.mark.parametrize("ruleset, players, seed", [("guildhall", 2, 1), ("guildhall", 4, 2), ("bruges", 2, 3),
                                                    ("bruges", 3, 4)])
def test_what_a_player_reads_agrees_in_whole_games(ruleset, players, seed):
    """Prompts, labels, hints and reasons of whole random games: numbers agree with their nouns,
    no 'none' shows, the actions counter is the number the prompt gives, and no question of
    Guildhall asks who when there is one answer."""
    g, seen = played_decisions(ruleset, players, seed)
    texts = [t for prompt, _, labels, hints, reasons in seen for t in [prompt, *labels, *(h or "" for h in hints), *reasons]]
    texts += g.log_lines()
    assert not [t for t in texts if "(s)" in t or re.search(r"\b1 (cards|guilders|workers|points|VP tokens|chapters)\b", t)
                or re.search(r"\b([02-9]|\d\d+) (card|guilder|worker|point|VP token|chapter)\b(?!s)", t)]
    assert not [t for t in texts if re.search(r"(?<!or )\bnone\b", t)]  # (a value that is none)
    if ruleset == "guildhall":
        for prompt, actions, labels, hints, reasons in seen:
            m = re.search(r"\((\d+) left, this one included\)", prompt)
            if m:
                assert int(m.group(1)) == actions
                # every card that can be played says what its ability would do, or why nothing
                assert all(h and (h.startswith("you may ") or h.startswith("does nothing: "))
                           for label, h in zip(labels, hints) if label.startswith("play "))
            if prompt.startswith(("Whose guildhall", "Trade with whom", "Swap with whom")):
                assert len(labels) > 1
        assert any(m for m in (re.search(r"\((\d+) left", p) for p, *_ in seen))
    else:
        plays = [(label, h) for prompt, _, labels, hints, _ in seen if prompt.startswith("Play a card")
                 for label, h in zip(labels, hints) if ": " in label and not label.startswith("activate")]
        assert plays and all(h for _, h in plays)
