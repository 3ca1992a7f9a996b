"""The layout of the code shows its architecture (docs/architecture.md): the interpreter is one
folder per stage of the pipeline, and imports flow one way, down it.

Every import statement is read from the source (at the top of a module, inside a function, under
`if TYPE_CHECKING:`: all of them), so a loop hidden in a function body is found too.
- no import cycle between any two modules of jux;
- no stage imports a later one: the language knows nothing of rule files, the engine nothing of
  the command line, the terminal UI nothing of the commands that start it;
- modules stay under 400 lines; a module inside a stage's folder does not repeat its name.
"""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FOLDERS = {"interpreter": "jux.interpreter", "tui": "jux.tui", "jux": "jux"}

# The pipeline, in order: a module may import from its own stage and the stages before it.
# (interpreter/errors.py, limits.py, paths.py and files.py, the foundations, come first.)
STAGES = ["foundations", "language", "reading", "checks", "runtime", "compiler", "engine", "bots",
          "study", "authoring", "lsp", "server", "tui", "cli"]


def modules() -> dict:
    """Dotted module name -> its file, for every module of jux in the checkout."""
    out = {}
    for folder, package in FOLDERS.items():
        for path in sorted((ROOT / folder).rglob("*.py")):
            if "__pycache__" in path.parts:
                continue
            parts = list(path.relative_to(ROOT / folder).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            out[".".join([package] + parts)] = path
    return out


def imports(name: str, path: Path, known: dict) -> set:
    """The jux modules `name` imports, anywhere in its source."""
    is_package = path.name == "__init__.py"
    here = name.split(".") if is_package else name.split(".")[:-1]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = here[:len(here) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            # `from package import module` imports the module; `from module import name` the module
            targets = [f"{target}.{a.name}" if f"{target}.{a.name}" in known else target for a in node.names]
        else:
            continue
        for t in targets:
            while t and t not in known:
                t = t.rpartition(".")[0]
            if t and t != name:
                found.add(t)
    return found


def graph() -> dict:
    known = modules()
    return {name: imports(name, path, known) for name, path in known.items()}


def stage(module: str) -> str | None:
    parts = module.split(".")
    if parts[:2] == ["jux", "tui"]:
        return "tui"
    if parts[:2] != ["jux", "interpreter"]:
        return None  # jux itself: the package's lazy front door
    if len(parts) == 2 or parts[2] in ("errors", "limits", "paths", "files"):
        return "foundations"
    return parts[2]


def test_every_module_of_the_interpreter_belongs_to_a_stage():
    strays = [m for m in modules() if stage(m) is not None and stage(m) not in STAGES]
    assert strays == []


def cycles(g: dict) -> list:
    """Every import loop found by a depth-first walk of the graph, as [a, b, ..., a]."""
    state: dict = {}
    found = []

    def visit(m, path):
        state[m] = "open"
        for n in sorted(g.get(m, ())):
            if state.get(n) == "open":
                found.append(path[path.index(n):] + [n])
            elif n not in state:
                visit(n, path + [n])
        state[m] = "done"

    for m in sorted(g):
        if m not in state:
            visit(m, [m])
    return found


def upward(g: dict) -> list:
    """Every import of a later stage by an earlier one."""
    wrong = []
    for m, targets in sorted(g.items()):
        s = stage(m)
        for t in sorted(targets):
            u = stage(t)
            if s is not None and u is not None and STAGES.index(u) > STAGES.index(s):
                wrong.append(f"{m} ({s}) imports {t} ({u})")
    return wrong


def test_no_import_cycle_between_modules():
    found = cycles(graph())
    assert found == [], "import cycles:\n" + "\n".join(" -> ".join(c) for c in found)


def test_no_stage_imports_a_later_stage():
    assert upward(graph()) == []


def test_the_checks_find_what_they_are_for(tmp_path):
    """On made-up modules: a loop through an import inside a function, and the language
    importing the engine, are both found."""
    known = {"jux.interpreter.language.a": None, "jux.interpreter.language.b": None,
             "jux.interpreter.engine.game": None}
    (tmp_path / "a.py").write_text("from . import b\n")
    (tmp_path / "b.py").write_text("def f():\n    from .a import x\n    from ..engine.game import Game\n")
    g = {m: imports(m, tmp_path / (m.rpartition(".")[2] + ".py"), known) for m in known if "language" in m}
    assert g == {"jux.interpreter.language.a": {"jux.interpreter.language.b"},
                 "jux.interpreter.language.b": {"jux.interpreter.language.a", "jux.interpreter.engine.game"}}
    assert cycles(g) == [["jux.interpreter.language.a", "jux.interpreter.language.b", "jux.interpreter.language.a"]]
    assert upward(g) == ["jux.interpreter.language.b (language) imports jux.interpreter.engine.game (engine)"]


@pytest.mark.parametrize("folder", ["interpreter", "tui"])
def test_modules_stay_under_400_lines(folder):
    long = {str(p.relative_to(ROOT)): n for p in sorted((ROOT / folder).rglob("*.py"))
            if (n := len(p.read_text().splitlines())) >= 400}
    assert long == {}


def test_a_module_does_not_repeat_its_stage_folder_name():
    """compiler/expr.py, not compiler/compile_expr.py."""
    prefixes = {"compiler": "compile", "checks": "check", "cli": "commands", "language": "syntax"}
    repeated = [str(p.relative_to(ROOT)) for folder, prefix in prefixes.items()
                for p in (ROOT / "interpreter" / folder).glob(f"{prefix}_*.py")]
    assert repeated == []
