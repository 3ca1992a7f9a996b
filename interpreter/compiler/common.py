"""Common subexpressions of a compiled function worked out once.

A function of the rules whose body is one expression often reads the same call several times:
a function called in it is compiled in place (inline.py), and its body may read one call of
another function three times (a total compared with a limit, then returned, then subtracted).
`once(text)` takes the compiled expression and, in each scope (the whole expression; each
comprehension's element, once for each item; each lambda's body), gives every call read more than
once a name: the call's first reading, when it is surely read whenever its scope is (not in a
branch of an `if`, nor after the first operand of `and`/`or` or of a chain of comparisons),
becomes `(_c0 := call)` and every later one `_c0`. Only calls that give a number or a truth
(`sum`, `len`, `any`, ...: _NAMED) of what changes nothing (the rules' functions, the builtins and
the engine's helpers below, a dictionary's `get`) are named, and only within one scope, so each name is read after it is set and while it holds that
scope's value. Worked out once, a reading gives the same value: a function changes nothing.
"""
from __future__ import annotations

import ast
from functools import lru_cache

_PURE = frozenset(("sum", "map", "len", "any", "all", "filter", "list", "sorted", "min", "max", "abs",
                   "tuple", "set", "type", "_min_of", "_max_of", "_add", "_mul", "_cat", "_top"))
# the calls that are named: their value is a number or a truth (or one of a list's items), never a
# list a reader might change (two readings would share it)
_NAMED = frozenset(("sum", "len", "any", "all", "abs", "min", "max", "_min_of", "_max_of"))
_COMPS = (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)


def _pure(node) -> bool:
    """A call that changes nothing, with nothing in it that binds a name (`:=`) or calls another."""
    for n in ast.walk(node):
        if isinstance(n, ast.NamedExpr):
            return False
        if isinstance(n, ast.Call):
            f = n.func
            if isinstance(f, ast.Name):
                if not (f.id in _PURE or f.id.startswith("F_")):
                    return False
            elif not (isinstance(f, ast.Attribute) and f.attr == "get"):
                return False
    return True


class _Scope:
    def __init__(self):
        self.calls: list = []  # (key, node, surely read, the calls it lies in) in the order read
        self.nested: list = []  # the comprehensions and lambdas met: scopes of their own

    def read(self, node, sure: bool, within: tuple):
        """Walk node as Python evaluates it; nested scopes are collected on their own."""
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in _NAMED and _pure(node):
            self.calls.append((ast.dump(node), node, sure, within))
            within = within + (node,)
        if isinstance(node, ast.BoolOp):
            for i, v in enumerate(node.values):
                self.read(v, sure and i == 0, within)
        elif isinstance(node, ast.IfExp):
            self.read(node.test, sure, within)
            self.read(node.body, False, within)
            self.read(node.orelse, False, within)
        elif isinstance(node, ast.Compare):
            self.read(node.left, sure, within)
            for i, v in enumerate(node.comparators):
                self.read(v, sure and i == 0, within)
        elif isinstance(node, ast.Dict):
            for k, v in zip(node.keys, node.values):
                if k is not None:
                    self.read(k, sure, within)
                self.read(v, sure, within)
        elif isinstance(node, _COMPS + (ast.Lambda,)):
            self.nested.append(node)  # (its element or body: a scope of its own; its iterables: none)
        else:
            for child in ast.iter_child_nodes(node):
                self.read(child, sure, within)



def _named(scope: _Scope, counter: list) -> dict:
    """{id(node): replacement} for the calls of one scope read more than once."""
    by_key: dict = {}
    for key, node, sure, within in scope.calls:
        by_key.setdefault(key, []).append((node, sure, within))
    gone: set = set()  # the calls inside a later reading of a named call (no longer read)
    out: dict = {}
    for key in sorted(by_key, key=lambda k: -len(k)):  # (the largest first: they hold the others)
        reads = [r for r in by_key[key] if not any(id(w) in gone for w in r[2]) and id(r[0]) not in gone]
        if len(reads) < 2 or not reads[0][1]:
            continue
        name = f"_c{counter[0]}"
        counter[0] += 1
        first, *later = reads
        out[id(first[0])] = ("set", name)
        for node, _, _ in later:
            out[id(node)] = ("get", name)
            gone.add(id(node))
    return out


class _Rename(ast.NodeTransformer):
    def __init__(self, named: dict):
        self.named = named

    def visit(self, node):
        node = self.generic_visit(node)
        what = self.named.get(id(getattr(node, "_orig", node)))
        if what is None:
            return node
        kind, name = what
        if kind == "get":
            return ast.Name(id=name, ctx=ast.Load())
        return ast.NamedExpr(target=ast.Name(id=name, ctx=ast.Store()), value=node)


@lru_cache(maxsize=4096)  # (the same text in every tile combination that leaves the function alone)
def once(text: str) -> str:
    """The expression text with each scope's calls read more than once worked out once (above);
    text itself when there are none."""
    try:
        tree = ast.parse(text, mode="eval")
    except SyntaxError:
        return text
    named: dict = {}
    counter = [0]
    todo = [("root", tree.body)]
    while todo:
        kind, node = todo.pop()
        scope = _Scope()
        if kind == "root":
            scope.read(node, True, ())
        elif isinstance(node, ast.Lambda):
            scope.read(node.body, True, ())
        elif isinstance(node, ast.DictComp):
            scope.read(node.key, True, ())
            scope.read(node.value, True, ())
        else:
            scope.read(node.elt, True, ())
        todo.extend(("nested", n) for n in scope.nested)
        named.update(_named(scope, counter))
    if not named:
        return text
    for n in ast.walk(tree):  # (generic_visit may put new nodes in place: remember each one's own)
        n._orig = n
    return ast.unparse(_Rename(named).visit(tree.body))
