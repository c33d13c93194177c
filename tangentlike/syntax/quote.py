"""Parse snippets and functions into gast, and substitute names in templates."""

from __future__ import annotations

import textwrap
from collections.abc import Callable, Mapping

import gast

from . import blocks, nodes


def parse_function(func: Callable) -> gast.FunctionDef:
    """The gast FunctionDef of a Python function (decorators removed)."""
    source = textwrap.dedent(blocks.source(func))
    node = gast.parse(source).body[0]
    if not isinstance(node, gast.FunctionDef):
        raise TypeError(f"{func!r} is not defined by a def statement")
    node.decorator_list = []
    return node


def parse_expr(source: str) -> gast.expr:
    return gast.parse(source, mode="eval").body


class Substitute(gast.NodeTransformer):
    """Replace loaded Names by copies of given expressions (and rename stores)."""

    def __init__(self, exprs: Mapping[str, gast.expr], renames: Mapping[str, str]):
        self.exprs = exprs
        self.renames = renames

    def visit_Name(self, node: gast.Name) -> gast.expr:
        if isinstance(node.ctx, gast.Load) and node.id in self.exprs:
            return nodes.deepcopy(self.exprs[node.id])
        if node.id in self.renames:
            node.id = self.renames[node.id]
        return node


def substitute(
    tree: gast.AST, exprs: Mapping[str, gast.expr], renames: Mapping[str, str] | None = None
) -> gast.AST:
    """A copy of `tree` with Name loads replaced by `exprs` and other names renamed."""
    return Substitute(exprs, renames or {}).visit(nodes.deepcopy(tree))
