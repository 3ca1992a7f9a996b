"""The language's reach for the rummy family (issue 37): combinations(), subsets() and flatten(),
typed and bounded; functions that call themselves, bounded at 200 nested calls whatever Python
allows; elif in an inline if; an option that is a list of lists reads with its groups."""
import pytest

from jux import Game, load_ruleset
from jux.interpreter.cli.main import main

RULES = """\
game: {{name: reach, players: {{min: 2, max: 2}}}}
cards: {{n: {{label: "n{{v}}", attributes: {{v: [1, 2, 3, 4]}}}}}}
zones: {{deck: {{visible: all, start: [n]}}}}
counters: {{out: {{start: 0}}}}
functions:
  score(p): out
{functions}
flow: |
  choose x from [1, 2] by 0
{flow}
"""


def game_of(tmp_path, functions="", flow=""):
    f = tmp_path / "reach.yaml"
    f.write_text(RULES.format(functions=functions, flow=flow))
    return Game.new(load_ruleset(f), players=2, seed=1)


def validate(tmp_path, capsys, functions="", flow=""):
    f = tmp_path / "reach.yaml"
    f.write_text(RULES.format(functions=functions, flow=flow))
    code = main(["validate", str(f)])
    return code, capsys.readouterr()


def test_combinations_subsets_and_flatten_give_lists_in_order(tmp_path):
    g = game_of(tmp_path, flow='  log "{combinations(deck, 2)}"\n  log "{subsets([1, 2, 3])}"\n'
                               '  log "{flatten(combinations([1, 2, 3], 2))}"\n  log "{combinations(deck, 5)}"')
    g.apply(0, player=0)
    assert g.log_lines()[-4:] == [
        "n1, n2; n1, n3; n1, n4; n2, n3; n2, n4; n3, n4",
        "none; 1; 2; 3; 1, 2; 1, 3; 2, 3; 1, 2, 3",
        "1, 2, 1, 3, 2, 3",
        "none",
    ]


@pytest.mark.parametrize("code,said", [
    ("combinations(3, 2)", "'combinations' takes a list of values, not a number"),
    ('combinations(deck, "x")', "'combinations' takes a number, not a text"),
    ("subsets(5)", "'subsets' takes a list of values, not a number"),
    ("flatten([1, 2])", "'flatten' takes a list of lists of values, not a list of numbers"),
    ("combinations(deck)", "'combinations' takes 2 arguments, not 1"),
])
def test_their_misuse_is_refused_where_it_is_written(tmp_path, capsys, code, said):
    status, out = validate(tmp_path, capsys, functions=f"  bad(): len({code})", flow="  out = bad()")
    assert status == 1 and f"reach.yaml:7:" in out.err and said in out.err, out.err


def test_too_many_lists_stop_the_game_at_the_call(tmp_path):
    big = RULES.format(functions="", flow="  out = len(subsets(range(20)))").replace("v: [1, 2, 3, 4]", "v: [1]")
    f = tmp_path / "reach.yaml"
    f.write_text(big)
    g = Game.new(load_ruleset(f), players=2, seed=1)
    with pytest.raises(Exception) as e:
        g.apply(0, player=0)
    assert "reach.yaml:10:" in str(e.value)
    assert "subsets of 20 items would make 1,048,576 lists: at most 100,000" in str(e.value)


def test_a_function_may_call_itself_200_deep_and_no_deeper(tmp_path):
    fn = '  down(n): "if n <= 0 then 0 else 1 + down(n - 1)"'
    g = game_of(tmp_path, functions=fn, flow="  out = down(199)")
    g.apply(0, player=0)
    assert g.over and g.scores == [199, 199]
    g = game_of(tmp_path, functions=fn, flow="  out = down(200)")
    with pytest.raises(Exception) as e:
        g.apply(0, player=0)
    assert "the rules call 'down' more than 200 deep (a function that calls itself must reach a case " \
           "that does not)" in str(e.value)
    assert "reach.yaml:7:" in str(e.value)  # (the call that went too deep)


def test_elif_in_an_inline_if(tmp_path, capsys):
    fn = "  grade(n): if n > 10 then 3 elif n > 5 then 2 elif n > 0 then 1 else 0"
    g = game_of(tmp_path, functions=fn, flow="  out = grade(12) * 1000 + grade(7) * 100 + grade(1) * 10 + grade(0)\n"
                                               '  log "{if out > 5 then \\"big\\" elif out > 0 then \\"small\\" else \\"none\\"}"')
    g.apply(0, player=0)
    assert g.scores == [3210, 3210] and g.log_lines()[-1] == "big"
    status, out = validate(tmp_path, capsys, functions="  grade(n): if n > 10 then 3 elif n > 5 then 2")
    assert status == 1 and "syntax error: the code ends too early; expected 'elif' or 'else'" in out.err


def test_an_arrangement_option_reads_with_its_groups_and_is_answered_by_its_label(tmp_path):
    g = game_of(tmp_path, flow='  choose a from [[[top(deck)], [deck[0], deck[1]]], [deck]] by 1 label "{a}"\n'
                               '  out = len(a)')
    g.apply(0, player=0)
    d = g.pending[0]
    assert [o.label for o in d.options] == ["n4; n1, n2", "n1, n2, n3, n4"]
    g.apply("n4; n1, n2", player=1)
    assert g.over and g.scores == [2, 2]


def test_the_editor_completes_and_describes_the_new_built_ins():
    from jux.interpreter.lsp.words import BUILTIN_DOCS, keywords

    for name in ("combinations", "subsets", "flatten", "make", "made"):
        call, gives = BUILTIN_DOCS[name]
        assert call.startswith(name + "(") and gives
    assert "every list of k items" in BUILTIN_DOCS["combinations"][1].lower()
    assert "elif" in keywords() and "remove" in keywords()
