"""Lower bounds on the lengths of vectors, for the shape analysis (analyze/shapes.py).

A dimension pattern says "N" for a dimension of at least 2 elements (the signature
of a specialised build gives empty dimensions their own "0"). Slicing a vector or
taking its differences can make it as short as 1, so these results have a known
pattern only where a lower bound on the length keeps them at 2 or more: the bound
travels with the class, `("dims", "N", m)` for a vector of at least m >= 3 elements,
and a list literal of n numbers is `("list", n)` (no shape class of its own: `+` and
`*` on a list concatenate and repeat).

Assumes: the classes of analyze/shapes.py. Guarantees: every bound holds on every path
(joins keep the smaller); a result is a vector class only when its bound is >= 2.
"""

from __future__ import annotations

import gast

Shape = tuple
_LEAST = {"N": 2, "1": 1, "0": 0}


def least(known: Shape | None) -> int | None:
    """A lower bound on the length of a vector (or list literal) of class `known`."""
    if known is None:
        return None
    if known[0] == "list":
        return known[1]
    if known[0] != "dims" or len(known[1]) != 1:
        return None
    return known[2] if len(known) == 3 else _LEAST[known[1]]


def vector(m: int | None) -> Shape | None:
    """The class of a vector of at least m elements; None when it may have one."""
    if m is None or m < 2:
        return None
    return ("dims", "N", m) if m > 2 else ("dims", "N")


def sliced(base: Shape | None, index: gast.expr) -> Shape | None:
    """`x[a:]`, `x[:-b]`, `x[a:-b]` of a vector x (constant a >= 0, b > 0, no step)."""
    m = least(base)
    if m is None or base[0] != "dims" or not isinstance(index, gast.Slice) or index.step:
        return None
    lower, upper = _constant(index.lower), _constant(index.upper)
    start = 0 if index.lower is None else lower
    cut = 0 if index.upper is None else (-upper if upper is not None and upper < 0 else None)
    if start is None or start < 0 or cut is None:
        return None
    return vector(m - start - cut)


def joined(parts: list[Shape | None]) -> Shape | None:
    """`np.concatenate` of vectors and list literals of numbers, along their one axis."""
    bounds = [least(p) for p in parts]
    return None if not parts or None in bounds else vector(sum(bounds))


def differenced(base: Shape | None) -> Shape | None:
    """`np.diff(x)` of a vector x: one element fewer."""
    m = least(base)
    return None if m is None or base[0] != "dims" else vector(m - 1)


def widest(parts: list[Shape]) -> Shape:
    """The class of an elementwise result of vectors of pattern "N" (and scalars): the
    vectors are of one length, so the largest of their bounds holds for all."""
    return vector(max(least(p) for p in parts if p[0] == "dims" and p[1] == "N"))


def merged(a: Shape, b: Shape) -> Shape | None:
    """What holds of a value of class a on one path and b on the other (both vectors of
    pattern "N" with other bounds: the smaller), else None."""
    if a[0] == b[0] == "dims" and a[1] == b[1] == "N":
        return vector(min(least(a), least(b)))
    return None


def list_literal(value: gast.expr) -> Shape | None:
    """`[1.0, 2.0]`: a list of numbers, of known length."""
    if isinstance(value, gast.List) and all(
        isinstance(e, gast.Constant) and type(e.value) in (int, float) for e in value.elts
    ):
        return ("list", len(value.elts))
    return None


def _constant(node: gast.expr | None) -> int | None:
    """An int literal (a negative one is `-k`)."""
    if isinstance(node, gast.Constant) and type(node.value) is int:
        return node.value
    if (
        isinstance(node, gast.UnaryOp)
        and isinstance(node.op, gast.USub)
        and isinstance(node.operand, gast.Constant)
        and type(node.operand.value) is int
    ):
        return -node.operand.value
    return None
