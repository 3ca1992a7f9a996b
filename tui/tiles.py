"""Variants as the TUI offers them: tiles (variants that fill a slot key) grouped by key, and the
variants a ruleset plays with. No Textual here, and no knowledge of any game: the slots, keys,
titles, letters and texts all come from the variant files (interpreter.variants.catalogue)."""
from __future__ import annotations

from dataclasses import dataclass


def parse_tiles(tiles) -> list:
    """Variant names from a comma-separated string, a list of names, or None (no variants)."""
    if tiles is None:
        return []
    if isinstance(tiles, str):
        tiles = tiles.split(",")
    return [str(t).strip() for t in tiles if t is not None and str(t).strip()]


def game_name(rules) -> str:
    """The name variants are filed under (variants/<game>/): the game's own name, else the ruleset's."""
    game = getattr(rules.spec, "game", None) or {}
    return str(game.get("name") or rules.name) if isinstance(game, dict) else rules.name


def catalogue_of(rules) -> dict:
    from ..interpreter.reading.variants import catalogue

    try:
        return catalogue(game_name(rules))
    except OSError:
        return {}


@dataclass
class TileKey:
    """One key of a slot (one choice on the start screen) and the tiles that may fill it."""
    slot: str
    key: str
    tiles: list  # VariantInfo, by letter then name
    default: str | None  # the name of the default tile of this key, if any


def tile_keys(rules, cat: dict) -> list:
    """The slot keys some tile in the catalogue fills, in the order the ruleset lists them."""
    found: dict = {}
    for info in cat.values():
        for slot, key in info.fill_keys:
            found.setdefault((slot, key), []).append(info)
    slots = getattr(rules.spec, "slots", None) or {}

    def order(sk):
        slot, key = sk
        slot_names = list(slots)
        keys = list(slots.get(slot) or {}) if isinstance(slots.get(slot), dict) else []
        return (slot_names.index(slot) if slot in slot_names else len(slot_names),
                keys.index(key) if key in keys else len(keys), slot, key)

    out = []
    for sk in sorted(found, key=order):
        tiles = sorted(found[sk], key=lambda i: (i.letter or "~", i.title or i.name, i.name))
        default = next((i.name for i in tiles if i.default), None)
        out.append(TileKey(sk[0], sk[1], tiles, default))
    return out


def tile_label(info) -> str:
    """'A  Title' (the tile's letter and title), or the name when the file gives neither."""
    title = info.title or info.name.replace("_", " ")
    return f"{info.letter}  {title}" if info.letter else title


def flat(text) -> str:
    return " ".join(str(text or "").split())


def variants_in_use(rules) -> list:
    """(VariantInfo or None, name) for each variant the ruleset plays with, in the order applied."""
    names = list(getattr(rules, "variants", ()) or ())
    if not names:
        return []
    from ..interpreter.reading.variants import variant_info

    cat = catalogue_of(rules)
    return [(cat.get(n) or variant_info(game_name(rules), n), n) for n in names]  # (a file named by its path)


# ---------------------------------------------------------------- presets: whole choices of tiles at once
#
# A preset picks one tile per key. They come from the variant files only: "letter:X" takes, for
# every key, its tile whose file gives letter X (offered when every key has one); "default" takes
# each key's default tile (offered when the defaults are no letter preset); "random" draws one
# tile per key.

RANDOM = "random"
DEFAULT = "default"


def key_word(rules, keys: list) -> str:
    """The ruleset's word for the keys tiles are chosen by, as in "one per ___": the card attribute
    whose values include every key (a colour, say), else the keys themselves when few and short,
    else the slot's name ("power slot")."""
    wanted = {k.key for k in keys}
    cards = getattr(getattr(rules, "spec", None), "cards", None) or {}
    for kind in cards.values() if isinstance(cards, dict) else ():
        attrs = kind.get("attributes") if isinstance(kind, dict) else None
        for attr, values in (attrs or {}).items() if isinstance(attrs, dict) else ():
            if wanted and isinstance(values, list) and wanted <= {str(v) for v in values}:
                return str(attr).replace("_", " ")
    listed = "/".join(k.key for k in keys)
    if keys and len(listed) <= 16:
        return listed
    slots = list(dict.fromkeys(k.slot for k in keys))
    return f"{slots[0]} slot" if len(slots) == 1 else "slot"


def presets(keys: list, word: str = "slot") -> list:
    """(label, value) for each preset these keys allow, defaults first, random last."""
    if not keys:
        return []
    out = []
    defaults = [k.default for k in keys]
    letters = sorted({t.letter for k in keys for t in k.tiles if t.letter})
    for letter in letters:
        picks = preset_picks(keys, f"letter:{letter}")
        if picks is None:
            continue
        is_default = picks == defaults
        out.append((f"all {letter} tiles" + (" (default)" if is_default else ""), f"letter:{letter}"))
    if all(defaults) and not any(preset_picks(keys, v) == defaults for _, v in out):
        out.insert(0, ("default tiles", DEFAULT))
    else:  # the defaults first
        out.sort(key=lambda lv: preset_picks(keys, lv[1]) != defaults)
    out.append((f"random: one per {word}", RANDOM))
    return out


def preset_picks(keys: list, value, rng=None) -> list | None:
    """The tile (name) a preset picks for each key; None when it does not fit these keys.
    rng: a random.Random for the random preset (a new one without it)."""
    if value == RANDOM:
        import random

        rng = rng or random.Random()
        return [rng.choice(k.tiles).name if k.tiles else None for k in keys]
    if value == DEFAULT:
        picks = [k.default for k in keys]
        return picks if all(picks) else None
    if isinstance(value, str) and value.startswith("letter:"):
        letter = value[len("letter:"):]
        picks = [next((t.name for t in k.tiles if t.letter == letter), None) for k in keys]
        return picks if all(picks) else None
    return None


def preset_of(keys: list, picks: list):
    """The preset (other than random) these picks make, or None."""
    for _, value in presets(keys):
        if value != RANDOM and preset_picks(keys, value) == list(picks):
            return value
    return None
