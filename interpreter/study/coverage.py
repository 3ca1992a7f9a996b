"""Rule coverage: which lines of effect code ran, how often, and which choices were never real.

A ruleset loaded with ``load_ruleset(..., coverage=True)`` is compiled with a counter on every
statement and function, and with every ``choose`` counted as it is reached: how many times it
asked (it had options), how many of those were a real choice (more than one possible answer) and
the most options it ever offered. Each slot call (a power) is counted too, with the change of
the score of the seat it is for (the first seat among its arguments) from the call to the end
of the slot's procedure, decisions in between included. The counts live in the ruleset
(``rules.coverage``, a Counts of runtime/counts.py); ``counts.data()`` gives them as plain data
that adds up across processes (``add``), and ``report`` turns them into what an author reads: per rule or variant file, the lines that ran
(and how often), the statements that never ran, and the chooses that were never a real choice.
"""
from __future__ import annotations

from pathlib import Path

from ..paths import ROOT


def add(a: dict | None, b: dict) -> dict:
    """Counts of two runs of the same ruleset added up (a may be None: b)."""
    if a is None:
        return {k: [list(x) if isinstance(x, list) else x for x in v] for k, v in b.items()}
    if "sites" in a and "sites" in b and (a["sites"] != b["sites"] or a["choose_sites"] != b["choose_sites"]) \
            or len(a["runs"]) != len(b["runs"]) or len(a["choices"]) != len(b["choices"]):
        raise ValueError("coverage counts of different rules cannot be added")
    if ("decisions" in a) != ("decisions" in b):
        raise ValueError("coverage counts of different kinds cannot be added")
    sites = a if "sites" in a else b
    powers = {(p[0], p[1]): list(p[2:]) for p in a["powers"]}
    for p in b["powers"]:
        st = powers.setdefault((p[0], p[1]), [0, 0, 0, 0])
        for i, x in enumerate(p[2:]):
            st[i] += x
    out = {"sites": sites["sites"], "choose_sites": sites["choose_sites"]} if "sites" in sites else {}
    if "decisions" in a:  # (coverage "powers": the decisions counted as a whole, runtime/counts.py)
        out["decisions"] = [x + y for x, y in zip(a["decisions"], b["decisions"])]
    return {**out, "runs": [x + y for x, y in zip(a["runs"], b["runs"])],
            "choices": [[x[0] + y[0], x[1] + y[1], x[2] + y[2], max(x[3], y[3])]
                        for x, y in zip(a["choices"], b["choices"])],
            "powers": [[slot, key] + st for (slot, key), st in sorted(powers.items(), key=str)]}


def report(data: dict, games: int | None = None) -> dict:
    """What the counts say, per file: {file: {"lines": {line: runs}, "never": [(line, col, what)],
    "forced": [(line, col, reached, asked, most options)], "statements": n, "ran": n}}.

    A line's runs are those of its most-run statement; "never" lists each statement (or
    function) that never ran; "forced" each choose that never offered a real choice (never
    reached, never had options, or always exactly one possible answer)."""
    files: dict = {}

    def entry(f):
        name = shown(f)
        if name not in files:
            files[name] = {"path": f, "lines": {}, "never": [], "forced": [], "statements": 0, "ran": 0}
        return files[name]

    for (f, line, col, what), runs in zip(data["sites"], data["runs"]):
        e = entry(f)
        e["statements"] += 1
        e["lines"][line] = max(e["lines"].get(line, 0), runs)
        if runs:
            e["ran"] += 1
        else:
            e["never"].append((line, col, what))
    for (f, line, col), (reached, asked, real, most) in zip(data["choose_sites"], data["choices"]):
        if not real:
            entry(f)["forced"].append((line, col, reached, asked, most))
    for e in files.values():
        e["never"].sort()
        e["forced"].sort()
    return dict(sorted(files.items()))


def shown(file: str) -> str:
    """A rule file's path as a report shows it: from the current folder, or from jux's own folder
    (rules/..., variants/...), else whole."""
    p = Path(file).resolve()
    for base in (Path.cwd().resolve(), ROOT):
        try:
            return str(p.relative_to(base))
        except ValueError:
            continue
    return str(file)


def source_line(file: str, line: int) -> str:
    """The text of a line of a rule file (stripped), or '' when it cannot be read."""
    try:
        return Path(file).read_text(encoding="utf-8").splitlines()[line - 1].strip()
    except (OSError, IndexError, UnicodeDecodeError):
        return ""


def markdown(data: dict, games: int) -> str:
    """The coverage report as Markdown: a summary table, then per file what never ran and the
    chooses that were never a real choice, with the rule text of each line."""
    rep = report(data)
    out = [f"# Rule coverage ({games} games)", "",
           "| file | statements | ran | never ran | chooses never a real choice |", "|---|---|---|---|---|"]
    for f, e in rep.items():
        share = f"{100 * e['ran'] / e['statements']:.0f}%" if e["statements"] else "-"
        out.append(f"| {f} | {e['statements']} | {e['ran']} ({share}) | {len(e['never'])} | {len(e['forced'])} |")
    for f, e in rep.items():
        if not e["never"] and not e["forced"]:
            continue
        out += ["", f"## {f}", ""]
        if e["never"]:
            out.append("Never ran:")
            out.append("")
            for line, col, what in e["never"]:
                out.append(f"- {f}:{line}:{col} ({what}) `{source_line(e['path'], line)}`")
        if e["forced"]:
            if e["never"]:
                out.append("")
            out.append("Never a real choice:")
            out.append("")
            for line, col, reached, asked, most in e["forced"]:
                why = ("never reached" if not reached else "never had an option" if not asked
                       else f"asked {asked} times, always one possible answer")
                out.append(f"- {f}:{line}:{col} {why} `{source_line(e['path'], line)}`")
    if data.get("powers"):
        out += ["", "## Powers", "", "How often each slot's procedure (a power) ran, and how it changed the score of the",
                "seat it was for (the first seat among its arguments), from its call to its end.", "",
                "| slot | key | uses | per game | mean score change |", "|---|---|---|---|---|"]
        for slot, key, uses, seated, total, _ in data["powers"]:
            mean = f"{total / seated:+.2f}" if seated else "-"
            out.append(f"| {slot} | {key} | {uses} | {uses / games:.2f} | {mean} |" if games else
                       f"| {slot} | {key} | {uses} | - | {mean} |")
    out += ["", "## Runs per line", ""]
    for f, e in rep.items():
        runs = ", ".join(f"{line}: {n}" for line, n in sorted(e["lines"].items()))
        out.append(f"- {f}: {runs}")
    return "\n".join(out) + "\n"


__all__ = ["add", "report", "markdown", "shown", "source_line"]
