"""Property tests: random games of Capital Jux (2 to 4 players) played through the public API.

Hypothesis draws the seed, the number of players and every answer (st.data(), one draw per
decision), so a failing game shrinks towards seed 0 and the first options. Each property plays
whole games and checks an invariant at every decision:

1. every game ends within MAX_DECISIONS decisions, with a score per seat and winners;
2. every card is in exactly one place (zones are a permutation of the card table, loc agrees);
   the gold discs are conserved;
3. the options offered are exactly the legal plays, and illegal answers are refused without
   changing anything;
4. a record replays to the identical end;
5. save/load at a random decision, State JSON round trip, and independent copies;
6. no view or log line shows a card its player may not see (knowledge tracked by the test from
   the history of zones, not from the engine's knowledge masks), and views hide nothing a player
   knows under the ruling "knowledge follows the zone a card enters";
7. determinism: the same seed and answers give the same states.

Settings profiles (number of examples, derandomized CI runs) are in tests/conftest.py.
"""
from __future__ import annotations

import itertools
import json
import re
from collections import Counter

import pytest
from hypothesis import event, given, note
from hypothesis import strategies as st

from jux.interpreter.engine.game import Game
from jux.interpreter.engine.ruleset import load_ruleset
from jux.interpreter.errors import IllegalAnswer
from jux.interpreter.runtime.state import State

RULES = load_ruleset("capital_jux")
CARDS = RULES.cards
LABEL = RULES.card_labels
ATTR = RULES.card_attrs
COLOURS = ["blue", "pink", "yellow", "green"]
PLACES = ("hometown", "capital")
MAX_DECISIONS = 500
GOLD_DISCS = 8

# Zone kinds, by base name. Public: everyone sees the cards. Decks: nobody does. Private: the owner
# (and whoever held a card earlier). Bonus cards are taken openly from the capital (a ruling in
# game.yaml), so everyone knows them although the zone is face down.
PUBLIC = {"capital", "discard", "hometown", "starting_draw"}
DECKS = {"deck", "modifier_deck"}
PRIVATE = {"dealt", "chosen", "hand"}
BONUS = {"bonus"}
MODIFIERS = {"modifiers"}

MODIFIER_CARDS = [c for c in CARDS if ATTR[c]["kind"] == "modifier"]
assert len({LABEL[c] for c in MODIFIER_CARDS}) == len(MODIFIER_CARDS), "modifier labels are not unique"

players_st = st.sampled_from([2, 3, 4])
seeds_st = st.integers(0, 2**32 - 1)


# ---------------------------------------------------------------------------- helpers


class Zones:
    """Zone indices of a game by display name ('hand[1]', 'modifiers[blue]')."""

    def __init__(self, n: int):
        self.n = n
        self.names = RULES.layout.zone_names(n)
        self.index = {name: i for i, name in enumerate(self.names)}
        self.kind = [RULES.layout.zone_of(zi) for zi in range(len(self.names))]  # (base, key, owner)

    def cards(self, game, name: str) -> list:
        return game.state.z[self.index[name]]


def decision_kind(d) -> str:
    """Which rule of the base game asks this decision (told apart by the shape of its options)."""
    v = d.values
    if d.many:
        return "draft"
    if v and all(type(x) is tuple for x in v):
        return "play"
    if v and all(type(x) is bool for x in v):
        return "spend"
    if v and all(isinstance(x, str) for x in v):
        return "agent" if sorted(v) == sorted(COLOURS) else "cleric"
    return "other"


def phase(game) -> str:
    if game.over:
        return "over"
    kinds = {decision_kind(d) for d in game.pending}
    if kinds == {"draft"}:
        return "draft"
    if kinds == {"spend"}:
        return "limits"
    return "play"


def draw_answer(data, game):
    """Draw a pending decision and a legal answer to it."""
    pending = game.pending
    i = data.draw(st.integers(0, len(pending) - 1), label="which decision") if len(pending) > 1 else 0
    d = pending[i]
    n = len(d.values)
    if d.many:
        hi = min(d.max, n)
        k = d.min if d.min == hi else data.draw(st.integers(d.min, hi), label="how many")
        # one draw per answer (the index of a k-subset) keeps the choice sequence short
        combos = list(itertools.combinations(range(n), k))
        ans = list(combos[data.draw(st.integers(0, len(combos) - 1), label=f"p{d.player} picks subset")])
    elif d.min == 0:
        ans = data.draw(st.none() | st.integers(0, n - 1), label=f"p{d.player} answers")
    else:
        ans = data.draw(st.integers(0, n - 1), label=f"p{d.player} answers")
    return d, ans


