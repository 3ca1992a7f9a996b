"""Bad input never hangs, never leaks, never harms (issue 15): records and saves, the files a record
may name, odd command-line values, and writes to devices, FIFOs and links.

Each case is one line on stderr ("jux: ..."), exit status 1, no traceback and no "internal error",
in bounded time; through the Python API, Game.from_record raises only JuxError.
"""
import asyncio
import json
import os
import select
import shutil
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

from jux.interpreter.engine.game import Game
from jux.interpreter.engine.ruleset import load_ruleset
from jux.interpreter.errors import JuxError
from jux.interpreter.study.simulate import play

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE_TILE = ROOT / "docs" / "examples" / "banker.yaml"
SECRET = "TOPSECRET-first-line-of-a-private-file"
TIME = 60  # seconds a command may take at most (each takes a second or two)


class Hung(BaseException):
    """A test ran past its time: something blocked (a FIFO read, an endless loop)."""


@pytest.fixture(autouse=True)
def time_bound():
    """Every test here ends within a time bound: an alarm stops one that hangs in this process."""
    if not hasattr(signal, "SIGALRM"):
        yield
        return

    def stop(signum, frame):
        raise Hung(f"still running after {4 * TIME} s")

    old = signal.signal(signal.SIGALRM, stop)
    signal.alarm(4 * TIME)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


def env() -> dict:
    """The environment of a command: this tree's code first (not an installed copy's)."""
    return dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))


def jux(*args, cwd, stdin=subprocess.DEVNULL, timeout=TIME):
    """The real command, in a subprocess, stopped if it runs past `timeout` (a hang fails the test)."""
    return subprocess.run([sys.executable, "-m", "jux", *map(str, args)], cwd=cwd, stdin=stdin,
                          capture_output=True, text=True, timeout=timeout, env=env())


def one_line(p) -> str:
    """The one error line of a failed command (exit status 1, no traceback, no internal error)."""
    out = p.stdout + p.stderr
    assert "Traceback" not in out and "internal error" not in out, out
    assert p.returncode == 1, (p.returncode, p.stdout[-500:], p.stderr)
    lines = p.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("jux: "), p.stderr
    assert len(lines[0]) < 400, lines[0]
    return lines[0]


@pytest.fixture(scope="module")
def record():
    """A finished two-player game's record (a dict, as JSON gives it)."""
    rules = load_ruleset("capital_jux")
    return json.loads(json.dumps(play(rules, 2, 3, ["random", "random"]).record()))


@pytest.fixture(scope="module")
def save():
    """A save of a two-player game stopped after 6 answers."""
    rules = load_ruleset("capital_jux")
    full = play(rules, 2, 4, ["random", "random"])
    g = Game.new(rules, 2, 4)
    for player, choice in full.answers[:6]:
        g.apply(choice, player=player)
    return json.loads(json.dumps(g.save()))


def text_with(record: dict, field: str, raw: str) -> str:
    """The record as JSON text with one field's value written as `raw` (what json.dumps cannot write)."""
    marker = "__RAW__"
    return json.dumps(dict(record, **{field: marker})).replace(f'"{marker}"', raw)


# ------------------------------------------------------------------ 1. records and saves, read strictly

def deep(n: int) -> str:
    return "[" * n + "]" * n


