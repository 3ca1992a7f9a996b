"""A bot's samples carry nothing worked out from what its seat may not see (issue 39).

Two games the seat cannot tell apart (the same view, log included, at the same decision) must
give samples identical in every field: zones, counters, who knows which card, marks, and the
threads where the rules stopped (their locals, answers and the decisions pending). The twins
are made by playing the same game again with one difference the seat does not see: two cards
of one back that the seat does not know exchanged in the deal, or one answer of another seat
given otherwise. Many positions of every game: Capital Jux (and tile variants), Guildhall,
Bruges, the example docs/examples/secret_bids, and a small ruleset written here whose sealed bid
(`visible: none`) is read into locals kept past later decisions.
"""
from __future__ import annotations

import random
from pathlib import Path

import pytest

from jux.interpreter.bots.random_bot import random_answer
from jux.interpreter.bots.sample import determinize, relabel
from jux.interpreter.engine.game import Game
from jux.interpreter.engine.ruleset import load_ruleset

EXAMPLE = str(Path(__file__).resolve().parent.parent / "docs" / "examples" / "secret_bids")

BIDS = """\
game:
  name: sealed
  players: {min: 2, max: 4}
counters:
  chips: {start: 6, per: player, visible: owner}
  bid: {start: 0, per: player, visible: none}
  points: {start: 0, per: player}
  round: 0
functions:
  score(p): points[p]
flow: |
  while round < 3 {
    round += 1
    simultaneously for p in players {
      choose b from range(0, chips[p] + 1) by p prompt "Your sealed bid" label "{b}"
      bid[p] = b
    }
    let best = max(bid[p] for p in players)
    let paid = [p for p in players if bid[p] == best]
    let spent = sum(bid[p] for p in players)
    for q in players {
      choose keep from ["points", "nothing"] by q prompt "Take a point?" label "{keep}"
      if keep == "points" { points[q] += 1 }
    }
    if len(paid) == 1 {
      chips[paid[0]] -= best
      points[paid[0]] += 2
      log "{paid[0]} wins the round."
    } else {
      log "A tie."
    }
  }
"""


def replay(rules, players, seed, answers, swap=None):
    g = Game.new(rules, players, seed)
    if swap:
        log = list(g.state.log)
        g = relabel(g, swap, g.state.rng)
        g.seed, g.state.log, g.state.lv = seed, log, {}
    for p, a in answers:
        g.apply(a, player=p)
    return g


def twins(rules, players, seed, answers, seat, rng, tries):
    """The game after answers, and games the seat cannot tell from it (see the module's text)."""
    g = replay(rules, players, seed, answers)
    S = g.state
    keys = rules.back_keys
    unknown = [c for z in S.z for c in z if not (S.k[c] >> seat) & 1]
    others = [i for i, (p, _) in enumerate(answers) if p != seat]
    found = []
    for _ in range(tries):
        try:
            if rng.random() < 0.5 and len(unknown) > 1:
                a, b = rng.sample(unknown, 2)
                if keys[a] != keys[b]:
                    continue
                h = replay(rules, players, seed, answers, {a: b, b: a})
            elif others:
                i = rng.choice(others)
                before = replay(rules, players, seed, answers[:i])
                d = next(d for d in before.pending if d.player == answers[i][0])
                alt = random_answer(d, rng.random)
                if alt == answers[i][1]:
                    continue
                h = replay(rules, players, seed, answers[:i] + [[answers[i][0], alt]] + answers[i + 1:])
            else:
                continue
        except Exception:  # (the other answers do not fit that game: not a twin)
            continue
        if h.view(seat) == g.view(seat) and [t[6] for t in h.state.threads] == [t[6] for t in S.threads]:
            if h.state.to_json() != S.to_json():
                found.append(h)
    return g, found


def check_twins(rules, players, seeds, every, tries=4) -> int:
    """Play random games; every `every` answers, compare the samples of the twins found for the
    seat of the last pending decision. Returns how many twins differed from the real game."""
    checked = 0
    for seed in seeds:
        rng = random.Random(seed)
        g = Game.new(rules, players, seed, log=False)
        answers = []
        while g.pending:
            d = g.pending[0]
            a = random_answer(d, rng.random)
            g.apply(a, player=d.player)
            answers.append([d.player, a])
            if len(answers) % every or not g.pending:
                continue
            seat = g.pending[-1].player
            real, found = twins(rules, players, seed, answers, seat, rng, tries)
            for h in found:
                for r in range(2):
                    a_ = determinize(real, seat, random.Random(r))
                    b_ = determinize(h, seat, random.Random(r))
                    assert a_.state.to_json() == b_.state.to_json(), (seed, len(answers), seat)
                    assert a_.view(seat) == b_.view(seat)
                checked += 1
    return checked