def play(game, data, on_step=None, limit=MAX_DECISIONS, stop=None) -> list:
    """Answer decisions with drawn legal answers until the game ends (or `stop` answers are given).

    on_step(game, moves) runs at every decision point and once at the end. Returns the moves as
    (player, decision id, answer).
    """
    moves = []
    while not game.over and (stop is None or len(moves) < stop):
        assert len(moves) < limit, f"the game has not ended after {limit} decisions"
        if on_step:
            on_step(game, moves)
        d, ans = draw_answer(data, game)
        game.apply(ans, decision=d.id)
        moves.append((d.player, d.id, ans))
    if on_step:
        on_step(game, moves)
    return moves


def replay(game, moves) -> None:
    for player, did, ans in moves:
        game.apply(ans, decision=did)


def pending_summary(game) -> list:
    return [(d.player, d.id, d.prompt, d.min, d.max, d.many, [o.label for o in d.options]) for d in game.pending]


def end_summary(game) -> dict:
    return {"state": game.state.to_json(), "over": game.over, "scores": game.scores,
            "winners": game.winners, "answers": game.answers}


def new_game(n, seed):
    note(f"Game.new(load_ruleset('capital_jux'), players={n}, seed={seed})")
    return Game.new(RULES, n, seed)


# ---------------------------------------------------------------------------- 1. games end


@given(n=players_st, seed=seeds_st, data=st.data())
def test_every_game_ends_with_scores_and_winners(n, seed, data):
    game = new_game(n, seed)
    zones = Zones(n)
    moves = play(game, data)
    assert game.over and not game.pending
    assert len(moves) <= MAX_DECISIONS
    scores = game.scores
    assert len(scores) == n and all(isinstance(s, int) for s in scores)
    # the base game's score: hometown and bonus card values plus gold
    gold = game.counter("gold")
    for p in range(n):
        cards = zones.cards(game, f"hometown[{p}]") + zones.cards(game, f"bonus[{p}]")
        assert scores[p] == sum(ATTR[c]["value"] for c in cards) + gold[p]
    winners = game.winners
    assert winners and set(winners) <= set(range(n))
    assert all(scores[w] == max(scores) for w in winners)
    assert game.view(0)["scores"] == scores
    with pytest.raises(IllegalAnswer):
        game.apply(0)


# ---------------------------------------------------------------------------- 2. cards


def check_conservation(game, moves):
    S = game.state
    everything = [c for zone in S.z for c in zone]
    counts = Counter(int(c) for c in everything)
    dup = sorted(c for c, k in counts.items() if k > 1)
    missing = sorted(set(range(len(CARDS))) - set(counts))
    assert not dup and not missing, f"after {len(moves)} answers: duplicated {dup}, missing {missing}"
    assert sorted(counts) == list(range(len(CARDS)))
    for zi, zone in enumerate(S.z):
        for c in zone:
            assert S.loc[c] == zi, f"card {int(c)} ({LABEL[c]}) is in zone {zi} but loc says {S.loc[c]}"
    assert len(S.loc) == len(CARDS)
    gold = game.counter("gold")
    assert game.counter("gold_pile") + sum(gold) == GOLD_DISCS and min(gold) >= 0


@given(n=players_st, seed=seeds_st, data=st.data())
def test_every_card_is_in_exactly_one_place(n, seed, data):
    game = new_game(n, seed)
    play(game, data, on_step=check_conservation)


# ---------------------------------------------------------------------------- 3. options


