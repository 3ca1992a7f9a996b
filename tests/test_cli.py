"""The `jux` command in a temporary folder: run for real in a subprocess (python -m jux)
where the process itself matters (exit status, no traceback, entry point), else in process through
main() of jux.interpreter.cli.main (the same code, without paying for a new interpreter and ruleset load each time)."""
import csv
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
GAME_YAML = ROOT / "rules" / "capital_jux" / "game.yaml"


def jux(*args, cwd):
    p = subprocess.run([sys.executable, "-m", "jux", *map(str, args)], cwd=cwd,
                       capture_output=True, text=True, timeout=120)
    assert "Traceback" not in p.stderr + p.stdout, p.stderr
    return p


def one_line_error(p, code=1):
    assert p.returncode == code, (p.stdout, p.stderr)
    lines = p.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("jux: "), p.stderr
    return lines[0]


def test_version_and_usage(tmp_path, run):
    p = jux("--version", cwd=tmp_path)
    assert p.returncode == 0 and re.fullmatch(r"jux \S+\n", p.stdout)
    assert run().returncode == 2
    line = one_line_error(run("simulate"), code=2)  # RULESET missing
    assert "RULESET" in line and "jux simulate --help" in line


USAGE_ERRORS = [  # a command line argparse refuses: (args, words of the one line)
    (["simulate", "capital_jux", "--seed", "abc"], ["simulate --seed", "'abc'", "not a whole number"]),
    (["simulate", "capital_jux", "-s", "abc"], ["simulate --seed", "'abc'"]),
    (["simulate", "capital_jux", "--games", "-3"], ["--games", "'-3'", "0 or more"]),
    (["simulate", "capital_jux", "--games", "7" * 5000], ["--games", "too big", "5,000 characters"]),
    (["simulate", "capital_jux", "--workers", "1.5"], ["--workers", "'1.5'"]),
    (["simulate", "capital_jux", "--cluster-timeout", "soon"], ["--cluster-timeout", "'soon'", "not a number"]),
    (["simulate", "capital_jux", "--seed"], ["--seed", "expected one argument"]),
    (["simulate", "capital_jux", "--seed", "1\n2"], ["--seed", "'1\\n2'"]),
    (["balance", "capital_jux", "--games-per-combo", "x"], ["balance --games-per-combo", "'x'"]),
    (["replay", "r.json", "--viewer", "first"], ["replay --viewer", "'first'"]),
    (["play", "--bot-delay", "slow"], ["play --bot-delay", "'slow'", "not a number"]),
    (["play", "--players", "two"], ["play --players", "'two'"]),
    (["simulate", "capital_jux", "--colour", "red"], ["simulate: unrecognized arguments: --colour red",
                                                        "see 'jux simulate --help'"]),
    # an option is taken by its whole name only: never another one it begins
    (["balance", "capital_jux", "--tiles", "mine.yaml"],
     ["balance: unrecognized arguments: --tiles mine.yaml (did you mean '--tiles-grid'?)"]),
    (["simulate", "capital_jux", "--game", "3"], ["(did you mean '--games'?)"]),
    (["--vers"], ["jux: unrecognized arguments: --vers (see 'jux --help')"]),
    (["simulat", "capital_jux"], ["invalid choice: 'simulat'"]),
]


@pytest.mark.parametrize("args,words", USAGE_ERRORS, ids=[" ".join(a)[:50] for a, _ in USAGE_ERRORS])
def test_a_usage_error_is_one_line_naming_the_option_and_the_value(run, args, words):
    line = one_line_error(run(*args), code=2)
    assert "usage:" not in line and len(line) < 400, line
    for w in words:
        assert w in line, line


def test_a_usage_error_of_the_real_command(tmp_path):
    p = jux("simulate", "capital_jux", "--seed", "abc", cwd=tmp_path)
    assert one_line_error(p, code=2).startswith("jux: simulate --seed: 'abc' is not a whole number")
    assert p.stdout == ""


