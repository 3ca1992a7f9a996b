"""Bots: players that answer decisions from what their seat may know.

A bot has these members:

- ``needs_view`` (bool): whether ``choose`` reads the view. When False the caller may pass
  ``None`` instead of building ``game.view(seat)``, which is what keeps simulation fast.
- ``needs_game`` (bool, default False): a searching bot sets it; the caller then passes an
  ``InfoSet`` (``bots.sample``): the seat's view plus games sampled from what the seat may know.
  ``bots.sample.bot_input(bot, game, seat)`` gives the right argument for any bot.
- ``choose(view, decision)``: the answer to ``decision`` (an option index, or for
  ``decision.many`` a list of between ``decision.min`` and ``decision.max`` distinct indices;
  ``None`` declines an optional decision). A bot never gets the game itself.
- ``pick(n, lo, hi, many)`` (optional): for a bot that answers from the decision's shape alone
  (n options, lo to hi of them when ``many``), the same answer as ``choose``; simulations then
  ask it without making decisions (``Game.autoplay(pick=...)``), which is faster.

Bots are named by a spec string, ``NAME`` or ``NAME:KEY=VALUE:KEY=VALUE`` (options for bots that
take some, e.g. a search bot's iterations); a bare number is the bot's first option
(``ismcts:500`` is ``ismcts:iterations=500``). ``make_bot(spec, seed)`` builds one;
``bot_factory(spec)`` parses a spec once and returns ``seed -> Bot`` for making one per game.
New bots plug in by a line in ``BUILTIN`` (imported only when used) or by ``register``.
"""
from __future__ import annotations

from functools import lru_cache
import hashlib
from importlib import import_module
from typing import Callable

from ..errors import JuxError, did_you_mean


class Bot:
    """Base class for bots (a bot may also be any object with needs_view and choose)."""

    name = "bot"
    needs_view = True

    def choose(self, view: dict | None, decision):  # pragma: no cover - interface
        raise NotImplementedError


# name -> "module:attribute" (a module of this package) of a factory called as
# factory(seed=..., **options); imported lazily
BUILTIN: dict[str, str] = {
    "random": ".random_bot:RandomBot",
    "greedy": ".greedy:GreedyBot",
    "ismcts": ".ismcts:IsmctsBot",
}
_registered: dict[str, Callable] = {}


def register(name: str, factory: Callable) -> None:
    """Add a bot kind: factory(seed=..., **options) -> Bot."""
    _registered[name] = factory


# how hard each built-in bot plays, as the terminal UI offers them
LEVELS: dict[str, str] = {"random": "easy", "greedy": "medium", "ismcts": "hard"}
# the levels the terminal UI offers: (level, the bot's spec, what it does). The hard one searches
# for one second a move (docs/bots.md, "Strength": how often it beats three medium bots).
LEVEL_BOTS: tuple = (("easy", "random", "plays at random"),
                     ("medium", "greedy", "best next move"),
                     ("hard", "ismcts:seconds=1", "thinks 1 s a move"))


def bot_names() -> list:
    return sorted(set(BUILTIN) | set(_registered))


def bot_level(name: str) -> str:
    """'easy', 'medium', 'hard' for the built-in bots; '' for others."""
    return LEVELS.get(name, "")


def bot_choices() -> list:
    """(what a player reads, the bot's spec) for each bot a seat may be given: the levels first,
    named by what they do ("bot: hard, thinks 1 s a move"), then every other bot by its name."""
    levels = [(f"bot: {level}, {does}", spec) for level, spec, does in LEVEL_BOTS]
    return levels + [(f"bot: {name}", name) for name in bot_names() if name not in BUILTIN]


def level_spec(kind: str) -> str:
    """The spec the choices offer for a seat's bot given by a built-in bot's plain name (a seat
    that was 'ismcts' reads as the hard level), else kind as it is."""
    name = kind.split(":", 1)[0]
    if name in BUILTIN and all(spec != kind for _, spec, _ in LEVEL_BOTS):
        return next((spec for _, spec, _ in LEVEL_BOTS if spec.split(":", 1)[0] == name), kind)
    return kind


def _factory_of(name: str) -> Callable:
    if name in _registered:
        return _registered[name]
    target = BUILTIN.get(name)
    if target is None:
        known = bot_names()
        raise JuxError(f"unknown bot '{name}'{did_you_mean(name, known)}; known bots: {', '.join(known)}")
    module, _, attr = target.partition(":")
    return getattr(import_module(module, __name__), attr)


