"""Variants: files that change a ruleset (power tiles, an edition, house rules).

A variant file is a rule file with a `variant` section naming it and its game. The catalogue of a
game is every such file under variants/<game>/. Choosing variants for a game: each named variant
(by name, or a path to a file), the variants they require, and, for a slot some chosen variant
fills, the `default: true` variant of every key of that slot nobody chose. The combination is
checked here (unknown names, two variants on one slot key); what a variant's sections do to the
rules is composed by the loader.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
import re

from ..errors import JuxError, did_you_mean
from ..files import edited_bytes
from ..paths import VARIANTS_DIR  # noqa: E402


@dataclass
class VariantInfo:
    name: str
    game: str
    path: Path
    title: str = ""
    family: str = ""
    letter: str = ""
    default: bool = False
    requires: tuple = ()
    text: str = ""
    fills: dict = field(default_factory=dict)  # slot -> tuple of keys
    defines: frozenset = frozenset()  # (section, name) of what the file adds (not what it overrides)

    @property
    def fill_keys(self) -> list:
        return [(slot, key) for slot, keys in self.fills.items() for key in keys]


class VariantError(JuxError):
    """A wrong choice of variants (unknown name, two on one slot key, a missing requirement)."""


def _read_header(path: Path) -> VariantInfo | None:
    """The variant section (and the slot keys it fills) of a file, or None if it is no variant.
    Files with errors are listed by their file name; loading them reports the errors. Only the
    header's texts are read (a value that is no text is left out), so a file of aliases that
    expand to millions of values costs nothing here (the loader refuses it)."""
    import yaml

    from .yaml_reader import PlainLoader, read_regular

    try:
        data = yaml.load(read_regular(path).decode("utf-8"), Loader=PlainLoader)  # (YAML 1.2, as rule files)
    except (JuxError, UnicodeDecodeError, yaml.YAMLError, RecursionError, ValueError, OverflowError):
        return VariantInfo(path.stem, "", path)
    if not isinstance(data, dict) or not isinstance(data.get("variant"), dict):
        return None
    v = data["variant"]

    def text(key: str, default: str = "") -> str:
        x = v.get(key, default)
        return x if isinstance(x, str) else default

    fills = {}
    slots = data.get("slots")
    if isinstance(slots, dict):
        for slot, table in slots.items():
            if isinstance(table, dict) and isinstance(slot, str):
                fills[slot] = tuple(k for k in table if isinstance(k, str))
    req = v.get("requires") or ()
    from .compose import entry_name

    overrides = v.get("overrides") if isinstance(v.get("overrides"), list) else []
    defines = frozenset((section, name) for section, table in data.items()
                        if section != "variant" and isinstance(section, str) and isinstance(table, dict)
                        for name in (entry_name(section, key) for key in table) if name not in overrides)
    return VariantInfo(
        name=text("name", path.stem), game=text("game"), path=path, title=text("title"),
        family=text("family"), letter=text("letter"), default=v.get("default") is True,
        requires=tuple(r for r in req if isinstance(r, str)) if isinstance(req, list) else (),
        text=" ".join(text("text").split()), fills=fills, defines=defines)


def _at(path: Path, *keys) -> str:
    """'file:line:col' of a value in a variant file (its first line if it cannot be found)."""
    from .yaml_reader import display_path, read_file

    try:
        pos = read_file(path).marks.get(keys)
    except JuxError:
        pos = None
    return str(pos) if pos is not None else f"{display_path(path)}:1:1"


def variant_files(root: Path) -> list:
    if root.is_file():
        return [root]
    return sorted(p for p in root.rglob("*.yaml") if p.is_file() and not p.is_symlink()) if root.is_dir() else []


_HEADERS: dict = {}
_GAME_NAME = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_-]*")


def catalogue(game: str) -> dict:
    """name -> VariantInfo of every variant under variants/<game>/ (first of a name wins; the
    loader reports a name given twice when that file is loaded)."""
    out: dict = {}
    if not isinstance(game, str) or not _GAME_NAME.fullmatch(game):  # a name, never a path ("/", "..")
        return out
    for f in variant_files(VARIANTS_DIR / game):
        try:
            st = f.stat()
            key = (str(f), st.st_mtime_ns, st.st_size)
        except OSError:
            continue
        if edited_bytes(f) is not None:  # an editor's unsaved text (files.edited): never kept
            info = _read_header(f)
        else:
            if key not in _HEADERS:
                _HEADERS[key] = _read_header(f)
            info = _HEADERS[key]
        if info is not None and info.name not in out:
            out[info.name] = info
    return out


def _info_for(game: str, name: str, cat: dict, slot_order: dict) -> VariantInfo:
    if name in cat:
        return cat[name]
    p = Path(name)
    if p.suffix in (".yaml", ".yml") or "/" in name:
        if not p.is_file():
            raise VariantError(f"no variant file '{name}'")
        info = _read_header(p)
        if info is None:
            raise VariantError(f"{_at(p)}: not a variant (it has no 'variant' section)")
        if info.game and info.game != game:
            raise VariantError(f"{_at(p, 'variant', 'game')}: the variant '{info.name}' is for '{info.game}', "
                               f"not '{game}'")
        known = cat.get(info.name)
        if known is not None and known.path.resolve() == p.resolve():
            return known  # a catalogue file named by its path is that variant
        return info
    raise VariantError(f"unknown variant '{name}' for {game}{did_you_mean(name, cat)}; "
                       f"valid names: {valid_names(cat, slot_order)}")


def variant_file_info(path) -> VariantInfo | None:
    """The variant section of a file (its game "" when the file does not read), or None when the
    file has no variant section."""
    return _read_header(Path(path))


def variant_info(game: str, name: str) -> VariantInfo | None:
    """The VariantInfo of a variant as choose() takes its name (in the catalogue of game's
    variants, or a variant file's path); None when there is no such variant."""
    try:
        return _info_for(game, name, catalogue(game), {})
    except (VariantError, OSError):
        return None


def valid_names(cat: dict, slot_order: dict | None = None) -> str:
    """The tiles by slot key ("key1: tile_a, tile_b; key2: ..."), keys in the rules' order."""
    tiles = sorted((i for i in cat.values() if i.fills), key=lambda i: (i.letter, i.name))
    if not tiles:
        return ", ".join(sorted(cat)) or "(none)"
    by_key: dict = {}
    for slot, keys in (slot_order or {}).items():
        for key in keys:
            by_key[key] = []
    for i in tiles:
        for slot, key in i.fill_keys:
            by_key.setdefault(key, []).append(i.name)
    return "; ".join(f"{key}: {', '.join(names)}" for key, names in by_key.items() if names)


def choose(game: str, names, slot_order: dict) -> list:
    """The variants a game with these named variants uses, in the order they apply: required
    ones first, then by slot key in the order the ruleset lists them. A slot
    key no named variant fills gets its `default: true` variant when the variants that default
    requires are in the game.

    slot_order: slot -> list of its keys in the base rules. Raises VariantError."""
    names = [n.strip() for n in names if n and n.strip()]
    cat = catalogue(game)
    chosen: list = []
    for n in names:
        info = _info_for(game, n, cat, slot_order)
        if any(c.name == info.name for c in chosen):
            raise VariantError(f"the variant '{info.name}' is named twice")
        chosen.append(info)
    # two chosen variants on one slot key
    taken: dict = {}
    for info in chosen:
        for sk in info.fill_keys:
            if sk in taken:
                slot, key = sk
                raise VariantError(f"{_at(info.path, 'slots', slot, key)}: '{taken[sk].name}' and '{info.name}' "
                                   f"both fill {slot} {key}: "
                                   f"choose one per {key}; valid names: {valid_names(cat, slot_order)}")
            taken[sk] = info
    # requirements, applied first
    required: list = []

    def need(info, trail):
        for r in info.requires:
            if r in trail:
                raise VariantError(f"variants require each other in a circle: {' -> '.join(trail + (r,))}")
            if any(x.name == r for x in required):
                continue
            # a variant named by the user (a file given by its path) stands for the catalogue's of its name
            target = next((c for c in chosen if c.name == r), None) or cat.get(r)
            if target is None:
                where = _at(info.path, "variant", "requires", list(info.requires).index(r))
                raise VariantError(f"{where}: requires unknown variant '{r}'{did_you_mean(r, cat)}")
            need(target, trail + (r,))
            required.append(target)

    for info in list(chosen):
        need(info, (info.name,))
    # defaults: a slot key no chosen variant fills gets its default variant when what that default
    # requires is part of the game (the A tiles come with the power-tile edition), or, for a
    # default that requires nothing, when a chosen variant fills another key of its slot
    present = {i.name for i in chosen + required}
    slots = {slot for info in chosen for slot, _ in info.fill_keys}
    for d in cat.values():
        wanted = set(d.requires) <= present and (
            bool(d.requires) or any(slot in slots for slot, _ in d.fill_keys))
        if d.default and d.fill_keys and wanted and d.name not in present \
                and not any(sk in taken for sk in d.fill_keys):
            chosen.append(d)
            for sk in d.fill_keys:
                taken[sk] = d
            need(d, (d.name,))
    rest = [c for c in chosen if not any(c is r for r in required)]

    def order(info):
        best = min(((list(slot_order).index(s) if s in slot_order else 99,
                     slot_order.get(s, []).index(k) if k in slot_order.get(s, []) else 99)
                    for s, k in info.fill_keys), default=(99, 99))
        return best

    rest.sort(key=order)
    return required + rest