BAD_TEXTS = {  # name -> (the record's JSON text from the good record, words of the message)
    "nan seed": (lambda r: text_with(r, "seed", "NaN"), ["NaN", "1:"]),
    "infinity seed": (lambda r: text_with(r, "seed", "Infinity"), ["Infinity"]),
    "-infinity answer": (lambda r: text_with(r, "answers", "[[0, -Infinity]]"), ["Infinity"]),
    "1e999 seed": (lambda r: text_with(r, "seed", "1e999"), ["1e999"]),
    "4301 digits": (lambda r: text_with(r, "seed", "7" * 4301), ["too big"]),
    "names not texts": (lambda r: json.dumps(dict(r, names=[1, 2])), ["names[0]"]),
    "names a text": (lambda r: json.dumps(dict(r, names="ab")), ["names"]),
    "ruleset a number": (lambda r: json.dumps(dict(r, ruleset=5)), ["ruleset"]),
    "ruleset a list": (lambda r: json.dumps(dict(r, ruleset=["capital_jux"])), ["ruleset"]),
    "variants a text": (lambda r: json.dumps(dict(r, variants="abc")), ["variants:"]),
    "players a text": (lambda r: json.dumps(dict(r, players="2")), ["players:"]),
    "players true": (lambda r: json.dumps(dict(r, players=True)), ["players:"]),
    "players huge": (lambda r: json.dumps(dict(r, players=10 ** 20)), ["players:"]),
    "seed a fraction": (lambda r: json.dumps(dict(r, seed=1.5)), ["seed"]),
    "answer's player true": (lambda r: json.dumps(dict(r, answers=[[True, [0, 1]]] + r["answers"][1:])),
                             ["answers[0]"]),
    "answer a text": (lambda r: json.dumps(dict(r, answers=r["answers"][:3] + ["x"])), ["answers[3]"]),
    "answer's choice a fraction": (lambda r: json.dumps(dict(r, answers=[[0, [0, 1.5]]])), ["answers[0]"]),
    "nested 1000 deep": (lambda r: text_with(r, "answers", deep(1000)), ["nested"]),
    "nested 100000 deep": (lambda r: text_with(r, "answers", deep(100_000)), ["nested"]),
    "state a text": (lambda r: json.dumps(dict(r, state="x")), ["state:"]),
}


@pytest.mark.parametrize("case", sorted(BAD_TEXTS))
def test_a_bad_record_is_one_line_saying_where(run, record, case):
    make, words = BAD_TEXTS[case]
    Path("bad.json").write_text(make(record))
    start = time.monotonic()
    line = one_line(run("replay", "bad.json"))
    assert time.monotonic() - start < TIME
    assert line.startswith("jux: bad.json:"), line
    for w in words:
        assert w in line, line


def test_a_bad_record_through_the_real_command(tmp_path, record):
    for name in ("nan seed", "nested 100000 deep", "4301 digits"):
        (tmp_path / "bad.json").write_text(BAD_TEXTS[name][0](record))
        assert "bad.json" in one_line(jux("replay", "bad.json", cwd=tmp_path))


def _bad_records(record):
    cycle: list = []
    cycle.append(cycle)
    nested: list = []
    x = nested
    for _ in range(3000):
        x.append([])
        x = x[0]
    yield None
    yield [record]
    yield dict(record, format=["jux-record/1"])
    yield {k: v for k, v in record.items() if k != "answers"}
    yield {k: v for k, v in record.items() if k != "digest"}
    for field, values in {
        "seed": [float("nan"), float("inf"), 1.5, "0", None, 10 ** 5000, [], True],
        "players": [float("nan"), "2", 0, -1, 10 ** 30, True, None],
        "names": [[1, 2], "ab", ["a"], ["a", None], ["a", "b\nc"], ["", "b"], ["x" * 10_000, "b"], {}],
        "ruleset": [5, None, ["capital_jux"], "", "x" * 100_000, "a\x00b", {"a": 1}],
        "variants": ["abc", [1], [None], [["a"]], {"a": 1}, ["a\x00b"]],
        "digest": [5, ["x"], {"a": 1}, "", "  ", None],
        "answers": [None, "x", cycle, nested, [[0]], [[0, 1, 2]], [[0, float("nan")]], [[0, [1, "x"]]],
                    [[10 ** 40, 0]], [["0", 0]], [[0, {"a": 1}]], [[-1, 0]]],
        "state": ["x", [], cycle, nested, {"zones": cycle}],
    }.items():
        for v in values:
            yield dict(record, **{field: v})


def test_from_record_raises_only_jux_errors_for_any_bad_input(record, save):
    count = 0
    for bad in list(_bad_records(record)) + list(_bad_records(save)):
        with pytest.raises(JuxError):
            Game.from_record(bad)
        count += 1
    assert count > 100
    assert Game.from_record(record).over and Game.from_record(save).save() == save  # the good ones load