def _option_value(text: str):
    for cast in (int, float):
        try:
            return cast(text)
        except ValueError:
            pass
    if text.lower() in ("true", "false"):
        return text.lower() == "true"
    return text


BARE = ""  # the key under which parse_spec keeps a bare number (the bot's first option)


def option(bot: str, key: str, value, lo, hi, whole: bool = True):
    """A bot's option checked: a whole number (or, whole=False, a finite number) from lo to hi.
    JuxError otherwise (a bot asked for 10**12 iterations would never answer)."""
    kind = "a whole number" if whole else "a number"
    ok = type(value) is int if whole else type(value) in (int, float)
    if not ok or value != value or not lo <= value <= hi:  # (NaN compares false)
        shown = repr(value) if len(repr(value)) <= 30 else repr(value)[:30] + "…"
        raise JuxError(f"bot '{bot}': {key} must be {kind} from {lo:,} to {hi:,}, not {shown}")
    return value


def parse_spec(spec: str) -> tuple:
    """'name:key=value:...' -> (name, {key: value}); a bare number is kept under the key ''."""
    if not isinstance(spec, str) or not spec.strip():
        raise JuxError(f"a bot must be named (known bots: {', '.join(bot_names())})")
    name, *parts = [s.strip() for s in spec.strip().split(":")]
    options = {}
    for part in parts:
        key, eq, value = part.partition("=")
        if not eq and not isinstance(_option_value(part), str) and BARE not in options:
            options[BARE] = _option_value(part)
            continue
        if not eq or not key.strip():
            raise JuxError(f"bot '{spec}': options are written key=value, not '{part}'")
        options[key.strip().replace("-", "_")] = _option_value(value.strip())
    return name.lower(), options


def bot_factory(spec: str) -> Callable:
    """Parse a bot spec once; return seed -> a new bot. Unknown names and options are JuxErrors."""
    name, options = parse_spec(spec)
    factory = _factory_of(name)
    if BARE in options:
        first = _option_names(factory)
        if not first:
            raise JuxError(f"bot '{name}' takes no options (a bare number is the bot's first option)")
        options[first[0]] = options.pop(BARE)
    _check_options(name, factory, options)
    if options:  # bad option values are errors now, not in the middle of a game
        try:
            factory(seed=0, **options)
        except (TypeError, ValueError, OverflowError) as e:
            raise JuxError(f"bot '{spec}': {e}") from None

    def make(seed=None):
        try:
            return factory(seed=seed, **options)
        except TypeError as e:
            raise JuxError(f"bot '{spec}': {e}") from None

    make.spec = spec
    make.bot_name = name
    return make


def _parameters(factory):
    """_parameters_of(factory), kept per factory (one that cannot be a key is worked out again)."""
    try:
        return _kept_parameters(factory)
    except TypeError:  # (unhashable)
        return _parameters_of(factory)


def _parameters_of(factory):
    """(the factory's options in order: its keyword parameters but seed, whether it takes any
    keyword), or None when they cannot be known. Worked out once per factory: a study makes its
    bots game after game (inspect.signature costs a tenth of a short game)."""
    import inspect

    try:
        params = inspect.signature(factory).parameters
    except (TypeError, ValueError):
        return None
    return ([k for k, p in params.items() if k != "seed" and p.kind in
             (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)],
            any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params.values()))


_kept_parameters = lru_cache(maxsize=256)(_parameters_of)


def _option_names(factory) -> list:
    """The factory's options in order (its keyword parameters but seed); [] when unknown."""
    got = _parameters(factory)
    return list(got[0]) if got is not None else []


def _check_options(name: str, factory, options: dict) -> None:
    got = _parameters(factory)
    if got is None or got[1]:
        return
    known = got[0]
    for key in options:
        if key not in known:
            has = f"its options: {', '.join(known)}" if known else "it takes no options"
            raise JuxError(f"bot '{name}' has no option '{key}'{did_you_mean(key, known)} ({has})")


def make_bot(spec: str, seed=None) -> Bot:
    """A bot from its spec ('random', ...) with its own seeded random generator."""
    return bot_factory(spec)(seed)


def seat_seed(game_seed: int, seat: int) -> int:
    """The seed of the bot in a seat of a game: distinct per game and seat, stable everywhere."""
    h = hashlib.blake2b(f"jux-bot:{game_seed}:{seat}".encode(), digest_size=8)
    return int.from_bytes(h.digest(), "big")


__all__ = ["Bot", "BUILTIN", "register", "bot_names", "parse_spec", "bot_factory", "make_bot", "seat_seed"]
