"""What `jux new` writes: a minimal ruleset with one scenario, and a minimal tile for a game. Each
file starts with the schema line pointing at the schema inside the installed package (an absolute
path, a form the YAML language server reads), so an editor checks it from any folder. Nothing here
names a game of jux's own: the game's name is the author's."""
from __future__ import annotations

from pathlib import Path

SCHEMA_DIR = Path(__file__).resolve().parent.parent / "schema"


def schema_files() -> dict:
    """kind ('ruleset', 'scenario') -> the schema file inside the installed package."""
    return {kind: SCHEMA_DIR / f"{kind}.schema.json" for kind in ("ruleset", "scenario")}


def schema_line(kind: str) -> str:
    return f"# yaml-language-server: $schema={schema_files()[kind].as_posix()}\n"


GAME = """\
# {name}: a small card game to start from (jux new game). Each player draws 3 cards, then plays
# one card a turn for 3 rounds; the highest total of the cards played wins. docs/language.md
# describes every section; `jux validate {folder}` checks it, `jux play {folder}` plays it.
game:
  name: {name_value}
  title: {title_value}
  players: {{min: 2, max: 4}}
  text: Play one card a turn for three rounds; the highest total of the cards you played wins.

cards:
  card:
    label: "card {{value}}"
    attributes:
      value: [1, 2, 3, 4, 5, 6, 7, 8, 9]
    copies: 2

zones:
  deck: {{visible: none, start: [card], text: "The cards not dealt"}}
  hand: {{per: player, visible: owner, text: "Your cards"}}
  played: {{per: player, visible: all, text: "The cards you played"}}

counters:
  points: {{per: player, start: 0, text: "The total of the cards you played"}}

functions:
  score(p): points[p]

procedures:
  play(p):
    text: "Play a card from your hand: its value is added to your points."
    do: |
      choose c from hand[p] by p prompt "Play a card" label "{{c}}"
      move c to played[p]
      points[p] += c.value
      log "{{p}} plays {{c}}."

flow: |
  shuffle deck
  for p in players {{
    draw 3 from deck to hand[p]
  }}
  for round in range(3) {{
    for p in players {{
      play(p)
    }}
  }}
"""

SCENARIO = """\
# A scenario of {name} (docs/testing.md): `jux test {folder}` runs every file of scenarios/.
title: {title} - a card played adds its value to the player's points
ruleset: ..                     # the ruleset: this file's folder's parent
players: 2
names: [Ann, Bob]
zones:
  "hand[0]": [card 3, card 7]   # the other cards stay where the ruleset starts them (the deck)
run: play                       # the procedure run from this position
args: [0]                       # its argument: seat 0 (Ann)
answers:
  - {{player: 0, options: [card 3, card 7], choose: card 7}}
expect:
  zones: {{"played[0]": [card 7], "hand[0]": [card 3]}}
  counters: {{points: [7, 0]}}
  log: [Ann plays card 7]
"""

TILE = """\
# {name}: a variant of {game} (jux new tile). It changes nothing yet: add sections (cards, zones,
# counters, procedures, functions) and name a base rule in `overrides` to replace it, calling
# previous(...) for the base's own (docs/authoring.md). `jux validate {file}` checks it;
# `jux play {where} --tiles {file}` plays it.
variant:
  name: {name_value}
  game: {game_value}
  title: {title_value}
  text: What the variant changes, in the words of a rulebook.
"""


def plain(text: str) -> str:
    """text as a YAML value that reads back as that text: quoted where YAML would read it as
    something else (null, true, yes, a number)."""
    import json

    import yaml

    try:
        same = yaml.safe_load(text) == text
    except yaml.YAMLError:
        same = False
    return text if same else json.dumps(text)


def rule_name(name: str) -> str:
    """The name a rule file gives what `jux new` writes: the file's or folder's name, with '_' for
    '-' (a name in the rules is a letter or '_', then letters, digits or '_')."""
    return name.replace("-", "_")


def title_of(name: str) -> str:
    return " ".join(w.capitalize() for w in name.replace("-", "_").split("_") if w) or name