def test_a_save_whose_waiting_locals_differ_loads_as_its_answers_give(save):
    """A save made by another version of jux may keep other locals where the rules wait (a
    routine's hidden slots): it loads, as the game its answers give; a save whose zones or
    answers were edited still does not."""
    other = json.loads(json.dumps(save))
    frames = [f for t in other["state"]["threads"] for f in t[0]]
    assert frames
    for f in frames:
        f[2] = f[2] + [7]
    assert Game.from_record(other).save() == save
    edited = json.loads(json.dumps(save))
    edited["state"]["zones"][0], edited["state"]["zones"][1] = edited["state"]["zones"][1], edited["state"]["zones"][0]
    with pytest.raises(JuxError, match="does not match"):
        Game.from_record(edited)


# ------------------------------------------------------------------ 2. a record names only the catalogue


@pytest.fixture
def secret(tmp_path):
    """A private file (not a rule file) a record must never make jux read, and one ending in .yaml."""
    d = tmp_path / "private"
    d.mkdir()
    for name in ("shadow", "shadow.yaml"):
        (d / name).write_text(f"{SECRET}:*:20228:0:99999:7::\nsecond:*:20228:0:99999:7::\n")
    return d


def test_a_record_cannot_make_jux_read_a_file(run, record, secret, tmp_path):
    shadow, yaml_shadow = secret / "shadow", secret / "shadow.yaml"
    cases = [dict(record, ruleset=str(shadow)), dict(record, ruleset=str(secret)),
             dict(record, ruleset=os.path.relpath(shadow, tmp_path)), dict(record, ruleset="../" * 12 + str(shadow)),
             dict(record, variants=[str(shadow)]), dict(record, variants=[str(yaml_shadow)]),
             dict(record, variants=[os.path.relpath(yaml_shadow, tmp_path)]), dict(record, variants=["../x/../shadow.yaml"])]
    for i, bad in enumerate(cases):
        Path(f"bad{i}.json").write_text(json.dumps(bad))
        for args in (("replay", f"bad{i}.json"), ("play", "--load", f"bad{i}.json", "--print")):
            line = one_line(run(*args))
            assert SECRET not in line and "second" not in line, line
            assert "ruleset" in line or "variants[0]" in line, line


def test_the_api_refuses_a_record_that_names_a_file(record, secret):
    for bad in (dict(record, ruleset=str(secret / "shadow")), dict(record, variants=[str(secret / "shadow.yaml")])):
        with pytest.raises(JuxError) as e:
            Game.from_record(bad)
        assert SECRET not in str(e.value)


def test_a_file_the_user_names_still_replays(run, tmp_path):
    r = run("simulate", "capital_jux", "--tiles", EXAMPLE_TILE, "--games", "1", "--players", "2",
            "--records", "recs", "--quiet")
    assert r.returncode == 0, r.stderr
    line = one_line(run("replay", "recs/game-0.json"))  # a tile file the command line does not name
    assert "--tiles" in line
    r = run("replay", "recs/game-0.json", "--tiles", EXAMPLE_TILE)
    assert r.returncode == 0 and "Final scores" in r.stdout, r.stderr
    # rules named on the command line, in a folder of the user's
    shutil.copytree(ROOT / "rules" / "guildhall", tmp_path / "mine")
    game = tmp_path / "mine" / "game.yaml"
    game.write_text(game.read_text().replace("name: guildhall", "name: mine", 1))
    assert load_ruleset(tmp_path / "mine").name == "mine"
    assert run("simulate", "mine", "--games", "1", "--records", "r2", "--quiet").returncode == 0
    assert "ruleset: 'mine'" in one_line(run("replay", "r2/game-0.json"))
    for args in (("replay", "r2/game-0.json", "--rules", "mine"), ("play", "mine", "--load", "r2/game-0.json")):
        r = run(*args)
        assert r.returncode == 0 and "Final scores" in r.stdout, r.stderr


# ------------------------------------------------------------------ 3. odd command-line values, bounded


