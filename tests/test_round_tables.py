"""Every table the rules show agrees with the state: random games of every game, and of the power
tiles that change Capital Jux's round end (sentinel, merchant, outsider, aristocrat, agent,
infiltrator, discoverer), recompute each figure of each round-end table here, independently of the
rules' own functions, from the state just before and just after the resolve and after the score
bonus, and compare.

The states are caught by a probe variant (written here, applied after the tiles) that wraps the
round end's steps with a decision of one option, so the game stops exactly there."""
from __future__ import annotations

import random

import pytest

from jux import Game, load_ruleset
from jux.interpreter.bots.random_bot import random_picker

EDITION_PROBE = """
variant:
  name: probe
  game: capital_jux
  title: Probe
  requires: [power_tiles]
  overrides: [resolve, score_bonus_all]
procedures:
  resolve: |
    choose x from ["before"] by start_player prompt "probe: before resolve"
    previous()
    choose x from ["after"] by start_player prompt "probe: after resolve"
  score_bonus_all: |
    previous()
    choose x from ["after"] by start_player prompt "probe: after score bonus"
"""

BASE_PROBE = """
variant:
  name: probe
  game: capital_jux
  title: Probe
  overrides: [check_limits, bonus_cards]
procedures:
  check_limits: |
    choose x from ["before"] by start_player prompt "probe: before resolve"
    previous()
    choose x from ["after"] by start_player prompt "probe: after resolve"
  bonus_cards: |
    previous()
    choose x from ["after"] by start_player prompt "probe: after score bonus"
"""

COLOURS = ["blue", "pink", "yellow", "green"]
OUTSIDER = "outsider"  # the outsider tile's district of the home base, resolved against the lowest MAX
ROUND_END_TILES = [(b, p, y, g) for y in ("sentinel", "merchant", "aristocrat", "follower")
                   for b in ("agent", "infiltrator", "outsider") for p, g in (("cleric", "discoverer"),
                                                                              ("mentalist", "scholar"))]


def _zones(view, name):
    """The cards of the zones called name, by key (seat or item; None for a single zone)."""
    return {z["key"] if z["key"] is not None else z["owner"]: z["cards"] for z in view["zones"] if z["name"] == name}


def _val(card, edition):
    """What a card counts for, from its marks: an aristocrat token's value, 0 when a sentinel
    token covers it."""
    marks = card.get("marks") or {}
    if edition and marks.get("aristocrat_token"):
        return marks["aristocrat_token"]
    if edition and marks.get("sentinel_gold") == 2:
        return 0
    return card["value"]


def _snapshot(game, edition):
    v = game.view(None)
    home = _zones(v, "hometown")
    capital = _zones(v, "capital")[None]
    adds = _zones(v, "agent_tiles" if edition else "modifiers")
    gold = v["counters"]["gold"]
    return {
        "home": {p: {d: [c for c in home[p] if c["colour"] == d] for d in COLOURS + [OUTSIDER]} for p in home},
        "limit": {d: sum(_val(c, edition) for c in capital if c["colour"] == d)
                  + sum(c["value"] for c in adds.get(d, ())) for d in COLOURS},
        "capital": {d for d in COLOURS if any(c["colour"] == d for c in capital)},
        "discard": {c["id"] for c in _zones(v, "discard")[None]},
        "gold": list(gold),
        "tokens": {p: {c["id"] for c in home[p] if (c.get("marks") or {}).get("sentinel_gold") == 1} for p in home},
        "bonus": {p: [(c["id"], c["label"]) for c in cs] for p, cs in _zones(v, "bonus").items()},
        "val": lambda c: _val(c, edition),
    }


