"""An answer's `decision:` (docs/testing.md, "Names that no rewording changes"): the stable name of
the decision it answers (compiler/decision_names.py, `ROUTINE.VARIABLE`), checked like `prompt`
but unchanged by any rewording of the rules' texts. A name that names no decision of the rules is
an error of the file, with the names there are; a name the rules renamed (their `renamed`
section) reads as the name now, with a warning that says which to write."""
from __future__ import annotations

from ..errors import did_you_mean
from .scenario_expect import Failure


def names(sc, rules, renames, warnings: list) -> list:
    """RuleErrors for the answers' `decision:` names that name no decision of these rules; a name
    they renamed is rewritten in sc.data to the name now, with a warning added to warnings."""
    known = [x for x in rules.decision_names if x is not None]
    errors = []
    for i, a in enumerate(sc.data.get("answers") or []):
        name = a.get("decision") if isinstance(a, dict) else None
        if name is None or name in known:
            continue
        at = ("answers", i, "decision")
        new = renames.label(name, known) if renames else None
        if new is not None:
            warnings.append(Failure(sc.value_at(*at), f"warning: decision '{name}' is '{new}' in these rules now "
                                                      f"(they renamed it): write '{new}'"))
            a["decision"] = new
            continue
        listed = ", ".join(sorted(set(known))) or "none"
        errors.append(sc.error(at, f"answer {i + 1}: no decision '{name}' in these rules{did_you_mean(name, known)}; "
                                   f"their decisions: {listed}", value=True))
    return errors


def check(sc, a: dict, at: tuple, i: int, d) -> list:
    """The failure of an answer whose `decision:` is not the name of the decision pending (d)."""
    if "decision" not in a or a["decision"] == d.name:
        return []
    return [Failure(sc.at(*at, "decision"), f"answer {i + 1}: the decision (its name)",
                    f"'{a['decision']}'", f"'{d.name}' ({d.prompt})")]
