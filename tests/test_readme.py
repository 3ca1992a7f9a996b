"""The README's commands give the output the README shows (issue 25: it had drifted).

Every ``` block of README.md whose lines start with `$ jux ...` is run: each command in a copy of
the checkout's rules, variants and the files the commands name (and `broken/`, the README's copy of
rules/capital_jux with one typo), its output (stdout and stderr as a terminal shows them) compared
line by line with the lines under it. Masked on both sides: timings (games/s, seconds) and the
number of worker processes (simulate and balance run with --workers 1 here: the README says the
results are the same whatever the number), and the checkout's folder where jux names its own files
(a user in the checkout sees them relative to it). Output is 80 columns wide, as the README shows. A line `...` in the README stands for any lines. A
block preceded by `<!-- readme: not run (why) -->` is left out (a Ctrl-C, a cluster). The Python
example of "In Python" is run too, and prints what its comment says."""
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
SKIP = "<!-- readme: not run"
MASKS = [(re.compile(r"games/s: [\d.]+"), "games/s: N"),
         (re.compile(r"\btime:? [\d.]+ s\b"), "time N s"),
         (re.compile(r"\bworkers: \d+"), "workers: N"),
         (re.compile(r"\bin [\d.]+s$"), "in Ns")]


def blocks(text: str) -> list:
    """[(line number, [(command, [expected lines])])] of the README's shell sessions."""
    out, lines, i = [], text.splitlines(), 0
    while i < len(lines):
        if lines[i].strip() != "```":
            i += 1
            continue
        start, j = i, i + 1
        while j < len(lines) and lines[j].strip() != "```":
            j += 1
        body = lines[start + 1:j]
        skipped = any(SKIP in ln for ln in lines[max(0, start - 3):start])
        if body and body[0].startswith("$ jux ") and not skipped:
            session = []
            for ln in body:
                if ln.startswith("$ "):
                    session.append((ln[2:], []))
                else:
                    session[-1][1].append(ln)
            out.append((start + 1, session))
        i = j + 1
    return out


def mask(line: str) -> str:
    line = line.rstrip()
    for pattern, repl in MASKS:
        line = pattern.sub(repl, line)
    return line


def matches(expected: list, actual: list) -> bool:
    pattern = "".join(r"(?:[^\n]*\n)*?" if ln.strip() == "..." else re.escape(mask(ln)) + r"\n"
                      for ln in expected)
    return re.fullmatch(pattern, "".join(mask(ln) + "\n" for ln in actual)) is not None


@pytest.fixture(scope="module")
def checkout(tmp_path_factory):
    """A folder with what the README's commands name: rules/ and variants/ (links to the checkout's),
    docs/examples, the failing scenario, and broken/ (rules/capital_jux with `gold_pile -= 1` misspelt)."""
    top = tmp_path_factory.mktemp("readme")
    for part in ("rules", "variants"):  # jux's own (a copy of variants/ would be other tiles' files)
        (top / part).symlink_to(ROOT / part, target_is_directory=True)
    for part in ("docs/examples", "tests/data/failing"):
        shutil.copytree(ROOT / part, top / part)
    (top / "broken").mkdir()
    text = (ROOT / "rules/capital_jux/game.yaml").read_text()
    assert text.count("gold_pile -= 1") == 1
    (top / "broken/game.yaml").write_text(text.replace("gold_pile -= 1", "gold_pil -= 1"))
    return top


SESSIONS = blocks(README.read_text())


def test_the_readme_has_sessions_to_check():
    commands = [c for _, s in SESSIONS for c, _ in s]
    assert len(commands) >= 12, commands
    for needed in ("jux validate variants/", "jux test docs/examples", "--coverage", "jux balance",
                   "jux simulate capital_jux --tiles agent,outsider"):
        assert any(needed in c for c in commands), needed


@pytest.mark.parametrize("line,session", SESSIONS, ids=[f"README.md:{n}" for n, _ in SESSIONS])
def test_a_readme_session_gives_the_output_shown(line, session, checkout):
    env = dict(os.environ, COLUMNS="80", NO_COLOR="1", TERM="dumb", PYTHONUNBUFFERED="1")
    env.pop("FORCE_COLOR", None)
    for command, expected in session:
        args = shlex.split(command)
        assert args[0] == "jux", command
        if args[1] in ("simulate", "balance") and "--workers" not in args:
            args += ["--workers", "1"]
        p = subprocess.run([sys.executable, "-m", "jux", *args[1:]], cwd=checkout, env=env, text=True,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=120)
        actual = p.stdout.replace(f"{ROOT}{os.sep}", "").rstrip("\n").splitlines()
        assert matches(expected, actual), (
            f"README.md:{line}: `{command}` printed:\n" + "\n".join(actual)
            + "\n\nthe README shows:\n" + "\n".join(expected))


def test_the_python_example_prints_what_its_comment_says():
    text = README.read_text()
    code = re.search(r"```python\n(.*?)```", text, re.S).group(1)
    printed = re.search(r"^print\(.*#\s*(.+)$", code, re.M).group(1).strip()
    p = subprocess.run([sys.executable, "-c", code], cwd=ROOT, text=True, capture_output=True, timeout=120)
    assert p.returncode == 0, p.stderr
    assert p.stdout.strip() == printed


def test_the_files_the_readme_names_exist():
    """Links, and the checkout's paths in backquotes (`rules/...`, `docs/...`, `bench/x.py`), exist."""
    text = README.read_text()
    named = set(re.findall(r"\]\(((?!https?:)[^)#]+)\)", text))
    tops = "rules|variants|docs|tests|bench|interpreter|tui|jux"
    named |= set(re.findall(rf"`(?:python )?((?:{tops})/[^`\s]*)`", text))
    named |= set(re.findall(rf"\bpython ((?:{tops})/\S+\.py)", text))
    assert len(named) >= 15, named
    missing = [n for n in sorted(named) if not list(ROOT.glob(n.rstrip("/")))]
    assert not missing, missing