def rules_of(d: Path, text: str):
    """The ruleset of game.yaml text, written in a new folder d."""
    d.mkdir()
    (d / "game.yaml").write_text(text)
    return load_ruleset(d)


@pytest.fixture(scope="module")
def sealed(tmp_path_factory):
    return rules_of(tmp_path_factory.mktemp("rules") / "sealed", BIDS)


def test_a_sealed_bid_leaves_nothing_in_the_samples(sealed):
    assert check_twins(sealed, 3, range(6), 2, tries=6) > 30


def test_a_local_worked_out_from_a_bid_is_not_in_a_sample(sealed):
    """At the first `Take a point?` after the bids the real game's flow holds spent (1 + 2 + 3,
    worked out from the sealed bids) though the rules never read it again; a sample drops it."""
    g = Game.new(sealed, 3, 1)
    for p in range(3):
        g.apply(p + 1, player=p)  # bids 1, 2, 3
    flow = g.state.threads[0][0][0][2]
    i = flow.index(6)  # spent
    for seat in range(3):
        s = determinize(g, seat, random.Random(1))
        assert s.state.threads[0][0][0][2][i] is None
        assert s.state.threads[0][3] is None  # (nor the thread's last answer)


def test_another_seats_pending_bid_is_asked_again_in_a_sample(sealed):
    g = Game.new(sealed, 3, 1)
    g.apply(0, player=0)
    g.apply(0, player=1)
    g.apply(1, player=2)  # seat 2 wins the round paying 1 of its chips...
    for q in range(3):
        g.apply(1, player=q)
    h = Game.new(sealed, 3, 1)
    h.apply(0, player=0)
    h.apply(0, player=1)
    h.apply(3, player=2)  # ...or 3 of them
    for q in range(3):
        h.apply(1, player=q)
    assert [len(d.values) for d in h.pending] == [7, 7, 4]
    for r in range(3):
        a, b = determinize(g, 0, random.Random(r)), determinize(h, 0, random.Random(r))
        assert [len(d.values) for d in b.pending] == [7, 7, 7]
        assert a.state.to_json() == b.state.to_json()
    own = determinize(h, 2, random.Random(0))
    assert [len(d.values) for d in own.pending] == [7, 7, 4]  # its own decision stays as it is


def test_the_secret_bids_example(sealed):
    assert check_twins(load_ruleset(EXAMPLE), 3, range(4), 3) > 10


@pytest.mark.parametrize("name,players,seeds,every", [
    ("capital_jux", 4, range(2), 9), ("capital_jux", 2, range(2, 4), 9),
    ("guildhall", 3, range(2), 9), ("bruges", 3, range(2), 9),
    ("docs/games/crazy_eights", 3, range(6), 5),  # (its turns' tests are taken as known to the seat deciding)
])
def test_games_the_seat_cannot_tell_apart_give_the_same_samples(name, players, seeds, every):
    assert check_twins(load_ruleset(name), players, seeds, every) > 5


def _combos():
    from jux.interpreter.reading.variants import catalogue

    cat = catalogue("capital_jux")
    by = [sorted(i.name for i in cat.values() if ("power", k) in i.fill_keys)
          for k in ("blue", "pink", "yellow", "green")]
    return [tuple(tiles[j % len(tiles)] for tiles in by) for j in range(4)]


@pytest.mark.parametrize("tiles", _combos()[:3:2])
def test_tile_variants_give_the_same_samples_too(tiles):
    assert check_twins(load_ruleset("capital_jux", tiles), 3, range(1), 9) > 2