BAD_COMMANDS = [
    (["simulate", "capital_jux", "-n", "2", "-w", "1", "--bots", "ismcts:iterations=abc"], "iterations"),
    (["simulate", "capital_jux", "-n", "2", "-w", "1", "--bots", f"ismcts:iterations={10 ** 12}"], "iterations"),
    (["simulate", "capital_jux", "-n", "2", "-w", "1", "--bots", "ismcts:seconds=nan"], "seconds"),
    (["simulate", "capital_jux", "-n", "2", "-w", "1", "--bots", "ismcts:seconds=1e9"], "seconds"),
    (["simulate", "capital_jux", "-n", "2", "-w", "1", "--bots", f"greedy:samples={10 ** 12}"], "samples"),
    (["simulate", "capital_jux", "-n", "2", "--cluster", "tcp://127.0.0.1:1", "--cluster-timeout", "nan"],
     "--cluster-timeout"),
    (["simulate", "capital_jux", "-n", "2", "--cluster", "tcp://127.0.0.1:1", "--cluster-timeout", "inf"],
     "--cluster-timeout"),
    (["simulate", "capital_jux", "-n", "2", "--cluster", "tcp://127.0.0.1:1", "--cluster-timeout", "-1"],
     "--cluster-timeout"),
    (["simulate", "capital_jux", "-n", str(10 ** 12)], "--games"),
    (["simulate", "capital_jux", "-n", "2", "-w", str(10 ** 6)], "--workers"),
    (["simulate", "capital_jux", "-n", "2", "--seed", str(10 ** 30)], "--seed"),
    (["balance", "capital_jux", "-n", str(10 ** 12)], "--games-per-combo"),
    (["replay", "/dev/zero"], "not a regular file"),
    (["replay", "a_folder"], "not a regular file"),
    (["replay", "a_fifo"], "not a regular file"),
    (["replay", ""], "no file"),
    (["simulate", "capital_jux", "-n", "1", "--resume", "--json", "/dev/zero"], "not a regular file"),
    (["simulate", "capital_jux", "-n", "1", "--resume", "--json", "a_fifo"], "FIFO"),
    (["play", "--load", "missing.json"], "No such file"),
    (["play", "--load", "a_fifo"], "not a regular file"),
    (["play", "--load", "/dev/zero"], "not a regular file"),
    (["play", "--bot-delay", "nan", "--print"], "--bot-delay"),
    (["play", "--bot-delay", "inf", "--print"], "--bot-delay"),
    (["play", "capital_jux", "--players", "2", "--name", "[/]", "--name", "a\tb", "--print"], "--name"),
]


@pytest.mark.parametrize("args,words", BAD_COMMANDS, ids=[" ".join(a)[:60] for a, _ in BAD_COMMANDS])
def test_odd_values_are_one_line_in_bounded_time(tmp_path, args, words):
    (tmp_path / "a_folder").mkdir()
    os.mkfifo(tmp_path / "a_fifo")
    start = time.monotonic()
    line = one_line(jux(*args, cwd=tmp_path))
    assert time.monotonic() - start < TIME
    assert words in line, line
    assert stat.S_ISFIFO(os.lstat(tmp_path / "a_fifo").st_mode)


def test_play_load_without_a_terminal_loads_the_save(run, save):
    Path("save.json").write_text(json.dumps(save))
    r = run("play", "--load", "save.json")  # (no terminal under pytest: the game is printed)
    assert r.returncode == 0, r.stderr
    assert "loaded from save.json at answer 6" in r.stdout and "Final scores" in r.stdout
    Path("bad.json").write_text(text_with(save, "seed", "NaN"))
    assert "bad.json" in one_line(run("play", "--load", "bad.json"))


