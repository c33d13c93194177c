"""The maths of the second-order rules of the product adjoints (rules/runtime_products.py):
what `tensordot_vjp`, `kron_vjp`, `cross_vjp`, `einsum_vjp` and `inner_vjp` contribute
when a generated gradient calling them is differentiated again.

Each of those helpers is the adjoint of one operand of a product that is linear in every
operand: `vjp(g, a, b, side)` is bilinear in the adjoint `g` and the other operand, and
reads the operand `side` for its shape only. With h the adjoint of its result (shaped like
operand `side`), <h, vjp(g, a, b, 0)> = <g, P(h, b)>, so g's adjoint is the product with
operand `side` replaced by h, and the other operand's is that operand's own adjoint of
the product at (h in place of operand `side`), given g. Operand `side` gets zeros.

tensordot_vjp_vjp, kron_vjp_vjp, inner_vjp_vjp, cross_vjp_vjp and einsum_vjp_vjp are
multilinear themselves: plain NumPy and the first-order helpers, branching on `side`,
`k` and the number of operands only. Differentiated again (third order) they are read
through their source (rules/runtime_sources.py); einsum_vjp_vjp is spelled out per
number of operands so that no name holds an unused slot's None (whose adjoint a reading
through its source cannot add). einsum_vjp_term is not read so (refused).

Part of the runtime: copied into generated modules that use it (NumPy only).
"""

from __future__ import annotations

import numpy as np

from .broadcast import unbroadcast
from .numpy_products import cross_vjp, einsum_vjp, inner_vjp, kron_vjp, tensordot_vjp


def _zeros(x):
    return np.zeros(np.shape(x))


def tensordot_vjp_vjp(h, g, a, b, axes, side):
    """The adjoints (of g, a, b) in `tensordot_vjp(g, a, b, axes, side)`, given h."""
    if side == 0:
        return unbroadcast(np.tensordot(h, b, axes), g), _zeros(a), tensordot_vjp(g, h, b, axes, 1)
    return unbroadcast(np.tensordot(a, h, axes), g), tensordot_vjp(g, a, h, axes, 0), _zeros(b)


def kron_vjp_vjp(h, g, a, b, side):
    """The adjoints (of g, a, b) in `kron_vjp(g, a, b, side)`, given h."""
    if side == 0:
        return unbroadcast(np.kron(h, b), g), _zeros(a), kron_vjp(g, h, b, 1)
    return unbroadcast(np.kron(a, h), g), kron_vjp(g, a, h, 0), _zeros(b)


def inner_vjp_vjp(h, g, a, b, side):
    """The adjoints (of g, a, b) in `inner_vjp(g, a, b, side)`, given h (shaped like
    operand `side`): np.inner with operand `side` replaced by h, and the other operand's
    adjoint of that product given g."""
    if side == 0:
        return unbroadcast(np.inner(h, b), g), _zeros(a), inner_vjp(g, h, b, 1)
    return unbroadcast(np.inner(a, h), g), inner_vjp(g, a, h, 0), _zeros(b)


def cross_vjp_vjp(h, g, a, b, axisa, axisb, axisc, axis, side):
    """The adjoints (of g, a, b) in `cross_vjp(g, a, b, axisa, axisb, axisc, axis, side)`,
    given h (shaped like operand `side`, whose broadcasting cross_vjp summed away)."""
    if side == 0:
        dg = np.cross(np.broadcast_to(h, np.shape(a)), b, axisa, axisb, axisc, axis)
        return unbroadcast(dg, g), _zeros(a), cross_vjp(g, h, b, axisa, axisb, axisc, axis, 1)
    dg = np.cross(a, np.broadcast_to(h, np.shape(b)), axisa, axisb, axisc, axis)
    return unbroadcast(dg, g), cross_vjp(g, a, h, axisa, axisb, axisc, axis, 0), _zeros(b)


def einsum_vjp_vjp(h, g, subscripts, k, x0, x1=None, x2=None, x3=None, x4=None, x5=None):
    """The adjoints (of g, x0, ..., x5) in `einsum_vjp(g, subscripts, k, x0, ...)`, given
    h: einsum is linear in each operand, so g's adjoint is the einsum with operand k
    replaced by h, operand j's (j != k) its adjoint there given g; None for unused slots.
    Spelled out per number of operands (`_vjp_vjp_2` for two, ...): read through its
    source, no name holds an unused slot's None."""
    if x1 is None:
        dg, d0 = _vjp_vjp_1(h, g, subscripts, k, x0)
        return dg, d0, None, None, None, None, None
    if x2 is None:
        dg, d0, d1 = _vjp_vjp_2(h, g, subscripts, k, x0, x1)
        return dg, d0, d1, None, None, None, None
    if x3 is None:
        dg, d0, d1, d2 = _vjp_vjp_3(h, g, subscripts, k, x0, x1, x2)
        return dg, d0, d1, d2, None, None, None
    if x4 is None:
        dg, d0, d1, d2, d3 = _vjp_vjp_4(h, g, subscripts, k, x0, x1, x2, x3)
        return dg, d0, d1, d2, d3, None, None
    if x5 is None:
        dg, d0, d1, d2, d3, d4 = _vjp_vjp_5(h, g, subscripts, k, x0, x1, x2, x3, x4)
        return dg, d0, d1, d2, d3, d4, None
    dg, d0, d1, d2, d3, d4, d5 = _vjp_vjp_6(h, g, subscripts, k, x0, x1, x2, x3, x4, x5)
    return dg, d0, d1, d2, d3, d4, d5


def _slot(x, h, k, j):
    """Operand slot j with operand k replaced by h (broadcast to its shape)."""
    return np.broadcast_to(h, np.shape(x)) if j == k else x