def test_validate(tmp_path, run):
    empty = tmp_path / "variants"
    empty.mkdir()
    p = run("validate", "capital_jux", GAME_YAML)
    assert p.returncode == 0, p.stderr
    lines = p.stdout.splitlines()
    assert re.fullmatch(r"ok: capital_jux \(\d+ cards, \d+ procedures\)", lines[0])
    assert lines[1].startswith("ok: ") and lines[1].endswith("procedures)")  # the file's folder
    p = run("validate", "capital_jux", empty)  # an empty folder is an error, the rest still checked
    assert p.returncode == 1 and p.stdout.startswith("ok: capital_jux")
    assert p.stderr.strip().endswith("variants: nothing to validate: no .yaml rule files found")
    assert "no such file" in one_line_error(run("validate", tmp_path / "missing"))
    assert "no ruleset 'nope'" in one_line_error(run("validate", "nope"))


def test_validate_reports_a_broken_copy(tmp_path, run):
    broken = tmp_path / "broken"
    broken.mkdir()
    text = GAME_YAML.read_text()
    assert "gold_pile -= 1" in text
    (broken / "game.yaml").write_text(text.replace("gold_pile -= 1", "gold_pil -= 1"))
    line = 1 + text[:text.index("gold_pile -= 1")].count("\n")
    for p in (jux("validate", "broken", cwd=tmp_path), run("validate", "broken/game.yaml")):
        assert p.returncode == 1
        errors = p.stderr.splitlines()
        assert re.match(rf"broken/game\.yaml:{line}:\d+: .*gold_pil", errors[0]), p.stderr
        assert errors[-1] == "jux: broken: 1 error"