# One ruleset per way a value worked out from a secret can reach a local that the rules read
# again after later decisions (issue 39): seat 1's sealed bid, a card no seat sees, seat 1's hand.
FLOWS_HEAD = """\
game:
  name: flows
  players: {min: 2, max: 3}
cards:
  number:
    label: "{value}"
    attributes: {value: [1, 2, 3, 4, 5, 6]}
    copies: 3
zones:
  deck: {visible: none, start: [number]%s}
  hand: {visible: owner, per: player%s}
  shown: {visible: all}
counters:
  bid: {start: 0, per: player, visible: none}
  points: {start: 0, per: player}
  round: 0
functions:
  score(p): points[p]
flow: |
  shuffle deck
  while round < 2 {
    round += 1
    for p in players { draw 2 from deck to hand[p] }
    simultaneously for p in players {
      choose b from range(0, 4) by p prompt "Your sealed bid" label "{b}"
      bid[p] = b
    }
%s
    for p in players { move hand[p] to shown }
  }
"""
DECIDE = """\
for q in players {
  choose keep from ["point", "pass"] by q prompt "Take a point?" label "{keep}"
  if keep == "point" { points[q] += 1 }
}"""
FLOWS = {  # DECIDE: the decisions after which the local is read again
    "an if on a secret": "let x = 0\nif bid[0] > bid[1] { x = 1 }\nDECIDE\npoints[0] += x",
    "set by several statements": "let x = 0\nfor p in players { x += bid[p] }\nDECIDE\npoints[0] += x % 2",
    "a card no seat sees": "let x = top(deck).value\nDECIDE\npoints[0] += x % 2",
    "a sum over a hidden hand": "let x = sum(c.value for c in hand[1])\nDECIDE\npoints[0] += x % 2",
    "a loop over a hidden hand": "for x in [c.value for c in hand[1]] {\nDECIDE\npoints[1] += x % 2\n}",
    "an if on a card no seat sees": "let x = 0\nif top(deck).value > 3 { x = 1 }\nDECIDE\npoints[0] += x",
    "given to a procedure that waits": "ask(bid[0] + bid[1])",  # (its parameter, given again by the caller)
    "given back by a procedure that waits": "let x = asked(bid[1])\nDECIDE\npoints[0] += x % 2",
    # a sealed answer (given in a `simultaneously`), kept in a local past the others' decisions
    "an answer kept in a thread": ("simultaneously for q in players {\nchoose n from [1, 2, 3] by q prompt \"A number\""
                                   " label \"{n}\"\nchoose m from [1, 2] by q prompt \"Another\" label \"{m}\"\n"
                                   "points[q] += (n + m) % 2\n}"),
    "an answer given back in a thread": ("simultaneously for q in players {\nlet n = pick(q)\n"
                                         "choose m from [1, 2] by q prompt \"Another\" label \"{m}\"\n"
                                         "points[q] += (n + m) % 2\n}"),
    "an answer given to a procedure in a thread": ("simultaneously for q in players {\nchoose n from [1, 2, 3] by q"
                                                   " prompt \"A number\" label \"{n}\"\nask_by(q, n)\n}"),
}
PROCEDURES = """\
procedures:
  pick(q): |
    choose n from [1, 2, 3] by q prompt "A number" label "{n}"
    return n
  ask_by(q, x): |
    choose m from [1, 2] by q prompt "Another" label "{m}"
    points[q] += (x + m) % 2
  ask(x): |
    DECIDE
    points[0] += x % 2
  asked(b): |
    DECIDE
    if b > 1 { return 1 }
    return 0
"""
# with `size: hidden` on the deck and the hands: how many cards seat 1 draws follows its sealed bid
SIZED = "draw bid[1] from deck to hand[1]\nlet x = len(deck)\nDECIDE\npoints[0] += x % 2"


def flows_ruleset(tmp, name, sized=False):
    body = (SIZED if sized else FLOWS[name]).replace("DECIDE", DECIDE)
    hide = ", size: hidden" if sized else ""
    text = (FLOWS_HEAD.replace("%s}", hide + "}", 2)
            .replace("%s\n", "\n".join("    " + line for line in body.splitlines()) + "\n", 1))
    text += PROCEDURES.replace("    DECIDE", "\n".join("    " + line for line in DECIDE.splitlines()))
    return rules_of(tmp / name.replace(" ", "_"), text)


@pytest.mark.parametrize("name", sorted(FLOWS))
def test_a_value_worked_out_from_a_secret_by_any_flow_is_not_in_a_sample(name, tmp_path):
    """Set inside an `if` on a secret, by several statements, from a card no seat sees, from a hand
    only one seat sees, as a loop's variable (and its list) over such a hand, as a parameter of a
    procedure that waits, as what such a procedure gives back: the samples of two games the seat
    cannot tell apart are the same."""
    assert check_twins(flows_ruleset(tmp_path, name), 3, range(8), 1, tries=6) > 50


def test_samples_do_not_tell_the_size_of_a_zone_the_seat_may_not_size(tmp_path):
    """Seat 1 draws as many cards as its sealed bid into its hand (`size: hidden`) from the deck
    (`size: hidden`): the other seats know how many cards the two hold together, not how they are
    split, and neither do their samples, nor a local holding len(deck)."""
    rules = flows_ruleset(tmp_path, "a hidden size", sized=True)
    assert check_twins(rules, 3, range(8), 1, tries=6) > 50
    g = Game.new(rules, 3, 1)
    for p in range(3):
        g.apply(3, player=p)  # seat 1 draws 3 more
    sizes = {tuple(len(z) for z in determinize(g, 0, random.Random(r)).state.z) for r in range(30)}
    assert len(sizes) > 5  # split at random
    for z in sizes:
        assert sum(z) == sum(len(x) for x in g.state.z)


