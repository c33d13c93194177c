"""emit/to_ast.py: the same `ast` tree as gast's own converter, positions included."""

from __future__ import annotations

import ast
import pathlib

import gast
import pytest

from tangentlike.emit.to_ast import to_ast
from tangentlike.syntax import nodes

ROOT = pathlib.Path(__file__).resolve().parents[2]


def _same(tree: gast.AST) -> None:
    mine, gasts = to_ast(tree), gast.gast_to_ast(tree)
    assert ast.dump(mine, include_attributes=True) == ast.dump(gasts, include_attributes=True)


@pytest.mark.parametrize(
    "path",
    [
        *sorted(str(p.relative_to(ROOT)) for p in (ROOT / "tangentlike" / "emit").glob("*.py")),
        "tests/fuzz/generator.py",
        "samples",
    ],
)
def test_source_files_convert_as_gast_converts_them(path):
    target = ROOT / path
    files = sorted(target.rglob("*.py")) if target.is_dir() else [target]
    for file in files:
        tree = gast.parse(file.read_text())
        _same(tree)
        for stmt in tree.body:  # statements on their own, as the printer converts them
            _same(stmt)


def test_built_nodes_without_positions_convert_as_gast_converts_them():
    text = """
def f(x, *args, k: int = 2, **kw):
    try:
        y = x[1:2, ::3] @ x
    except ValueError as e:
        y = -1.5 if x else {1: [a for a in x if a]}
    del y[0]
    return f"{x!r:>10}", lambda q=1: q, ...
"""
    for stmt in gast.parse(text).body:
        _same(stmt)
    built = nodes.call(nodes.attribute(nodes.name("np"), "sum"), [nodes.name("g")])
    _same(gast.Expr(value=built))
    _same(gast.Assign(targets=[nodes.name("y", store=True)], value=built, type_comment=None))


def test_a_comment_node_converts_to_nothing_as_in_gast():
    comment = nodes.comment("grad of f", "backward")
    assert to_ast(comment) is None and gast.gast_to_ast(comment) is None
