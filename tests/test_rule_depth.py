"""How deep the rules' calls may nest (limits.MAX_DEPTH, 200): the same bound for functions, plain
procedures, procedures that may stop at a decision (their frames) and their direct versions
(autoplay), whatever Python's own recursion limit and however deep the caller's stack (a test, the
terminal UI); past it the rules stop at the call with the routine's name, in the engine, in
`jux play --print`, in `jux test` and in the terminal UI's session."""
import random
import subprocess
import sys
from pathlib import Path

import pytest

from jux import Game, load_ruleset
from jux.interpreter.bots.random_bot import random_picker
from jux.interpreter.engine.ruleset import RuleRuntimeError

ROOT = Path(__file__).resolve().parent.parent
TOO_DEEP = ("the rules call 'again' more than 200 deep (a function that calls itself must reach a case "
            "that does not)")

# again(n) calls itself n times (n + 1 calls nested); the last one asks seat 0 a question.
RULES = """\
game: {name: depth, players: {min: 2, max: 2}}
cards: {n: {label: "n{v}", attributes: {v: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]}}}
zones: {deck: {visible: all, start: [n]}}
counters: {out: {start: 0}}
functions:
  score(p): out
  nested(cs, n): 'if n <= 0 then 0 else 1 + max(max(max(nested([c for c in cs if all(d.v >= 0 for d in cs)], n - 1) for z in [1]) for y in [1]) for x in [1])'
procedures:
  again(n): |
    if n > 0 {
      out = out + 1
      again(n - 1)
    } else {
      choose x from [1, 2] by 0 prompt "At the bottom"
    }
flow: |
  FLOW
"""


def rules_file(tmp_path, flow: str) -> Path:
    folder = tmp_path / "depth"
    folder.mkdir(exist_ok=True)
    (folder / "game.yaml").write_text(RULES.replace("FLOW", flow))
    return folder


def dive(k: int, then):
    """then() called under k more Python frames (a caller with a deep stack, such as a UI)."""
    return dive(k - 1, then) if k else then()


def test_a_procedure_that_stops_at_a_decision_calls_itself_200_deep_and_no_deeper(tmp_path):
    g = Game.new(load_ruleset(rules_file(tmp_path, "again(199)")), players=2, seed=1)
    assert g.pending[0].prompt == "At the bottom"  # 200 calls nested: the frames wait for the answer
    g.apply(0, player=0)
    assert g.over and g.scores == [199, 199]
    with pytest.raises(RuleRuntimeError) as e:
        Game.new(load_ruleset(rules_file(tmp_path, "again(200)")), players=2, seed=1)
    assert str(e.value) == f"{tmp_path / 'depth' / 'game.yaml'}:12:7: {TOO_DEEP}"  # the call in again


def test_played_at_once_by_autoplay_the_bound_is_the_same(tmp_path):
    for n, over in ((199, True), (200, False)):
        g = Game.new(load_ruleset(rules_file(tmp_path, f"again({n})")), players=2, seed=1, start=False)
        if over:
            g.autoplay(pick=random_picker(random.Random(1).random), direct=True)
            assert g.over and g.scores == [199, 199]
        else:
            with pytest.raises(RuleRuntimeError, match=r"game.yaml:12:7: the rules call 'again' more than 200"):
                g.autoplay(pick=random_picker(random.Random(1).random), direct=True)


def test_legal_recursion_199_deep_works_under_a_deep_python_stack(tmp_path):
    """Each nested call of `nested` takes several Python frames (its comprehensions and generators):
    199 of them under 700 frames of the caller pass Python's default limit of 1,000, and still run."""
    rules = load_ruleset(rules_file(tmp_path, "choose x from [1, 2] by 0\n  out = nested(deck, 199)"))

    def play():
        g = Game.new(rules, players=2, seed=1)
        g.apply(0, player=0)
        return g.scores

    assert dive(700, play) == [199, 199]
    g = Game.new(load_ruleset(rules_file(tmp_path, "choose x from [1, 2] by 0\n  out = nested(deck, 200)")),
                 players=2, seed=1)
    with pytest.raises(RuleRuntimeError, match="the rules call 'nested' more than 200 deep"):
        dive(700, lambda: g.apply(0, player=0))


def test_play_print_says_where_the_rules_went_too_deep(tmp_path):
    folder = rules_file(tmp_path, "again(500)")
    p = subprocess.run([sys.executable, "-m", "jux", "play", str(folder), "--print"], cwd=ROOT,
                       capture_output=True, text=True, timeout=120)
    assert p.returncode == 1
    assert "Traceback" not in p.stderr and f"game.yaml:12:7: {TOO_DEEP}" in p.stderr, p.stderr


def test_a_scenario_says_where_the_rules_went_too_deep(tmp_path, capsys):
    from jux.interpreter.cli.main import main

    folder = rules_file(tmp_path, "choose n from [10, 300] by 0 prompt \"How deep\"\n  again(n)")
    (folder / "scenarios").mkdir()
    (folder / "scenarios" / "deep.yaml").write_text(
        "title: too deep\nplayers: 2\nrun: null\nanswers:\n  - {player: 0, choose: \"300\"}\n")
    (folder / "scenarios" / "fine.yaml").write_text(
        "title: deep enough\nplayers: 2\nrun: null\nanswers:\n  - {player: 0, choose: \"10\"}\n  - {player: 0, choose: 0}\n"
        "expect: {counters: {out: 10}}\n")
    assert main(["test", str(folder)]) == 1
    out = capsys.readouterr().out
    assert "1 passed, 1 failed" in out and "Traceback" not in out
    assert f"the rules stopped with an error: {folder / 'game.yaml'}:12:7: {TOO_DEEP}" in out, out


def test_the_terminal_uis_session_says_whose_answer_went_too_deep_and_takes_it_back(tmp_path):
    from jux.tui.session import RulesFailed, Session

    rules = load_ruleset(rules_file(tmp_path, "choose n from [10, 300] by 0 prompt \"How deep\"\n  again(n)"))
    s = Session(rules, [("Ann", "human"), ("Bob", "random")], seed=1)
    d = s.game.pending[0]
    with pytest.raises(RulesFailed) as e:
        dive(300, lambda: s.answer(d, "300"))
    assert str(e.value) == f"the rules failed on Ann's answer: {tmp_path / 'depth' / 'game.yaml'}:12:7: {TOO_DEEP}"
    assert s.game.answers == [] and s.game.pending[0].prompt == "How deep"  # taken back


def test_games_of_one_ruleset_in_several_threads_count_their_depth_apart(tmp_path):
    """A server plays its tables' games in threads over one loaded ruleset: each thread's calls
    nest 150 deep, and none is stopped by the others' depth."""
    import threading

    rules = load_ruleset(rules_file(tmp_path, "choose x from [1, 2] by 0\n  out = nested(deck, 150)"))
    errors, every = [], sys.getswitchinterval()

    def play():
        try:
            for _ in range(3):
                g = Game.new(rules, players=2, seed=1)
                g.apply(0, player=0)
                assert g.scores == [150, 150]
        except Exception as e:  # (reported below)
            errors.append(str(e))

    sys.setswitchinterval(1e-6)  # the threads take turns often, deep inside their calls
    try:
        threads = [threading.Thread(target=play) for _ in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        sys.setswitchinterval(every)
    assert errors == []
