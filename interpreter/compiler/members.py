"""Which locals of a function are only asked whether they hold a value: made as sets.

`let have = [(x.suit, x.rank) for x in zone]` read only as `... in have` (or `not in`)
is made as a set of the same items: each test is a hash lookup instead of a comparison with every
item of the list (comparing a tuple with each tuple of a list was a seventh of some games). The
answer of each test is the list's, as long as every item and every value tested hashes (and
compares equal as it hashes: the values of the language do): so the items must be plainly
hashable (card attributes whose every value is a number, a text or none, tuples of them,
literals), and so must the value on the left of each test. A local bound anywhere else (twice,
by a loop or a comprehension, a parameter, an assignment) or read in any other way stays a list.
"""
from __future__ import annotations

from collections import Counter

from ..language.tree import (Assign, Attr, Compare, Const, Int, Lambda, Let, ListComp, Name, Pattern, Str,
                             TupleLit, walk)


def surely_hashable(e, indexed) -> bool:
    """Whether e's value surely hashes: a literal, a card attribute in `indexed` (its values are
    numbers, texts or none), or a tuple of such."""
    if isinstance(e, (Int, Const, Str)):
        return True
    if isinstance(e, Attr):
        return e.name in indexed
    return isinstance(e, TupleLit) and all(surely_hashable(x, indexed) for x in e.items)


def membership_locals(body, params, indexed) -> frozenset:
    """The names of the function's lets (body: its statements) that may be made as sets."""
    bound: Counter = Counter(params)
    made = {}  # name -> the value of its one `let`
    reads: Counter = Counter()  # name -> reads of it
    tests: Counter = Counter()  # name -> reads as the right side of `in` / `not in`, with a hashable left
    for n in walk(tuple(body)):
        if isinstance(n, Pattern):  # (a let's, a loop's, a comprehension's, a choose's names)
            bound.update(n.names)
        elif isinstance(n, Let) and not n.pattern.is_tuple:
            made[n.pattern.names[0]] = n.value
        elif isinstance(n, Lambda):
            bound[n.param] += 1
        elif isinstance(n, Assign):
            bound[n.name] += 2  # (never a set)
        elif isinstance(n, Name):
            reads[n.id] += 1
        elif (isinstance(n, Compare) and n.op in ("in", "notin") and isinstance(n.right, Name)
              and surely_hashable(n.left, indexed)):
            tests[n.right.id] += 1
    return frozenset(name for name, value in made.items()
                     if bound[name] == 1 and reads[name] == tests[name] > 0
                     and isinstance(value, ListComp) and surely_hashable(value.elt, indexed))
