"""Static checks of a RuleSpec: every name known, every call with the right arguments, zones
indexed the way they are declared, decisions only where the game can stop, every value of the
type its use needs (infer.py). All errors at once; routines never used are warnings (reach.py)."""
from __future__ import annotations

from . import families, secrets, table as display, tracks
from ..errors import RuleError, RuleErrors
from ..language.tree import Choose, Simultaneously
from ..limits import MAX_CARDS
from ..reading.cards import card_counts, make_cards
from .calls import CallChecks
from .declarations import DeclarationChecks
from .families import FamilyChecks
from .facts import procedures_that
from .infer import Infer
from .names import NameChecks
from .reach import reached, unreached
from .statements import StatementChecks
from .values import card_counts_said, mixed_attributes, seats_of_no_one
from .versions import tightened


class Checker(DeclarationChecks, NameChecks, CallChecks, StatementChecks, FamilyChecks):
    """Every check of a ruleset: its declarations (declarations.py), then the code of its
    routines and flow: names and scopes (names.py), calls (calls.py), statements
    (statements.py). Errors are collected in self.errors."""

    def __init__(self, spec):
        self.spec = spec
        self.errors: list = []
        self.warnings: list = []  # checks tightened since the file's language version (versions.py)
        self.made: set = set()  # locals made so far in the routine being checked
        self.in_function = False
        counts = card_counts(spec)
        if sum(counts.values()) > MAX_CARDS:  # (making them would take the machine's memory)
            kind = max(counts, key=counts.get)
            self.err(spec.where.get(("cards", kind)), f"the card kinds make {sum(counts.values()):,} cards "
                     f"('{kind}' {counts[kind]:,}): at most {MAX_CARDS:,} in a ruleset")
            self.attrs = {a for d in spec.cards.values() for a in d["attributes"]} | {"kind"} | {
                a for d in spec.cards.values() for own in d.get("list") or () for a in own}
        else:
            cards, _ = make_cards(spec)
            self.attrs = {a for c in cards for a in c}
        self.cards = None if sum(counts.values()) > MAX_CARDS else cards
        self.per_zones = {n for n, z in spec.zones.items() if z.get("per")}
        self.per_counters = {n for n, c in spec.counters.items() if isinstance(c, dict) and c.get("per")}
        self.keyed_counters = {n for n, c in spec.counters.items() if isinstance(c, dict) and isinstance(c.get("per"), list)}

    def err(self, pos, msg):
        self.errors.append(RuleError(pos, msg))

    def per_phrase(self, section, name):
        per = getattr(self.spec, section)[name]["per"]
        if isinstance(per, list):
            return f"one per player and per item of '{per[1]}'"
        if per == "made":
            return "a family of zones made during play"
        return "one per player" if per == "player" else f"one per item of '{per}'"

    # ------------------------------------------------------------ code

    def check_all(self):
        self.declarations()
        for pos, message, fix in mixed_attributes(self.spec) + seats_of_no_one(self.spec):
            is_error, e = tightened(self.spec, pos, message, fix)
            (self.errors if is_error else self.warnings).append(e)
        for pos, message in (tracks.check(self.spec) + display.check(self.spec) + secrets.check(self.spec)
                             + families.check(self.spec)):
            self.err(pos, message)
        said_errors, said_warnings = card_counts_said(self.spec)
        for pos, message in said_errors:
            self.err(pos, message)
        self.warnings.extend(RuleError(pos, message) for pos, message in said_warnings)
        spec = self.spec
        self.in_function = True
        for r in spec.functions.values():
            self.made = set()
            if isinstance(r.body, tuple):  # a block: locals, if, loops, return EXPR
                self.block(r.body, set(r.params), loop=False)
            else:
                self.expr(r.body, set(r.params))
        self.in_function = False
        for r in spec.procedures.values():
            self.made = set()
            self.block(r.body, set(r.params), loop=False)
        if spec.flow:
            self.made = set()
            self.block(spec.flow.body, set(), loop=False)
        self.found = None  # reached(spec): what runs, found once for the types and the warnings
        if self.cards is not None:
            self.found = reached(spec)
            infer = Infer(spec, self.attrs, self.cards, self.found)
            self.errors.extend(infer.run())
            self.warnings.extend(infer.warnings.values())
        if self.errors:
            raise RuleErrors(self.errors)


def suspending_procedures(spec) -> set:
    """Procedures that may stop at a decision: they choose, run things simultaneously, or call one that does."""
    return procedures_that(spec, lambda n: isinstance(n, (Choose, Simultaneously)))


def check(spec):
    """Check a ruleset read from its files: raises RuleErrors with every error (those found reading
    its code first), or gives the procedures that may stop at a decision (for the compiler). What
    is not wrong but likely a mistake is left in spec.warnings (a routine never used), and so is what
    a check tightened since the file's language version finds (versions.py)."""
    found = [tightened(spec, pos, message, fix) for pos, message, fix in spec.tightened]  # (composing)
    refused = [e for is_error, e in found if is_error]
    if spec.errors:
        raise RuleErrors(list(spec.errors) + refused + _more_errors(spec))
    checker = Checker(spec)
    checker.errors.extend(refused)
    checker.check_all()
    spec.warnings = (list(spec.composed_warnings) + [e for is_error, e in found if not is_error] + checker.warnings
                     + unreached(spec, checker.found))
    return suspending_procedures(spec)


def _more_errors(spec) -> list:
    """What the checks find in rules that also have errors in their code (those routines empty)."""
    try:
        Checker(spec).check_all()
    except RuleErrors as e:
        return list(e.errors)
    except Exception:  # never let this extra pass hide the errors already found
        return []
    return []
