"""syntax.nodes.walk visits what ast.walk visits, in the same order: all of it in an ast
tree; in a gast tree, all but the expression contexts and operators (leaves)."""

from __future__ import annotations

import ast
import pathlib

import gast
import pytest

from tangentlike.syntax.nodes import subtree, walk

LEAVES = (gast.expr_context, gast.operator, gast.unaryop, gast.boolop, gast.cmpop)
PACKAGE = pathlib.Path(__file__).resolve().parents[2] / "tangentlike"
SOURCES = sorted(PACKAGE.rglob("*.py"))[::7]  # a spread of real modules


def expected(tree: ast.AST) -> list[int]:
    """ast.walk's nodes, without a gast tree's contexts and operators."""
    gast_tree = getattr(gast, type(tree).__name__) is type(tree)
    return [id(n) for n in ast.walk(tree) if not (gast_tree and isinstance(n, LEAVES))]


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: p.name)
def test_same_nodes_in_the_same_order_as_ast_walk(path: pathlib.Path) -> None:
    text = path.read_text()
    for tree in (ast.parse(text), gast.parse(text)):
        assert [id(n) for n in walk(tree)] == expected(tree)


def test_a_gast_trees_contexts_and_operators_are_left_out() -> None:
    tree = gast.parse("y = -a + b < c and d\nz[0] += x\n")
    kinds = {type(n) for n in walk(tree)}
    assert not any(issubclass(k, LEAVES) for k in kinds)
    assert ast.Load in {type(n) for n in walk(ast.parse("y = x"))}


def test_missing_optional_fields_are_skipped() -> None:
    node = gast.Name(id="x", ctx=gast.Load(), annotation=None, type_comment=None)
    del node.annotation
    assert [type(n) for n in walk(node)] == [gast.Name]


def test_an_except_handlers_name_is_a_node_gast_walks_into() -> None:
    """gast types ExceptHandler.name as a string but holds a Name there."""
    tree = gast.parse("try:\n    pass\nexcept ValueError as err:\n    pass\n")
    names = [n.id for n in walk(tree) if isinstance(n, gast.Name)]
    assert names == [n.id for n in ast.walk(tree) if isinstance(n, gast.Name)]
    assert "err" in names


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: p.name)
def test_subtree_lists_what_walk_yields(path: pathlib.Path) -> None:
    text = path.read_text()
    for tree in (ast.parse(text), gast.parse(text)):
        assert [id(n) for n in subtree(tree)] == expected(tree)
