"""`jux rules [RULESET] [--tiles]`: the rulesets, or one's text, components, zones, counters, rule
texts, and its variants by slot; `jux rules TILE.yaml`: a variant file of one's own, as --tiles
shows a game's."""
from __future__ import annotations

from ..errors import JuxError
from .console import console


def players_range(rules) -> str:
    lo, hi = rules.min_players, rules.max_players
    return str(lo) if lo == hi else f"{lo}-{hi}"


def _ruleset_dirs() -> list:
    from ..paths import RULES_DIR

    if not RULES_DIR.is_dir():
        return []
    return sorted(d for d in RULES_DIR.iterdir()
                  if d.is_dir() and not d.name.startswith((".", "_")) and any(d.rglob("*.yaml")))


def cmd_rules(args) -> int:
    from rich.markup import escape
    from rich.table import Table
    from rich.text import Text

    from ..engine.card_reading import distinct_cards
    from ..engine.ruleset import load_ruleset

    out = console(markup=False)  # (the rules' texts are never markup)
    if args.ruleset is None:
        t = Table(title="Rulesets", title_justify="left")
        t.add_column("Name")
        t.add_column("Title")
        t.add_column("Players", justify="right")
        t.add_column("Variants (jux rules NAME --tiles)")
        status = 0
        from ..reading.variants import catalogue

        for d in _ruleset_dirs():
            try:
                r = load_ruleset(d)
                cat = catalogue(r.name)
                tiles = sum(1 for i in cat.values() if i.fills)
                t.add_row(r.name, r.title, players_range(r),
                          f"{tiles} tiles, {len(cat) - tiles} other" if cat else "none")
            except JuxError as e:
                first = str(e).splitlines()[0] if str(e) else type(e).__name__
                t.add_row(d.name, Text(f"does not load: {first}", style="red"), "-", "-")
                status = 1
        out.print(t)
        return status

    own = _own_variant(args.ruleset)
    if own is not None:
        return _print_own_variant(own, out)
    r = load_ruleset(args.ruleset)
    if args.tiles:
        return _print_tiles(r, out)
    spec = r.spec
    out.print(f"[bold]{escape(r.title)}[/] ({escape(r.name)}, {players_range(r)} players)", markup=True)
    text = " ".join(str(spec.game.get("text", "")).split())
    if text:
        out.print()
        out.print(text, markup=False)
    out.print()

    counts: dict = {}
    for c in r.cards:
        kind = r.card_attrs[c].get("kind")
        counts[kind] = counts.get(kind, 0) + 1
    t = Table(title="Cards", title_justify="left")
    t.add_column("Kind")
    t.add_column("Count", justify="right")
    t.add_column("Attributes")
    for kind, d in spec.cards.items():
        attrs = d.get("attributes", {}) if isinstance(d, dict) else {}
        desc = "; ".join(f"{k}: {_summarize_values(v)}" for k, v in attrs.items())
        t.add_row(str(kind), str(counts.get(kind, 0)), desc)
    out.print(t)
    for kind in spec.cards:  # kinds listed card by card: each different card once
        items = distinct_cards(r, kind)
        if not items:
            continue
        t = Table(title=f"{kind} cards", title_justify="left")
        t.add_column("Card")
        t.add_column("Count", justify="right")
        t.add_column("Values")
        for label, n, values in items:
            t.add_row(label, str(n), "; ".join(f"{k}: {v}" for k, v in values))
        out.print(t)

    t = Table(title="Zones", title_justify="left")
    t.add_column("Zone")
    t.add_column("One per")
    t.add_column("Visible to")
    t.add_column("Description")
    for name, z in spec.zones.items():
        z = z if isinstance(z, dict) else {}
        vis = z.get("visible", "all")
        vis = ", ".join(map(str, vis)) if isinstance(vis, list) else str(vis)
        t.add_row(str(name), _words(z.get("per")), vis, " ".join(str(z.get("text", "")).split()))
    out.print(t)

    if spec.counters:
        t = Table(title="Counters", title_justify="left")
        t.add_column("Counter")
        t.add_column("One per")
        t.add_column("Start", justify="right")
        t.add_column("Description")
        for name, c in spec.counters.items():
            if isinstance(c, dict):
                t.add_row(str(name), _words(c.get("per")), _words(c.get("start"), "none"),
                          " ".join(str(c.get("text", "")).split()))
            else:
                t.add_row(str(name), "", _words(c, "none"), "")
        out.print(t)

    texts = r.procedure_texts()
    if texts:
        out.print()
        out.print("[bold]Rules with text[/]", markup=True)
        for name, txt in texts.items():
            out.print(f"\n[bold]{escape(name)}[/]", markup=True)
            out.print(txt, markup=False)
    return 0