def _vjp_vjp_1(h, g, subscripts, k, x0):
    """einsum_vjp_vjp of one operand (k is 0: g's adjoint alone)."""
    return unbroadcast(np.einsum(subscripts, np.broadcast_to(h, np.shape(x0))), g), _zeros(x0)


def _vjp_vjp_2(h, g, subscripts, k, x0, x1):
    """einsum_vjp_vjp of two operands."""
    s0, s1 = _slot(x0, h, k, 0), _slot(x1, h, k, 1)
    dg = unbroadcast(np.einsum(subscripts, s0, s1), g)
    return (
        dg,
        _zeros(x0) if k == 0 else einsum_vjp(g, subscripts, 0, s0, s1),
        _zeros(x1) if k == 1 else einsum_vjp(g, subscripts, 1, s0, s1),
    )


def _vjp_vjp_3(h, g, subscripts, k, x0, x1, x2):
    """einsum_vjp_vjp of three operands."""
    s0, s1, s2 = _slot(x0, h, k, 0), _slot(x1, h, k, 1), _slot(x2, h, k, 2)
    dg = unbroadcast(np.einsum(subscripts, s0, s1, s2), g)
    return (
        dg,
        _zeros(x0) if k == 0 else einsum_vjp(g, subscripts, 0, s0, s1, s2),
        _zeros(x1) if k == 1 else einsum_vjp(g, subscripts, 1, s0, s1, s2),
        _zeros(x2) if k == 2 else einsum_vjp(g, subscripts, 2, s0, s1, s2),
    )


def _vjp_vjp_4(h, g, subscripts, k, x0, x1, x2, x3):
    """einsum_vjp_vjp of four operands."""
    s0, s1, s2, s3 = _slot(x0, h, k, 0), _slot(x1, h, k, 1), _slot(x2, h, k, 2), _slot(x3, h, k, 3)
    dg = unbroadcast(np.einsum(subscripts, s0, s1, s2, s3), g)
    return (
        dg,
        _zeros(x0) if k == 0 else einsum_vjp(g, subscripts, 0, s0, s1, s2, s3),
        _zeros(x1) if k == 1 else einsum_vjp(g, subscripts, 1, s0, s1, s2, s3),
        _zeros(x2) if k == 2 else einsum_vjp(g, subscripts, 2, s0, s1, s2, s3),
        _zeros(x3) if k == 3 else einsum_vjp(g, subscripts, 3, s0, s1, s2, s3),
    )


def _vjp_vjp_5(h, g, subscripts, k, x0, x1, x2, x3, x4):
    """einsum_vjp_vjp of five operands."""
    s0, s1, s2, s3, s4 = (
        _slot(x0, h, k, 0),
        _slot(x1, h, k, 1),
        _slot(x2, h, k, 2),
        _slot(x3, h, k, 3),
        _slot(x4, h, k, 4),
    )
    dg = unbroadcast(np.einsum(subscripts, s0, s1, s2, s3, s4), g)
    return (
        dg,
        _zeros(x0) if k == 0 else einsum_vjp(g, subscripts, 0, s0, s1, s2, s3, s4),
        _zeros(x1) if k == 1 else einsum_vjp(g, subscripts, 1, s0, s1, s2, s3, s4),
        _zeros(x2) if k == 2 else einsum_vjp(g, subscripts, 2, s0, s1, s2, s3, s4),
        _zeros(x3) if k == 3 else einsum_vjp(g, subscripts, 3, s0, s1, s2, s3, s4),
        _zeros(x4) if k == 4 else einsum_vjp(g, subscripts, 4, s0, s1, s2, s3, s4),
    )


def _vjp_vjp_6(h, g, subscripts, k, x0, x1, x2, x3, x4, x5):
    """einsum_vjp_vjp of six operands."""
    s0, s1, s2, s3, s4, s5 = (
        _slot(x0, h, k, 0),
        _slot(x1, h, k, 1),
        _slot(x2, h, k, 2),
        _slot(x3, h, k, 3),
        _slot(x4, h, k, 4),
        _slot(x5, h, k, 5),
    )
    dg = unbroadcast(np.einsum(subscripts, s0, s1, s2, s3, s4, s5), g)
    return (
        dg,
        _zeros(x0) if k == 0 else einsum_vjp(g, subscripts, 0, s0, s1, s2, s3, s4, s5),
        _zeros(x1) if k == 1 else einsum_vjp(g, subscripts, 1, s0, s1, s2, s3, s4, s5),
        _zeros(x2) if k == 2 else einsum_vjp(g, subscripts, 2, s0, s1, s2, s3, s4, s5),
        _zeros(x3) if k == 3 else einsum_vjp(g, subscripts, 3, s0, s1, s2, s3, s4, s5),
        _zeros(x4) if k == 4 else einsum_vjp(g, subscripts, 4, s0, s1, s2, s3, s4, s5),
        _zeros(x5) if k == 5 else einsum_vjp(g, subscripts, 5, s0, s1, s2, s3, s4, s5),
    )


def einsum_vjp_term(g, subscripts, k, j, t, x0, x1=None, x2=None, x3=None, x4=None, x5=None):
    """One term of the tangent of `einsum_vjp(g, subscripts, k, x0, ...)`: the term of
    operand j's tangent `t` (einsum_vjp with operand j replaced by t); zeros for j == k,
    the operand einsum_vjp reads for its shape only, and for an unused slot (t None: not
    einsum_vjp itself, which an unchanged list of operands would give)."""
    operands = [x0, x1, x2, x3, x4, x5]
    if j == k or t is None:
        return _zeros(operands[k])
    operands[j] = t
    return einsum_vjp(g, subscripts, k, *operands)
