"""gast -> ast for printing: `gast.gast_to_ast`'s result, without its visitor's dispatch.

Every emitted statement is converted before astor prints it, and gast's converter (an
`ast.NodeTransformer` that looks up a method and the target class by name at each
node) was a twentieth of a cold build. `to_ast` builds the same tree: for a gast
class that gast's converter handles generically, the `ast` class of the same name with
the same fields and positions; `Name` and `Assign` as gast's own methods build them;
any other class (arguments, function and class definitions, exception handlers, a
class `ast` does not have) goes to gast's converter for its whole subtree.
Guarantee: `ast.dump(to_ast(t), include_attributes=True)` equals the same for
`gast.gast_to_ast(t)` (tests/emit/test_to_ast.py).
"""

from __future__ import annotations

import ast

import gast
from gast.ast3 import GAstToAst3

_GAST = GAstToAst3()
_SPECIAL = {name[len("visit_") :] for name in vars(GAstToAst3) if name.startswith("visit_")}
_TARGETS: dict[type, type | None] = {}


def to_ast(node: gast.AST) -> ast.AST | None:
    """The `ast` tree gast's converter makes of `node` (a fresh tree)."""
    cls = node.__class__
    target = _TARGETS.get(cls, _UNSEEN)
    if target is _UNSEEN:
        target = _target(cls)
    if target is None:
        return _GAST.visit(node)
    src = node.__dict__
    new = target.__new__(target)  # an `ast` node keeps fields and positions in its dictionary
    into = new.__dict__
    if target is ast.Name:
        into["id"] = node.id
        into["ctx"] = _convert(node.ctx)
        _copy_location(into, node)
    elif target is ast.Assign:
        into["targets"] = _convert(node.targets)
        into["value"] = _convert(node.value)
        _copy_location(into, node)
    else:
        for field in node._fields:
            if field in src:
                into[field] = _convert(src[field])
            elif hasattr(node, field):
                into[field] = _convert(getattr(node, field))
        for attr in node._attributes:
            if attr in src:
                into[attr] = src[attr]
            else:
                value = getattr(node, attr, _UNSEEN)
                if value is not _UNSEEN:
                    into[attr] = value
    return new


def _copy_location(into: dict, node: gast.AST) -> None:
    """`ast.copy_location` from `node` into a Name's or an Assign's dictionary."""
    for attr in _POSITIONS:
        value = getattr(node, attr, None)
        if value is not None or (attr.startswith("end_") and hasattr(node, attr)):
            into[attr] = value


_POSITIONS = ("lineno", "col_offset", "end_lineno", "end_col_offset")


def _convert(value: object) -> object:
    if isinstance(value, gast.AST):
        return to_ast(value)
    if isinstance(value, list):
        return [_convert(item) for item in value]
    return value


_UNSEEN = object()


def _target(cls: type) -> type | None:
    """The `ast` class `to_ast` builds for `cls` itself; None where gast's converter
    converts it (a class with its own method in gast's converter, or none in `ast`)."""
    name = cls.__name__
    found = getattr(ast, name, None)
    if getattr(gast, name, None) is not cls or not isinstance(found, type):
        target = None
    elif name in _SPECIAL:
        target = found if name in ("Name", "Assign") else None
    else:
        target = found
    _TARGETS[cls] = target
    return target
