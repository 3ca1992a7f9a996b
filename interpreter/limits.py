"""What a rule file and the rules' code may hold at most.

Bounds that keep a bad or hostile file from hanging jux or taking the machine's memory: past one,
jux stops with a located message instead. Each is many times what the games in rules/ need
(docs/bad-input.md lists them for authors).
"""
from __future__ import annotations

MAX_FILE_BYTES = 4_000_000  # one rule, tile, record or save file
MAX_YAML_VALUES = 200_000  # values in one rule file, an alias counted as all it stands for
MAX_NESTING = 64  # lists and mappings inside each other (YAML, JSON); effect code's nesting
MAX_DIGITS = 15  # digits of an integer in a rule file or in effect code
MAX_CARDS = 10_000  # cards of a ruleset, copies included
MAX_FORMAT_WIDTH = 200  # a width or precision in a card label's format ("{value:>3}")
MAX_RANGE = 1_000_000  # numbers in one range(...)
MAX_ITEMS = 1_000_000  # items of a list, or characters of a text, that the rules make with + or *
MAX_STEPS = 200_000  # loop rounds the rules may run between two decisions
MAX_COMBINATIONS = 100_000  # lists one combinations(...) or subsets(...) makes (each is a step too)
MAX_DEPTH = 200  # calls of the rules' own functions and procedures inside each other
# A `for` over at most this many items known when the rules are compiled (the players, a constant
# list, range(8)) with no loop, choose or procedure call in its body, calling only functions of
# loop-free code, does not count its rounds one by one: each round of a loop around it counts, so it
# adds a bounded share to each counted step.
SMALL_LOOP = 64
# The zones of a family made during play (`per: made`) that may exist at once: its `most`, at most
# MAX_MADE (the engine keeps a place for each), MOST_MADE when it does not say.
MAX_MADE = 64
MOST_MADE = 32
