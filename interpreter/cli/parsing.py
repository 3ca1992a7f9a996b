"""The command line's parser: errors are one line naming the command, the option and the bad value;
options are taken by their whole name only; the types of option values (whole numbers, numbers).
Only argparse here (`jux --version` and `jux --help` import nothing more)."""
from __future__ import annotations

import argparse
import re

from .console import PROG


def shown(text: str) -> str:
    """A value as an error quotes it: cut short when long (options.cut, imported when needed)."""
    from .options import cut

    return cut(text)


def whole_number(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        big = re.fullmatch(r"\s*[+-]?\d+\s*", text)  # (more digits than Python reads)
        raise argparse.ArgumentTypeError(f"'{shown(text)}' is {'too big' if big else 'not a whole number'}") \
            from None


def zero_or_more(text: str) -> int:
    v = whole_number(text)
    if v < 0:
        raise argparse.ArgumentTypeError(f"'{shown(text)}' must be 0 or more")
    return v


def number(text: str) -> float:
    try:
        return float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{shown(text)}' is not a number") from None


class Parser(argparse.ArgumentParser):
    """argparse whose errors are one line naming the command, the option and the bad value
    ("jux: simulate --seed: 'abc' is not a whole number (see 'jux simulate --help')"), exit 2.
    An option is taken only by its whole name: a shortened or misspelt one is an error, never
    another option it begins (`balance --tiles` is not `--tiles-grid`)."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("allow_abbrev", False)
        super().__init__(*args, **kwargs)

    def error(self, message: str):
        command = self.prog[len(PROG):].strip()
        m = re.match(r"argument (\S+): (.*)", message, re.S)
        if m:  # "argument --seed/-s: ...": the option by its long name
            what = f"{command} {max(m.group(1).split('/'), key=len)}".strip() + f": {m.group(2)}"
        else:
            what = f"{command}: {message}" if command else message
        what = _CONTROL.sub(lambda c: repr(c.group())[1:-1], what)  # (a value's newline stays on the line)
        if len(what) > 300:
            what = what[:300] + "…"
        see = " ".join(w for w in (PROG, command, "--help") if w)
        self.exit(2, f"{PROG}: {what} (see '{see}')\n")


_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


def unrecognized(parser, command, extra: list) -> None:
    """Arguments no option of the command takes: one line naming the command, and the option
    meant when one is near (`balance --tiles`: did you mean '--tiles-grid'?); exit status 2."""
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    target = sub.choices.get(command, parser) if command else parser
    flag = next((x.split("=", 1)[0] for x in extra if x.startswith("--")), None)
    hint = ""
    if flag and target is not parser:
        from ..errors import did_you_mean

        hint = did_you_mean(flag, [o for a in target._actions for o in a.option_strings if o.startswith("--")])
    target.error(f"unrecognized arguments: {' '.join(extra)}{hint}")
