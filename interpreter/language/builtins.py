"""The built-in functions of the effect language, in one table: what each takes and gives.

A signature is written in the words of types.py: `number`, `text`, `bool`, `none`, `seat`,
`card`, `any`, `list[T]`, `T?` (T or none), `T -> U` (a key such as `c -> c.value`), and a type
variable `T` that stands for the same type throughout one signature. `, ...` after the last
parameter repeats it (up to MAX_ARGS arguments in all). A function with several signatures takes
any of them (the first whose number of arguments fits is the one checked).
"""
from __future__ import annotations

from dataclasses import dataclass

MAX_ARGS = 9


@dataclass(frozen=True)
class Builtin:
    name: str
    signatures: tuple  # of "param, param -> result"
    text: str  # what it gives, for the docs and an editor's hover
    gen: bool = False  # takes the generator form: f(x for x in xs if ...)
    impure: bool = False  # changes the state (the random generator, the zones made): procedures only
    key: bool = False  # its last argument is a key, `x -> ...`

    @property
    def arity(self) -> tuple:
        """(fewest, most) arguments."""
        counts = []
        for sig in self.signatures:
            params = [p.strip() for p in sig.split("->", 1)[0].split(",") if p.strip()]
            if params and params[-1] == "...":
                counts += [len(params) - 1, MAX_ARGS]
            else:
                counts.append(len(params))
        return min(counts), max(counts)


TABLE = (
    Builtin("len", ("list[any] -> number", "text -> number"), "the number of items"),
    Builtin("min", ("list[T] -> T?", "T, T, ... -> T"), "the lowest item of a list (none if empty), or of its arguments",
            gen=True),
    Builtin("max", ("list[T] -> T?", "T, T, ... -> T"), "the highest item of a list (none if empty), or of its arguments",
            gen=True),
    Builtin("sum", ("list[number] -> number",), "the sum of the items", gen=True),
    Builtin("count", ("list[any] -> number",), "the number of items (of a generator: that pass its 'if')", gen=True),
    Builtin("any", ("list[any] -> bool",), "whether some item is true", gen=True),
    Builtin("all", ("list[any] -> bool",), "whether every item is true", gen=True),
    Builtin("first", ("list[T] -> T?",), "the first item, or none", gen=True),
    Builtin("last", ("list[T] -> T?",), "the last item, or none"),
    Builtin("top", ("list[T] -> T?",), "the top card of a zone (its last item), or none"),
    Builtin("max_by", ("list[T], T -> any -> T?",), "the first item with the highest key, or none", key=True),
    Builtin("min_by", ("list[T], T -> any -> T?",), "the first item with the lowest key, or none", key=True),
    Builtin("sort_by", ("list[T], T -> any -> list[T]",), "the items sorted by their key (stable)", key=True),
    Builtin("reverse", ("list[T] -> list[T]",), "the items in reverse order"),
    Builtin("combinations", ("list[T], number -> list[list[T]]",),
            "every list of k items of a list, in its order: combinations([a, b, c], 2) is [[a, b], [a, c], "
            "[b, c]] (at most 100,000 lists, each a step)"),
    Builtin("subsets", ("list[T] -> list[list[T]]",),
            "every list of items of a list, in its order, the empty one first, then by size: subsets([a, b]) "
            "is [[], [a], [b], [a, b]] (at most 100,000 lists: 16 items, each list a step)"),
    Builtin("flatten", ("list[list[T]] -> list[T]",), "the items of a list of lists, in order: the cards "
            "of the melds laid down"),
    Builtin("range", ("number -> list[number]", "number, number -> list[number]"),
            "range(n): 0 to n-1; range(a, b): a to b-1"),
    Builtin("turn_order", ("seat -> list[seat]",), "every seat clockwise, starting at the one given"),
    Builtin("next_seat", ("seat -> seat",), "the seat to the left (clockwise)"),
    Builtin("prev_seat", ("seat -> seat",), "the seat to the right"),
    Builtin("abs", ("number -> number",), "the absolute value"),
    Builtin("random", ("list[T] -> T?",), "an item chosen with the game's generator (none if empty)", impure=True),
    Builtin("make", ("family -> number",), "makes a zone of a family made during play (a zone with `per: made`) "
            "and gives its key, the lowest number from 1 that no zone of the family has now: let m = make(meld)",
            impure=True),
    Builtin("made", ("family -> list[number]",), "the keys of the zones of a family made during play that exist "
            "now, in the order they were made: for m in made(meld)"),
    Builtin("played_by", ("card? -> seat?",), "the seat that played the card into a zone with `played_by: true` "
            "(the owner of the zone it came from), or none"),
    Builtin("slot_name", ("slot, any -> text?",), "the name of the procedure a slot calls for a key"),
    Builtin("knows", ("seat, card -> bool",),
            "whether the seat knows the card now (sees it, or saw it and followed it; false for none)"),
    Builtin("plural", ("number, text -> text", "number, text, text -> text"),
            "the number and the noun that agrees with it: plural(1, \"card\") is \"1 card\", plural(5, \"card\") "
            "\"5 cards\"; an irregular plural is given: plural(n, \"person\", \"people\")"),
)

BY_NAME = {b.name: b for b in TABLE}
# name: (min args, max args, takes a generator form)
BUILTINS = {b.name: (*b.arity, b.gen) for b in TABLE}
IMPURE_BUILTINS = {b.name for b in TABLE if b.impure}  # they change the state: not allowed in functions
LAMBDA_BUILTINS = {b.name for b in TABLE if b.key}