@pytest.mark.skipif(not hasattr(os, "openpty"), reason="no pseudo-terminals")
def test_play_load_of_a_bad_save_in_a_terminal_is_one_line_before_the_screen(tmp_path, record):
    (tmp_path / "bad.json").write_text(json.dumps(dict(record, names=[1, 2])))
    main, sub = os.openpty()
    try:
        p = subprocess.Popen([sys.executable, "-m", "jux", "play", "--load", "bad.json"], cwd=tmp_path,
                             stdin=sub, stdout=sub, stderr=subprocess.PIPE, text=True, env=env())
        os.close(sub)
        sub = None
        end = time.monotonic() + TIME
        while p.poll() is None and time.monotonic() < end:  # (the screen's output is read and dropped)
            if select.select([main], [], [], 0.2)[0]:
                try:
                    os.read(main, 65536)
                except OSError:
                    pass
        if p.poll() is None:
            p.kill()
            pytest.fail("jux play --load of a bad save opened the screen")
        err = p.stderr.read()
        assert p.returncode == 1 and "Traceback" not in err, err
        lines = err.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("jux: bad.json: names[0]"), err
    finally:
        os.close(main)
        if sub is not None:
            os.close(sub)


# ------------------------------------------------------------------ 4. safe writes


def test_a_write_through_a_link_keeps_the_link(tmp_path):
    from jux.interpreter.files import write_text_atomic

    target = tmp_path / "real.json"
    target.write_text("old")
    link = tmp_path / "link.json"
    link.symlink_to(target)
    write_text_atomic(link, "new")
    assert link.is_symlink() and os.readlink(link) == str(target)
    assert target.read_text() == "new"
    dangling = tmp_path / "dangling.json"
    dangling.symlink_to(tmp_path / "made.json")
    write_text_atomic(dangling, "made")
    assert dangling.is_symlink() and (tmp_path / "made.json").read_text() == "made"


def test_a_write_never_replaces_a_fifo_or_a_folder(tmp_path):
    from jux.interpreter.files import write_text_atomic

    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    start = time.monotonic()
    with pytest.raises(JuxError) as e:  # nobody reads it: refused at once, never blocking
        write_text_atomic(fifo, "x")
    assert "FIFO" in str(e.value) and time.monotonic() - start < 10
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
    (tmp_path / "d").mkdir()
    with pytest.raises(JuxError):
        write_text_atomic(tmp_path / "d", "x")
    assert (tmp_path / "d").is_dir()
    # a FIFO with a reader is written through
    fd = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
    try:
        write_text_atomic(fifo, "through")
        assert os.read(fd, 100) == b"through"
    finally:
        os.close(fd)
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)


def _device(tmp_path, name, minor):
    """A copy of /dev/null (minor 3) or /dev/full (minor 7) in tmp_path; skip if it cannot be made."""
    if os.geteuid() != 0 or not os.path.exists(f"/dev/{name}"):
        pytest.skip("device nodes: root and /dev/" + name + " needed")
    path = tmp_path / name
    try:
        os.mknod(path, stat.S_IFCHR | 0o666, os.makedev(1, minor))
        with open(path, "wb") as f:
            f.write(b"")
    except OSError:
        pytest.skip("cannot make a device node here")
    return path


def test_a_device_is_written_through_never_replaced(tmp_path, run):
    from jux.interpreter.files import write_text_atomic

    full = _device(tmp_path, "full", 7)
    null = _device(tmp_path, "null", 3)
    with pytest.raises(JuxError) as e:
        write_text_atomic(full, "x" * 10_000)
    assert "no space" in str(e.value)
    write_text_atomic(null, "gone")
    line = one_line(run("simulate", "capital_jux", "--games", "1", "--quiet", "--json", full))
    assert "no space" in line
    assert run("simulate", "capital_jux", "--games", "1", "--quiet", "--json", null).returncode == 0
    for p in (full, null):
        assert stat.S_ISCHR(os.lstat(p).st_mode), p
    assert not [f for f in os.listdir(tmp_path) if f.startswith(".jux-")]  # no temporary file left


def test_a_write_keeps_a_files_mode_and_a_new_file_gets_the_usual_one(tmp_path):
    from jux.interpreter.files import write_text_atomic

    old = tmp_path / "old.json"
    old.write_text("x")
    os.chmod(old, 0o640)
    write_text_atomic(old, "y")
    assert stat.S_IMODE(os.stat(old).st_mode) == 0o640
    mask = os.umask(0o022)
    os.umask(mask)
    write_text_atomic(tmp_path / "new.json", "z")
    assert stat.S_IMODE(os.stat(tmp_path / "new.json").st_mode) == 0o666 & ~mask


