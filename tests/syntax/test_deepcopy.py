"""syntax.nodes.deepcopy makes the tree the constructor-based copy makes: the same fields,
positions and marks, no node shared with the original, other values shared."""

from __future__ import annotations

import ast
import pathlib

import gast
import pytest

from tangentlike.syntax import nodes
from tangentlike.syntax.nodes import walk

PACKAGE = pathlib.Path(__file__).resolve().parents[2] / "tangentlike"
SOURCES = sorted(PACKAGE.rglob("*.py"))[3::9]  # a spread of real modules


def _by_constructor(node):
    """The copy as the constructor makes it (the reference for the fast path)."""
    if isinstance(node, list):
        return [_by_constructor(n) for n in node]
    if not isinstance(node, ast.AST):
        return node
    new = type(node)(**{f: _by_constructor(getattr(node, f, None)) for f in node._fields})
    for attr in nodes._KEPT:
        if hasattr(node, attr):
            setattr(new, attr, getattr(node, attr))
    return new


def _state(tree) -> list[tuple]:
    """Each node's class, dictionary (nodes by their class) and what getattr reads."""
    out = []
    for n in walk(tree):
        items = {
            k: type(v) if isinstance(v, ast.AST) else v
            for k, v in vars(n).items()
            if not isinstance(v, list)
        }
        kept = {a: getattr(n, a, "absent") for a in nodes._KEPT}
        out.append((type(n), items, kept))
    return out


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: p.name)
def test_the_same_tree_as_the_constructor_makes(path: pathlib.Path) -> None:
    tree = gast.parse(path.read_text())
    for i, n in enumerate(walk(tree)):
        if i % 5 == 0 and isinstance(n, gast.stmt):
            n.untouched = frozenset({"y"})
    copied = nodes.deepcopy(tree)
    assert _state(copied) == _state(_by_constructor(tree))
    assert not {id(n) for n in walk(copied)} & {id(n) for n in walk(tree)}
    assert ast.dump(gast.gast_to_ast(copied), include_attributes=True) == ast.dump(
        gast.gast_to_ast(tree), include_attributes=True
    )


def test_missing_fields_become_none_and_values_are_shared() -> None:
    value = (1, 2.5)
    node = gast.Constant(value=value, kind=None)
    del node.kind
    copied = nodes.deepcopy(node)
    assert copied.kind is None and copied.value is value
    assert not hasattr(copied, "lineno") and copied.end_lineno is None


def test_a_comment_is_copied_through_its_constructor() -> None:
    stmt = nodes.comment("backward sweep", "backward")
    copied = nodes.deepcopy(stmt)
    assert type(copied) is nodes.Comment and copied is not stmt
    assert (copied.text, copied.sweep) == ("backward sweep", "backward")


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: p.name)
def test_copy_mapped_copying_every_child_is_deepcopy(path: pathlib.Path) -> None:
    """copy_mapped is one level of deepcopy: mapped with a copier, the same deep copy."""
    tree = gast.parse(path.read_text())
    for i, n in enumerate(walk(tree)):
        if i % 5 == 0 and isinstance(n, gast.stmt):
            n.untouched = frozenset({"y"})

    def copier(node):
        return nodes.copy_mapped(node, copier)

    copied = copier(tree)
    assert _state(copied) == _state(nodes.deepcopy(tree))
    assert not {id(n) for n in ast.walk(copied)} & {id(n) for n in ast.walk(tree)}
    assert ast.dump(gast.gast_to_ast(copied), include_attributes=True) == ast.dump(
        gast.gast_to_ast(tree), include_attributes=True
    )


def test_copy_mapped_maps_children_in_field_order() -> None:
    tree = gast.parse("y = f(a, b) + c").body[0]
    seen = []

    def note(node):
        if isinstance(node, gast.Name):
            seen.append(node.id)
        return nodes.copy_mapped(node, note)

    nodes.copy_mapped(tree, note)
    assert seen == ["y", "f", "a", "b", "c"]