def _print_tiles(r, out) -> int:
    """The variants of a ruleset: the tiles by slot key and letter, then the others."""
    from rich.table import Table

    from ..reading.variants import catalogue

    cat = catalogue(r.name)
    if not cat:
        out.print(f"{r.name} has no variants (none under variants/{r.name}/)")
        return 0
    order = {slot: list(table) for slot, table in r.spec.slots.items()}
    tiles = [i for i in cat.values() if i.fills]
    for slot, keys in order.items():
        for key in keys:
            here = sorted((i for i in tiles if (slot, key) in i.fill_keys), key=lambda i: (i.letter, i.name))
            if not here:
                continue
            out.print(_tile_table(f"{slot} {key}", here))
    others = [i for i in cat.values() if not i.fills]
    if others:
        t = Table(title="Other variants (applied with the tiles that require them)", title_justify="left")
        t.add_column("Variant", no_wrap=True)
        t.add_column("Rule text")
        for i in others:
            t.add_row(i.name, i.text)
        out.print(t)
    out.print("* the tile a slot gets when no tile is named for it. Play with: "
              f"jux play {r.name} --tiles NAME,NAME,...", markup=False, soft_wrap=True)
    return 0


def _tile_table(title: str, tiles: list):
    from rich.table import Table

    t = Table(title=title, title_justify="left", show_lines=True)
    t.add_column("", no_wrap=True)
    t.add_column("Tile", no_wrap=True)
    t.add_column("Rule text")
    for i in tiles:
        fam = f" ({i.family})" if i.family else ""
        t.add_row(i.letter + ("*" if i.default else ""), f"{i.name}{fam}", i.text)
    return t


def _own_variant(path):
    """A variant file named by path (an author's own tile), or None when path names no such file."""
    from pathlib import Path

    from ..reading.variants import variant_file_info

    p = Path(path)
    if p.suffix not in (".yaml", ".yml") or not p.is_file():
        return None
    return p if variant_file_info(p) is not None else None


def _print_own_variant(path, out) -> int:
    """A variant file of one's own, as `--tiles` shows the tiles of a game, once it loads onto its
    game (its errors otherwise, as `jux validate` gives them)."""
    from ..authoring.targets import load_variant, shown_path
    from ..reading.variants import variant_file_info, variant_info

    rules = load_variant(path)  # (RuleErrors, located, when it does not load)
    game = variant_file_info(path).game
    info = variant_info(game, str(path))
    where = shown_path(path)
    if info is None:  # (not expected: it loaded)
        raise JuxError(f"{where}: not a variant of {game}")
    keys = [f"{slot} {key}" for slot, key in info.fill_keys]
    out.print(_tile_table(", ".join(keys) if keys else f"a variant of {game}", [info]))
    if info.requires:
        out.print(f"Requires: {', '.join(info.requires)}", markup=False)
    out.print(f"From {where}, for {rules.title}. Play with: jux play {game} --tiles {where}", markup=False,
              soft_wrap=True)
    return 0


def _summarize_values(v) -> str:
    if isinstance(v, list):
        seen = []
        for x in v:
            if x not in seen:
                seen.append(x)
        s = ", ".join(map(str, seen))
        return s if len(seen) == len(v) else f"{s} ({len(v)} values)"
    return str(v)


def _words(v, nothing: str = "") -> str:
    """A value of the rules in words (a list as its items, true as yes; nothing: how none reads)."""
    from ..engine.card_reading import words

    w = words(v)
    return nothing if w is None else str(w)