def test_simulate_outputs_replay_and_errors(tmp_path, run):
    args = ["simulate", "capital_jux", "--players", "3", "--games", "12", "--seed", "17"]
    p = jux(*args, "--json", "a.json", "--csv", "a.csv", "--records", "recs", cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    assert "Win rate" in p.stdout and "games/s" in p.stdout

    data = json.loads((tmp_path / "a.json").read_text())
    games = data["games"]
    assert [g["seed"] for g in games] == list(range(17, 29))
    for g in games:
        assert set(g) == {"seed", "scores", "winner", "winners", "turns", "first"}
        assert len(g["scores"]) == 3 and g["turns"] > 0 and g["winners"]
        assert g["winner"] == (g["winners"][0] if len(g["winners"]) == 1 else None)
    s = data["summary"]
    assert s["games"] == 12 and s["players"] == 3 and s["ruleset"] == "capital_jux"
    assert len(s["seats"]) == 3 and sum(x["win_rate"] for x in s["seats"]) == pytest.approx(1, abs=1e-3)
    assert {"mean_score", "win_rate", "wins", "bot"} <= set(s["seats"][0])
    assert s["games_per_second"] > 0 and s["mean_turns"] > 0

    rows = list(csv.reader((tmp_path / "a.csv").open()))
    assert rows[0][:4] == ["seed", "winner", "winners", "turns"] and len(rows) == 13
    assert [int(x) for x in rows[1][4:]] == games[0]["scores"]

    recs = sorted(p.name for p in (tmp_path / "recs").iterdir())
    assert recs == sorted(f"game-{s}.json" for s in range(17, 29))
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".jux-")]  # no temp files left

    # the same seed gives the same games; --quiet prints nothing
    p = run(*args, "--json", "b.json", "--quiet")
    assert p.returncode == 0 and p.stdout == "" and p.stderr == ""
    assert json.loads((tmp_path / "b.json").read_text())["games"] == games

    # replaying a record gives its scores and winner
    g = games[0]
    p = jux("replay", "recs/game-17.json", cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    assert "Final scores" in p.stdout
    for seat, score in enumerate(g["scores"]):  # seats numbered from 1 for people
        assert re.search(rf"│\s+{seat + 1} │ Player {seat + 1}\s+│\s+{score} │", p.stdout), p.stdout
    if g["winner"] is not None:
        assert f"Winner: Player {g['winner'] + 1} (seat {g['winner'] + 1})" in p.stdout
    full_log = p.stdout
    p = run("replay", "recs/game-17.json", "--viewer", "1")
    assert p.returncode == 0 and "as Player 2 knows it" in p.stdout
    assert "a face-down card" in p.stdout and "a face-down card" not in full_log

    # broken records: one clear line each, exit 1
    rec = json.loads((tmp_path / "recs" / "game-17.json").read_text())
    text = (tmp_path / "recs" / "game-17.json").read_text()
    (tmp_path / "trunc.json").write_text(text[: len(text) // 2])
    assert "not valid JSON" in one_line_error(jux("replay", "trunc.json", cwd=tmp_path))
    edited = dict(rec, answers=[list(a) for a in rec["answers"]])
    edited["answers"][5][1] = 999
    (tmp_path / "edited.json").write_text(json.dumps(edited))
    assert "answer 6 of" in one_line_error(run("replay", "edited.json"))
    (tmp_path / "other.json").write_text(json.dumps(dict(rec, digest="0123456789abcdef")))
    line = one_line_error(run("replay", "other.json"))
    assert "other rule files" in line and "replay it with the rule files it was made with" in line
    assert "(jux replay other.json --rules FOLDER" in line, line
    # a stale record does not replay once its digest is emptied or removed
    (tmp_path / "blank.json").write_text(json.dumps(dict(rec, digest="")))
    assert "digest: not the digest of rule files" in one_line_error(run("replay", "blank.json"))
    (tmp_path / "nodigest.json").write_text(json.dumps({k: v for k, v in rec.items() if k != "digest"}))
    assert "the record has no 'digest'" in one_line_error(run("replay", "nodigest.json"))
    for name in ("blank.json", "nodigest.json"):
        assert "has no 'digest'" in one_line_error(run("play", "--load", name, "--print")) or \
            "digest: not the digest" in one_line_error(run("play", "--load", name, "--print"))
    (tmp_path / "short.json").write_text(json.dumps(dict(rec, answers=rec["answers"][:10])))
    p = run("replay", "short.json")
    assert p.returncode == 0 and "stops before the end of the game" in p.stdout
    assert "No such file" in one_line_error(run("replay", "nope.json"))
    assert "--viewer" in one_line_error(run("replay", "recs/game-17.json", "--viewer", "7"))

    # bad simulate arguments
    assert "unknown bot 'rnd'" in one_line_error(run("simulate", "capital_jux", "--bots", "rnd"))
    assert "one per seat" in one_line_error(run("simulate", "capital_jux", "--bots", "random,random"))
    assert "not 9" in one_line_error(run("simulate", "capital_jux", "--players", "9"))
    assert "cannot write" in one_line_error(
        run("simulate", "capital_jux", "--games", "1", "--json", "no/dir/x.json"))


def test_simulate_numbers_seats_from_1_for_people_and_from_0_in_json_and_csv(run):
    """The summary table a person reads says seats 1..N; the JSON and CSV keep their documented
    numbering from 0 (the summary's seats, each game's scores, winners and starting seat)."""
    p = run("simulate", "capital_jux", "--players", "4", "--games", "6", "--seed", "3", "--workers", "1",
            "--json", "s.json", "--csv", "s.csv")
    assert p.returncode == 0, p.stderr
    assert re.findall(r"^│\s*(\d+) │ random ", p.stdout, re.M) == ["1", "2", "3", "4"], p.stdout
    data = json.loads(Path("s.json").read_text())
    assert [s["seat"] for s in data["summary"]["seats"]] == [0, 1, 2, 3]
    for g in data["games"]:  # a winner is an index into the scores: 0..3
        best = max(g["scores"])
        assert g["winners"] and all(0 <= w <= 3 and g["scores"][w] == best for w in g["winners"])
        assert 0 <= g["first"] <= 3
    rows = list(csv.reader(Path("s.csv").open()))
    assert rows[0] == ["seed", "winner", "winners", "turns", "score_0", "score_1", "score_2", "score_3"]
    for row, g in zip(rows[1:], data["games"], strict=True):
        assert row[1] == ("" if g["winner"] is None else str(g["winner"]))
        assert [int(x) for x in row[4:]] == g["scores"]


def test_rules_and_play(run):
    p = run("rules")
    assert p.returncode == 0 and re.search(r"capital_jux\s+│\s+Capital Jux\s+│\s+2-4", p.stdout), p.stdout
    p = run("rules", "capital_jux")
    assert p.returncode == 0
    for word in ("Cards", "Zones", "Counters", "profession", "hometown", "AGENT (blue)", "SCHOLAR (green)"):
        assert word in p.stdout
    assert "no ruleset 'nope'" in one_line_error(run("rules", "nope"))
    p = run("play", "capital_jux", "--print", "--players", "2", "--seed", "5")
    assert p.returncode == 0 and "Final scores" in p.stdout and "Round 3 begins" in p.stdout


def test_play_print_says_how_a_tie_on_score_was_broken(run):
    """Seed 8, 4 players: seats 1 and 2 both score 50; seat 2 has more 6s (the first tie-break)."""
    from jux import load_ruleset
    from jux.interpreter.study.simulate import play

    game = play(load_ruleset("capital_jux"), 4, 8, ["random"] * 4)
    assert game.scores[:2] == [50, 50] and game.winners == [1], game.scores
    sixes = [t[0] for t in game.tiebreaks()]
    assert game.tiebreak_labels()[0] == "6s" and sixes[1] > sixes[0]
    p = run("play", "capital_jux", "--print", "--players", "4", "--seed", "8")
    assert (f"Winner: Player 2 (seat 2) with 50, tied with Player 1; the tie-break (6s) decides: "
            f"{sixes[1]} against {sixes[0]}") in p.stdout, p.stdout[-400:]
    p = run("play", "capital_jux", "--print", "--players", "4", "--seed", "1")
    assert "Winner: Player 2 (seat 2) with 46\n" in p.stdout  # (no tie: nothing more)


def test_the_command_line_starts_without_loading_the_engine():
    """Each command imports the engine (the parser, the loader, Lark) when it runs, so `jux --version`,
    `jux --help` and the first screen of `jux play` start fast (docs/performance.md)."""
    code = ("import sys, jux.interpreter.cli.main; "
            "print(sorted(m for m in ('lark', 'jux.interpreter.language.parse', 'jux.interpreter.reading.spec', "
            "'jux.interpreter.engine.game', 'textual', 'pygls') if m in sys.modules))")
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert p.stdout.strip() == "[]"


# What `jux --version` and `jux --help` must not import: a command's module is imported when that
# command runs, and with it what it needs (the engine, the errors, files, logging, Rich, ...).
NOT_AT_START = (["jux.interpreter.cli." + m for m in ("validate", "test", "simulate", "balance", "play", "rules",
                                                      "new", "lsp", "options")]
                + ["jux.interpreter." + m for m in ("errors", "files", "limits", "paths", "engine", "study",
                                                   "authoring", "reading", "checks", "language", "runtime")]
                + ["importlib.metadata", "logging", "json", "dataclasses", "rich", "lark", "yaml", "jsonschema",
                   "textual", "pygls"])


@pytest.mark.parametrize("option", ["--version", "--help"])
def test_version_and_help_import_no_command(option):
    code = ("import sys\nfrom jux.interpreter.cli.main import main\ntry:\n    main([%r])\nexcept SystemExit:\n    pass\n"
            "print('imported:', sorted(m for m in %r if m in sys.modules))" % (option, NOT_AT_START))
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert p.stdout.splitlines()[-1] == "imported: []", p.stdout


def test_the_version_is_the_installed_distributions():
    from importlib.metadata import version

    import jux

    assert jux.__version__ == version("jux")
    assert jux.__version__ in jux_version_line()


def jux_version_line() -> str:
    p = subprocess.run([sys.executable, "-m", "jux", "--version"], capture_output=True, text=True, check=True)
    return p.stdout


def test_a_record_of_ones_own_rules_says_how_to_name_them(run, tmp_path):
    """A record of rules outside jux's catalogue: replay and play --load say which option names them."""
    import shutil

    shutil.copytree(Path(__file__).parent / "data" / "undo_probe", tmp_path / "probe")
    assert run("simulate", "probe", "--games", "1", "--records", "recs", "--quiet").returncode == 0
    record = next(Path("recs").glob("*.json"))
    line = one_line_error(run("replay", record))
    assert "'undo_probe' is not a ruleset of jux" in line and line.endswith("(--rules FOLDER)"), line
    line = one_line_error(run("play", "--load", record, "--print"))
    assert line.endswith(f"(jux play FOLDER --load {record})"), line
    assert run("replay", record, "--rules", "probe").returncode == 0
