"""The package as a user gets it: a wheel built from this checkout, installed (with its
dependencies, from the package registry) into a new virtual environment outside the checkout, plays,
simulates and validates every ruleset and every tile. Nothing but `jux` lands in site-packages."""
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SOURCES = ("pyproject.toml", "README.md", "jux", "interpreter", "tui", "rules", "variants")


def _run(cmd, **kw):
    p = subprocess.run([str(c) for c in cmd], capture_output=True, text=True, timeout=600, **kw)
    assert p.returncode == 0, f"{' '.join(map(str, cmd))}: exit {p.returncode}\n{p.stdout[-2000:]}\n{p.stderr[-2000:]}"
    assert "Traceback" not in p.stderr
    return p


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """(the new environment's bin folder, its site-packages, a folder outside the checkout)."""
    tmp = tmp_path_factory.mktemp("wheel")
    src = tmp / "src"  # a copy of what the package is built from, so the checkout gets no build/
    src.mkdir()
    for name in SOURCES:
        path = ROOT / name
        if path.is_dir():
            shutil.copytree(path, src / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy2(path, src / name)
    pip = [sys.executable, "-m", "pip", "--disable-pip-version-check", "-q"]
    p = _run([*pip, "wheel", "--no-deps", "-w", tmp / "dist", src])
    warnings = [line for line in (p.stdout + p.stderr).splitlines() if "warning" in line.lower()
                and "is ignored: it is neither a file nor a directory" not in line]  # (this machine's pip.conf)
    assert not warnings
    wheel = next((tmp / "dist").glob("jux-*.whl"))
    env = tmp / "env"
    _run([sys.executable, "-m", "venv", "--without-pip", env])
    py = env / "bin" / "python"
    _run([*pip, "--python", py, "install", wheel])
    site = Path(subprocess.run([py, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                               capture_output=True, text=True, check=True).stdout.strip())
    work = tmp / "work"
    work.mkdir()
    return env / "bin", site, work


def _jux(installed, *args):
    bin_dir, _, work = installed
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env["JUX_DATA_DIR"] = str(work / "data")
    return _run([bin_dir / "jux", *args], cwd=work, env=env)


def test_one_package_named_jux_lands_in_site_packages(installed):
    _, site, _ = installed
    names = {p.name for p in site.iterdir()}
    assert "jux" in names
    assert not names & {"interpreter", "tui", "rules", "variants"}
    ours = {n for n in names if n.lower().startswith("jux")}
    assert ours == {"jux", next(n for n in names if n.startswith("jux-") and n.endswith(".dist-info"))}
    assert (site / "jux" / "rules" / "default").is_file()
    assert (site / "jux" / "interpreter" / "language" / "grammar.lark").is_file()
    assert (site / "jux" / "interpreter" / "schema" / "ruleset.schema.json").is_file()
    # every folder of the checkout's interpreter/ and tui/ (a stage, a part of the UI) is installed
    root = Path(__file__).resolve().parent.parent
    for folder in ("interpreter", "tui"):
        for init in (root / folder).rglob("__init__.py"):
            assert (site / "jux" / init.relative_to(root)).is_file(), init


def test_the_installed_python_api(installed):
    bin_dir, site, work = installed
    code = ("import random, jux; from jux import load_ruleset, Game; "
            "from jux.interpreter.bots.random_bot import random_picker; "
            "g = Game.new(load_ruleset('guildhall'), players=3, seed=2); "
            "g.autoplay(pick=random_picker(random.Random(1).random), direct=True); "
            "print(jux.__file__, g.over)")
    out = _run([bin_dir / "python", "-c", code], cwd=work).stdout.split()
    assert out == [str(site / "jux" / "__init__.py"), "True"]


def test_the_installed_command_validates_every_ruleset_and_tile(installed):
    _, site, _ = installed
    for ruleset in ("capital_jux", "guildhall", "bruges"):
        out = _jux(installed, "validate", site / "jux" / "rules" / ruleset).stdout
        assert out.startswith(f"ok: {site / 'jux' / 'rules' / ruleset} (")
    out = _jux(installed, "validate", site / "jux" / "variants").stdout.splitlines()
    tiles = sorted(p.stem for p in (ROOT / "variants").rglob("*.yaml") if p.parent.name != "capital_jux")
    assert len(tiles) == 16
    assert sorted(Path(line.split()[1]).stem for line in out if line.startswith("ok:") and
                  Path(line.split()[1]).stem in tiles) == tiles


def test_the_installed_command_simulates_every_ruleset_and_tile(installed):
    for ruleset in ("capital_jux", "guildhall", "bruges"):
        out = _jux(installed, "simulate", ruleset, "--players", "3", "--games", "4", "--workers", "2").stdout
        assert "4 games, 3 players" in out
    families = sorted(p for p in (ROOT / "variants" / "capital_jux").iterdir() if p.is_dir())
    tiles = [sorted(t.stem for t in family.glob("*.yaml")) for family in families]
    for combo in zip(*tiles):  # every tile once, one of each family together
        out = _jux(installed, "simulate", "capital_jux", "--tiles", ",".join(combo), "--games", "2",
                   "--workers", "1").stdout
        assert "2 games, 4 players" in out


def test_the_installed_command_plays(installed):
    out = _jux(installed, "play", "capital_jux", "--print", "--seed", "1").stdout
    assert out.rstrip().splitlines()[-1].startswith("Winner")
    assert _jux(installed, "--version").stdout.strip() == "jux 0.2.0"
    assert "Guildhall" in _jux(installed, "rules").stdout
