"""The maths of the second-order rules of the product adjoints (rules/runtime_products.py):
what `tensordot_vjp`, `kron_vjp`, `cross_vjp`, `einsum_vjp` and `inner_vjp` contribute
when a generated gradient calling them is differentiated again.

Each of those helpers is the adjoint of one operand of a product that is linear in every
operand: `vjp(g, a, b, side)` is bilinear in the adjoint `g` and the other operand, and
reads the operand `side` for its shape only. With h the adjoint of its result (shaped like
operand `side`), <h, vjp(g, a, b, 0)> = <g, P(h, b)>, so g's adjoint is the product with
operand `side` replaced by h, and the other operand's is that operand's own adjoint of
the product at (h in place of operand `side`), given g. Operand `side` gets zeros.

tensordot_vjp_vjp, kron_vjp_vjp, inner_vjp_vjp and cross_vjp_vjp are multilinear
themselves: plain NumPy and the first-order helpers, branching on `side` only.
Differentiated again (third order) they are read through their source
(rules/runtime_sources.py). einsum_vjp_vjp is not: its unused operand slots are None
values, whose adjoints a reading through its source cannot add (refused instead).

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
    replaced by h, operand j's (j != k) its adjoint there given g; None for unused slots."""
    operands = [x0, x1, x2, x3, x4, x5]
    swapped = list(operands)
    swapped[k] = np.broadcast_to(h, np.shape(operands[k]))
    used = [x for x in swapped if x is not None]
    dg = unbroadcast(np.einsum(subscripts, *used), g)
    parts = [
        None if x is None else _zeros(x) if j == k else einsum_vjp(g, subscripts, j, *swapped)
        for j, x in enumerate(operands)
    ]
    return (dg, *parts)


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