def _expected(before, after, bonus_end, edition, outsider=False):
    """The round-end table's rows, worked out from the three snapshots."""
    rows = []
    for p in sorted(before["home"]):
        row, spent_total = [f"Player {p + 1}"], 0
        for d in COLOURS + ([OUTSIDER] if outsider else []):
            cards = before["home"][p][d]
            was = sum(before["val"](c) for c in cards)
            if d == OUTSIDER:  # compared with the lowest MAX of a capital district with cards
                limit = min((after["limit"][x] for x in after["capital"]), default=None)
            else:
                limit = before["limit"][d] if not edition else after["limit"][d]
            now_cards = after["home"][p][d]
            now = sum(after["val"](c) for c in now_cards)
            lost = sum(1 for c in cards if c["id"] in after["discard"])
            # sentinel tokens that left their card (all are spent before a colour district is
            # discarded; those on the outsider district are never spent, ruling B5)
            covered = 0 if d == OUTSIDER else \
                sum(1 for c in cards if c["id"] in before["tokens"][p] and c["id"] not in after["tokens"][p])
            if not edition:
                cell = "-" if was == 0 else f"{was}/{limit}" + (" discarded" if lost else " kept (gold)" if was > limit else "")
                row.append(cell)
                continue
            spent = covered + (was - limit if d != OUTSIDER and was > limit and not lost and not covered else 0)
            spent_total += spent
            if not cards:
                row.append("-")
                continue
            cell = (f"{was}" if limit is None else f"{was}/{limit}") + (
                " discarded" if lost == len(cards) else f" {lost} discarded" if lost
                else " kept" if limit is not None and was > limit else "")
            cell += f" ({spent} gold spent)" if spent else ""
            cell += f", now {now}" if not lost and now != was else ""
            row.append(cell)
        sheet_spent = before["gold"][p] - after["gold"][p]
        if edition:
            # what the districts say was spent is what left the player: gold from the sheet and
            # tokens from cards
            lost_tokens = {c["id"] for c in before["home"][p][OUTSIDER]}
            assert spent_total == sheet_spent + sum(1 for t in before["tokens"][p]
                                                    if t not in after["tokens"][p] and t not in lost_tokens)
            won = bonus_end["gold"][p] - after["gold"][p] + len(bonus_end["tokens"][p] - after["tokens"][p])
            row += [str(spent_total), str(won)]
        else:
            row.append(str(sheet_spent))
        row.append(", ".join(label for c, label in bonus_end["bonus"][p] if (c, label) not in after["bonus"][p]))
        rows.append(row)
    return rows


def _play_and_check(rules, n, seed, edition, outsider=False):
    game = Game.new(rules, players=n, seed=seed)
    rng = random.Random(seed)
    snaps, checked = {}, 0
    while not game.over:
        d = game.next_decision()
        if d.prompt.startswith("probe: "):
            snaps[d.prompt[7:]] = _snapshot(game, edition)
            game.apply(d.options[0].id, player=d.player, decision=d.id)
            if d.prompt == "probe: after score bonus":  # the table is shown right after
                table = game.view(None)["tables"][checked]
                assert table["title"].startswith(f"Round {checked + 1}: ")
                expected = _expected(snaps["before resolve"], snaps["after resolve"], snaps["after score bonus"],
                                     edition, outsider)
                assert table["rows"] == expected, (seed, table["title"])
                checked += 1
            continue
        ids = [o.id for o in d.options]
        choice = rng.sample(ids, rng.randint(d.min, d.max)) if d.max > 1 or d.min == 0 else rng.choice(ids)
        game.apply(choice, player=d.player, decision=d.id)
    assert checked == 3  # one table per round, each checked
    return game


@pytest.mark.parametrize("tiles", ROUND_END_TILES, ids=["-".join(t) for t in ROUND_END_TILES])
def test_the_round_end_table_is_what_happened_with_tiles(tmp_path, tiles):
    probe = tmp_path / "probe.yaml"
    probe.write_text(EDITION_PROBE)
    rules = load_ruleset("capital_jux", tiles + (str(probe),))
    i = ROUND_END_TILES.index(tiles)
    for n in (2, 3, 4):
        _play_and_check(rules, n, 100 * i + n, edition=True, outsider="outsider" in tiles)


def test_the_round_end_table_of_the_base_game_is_what_happened(tmp_path):
    probe = tmp_path / "probe.yaml"
    probe.write_text(BASE_PROBE)
    rules = load_ruleset("capital_jux", (str(probe),))
    for seed in range(12):
        _play_and_check(rules, 2 + seed % 3, seed, edition=False)


def test_bruges_final_scoring_table_totals_are_the_final_scores():
    rules = load_ruleset("bruges")
    for seed in range(4):
        game = Game.new(rules, players=2 + seed % 3, seed=seed, start=False)
        game.autoplay(pick=random_picker(random.Random(seed).random))
        (table,) = [t for t in game.view(None)["tables"] if t["title"] == "Final scoring"]
        cols = table["columns"]
        for p, row in enumerate(table["rows"]):
            parts = [int(row[cols.index(k)]) for k in cols[1:cols.index("total")]]
            assert sum(parts) == int(row[cols.index("total")]) == game.scores[p]
            assert int(row[cols.index("guilders")]) == game.counter("guilders", p)