def check_options(game, zones):
    pending = game.pending
    if not pending:
        return
    kinds = [decision_kind(d) for d in pending]
    assert "other" not in kinds, f"an unexpected decision: {pending}"
    if any(k != "draft" for k in kinds):
        assert len(pending) == 1, f"only the draft is simultaneous: {pending}"
    assert len({d.player for d in pending}) == len(pending), "a player has two decisions at once"
    for d, kind in zip(pending, kinds):
        p = d.player
        labels = [o.label for o in d.options]
        assert [o.id for o in d.options] == list(range(len(d.values)))
        assert not any("face-down card" in text for text in labels + [d.prompt]), \
            f"player {p} is asked about a card they do not know: {d}"
        if kind == "draft":
            dealt = zones.cards(game, f"dealt[{p}]")
            assert sorted(map(int, d.values)) == sorted(map(int, dealt))
            assert d.min == d.max == min(2, len(dealt)) > 0
            assert labels == [LABEL[c] for c in d.values]
        elif kind == "play":
            hand = zones.cards(game, f"hand[{p}]")
            want = sorted((int(c), w) for c in hand for w in PLACES)
            got = sorted((int(c), w) for c, w in d.values)
            assert got == want, f"player {p} may play {want}, is offered {got}"
            assert d.min == d.max == 1 and not d.many
            for o in d.options:
                assert LABEL[o.value[0]] in o.label and o.value[1] in o.label
        elif kind == "agent":
            assert zones.cards(game, "modifier_deck"), "the agent draws from an empty modifier deck"
            assert list(d.values) == COLOURS and d.min == d.max == 1
            top = zones.cards(game, "modifier_deck")[-1]
            assert LABEL[top] in d.prompt  # the agent looks at the modifier before placing it
        elif kind == "cleric":
            capital = zones.cards(game, "capital")
            want = [c for c in COLOURS if c != "pink" and any(ATTR[x]["colour"] == c for x in capital)]
            assert list(d.values) == want and d.min == d.max == 1
        elif kind == "spend":
            assert sorted(d.values) == [False, True] and d.min == d.max == 1
            spend = next(o.label for o in d.options if o.value is True)
            m = re.search(r"spend (\d+) gold to keep your (\w+) cards", spend)
            assert m, f"unexpected label {spend!r}"
            over, colour = int(m.group(1)), m.group(2)
            home = sum(ATTR[c]["value"] for c in zones.cards(game, f"hometown[{p}]") if ATTR[c]["colour"] == colour)
            cap = sum(ATTR[c]["value"] for c in zones.cards(game, "capital") if ATTR[c]["colour"] == colour)
            cap += sum(ATTR[c]["value"] for c in zones.cards(game, f"modifiers[{colour}]"))
            assert over == home - cap > 0 and game.counter("gold", p) >= over


def illegal_answers(d) -> list:
    n = len(d.values)
    bad = [n, -1, n + 5, True, "no such option", 1.0, {"x": 1}]
    if d.many:
        k = d.min
        ok = list(range(k))
        bad += [ok[:-1] + [n], ok[:-1] + [-1]]  # out of range, right count
        if k >= 2:
            bad.append([0] * k)  # duplicate, right count
            bad.append(ok[:-1])  # too few
        if n > k:
            bad.append(list(range(k + 1)))  # too many
        bad += [[], None, (n,), [True] * k, [str(i) for i in range(k)]]
        if k == 1:
            bad.append([0, 0])
        else:
            bad += [0, (0,)]  # one option where k are needed
    else:
        bad += [[], None, [0, 0], [n]]
        if n >= 2:
            bad.append([0, 1])
    return bad


def check_illegal(game):
    pending = game.pending
    if not pending:
        return
    before = game.save()
    before_log = list(game.state.log)
    before_pending = pending_summary(game)

    def unchanged(what):
        # the save holds the record and the whole state, threads and pending decisions included
        assert game.save() == before, f"{what()} changed the game"
        assert game.state.log == before_log, f"{what()} changed the log"

    for d in pending:
        for bad in illegal_answers(d):
            with pytest.raises(IllegalAnswer):
                game.apply(bad, decision=d.id)
            unchanged(lambda: f"answer {bad!r} to {d}")
        with pytest.raises(IllegalAnswer):
            game.apply(0, decision=max(x.id for x in pending) + 1000)
        unchanged(lambda: "an answer to a decision that does not exist")
    deciding = {d.player for d in pending}
    for p in range(game.state.n):
        if p not in deciding:
            with pytest.raises(IllegalAnswer):
                game.apply(0, player=p)
            unchanged(lambda: f"an answer by player {p}, who is not deciding")
    if len(pending) > 1:
        with pytest.raises(IllegalAnswer):
            game.apply(0)
        unchanged(lambda: "an answer without saying whose, with several players deciding")
    assert pending_summary(game) == before_pending, "illegal answers changed the pending decisions"


