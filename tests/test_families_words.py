"""The words of families of zones made during play are the language's: an editor completes and
describes make, made and remove (`jux lsp`), and `remove` is a statement's first word."""
from __future__ import annotations

import pytest

from jux.interpreter.lsp.words import BUILTIN_DOCS, describe, keywords
from jux.interpreter.errors import RuleError
from jux.interpreter.language.parse import parse_block
from jux.interpreter.language.source import Source
from jux.interpreter.language.tree import Remove


def test_an_editor_completes_and_describes_the_new_words():
    assert "remove" in keywords()
    assert {"make", "made"} <= set(BUILTIN_DOCS)
    assert "in procedures only" in describe("make") and "per: made" in describe("make")
    assert "in procedures only" not in describe("made") and "order they were made" in describe("made")


def test_remove_is_a_statement_and_may_still_name_a_local():
    (stmt,) = parse_block("remove meld[m]", Source("x.yaml", 1, 1))
    assert isinstance(stmt, Remove) and stmt.zone.obj.id == "meld"
    assert len(parse_block("let remove = 1", Source("x.yaml", 1, 1))) == 1


def test_remove_without_a_zone_is_a_located_syntax_error():
    with pytest.raises(RuleError) as e:
        parse_block("remove", Source("x.yaml", 3, 5))
    assert e.value.pos.line == 3