REASK = """\
game:
  name: reask
  players: {min: 2, max: 4}
cards:
  number:
    label: "{value}"
    attributes: {value: [1, 2, 3, 4, 5, 6]}
zones:
  deck: {visible: none, start: [number]}
  hand: {visible: owner, per: player}
  table: {visible: all}
counters:
  chips: {start: 0, per: player, visible: owner}
  points: {start: 0, per: player}
functions:
  score(p): points[p]
flow: |
  shuffle deck
  for p in players { draw 1 from deck to hand[p] }
  simultaneously for p in players {
    choose gain from [1, 2, 3] by p prompt "Chips"
    chips[p] += gain
  }
  simultaneously for p in players {
    choose b from range(1, chips[p] + 1) by p prompt "Points"
    points[p] += b
  }
  simultaneously for p in players {
    choose c from [x for x in hand[p] if x.value >= 4] by p prompt "Show a high card"
    move c to table
  }
"""


@pytest.fixture(scope="module")
def reask(tmp_path_factory):
    return rules_of(tmp_path_factory.mktemp("rules") / "reask", REASK)


def test_a_decision_a_sample_cannot_ask_again_is_a_dead_end_not_the_real_one(reask):
    """Seat 1 chooses points up to its secret chips: a sample of seat 0 has chips at their start
    (0), so seat 1 has no option there. The sample's decision is then a dead end (no option: a
    bot values the sample where it stops), never the real decision, whose options tell the
    chips; twins that differ in seat 1's chips give the same samples."""
    from jux.interpreter.bots import make_bot
    from jux.interpreter.bots.answers import answers_of
    from jux.interpreter.bots.sample import SAMPLE_ERRORS, InfoSet

    assert check_twins(reask, 3, range(6), 1, tries=6) > 20
    games = []
    for gain in (0, 2):
        g = Game.new(reask, 3, 1)
        for p in range(3):
            g.apply(gain if p == 1 else 1, player=p)
        games.append(g)
    assert [len(d.values) for d in games[1].pending] == [2, 3, 2]
    for r in range(3):
        a, b = (determinize(g, 0, random.Random(r)) for g in games)
        assert a.state.to_json() == b.state.to_json()
        assert [len(d.values) for d in b.pending] == [2, 0, 0]
        with pytest.raises(SAMPLE_ERRORS):
            answers_of(b.pending[1], random.Random(r))
    bot = make_bot("ismcts:iterations=40", 1)
    assert bot.choose(InfoSet(games[1], 0), games[1].pending[0]) in (0, 1)
    assert make_bot("greedy", 1).choose(InfoSet(games[1], 0), games[1].pending[0]) in (0, 1)


def test_a_sample_in_which_another_seat_could_not_be_asked_is_drawn_again(reask, monkeypatch):
    """Seat 1 shows a card of 4 or more from its hand: seat 0 sees it deciding, so it has one;
    samples give seat 1 such a card (drawn again up to ATTEMPTS times), not any unknown card."""
    from jux.interpreter.bots import sample as sample_module

    found = 0
    most = sample_module.ATTEMPTS
    for seed in range(40):
        g = Game.new(reask, 2, seed)
        for _ in range(2):
            for p in range(2):
                g.apply(0, player=p)
        if [d.player for d in g.pending] != [0, 1]:
            continue  # (both must have a high card)
        found += 1
        high = {c for c in g.rules.cards if g.rules.card_labels[c] in ("4", "5", "6")}
        counts = {}
        for attempts in (most, 1):
            monkeypatch.setattr(sample_module, "ATTEMPTS", attempts)
            dead = 0
            for r in range(30):
                s = sample_module.InfoSet(g, 0).sample(random.Random(r))
                d = s.pending[1]
                if not d.values:
                    dead += 1
                else:
                    assert all(c in high for c in d.values), (seed, r)
            counts[attempts] = dead
        assert counts[1] > 10 and counts[most] <= 3, counts  # (2 of the 5 cards seat 0 does not know are high)
    assert found >= 3


def test_a_sealed_answer_stays_in_its_own_seats_samples(tmp_path):
    """Seat 1 has given its number in a `simultaneously` and waits there for its second choice:
    its own samples keep the number; the others' do not (nor can they tell it)."""
    rules = flows_ruleset(tmp_path, "an answer kept in a thread")
    g = Game.new(rules, 3, 1)
    for p in range(3):
        g.apply(0, player=p)  # the sealed bids
    g.apply(2, player=1)  # seat 1's number: 3
    assert sorted(d.player for d in g.pending) == [0, 1, 2]

    def locals_of(game, seat):
        t = next(t for t in game.state.threads if t[2] is not None and t[2][0] == seat)
        return t[0][-1][2]

    real = locals_of(g, 1)
    n = real.index(3)
    assert locals_of(determinize(g, 1, random.Random(0)), 1)[n] == 3
    for seat in (0, 2):
        assert locals_of(determinize(g, seat, random.Random(0)), 1)[n] is None
