"""What a loaded ruleset is known by: its key in the process's cache of rulesets and its entry's
name in the compile cache (compiled.py), both made from what its files hold. Light: nothing here
parses, checks or compiles, so `jux play NAME` can tell, before it imports the engine, whether the
ruleset loads from the compile cache (and so loads without an error) and open its screen first."""
from __future__ import annotations

import hashlib
from pathlib import Path

from ..errors import JuxError
from ..files import display_path, read_regular
from ..reading import variants as variants_module
from ..reading.folders import rule_files, ruleset_path
from . import compiled


def variant_names(variants) -> tuple:
    """Variants as load_ruleset takes them (names or paths, in a list or separated by commas),
    stripped, none empty."""
    if isinstance(variants, str):
        variants = variants.split(",")
    return tuple(v.strip() for v in variants if v and v.strip())


def ruleset_key(path: Path, variants: tuple, coverage: bool | str) -> tuple:
    """The key of a ruleset in the process's cache: its folder, its variants and every file's
    content (an edited file is another ruleset)."""
    return (str(path.resolve()), tuple(_variant_key(v) for v in variants), _files_key(path),
            _files_key(variants_module.VARIANTS_DIR) if variants else (),
            coverage if isinstance(coverage, str) else bool(coverage))


def entry_name(key: tuple, path: Path, variants: tuple) -> str:
    """The name of the ruleset's entry in the compile cache (compiled.key_of): the process key, and
    how its files are shown in messages (the paths as shown are part of what was compiled)."""
    folders = [path] + ([variants_module.VARIANTS_DIR] if variants else []) + [
        Path(v[0]) for v in key[1] if isinstance(v, tuple)]
    return compiled.key_of((key, str(path), variants, _shown(folders)))


def compiled_before(name_or_path, variants=()) -> bool:
    """Whether load_ruleset(name_or_path, variants) finds its ruleset in the compile cache: these
    files, with these variants, were read, checked and compiled without an error by this jux."""
    if compiled.cache_dir() is None:
        return False
    try:
        path = ruleset_path(name_or_path)
        names = variant_names(variants)
        return compiled.has(entry_name(ruleset_key(path, names, False), path, names))
    except (OSError, JuxError):
        return False


def _shown(paths) -> tuple:
    """What decides how the files under each of paths are named in messages (display_path): the
    path as shown, and where this process is when it is inside it."""
    here = Path.cwd().resolve()
    out = []
    for p in paths:
        real = p.resolve()
        out.append((display_path(p), str(here) if here == real or real in here.parents else None))
    return tuple(out)


def _variant_key(variant: str):
    """A variant as the cache knows it: a file given by its path, by where it is and what it holds
    (the same relative name in another folder, or the same file edited, is another ruleset); a
    variant given by name, by its name (the variants folder's files are keyed apart)."""
    f = Path(variant).expanduser()
    try:
        if f.is_file():  # (as given too: the ruleset names it so, in records for one)
            return variant, str(f.resolve()), hashlib.sha256(read_regular(f)).digest()
    except (OSError, JuxError):
        pass  # (read_spec says why it cannot be read)
    return variant


def _files_key(path: Path) -> tuple:
    """The rule files of a folder by what they hold (a file edited within the file system's clock
    tick, its size unchanged, is still another file)."""
    out = []
    for f in rule_files(path):
        try:  # (a FIFO or a device is never opened: read_regular refuses it)
            out.append((str(f), hashlib.sha256(read_regular(f)).digest()))
        except (OSError, JuxError):
            out.append((str(f), None))  # (read_spec says why it cannot be read)
    return tuple(out)