# ------------------------------------------------------------------ 5. output paths, refused before the games


@pytest.fixture
def read_only(tmp_path):
    """A folder nothing can be written in: a folder without write permission (not as root), else
    /sys (sysfs: root cannot make a file there either)."""
    if os.geteuid() != 0:
        d = tmp_path / "read-only"
        d.mkdir()
        os.chmod(d, 0o555)
        yield d
        os.chmod(d, 0o755)
        return
    try:
        os.close(os.open("/sys/jux-probe", os.O_WRONLY | os.O_CREAT | os.O_EXCL))
        os.unlink("/sys/jux-probe")
    except OSError:
        yield Path("/sys")
        return
    pytest.skip("no read-only place to write in")


BAD_OUTPUTS = [  # (option, where it points, words of the line)
    ("--json", "a_fifo", "FIFO (named pipe) that nobody reads"),
    ("--csv", "a_fifo", "FIFO (named pipe) that nobody reads"),
    ("--json", "a_folder", "it is a folder"),
    ("--csv", "missing/out.csv", "no folder missing"),
    ("--coverage", "missing/report.md", "no folder missing"),
    ("--coverage", "a_folder", "it is a folder"),
    ("--json", "READ_ONLY/out.json", "cannot write"),
    ("--csv", "READ_ONLY/out.csv", "cannot write"),
    ("--records", "READ_ONLY/recs", "cannot write"),
    ("--records", "READ_ONLY", "cannot write"),
    ("--records", "a_file", "a file, not a folder"),
    ("--records", "a_file/recs", "Not a directory"),
    ("--json", "a_file/out.json", "Not a directory"),
]


@pytest.mark.parametrize("option,target,words", BAD_OUTPUTS, ids=[f"{o} {t}" for o, t, _ in BAD_OUTPUTS])
def test_an_output_that_cannot_be_written_is_refused_before_the_games(tmp_path, read_only, option, target, words):
    (tmp_path / "a_folder").mkdir()
    (tmp_path / "a_file").write_text("kept")
    os.mkfifo(tmp_path / "a_fifo")
    target = target.replace("READ_ONLY", str(read_only))
    # 100,000 games would take many minutes: an answer in seconds means none was played
    start = time.monotonic()
    line = one_line(jux("simulate", "capital_jux", "--games", "100000", "--workers", "1", "--quiet",
                        "--records", "recs", option, target, cwd=tmp_path, timeout=TIME)
                    if option != "--records" else
                    jux("simulate", "capital_jux", "--games", "100000", "--workers", "1", "--quiet",
                        "--json", "out.json", option, target, cwd=tmp_path, timeout=TIME))
    assert time.monotonic() - start < TIME
    assert words in line and "cannot" in line, line
    assert not (tmp_path / "recs").exists() and not (tmp_path / "out.json").exists()
    assert stat.S_ISFIFO(os.lstat(tmp_path / "a_fifo").st_mode) and (tmp_path / "a_file").read_text() == "kept"
    assert not [f for f in os.listdir(tmp_path) if f.startswith(".jux-")]  # the probe left nothing


def test_a_balance_out_that_cannot_be_written_is_refused_before_the_games(tmp_path, read_only):
    (tmp_path / "a_file").write_text("kept")
    for out, words in (("a_file", "not a folder"), (str(read_only / "sweep"), "cannot write")):
        line = one_line(jux("balance", "capital_jux", "--games-per-combo", "100000", "--workers", "1", "--quiet",
                            "--out", out, cwd=tmp_path))
        assert words in line, line
    assert (tmp_path / "a_file").read_text() == "kept"


def _reader(fifo):
    """A reader of a FIFO that stops at the first end of file, as `cat` does: (thread, chunks)."""
    import threading

    fd = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)  # (a reader from now on)
    chunks: list = []

    def read():
        poll = select.poll()
        poll.register(fd, select.POLLIN)
        try:
            while poll.poll(4 * TIME * 1000):
                chunk = os.read(fd, 1 << 16)
                if not chunk:  # every writer closed
                    return
                chunks.append(chunk)
        finally:
            os.close(fd)

    thread = threading.Thread(target=read, daemon=True)
    thread.start()
    return thread, chunks