@given(n=players_st, seed=seeds_st, data=st.data())
def test_options_are_exactly_the_legal_plays_and_illegal_answers_change_nothing(n, seed, data):
    game = new_game(n, seed)
    zones = Zones(n)
    seen = Counter()

    def on_step(g, moves):
        seen.update(decision_kind(d) for d in g.pending)
        check_options(g, zones)
        check_illegal(g)

    play(game, data, on_step=on_step)
    assert seen["draft"] and seen["play"]
    event(f"{n} players")
    for kind in ("agent", "cleric", "spend"):
        event(f"{kind} decisions: {'some' if seen[kind] else 'none'}")
    event(f"modifier deck emptied: {not zones.cards(game, 'modifier_deck')}")
    with pytest.raises(IllegalAnswer):
        game.apply(0)


# ---------------------------------------------------------------------------- 4. records


@given(n=players_st, seed=seeds_st, data=st.data())
def test_a_record_replays_to_the_identical_end(n, seed, data):
    game = new_game(n, seed)
    play(game, data)
    record = json.loads(json.dumps(game.record()))
    again = Game.from_record(record)
    assert again.state.to_json() == game.state.to_json()
    assert again.scores == game.scores and again.winners == game.winners
    assert again.log_lines() == game.log_lines()
    assert again.over and again.record() == game.record()
    for p in range(n):
        assert again.log_lines(p) == game.log_lines(p)
        assert again.view(p) == game.view(p)
    quiet = Game.from_record(record, log=False)
    assert quiet.state.to_json() == game.state.to_json()


# ---------------------------------------------------------------------------- 5. saves and copies


def check_state_json_round_trip(game, moves):
    S = game.state
    d = S.to_json()
    S2 = State.from_json(json.loads(json.dumps(d)), RULES.cards, RULES.visibility(S.n))
    assert S2.to_json() == d
    assert S2.loc == S.loc and S2.k == S.k and S2.z == S.z and S2.v == S.v
    assert all(type(a) is type(b) for z1, z2 in zip(S.z, S2.z) for a, b in zip(z1, z2))


@given(n=players_st, seed=seeds_st, data=st.data())
def test_save_and_load_at_a_random_decision(n, seed, data):
    # a whole game first (checking the State JSON round trip at every decision), then a save
    # point drawn over its real length
    full = play(new_game(n, seed), data, on_step=check_state_json_round_trip)
    at = data.draw(st.integers(0, len(full)), label="save after answers")
    game = Game.new(RULES, n, seed)
    replay(game, full[:at])

    save = json.loads(json.dumps(game.save()))
    loaded = Game.from_record(save)
    assert loaded.state.to_json() == game.state.to_json()
    assert pending_summary(loaded) == pending_summary(game)
    assert loaded.log_lines() == game.log_lines()
    assert loaded.save() == save

    # a state read back from JSON continues like the original (no log: from_json has none)
    restored = Game(RULES, State.from_json(save["state"], RULES.cards, RULES.visibility(n)), seed, game.names)
    restored.answers = [list(a) for a in save["answers"]]
    assert pending_summary(restored) == pending_summary(game)

    # a copy is independent: playing it to the end (with new answers) leaves the original as it was
    copy = game.copy()
    assert copy.state.to_json() == game.state.to_json()
    moves = play(copy, data)
    assert game.save() == save
    assert loaded.save() == save
    copy_end = end_summary(copy)

    # ... and the original, the loaded game and the restored state, given the same answers,
    # reach the same end as the copy; the copy is not touched by them
    for g in (game, loaded, restored):
        replay(g, moves)
        assert end_summary(g) == copy_end
    assert loaded.log_lines() == game.log_lines()
    assert end_summary(copy) == copy_end


@given(n=players_st, seed=seeds_st, data=st.data())
def test_copies_do_not_share_state(n, seed, data):
    """At every decision: answering on a copy leaves the original as it was; the original given
    the same answer then matches the copy; vandalising the copy afterwards changes nothing."""
    game = new_game(n, seed)
    while not game.over:
        assert len(game.answers) < MAX_DECISIONS
        before = game.save()
        copy = game.copy()
        d, ans = draw_answer(data, copy)
        copy.apply(ans, decision=d.id)
        assert game.save() == before, f"answering {ans!r} on a copy changed the original"
        mine = next(x for x in game.pending if x.id == d.id)
        mine.answer(ans)  # Decision.answer, as game.apply would
        assert game.state.to_json() == copy.state.to_json()
        assert game.answers == copy.answers
        after = game.save()
        with pytest.raises(IllegalAnswer):
            mine.answer(ans)  # a decision answers once
        assert game.save() == after
        S = copy.state
        for zone in S.z:
            zone.reverse()
            zone.append(zone[0] if zone else None)
        S.v[:] = [-999] * len(S.v)
        S.k[:] = [-1] * len(S.k)
        S.loc[:] = [0] * len(S.loc)
        for t in S.threads:
            for f in t[0]:
                f[2][:] = [None] * len(f[2])
            t[1] = -1
        copy.answers.append("vandal")
        assert game.save() == after, "changing a copy changed the original"


