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
    """The name of the game or tile for its rule file ('-' read as '_'), or an error that shows the
    name given with its control characters escaped."""
    if not _NAME.fullmatch(text):
        shown = text[:40].encode("unicode_escape").decode("ascii") + ("..." if len(text) > 40 else "")
        raise JuxError(f"new {what}: '{shown}' cannot name a {what}: a letter, then letters, digits, "
                       "'_' or '-' (at most 64)")
    from ..authoring.templates import rule_name

    return rule_name(text)


def _said_name(out, given: str, name: str, what: str) -> None:
    if name != given:
        out.print(f"the {what}'s name in its rules: {name} (a name in the rules has '_' for '-')", soft_wrap=True)


def _make_folder(folder: Path) -> None:
    """Make a folder and its parents, or say in jux's words why not."""
    for above in [folder, *folder.parents]:
        if above.exists() and not above.is_dir():
            raise JuxError(f"{above}: is a file, not a folder: jux new cannot write under it")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except PermissionError:
        raise JuxError(f"{folder}: no permission to make this folder") from None
    except OSError as e:
        raise JuxError(f"{folder}: cannot make this folder ({_os_words(e)})") from None


def _os_words(e: OSError) -> str:
    import errno

    words = {errno.ENAMETOOLONG: "the path is too long", errno.ENOSPC: "the disk is full",
             errno.EROFS: "the disk is read-only", errno.ENOTDIR: "a part of the path is a file, not a folder",
             errno.EACCES: "no permission"}
    return words.get(e.errno, "the system refused it")


def _write_new(path: Path, text: str) -> None:
    """Write a file that must not exist yet (never overwrites, also when one appears meanwhile)."""
    try:
        with open(path, "x", encoding="utf-8") as fh:
            fh.write(text)
    except FileExistsError:
        raise JuxError(f"{path}: already exists: jux new never overwrites a file") from None
    except OSError as e:
        raise JuxError(f"{path}: cannot write this file ({_os_words(e)})") from None


def cmd_new(args) -> int:
    try:
        return _new_game(args) if args.what == "game" else _new_tile(args)
    except OSError as e:  # (a path the system cannot even look at: too long, a loop of links)
        where = str(e.filename or args.name)
        shown = where if len(where) <= 60 else where[:28] + "..." + where[-28:]
        raise JuxError(f"{shown}: jux new cannot write here ({_os_words(e)})") from None


def _new_game(args) -> int:
    from ..authoring.templates import GAME, SCENARIO, plain, schema_line, title_of

    folder = Path(args.name)
    name = _name(folder.name, "game")
    if args.game:
        raise JuxError("new game: --game is for a tile (jux new tile NAME --game GAME)")
    if folder.is_dir() and any(folder.iterdir()):
        raise JuxError(f"{folder}: already exists and is not an empty folder: jux new never overwrites")
    shown = str(folder)
    files = [(folder / "game.yaml", schema_line("ruleset") + GAME),
             (folder / "scenarios" / f"{folder.name}.yaml", schema_line("scenario") + SCENARIO)]
    _make_folder(folder / "scenarios")
    out = console(markup=False)
    _said_name(out, folder.name, name, "game")
    for path, text in files:
        _write_new(path, text.format(name=name, title=title_of(name), name_value=plain(name),
                                     title_value=plain(title_of(name)), folder=shown))
        out.print(f"wrote {path}", soft_wrap=True)
    out.print(f"next: jux validate {shown}, jux test {shown}, jux play {shown}", soft_wrap=True)
    return 0


def _new_tile(args) -> int:
    from ..authoring.templates import TILE, plain, schema_line, title_of
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
    _write_new(path, schema_line("ruleset") + TILE.format(name=name, game=game, title=title_of(name), name_value=plain(name),
                                                          game_value=plain(game), title_value=plain(title_of(name)),
                                                          file=path, where=where))
    out = console(markup=False)
    _said_name(out, path.stem, name, "tile")
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
