"""`jux new game NAME` and `jux new tile NAME --game GAME`: a minimal ruleset (its game.yaml and one
passing scenario in its scenarios/ folder) or a minimal variant file, ready to validate, play and
test (authoring/templates.py); `jux schema`: where the schema files are. Nothing is overwritten."""
from __future__ import annotations

import re
from pathlib import Path

from ..errors import JuxError
from .console import console

_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_-]{0,63}")


def _name(text: str, what: str) -> str:
    if not _NAME.fullmatch(text):
        raise JuxError(f"new {what}: '{text[:40]}' cannot name a {what}: a letter, then letters, digits, "
                       "'_' or '-' (at most 64)")
    return text


def _write_new(path: Path, text: str) -> None:
    """Write a file that must not exist yet (never overwrites, also when one appears meanwhile)."""
    try:
        with open(path, "x", encoding="utf-8") as fh:
            fh.write(text)
    except FileExistsError:
        raise JuxError(f"{path}: already exists: jux new never overwrites a file") from None


def cmd_new(args) -> int:
    return _new_game(args) if args.what == "game" else _new_tile(args)


def _new_game(args) -> int:
    from ..authoring.templates import GAME, SCENARIO, schema_line, title_of

    folder = Path(args.name)
    name = _name(folder.name, "game")
    if args.game:
        raise JuxError("new game: --game is for a tile (jux new tile NAME --game GAME)")
    if folder.exists() and (not folder.is_dir() or any(folder.iterdir())):
        raise JuxError(f"{folder}: already exists and is not an empty folder: jux new never overwrites")
    shown = str(folder)
    files = [(folder / "game.yaml", schema_line("ruleset") + GAME),
             (folder / "scenarios" / f"{name}.yaml", schema_line("scenario") + SCENARIO)]
    (folder / "scenarios").mkdir(parents=True, exist_ok=True)
    out = console(markup=False)
    for path, text in files:
        _write_new(path, text.format(name=name, title=title_of(name), folder=shown))
        out.print(f"wrote {path}", soft_wrap=True)
    out.print(f"next: jux validate {shown}, jux test {shown}, jux play {shown}", soft_wrap=True)
    return 0


def _new_tile(args) -> int:
    from ..authoring.templates import TILE, schema_line, title_of
    from ..authoring.targets import game_name
    from ..reading.folders import ruleset_root
    from ..reading.spec import catalogue_rulesets

    path = Path(args.name if args.name.endswith(".yaml") else args.name + ".yaml")
    name = _name(path.stem, "tile")
    if not args.game:
        raise JuxError("new tile: name its game: jux new tile NAME --game GAME (a game's name, or the "
                       "path of a ruleset)")
    if args.game in catalogue_rulesets() and not Path(args.game).exists():
        game, where = args.game, args.game
    else:
        root = ruleset_root(Path(args.game))
        if not root.exists():
            known = ", ".join(catalogue_rulesets())
            raise JuxError(f"new tile: no game '{args.game}': a game's name ({known}) or the path of a ruleset")
        main = root / "game.yaml" if root.is_dir() else root
        game = game_name(main)
        if game is None:
            raise JuxError(f"new tile: {args.game} is not a ruleset: no game.yaml with a 'game' section and a name")
        where = args.game
        if root.is_dir() and root.resolve() in path.resolve().parents:
            raise JuxError(f"new tile: {path} would lie inside the ruleset {args.game}, as one of its rule "
                           "files: write the tile outside its folder")
    if path.exists():
        raise JuxError(f"{path}: already exists: jux new never overwrites a file")
    if not path.parent.is_dir():
        raise JuxError(f"{path.parent}: no such folder")
    _write_new(path, schema_line("ruleset") + TILE.format(name=name, game=game, title=title_of(name),
                                                          file=path, where=where))
    out = console(markup=False)
    out.print(f"wrote {path}", soft_wrap=True)
    out.print(f"next: jux validate {path}, jux play {where} --tiles {path}", soft_wrap=True)
    return 0


def cmd_schema(args) -> int:
    from ..authoring.templates import schema_files

    files = schema_files()
    if args.kind:
        print(files[args.kind].as_uri() if args.uri else files[args.kind])
        return 0
    for kind, path in files.items():
        print(f"{kind}: {path.as_uri() if args.uri else path}")
    return 0
