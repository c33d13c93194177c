"""Imports flow one way: stages never import later stages; runtime imports only NumPy."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "tangentlike"
ORDER = ["syntax", "parse", "normalize", "analyze", "transform", "optimize", "emit", "compile"]


def imports(path: Path) -> list[tuple[str, int]]:
    tree = ast.parse(path.read_text())
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            found.append(("." * node.level + (node.module or ""), node.lineno))
        elif isinstance(node, ast.Import):
            found.extend((alias.name, node.lineno) for alias in node.names)
    return found


def resolve(module: Path, name: str) -> str:
    """The top-level subpackage of tangentlike an import refers to ('' if outside)."""
    if not name.startswith("."):
        return name.split(".")[1] if name.startswith("tangentlike.") else ""
    level = len(name) - len(name.lstrip("."))
    base = module.parent.relative_to(PACKAGE).parts
    base = base[: len(base) - (level - 1)] if level > 1 else base
    rest = [p for p in name.lstrip(".").split(".") if p]
    parts = [*base, *rest]
    return parts[0] if parts else ""


def test_runtime_imports_only_numpy_and_itself():
    """Helpers are copied into written modules: NumPy and other helpers only."""
    for path in (PACKAGE / "runtime").glob("*.py"):
        for name, line in imports(path):
            local = name.startswith(".") and name.count(".") == 1
            assert name in {"__future__", "numpy"} or local, f"{path.name}:{line} imports {name}"


def test_stages_do_not_import_later_stages():
    problems = []
    for stage in ORDER:
        for path in (PACKAGE / stage).glob("*.py"):
            for name, line in imports(path):
                target = resolve(path, name)
                if target in ORDER and ORDER.index(target) > ORDER.index(stage):
                    problems.append(f"{path.relative_to(PACKAGE)}:{line} imports {name}")
    assert not problems, problems


def test_rules_do_not_import_the_machinery():
    for path in (PACKAGE / "rules").glob("*.py"):
        for name, line in imports(path):
            target = resolve(path, name)
            assert target not in {
                "parse",
                "normalize",
                "analyze",
                "transform",
                "emit",
                "compile",
            }, f"{path.name}:{line} imports {name}"


def test_modules_and_functions_stay_small():
    """STYLE.md: small modules with one job (at most 500 lines), functions at most 150."""
    problems = []
    for path in sorted(PACKAGE.rglob("*.py")):
        text = path.read_text()
        lines = len(text.splitlines())
        if lines > 500:
            problems.append(f"{path.relative_to(PACKAGE)}: {lines} lines")
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                length = node.end_lineno - node.lineno + 1
                if length > 150:
                    where = f"{path.relative_to(PACKAGE)}:{node.lineno}"
                    problems.append(f"{where} {node.name}: {length} lines")
    assert not problems, problems