# ---------------------------------------------------------------------------- 6. hidden information


class Knowledge:
    """Who may know each card, derived only from the history of zones at each decision.

    A card in a public zone is known to all; in a deck, to nobody (decks are shuffled before any
    decision follows a card's return). Bonus cards come from the capital, so all know them. A
    modifier above a capital card is known to the player whose answer put it there; after the
    round-end reveal, to all. The agent knows the modifier it has drawn while it places it.

    A card in a player's dealt, chosen or hand zone is known to that player; two masks say who
    else may know it:
    - may: also everyone who held it earlier (cards passed in the draft). A view showing a card
      outside this mask is a leak, whatever the rulings.
    - exact: the rule of docs/language.md ("Knowledge that follows the card"): also the player
      who passed it there from their own zone (a pack passed in the draft, the last pass kept in
      the hand), until a card leaves that zone unseen (a choice placed face down): then the
      players who passed cards cannot see which were kept (tests/scenarios/
      draft_choices_stay_secret.yaml). Views must show exactly the cards in this mask.
    """

    def __init__(self, n: int):
        self.n = n
        self.all = (1 << n) - 1
        self.zones = Zones(n)
        self.may = [0] * len(CARDS)
        self.exact = [0] * len(CARDS)
        self.on_modifiers = set()
        self.placer = {}
        self.round = None
        self.phase = None
        self.agent_top = None  # the modifier an agent looked at, at the last decision
        self.loc = None  # each card's zone at the last decision

    def may_see(self, p: int, c: int) -> bool:
        return bool((self.may[c] >> p) & 1)

    def knows(self, p: int, c: int) -> bool:
        return bool((self.exact[c] >> p) & 1)

    def known_modifiers(self, p: int) -> set:
        return {m for m in MODIFIER_CARDS if self.may_see(p, m)}

    def observe(self, game, last_player):
        S = game.state
        z = self.zones
        ph = phase(game)
        revealed = ph in ("limits", "over")
        now_on_modifiers = set()
        may, exact = self.may, self.exact
        self.mixed = set() if self.loc is None else {
            a for a, b in zip(self.loc, S.loc) if a != b and z.kind[b][0] not in PUBLIC | BONUS}
        for zi, zone in enumerate(S.z):
            base, key, owner = z.kind[zi]
            for c in zone:
                if base in PUBLIC or base in BONUS:
                    may[c] = exact[c] = self.all
                elif base in DECKS:
                    may[c] = exact[c] = 0
                elif base in PRIVATE:
                    may[c] |= 1 << owner
                    exact[c] = (1 << owner) | self._followed(c, zi, S)
                elif base in MODIFIERS:
                    now_on_modifiers.add(c)
                    if c not in self.on_modifiers:
                        assert last_player is not None, "a modifier lies above a capital card before any decision"
                        self.placer[c] = last_player
                        may[c] = exact[c] = 1 << last_player
                    if revealed:
                        may[c] = exact[c] = self.all
                else:
                    raise AssertionError(f"a zone the test does not know: {base}")
        self.on_modifiers = now_on_modifiers
        self.loc = list(S.loc)
        self.agent_top = None
        for d in game.pending:
            if decision_kind(d) == "agent":
                top = z.cards(game, "modifier_deck")[-1]
                may[top] |= 1 << d.player
                exact[top] |= 1 << d.player
                self.agent_top = top
        self.phase = ph
        self.round = game.counter("round")


def _followed(self, c: int, zi: int, S) -> int:
    """Who else than its owner knows card c, now in private zone zi (Knowledge.exact)."""
    if self.loc is None:
        return 0
    a = self.loc[c]
    base, key, owner = self.zones.kind[a]
    if a != zi:  # it moved: from a private zone its holder follows it, from a deck nobody
        return (1 << owner) if base in PRIVATE else 0
    # it stayed: a card that left the zone unseen (not into a public zone) mixes it for the others
    if zi in self.mixed:
        return 0
    return self.exact[c] & ~(1 << owner)