@pytest.mark.skipif(not hasattr(select, "poll"), reason="no poll")
@pytest.mark.parametrize("workers", ["1", "2"])
def test_a_fifo_with_a_reader_gets_the_whole_output_and_one_end(tmp_path, run, workers):
    """Checked before the games, written after them: the reader sees no end of file in between."""
    fifo = tmp_path / "out.fifo"
    os.mkfifo(fifo)
    thread, chunks = _reader(fifo)
    r = run("simulate", "capital_jux", "--games", "3", "--players", "2", "--workers", workers, "--quiet",
            "--json", fifo)
    assert r.returncode == 0, r.stderr
    thread.join(TIME)
    assert not thread.is_alive()  # the end came once the file was written
    assert [g["seed"] for g in json.loads(b"".join(chunks))["games"]] == [0, 1, 2]
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)


# ------------------------------------------------------------------ the terminal UI: names, loads


def test_names_that_look_like_markup_show_as_written(tmp_path, run):
    pytest.importorskip("textual")
    from jux.tui.app import JuxApp
    from jux.tui.screens.game import GameScreen
    from jux.tui.screens.gameover import GameOverScreen
    from jux.tui.screens.passing import PassScreen

    names = ["[/]", "[bold]x[/bold"]
    rules = load_ruleset("capital_jux")
    done = play(rules, 2, 5, ["random", "random"], names=names)
    (tmp_path / "over.json").write_text(json.dumps(done.record()))
    g = Game.new(rules, 2, 5, names=names)
    for player, choice in done.answers[:8]:
        g.apply(choice, player=player)
    (tmp_path / "mid.json").write_text(json.dumps(dict(g.save(), tui={"seats": ["human", "human"]})))

    async def main():
        for path, screen in (("over.json", GameOverScreen), ("mid.json", (PassScreen, GameScreen))):
            app = JuxApp(load=str(tmp_path / path), bot_delay=0)
            async with app.run_test(size=(100, 30)) as pilot:
                for _ in range(50):
                    await pilot.pause()
                    if isinstance(app.screen, screen):
                        break
                assert isinstance(app.screen, screen), type(app.screen)
                if isinstance(app.screen, PassScreen):
                    await pilot.press("enter")
                    await pilot.pause()
            assert app.return_code in (None, 0)
    asyncio.run(main())
    r = run("replay", tmp_path / "over.json")
    assert r.returncode == 0 and "[/]" in r.stdout and "[bold]x[/bold" in r.stdout, r.stderr


def test_a_bad_save_from_the_load_dialog_keeps_the_game(tmp_path, record):
    pytest.importorskip("textual")
    from textual.widgets import Input

    from jux.tui.app import JuxApp
    from jux.tui.screens.dialogs import PathScreen
    from jux.tui.screens.game import GameScreen

    bad = tmp_path / "[bad].json"
    bad.write_text(text_with(record, "seed", "NaN"))
    os.mkfifo(tmp_path / "fifo")

    async def main():
        app = JuxApp(ruleset="capital_jux", seats=[("Ann", "human"), ("Bob", "random")], seed=5, bot_delay=0)
        async with app.run_test(size=(80, 24), notifications=True) as pilot:
            for _ in range(50):
                await pilot.pause()
                if isinstance(app.screen, GameScreen):
                    break
            session = app.session
            seen = []  # (read after each try: a note expires after a few seconds, and a slow run is slow)
            for path in (bad, tmp_path / "fifo", tmp_path, "~nobody-has-this-name/x.json"):
                await pilot.press("l")
                for _ in range(20):
                    await pilot.pause()
                    if isinstance(app.screen, PathScreen):
                        break
                app.screen.query_one(Input).value = str(path)
                await pilot.press("enter")
                for _ in range(5):
                    await pilot.pause()
                assert isinstance(app.screen, GameScreen) and app.session is session
                seen.extend(str(n.message) for n in app._notifications)
            notes = " | ".join(seen)
            assert "[bad].json" in notes and "NaN" in notes and "not a regular file" in notes
    asyncio.run(main())
