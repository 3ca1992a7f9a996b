"""What a path given to `jux validate` or opened in an editor (`jux lsp`) names: a ruleset (the
nearest folder above a rule file that declares a game), a variant file, or a folder of rulesets;
and a variant file loaded onto its game as it is played."""
from __future__ import annotations

import os
from pathlib import Path

from ..errors import JuxError, RuleError, RuleErrors, did_you_mean
from ..reading.folders import GAME_FILE, SCENARIOS, is_ruleset_folder, ruleset_root
from ..reading.folders import declares_game as declares_game_file, has_section, reads_as_scenario


def has_yaml(d: Path) -> bool:
    return any(p.is_file() for p in d.glob("*.yaml"))


def declares_game(d: Path) -> bool:
    """Whether a folder is a ruleset's root (a game.yaml, or a rule file with a 'game:' section)."""
    return is_ruleset_folder(d)


def ruleset_of_file(f: Path) -> Path:
    """The ruleset a rule file belongs to, as every command reads it (reading/spec.py ruleset_root):
    its folder for a game.yaml, the file alone for another file with a game section, else the
    nearest folder above it that is a ruleset's."""
    return ruleset_root(f)


def scenario_of_ruleset(f: Path) -> bool:
    """Whether a file lies in a `scenarios` folder of a ruleset (a scenario, not a rule file)."""
    f = Path(f).resolve()
    root = ruleset_root(f)
    if root == f or not root.is_dir():
        return False
    return SCENARIOS in f.relative_to(root.resolve()).parts[:-1]


def is_variant(f: Path) -> bool:
    """Whether a YAML file has a top-level 'variant:' section."""
    return has_section(f, "variant")


def targets_of(arg: str) -> tuple:
    """What to load for one argument: ([(label, name_or_path)], [unchecked yaml files]).
    A variant file's target is ("variant", path)."""
    p = Path(arg)
    if not p.exists():
        if os.sep in arg or "/" in arg or p.suffix in (".yaml", ".yml"):
            raise JuxError(f"{arg}: no such file or directory")
        return [(arg, arg)], []  # a ruleset name: load_ruleset finds it under rules/ or says so
    if p.is_file():
        if p.suffix not in (".yaml", ".yml"):
            raise JuxError(f"{arg}: not a rule file (.yaml)")
        if is_variant(p):
            return [(shown_path(p), ("variant", p))], []
        if scenario_of_ruleset(p):
            raise JuxError(f"{arg}: a scenario of the ruleset {shown_path(ruleset_of_file(p))}, not a rule "
                           f"file: run it with jux test {arg}")
        if reads_as_scenario(p):
            raise JuxError(f"{arg}: a scenario (title, players, run), not a rule file: run it with jux test {arg}")
        root = ruleset_of_file(p)
        return [(shown_path(root), root)], []
    games = [f for f in sorted(p.glob("*.yaml")) if declares_game_file(f)]
    one_file_rulesets = not (p / GAME_FILE).is_file() and len(games) > 1  # (a user's rules folder)
    if declares_game(p) and not one_file_rulesets:
        return [(arg, p)], []
    variants = [f for f in sorted(p.rglob("*.yaml")) if f.is_file() and is_variant(f)
                and not _in_ruleset_folder(f, p)]
    if not variants and not games and _only_scenarios(p):
        raise JuxError(f"{arg}: a folder of scenarios (title, players, run), not of rule files: run them "
                       f"with jux test {arg}")
    if not variants and not one_file_rulesets and has_yaml(p):
        return [(arg, p)], []
    # a folder of rulesets (like rules/), of variants, or of other rule files: what is inside
    targets = [(shown_path(f), f) for f in games] + [(shown_path(f), ("variant", f)) for f in variants]
    stray = []

    def walk(d: Path):
        for sub in sorted(x for x in d.iterdir() if x.is_dir() and not x.name.startswith((".", "_"))):
            if declares_game(sub):
                targets.append((shown_path(sub), sub))
            else:
                stray.extend(f for f in sorted(sub.glob("*.yaml")) if not is_variant(f))
                walk(sub)

    walk(p)
    return targets, stray


def _only_scenarios(d: Path) -> bool:
    """Whether a folder's YAML files (its subfolders' too) are all scenarios, and it has some."""
    files = [f for f in d.rglob("*.y*ml") if f.suffix in (".yaml", ".yml") and f.is_file()]
    return bool(files) and all(reads_as_scenario(f) for f in files)


def _in_ruleset_folder(f: Path, top: Path) -> bool:
    """Whether f lies in a ruleset's folder below top (it is checked with that ruleset)."""
    d = f.parent
    while d != top and top in d.parents:
        if declares_game(d):
            return True
        d = d.parent
    return False


def shown_path(p: Path) -> str:
    try:
        return str(p.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(p)


def load_variant(path: Path, compiled: bool = True):
    """A variant file checked in play: loaded onto its game with what it needs (the variants it
    requires, and the default tiles of the slot keys it leaves open). Not compiled: only checked
    (engine/ruleset.py check_ruleset), the checked RuleSpec returned."""
    from ..engine.ruleset import check_ruleset, load_ruleset
    from ..reading.spec import catalogue_rulesets
    from ..reading.yaml_reader import read_file

    load = load_ruleset if compiled else check_ruleset

    loc = read_file(path)  # YAML errors as path:line:col
    head = loc.data.get("variant") if isinstance(loc.data, dict) else None
    game = head.get("game") if isinstance(head, dict) else None
    if not isinstance(game, str):
        from ..reading.schema import _schema_errors, schema_validator

        errs = _schema_errors(loc, schema_validator("ruleset"))
        if errs:
            raise RuleErrors(errs)
        raise JuxError(f"{shown_path(path)}: the variant section names no game")
    known = catalogue_rulesets()
    if game in known:
        return load(game, [str(path)])
    found = game_near(game, path)  # a game of your own, beside the tile (or above it)
    if found is not None:
        return load(found, [str(path)])
    # a game is named, never a path: "/" would have jux read the whole disk
    raise RuleErrors([RuleError(loc.marks.get(("variant", "game")), f"no game '{game}'"
                                f"{did_you_mean(game, known)}; the games: {', '.join(known)} (a game of "
                                "your own is found in the tile's folder, a folder above it, or a folder "
                                "beside one of these)")])


def game_name(f: Path) -> str | None:
    """The name in the 'game:' section of a rule file (None if it has none or does not read)."""
    from ..reading.folders import declares_game
    from ..reading.yaml_reader import read_file

    if not declares_game(f):
        return None
    try:
        data = read_file(f).data
    except JuxError:
        return None
    head = data.get("game") if isinstance(data, dict) else None
    name = head.get("name") if isinstance(head, dict) else None
    return name if isinstance(name, str) else None


def game_near(game: str, tile: Path) -> Path | None:
    """The ruleset named `game` nearest a variant file outside jux's catalogue: the ruleset the
    tile's folder (or one above it, up to 3 levels) is, or one of its rule files or subfolders
    declares. None when there is none."""
    from ..reading.folders import GAME_FILE

    d = tile.resolve().parent
    for cand in [d, *d.parents][:4]:
        try:
            subs = sorted(x for x in cand.iterdir() if not x.name.startswith("."))
        except OSError:
            continue
        for x in [cand, *subs]:
            f = x / GAME_FILE if x.is_dir() else x
            if f.suffix == ".yaml" and f.is_file() and game_name(f) == game:
                return f
    return None