Knowledge._followed = _followed


def check_view(game, know: Knowledge, p: int):
    S = game.state
    view = game.view(p)
    assert view["player"] == p
    assert len(view["zones"]) == len(S.z)
    for zi, (vz, zone) in enumerate(zip(view["zones"], S.z)):
        name = know.zones.names[zi]
        assert len(vz["cards"]) == len(zone)
        for pos, (info, c) in enumerate(zip(vz["cards"], zone)):
            where = f"{LABEL[c]} (card {int(c)}) in {name} at position {pos} after {len(game.answers)} answers"
            if info.get("hidden"):
                assert info == {"hidden": True}, f"a hidden card in {name} shows {info}"
                assert not know.knows(p, c), f"player {p} should see {where}, but it is hidden"
            else:
                assert know.may_see(p, c), f"LEAK: player {p} sees {where}, but may not"
                assert know.knows(p, c), (
                    f"player {p} sees {where}: they held it before, but it has left their sight "
                    "since (docs/language.md, Knowledge that follows the card)")
                assert info["id"] == c and info["label"] == LABEL[c]
    for d in view["decisions"]:
        assert d["player"] == p, f"player {p} sees player {d['player']}'s decision"
    assert {d["id"] for d in view["decisions"]} == {d.id for d in game.pending_for(p)}
    assert len(view["log"]) == len(game.state.log)
    if not game.over:
        assert view["scores"] is None
    return view


def check_log(game, know: Knowledge, p: int, lines: list, start: int, allowed: set):
    for line in lines[start:]:
        for m in MODIFIER_CARDS:
            if LABEL[m] in line:
                assert m in allowed, (
                    f"player {p}'s log says {line!r} after {len(game.answers)} answers, but they may "
                    f"not know {LABEL[m]} (card {int(m)})")


@given(n=players_st, seed=seeds_st, data=st.data())
def test_no_view_shows_a_card_its_player_may_not_see(n, seed, data):
    game = new_game(n, seed)
    know = Knowledge(n)
    state = {"log": 0}

    def on_step(g, moves):
        before = {p: know.known_modifiers(p) for p in range(n)}
        # the modifiers that may have been revealed at a round end since the last decision
        ended = set()
        prev_round, prev_phase = know.round, know.phase
        cur_on_modifiers = set(know.on_modifiers)
        if know.agent_top is not None:
            cur_on_modifiers.add(know.agent_top)
        know.observe(g, moves[-1][0] if moves else None)
        if prev_round is not None and (know.round != prev_round or
                                       (prev_phase not in ("limits", "over") and know.phase in ("limits", "over"))):
            ended = cur_on_modifiers
        for p in range(n):
            view = check_view(g, know, p)
            check_log(g, know, p, view["log"], state["log"], before[p] | know.known_modifiers(p) | ended)
        state["log"] = len(g.state.log)

    play(game, data, on_step=on_step)
    # the view of nobody in particular (None) is the full truth
    assert all(not c.get("hidden") for z in game.view(None)["zones"] for c in z["cards"])


# ---------------------------------------------------------------------------- 7. determinism


@given(n=players_st, seed=seeds_st, data=st.data())
def test_same_seed_and_answers_give_the_same_game(n, seed, data):
    game = new_game(n, seed)
    states = []
    moves = play(game, data, on_step=lambda g, m: states.append(g.state.to_json()))
    again = Game.new(RULES, n, seed)
    assert again.state.to_json() == states[0]
    for i, (player, did, ans) in enumerate(moves):
        again.apply(ans, decision=did)
        assert again.state.to_json() == states[i + 1], f"the games differ after answer {i + 1}"
    assert again.log_lines() == game.log_lines()
    assert again.scores == game.scores


# ---------------------------------------------------------------------------- API edge found while testing


def test_an_answer_naming_another_players_decision_is_refused():
    game = Game.new(RULES, 3, 0)
    theirs = next(d for d in game.pending if d.player == 0)
    before = game.save()
    with pytest.raises(IllegalAnswer):
        game.apply([0, 1], player=1, decision=theirs.id)
    assert game.save() == before
