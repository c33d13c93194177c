"""The maths of the second-order rules of np.median's and np.gradient's adjoint helpers
(rules/runtime_statistics.py).

`median_vjp(g, a, axis, keepdims)` puts each entry of g on the middle element of its
slice of a (half on each of the two middle ones for an even length): linear in g, and
locally constant in a (a's order picks the places; ties break by position, as the
first-order rule states). Its transpose, `median_vjp_vjp`, reads h at those places.

`gradient_vjp(g, f, spacings, axis, edge_order)` applies Dᵀ (D: np.gradient's
difference matrix along each axis asked for) to g: linear in g, reading f for its shape
and dtype only; its transpose applies D, np.gradient itself (`gradient_vjp_vjp`), and
`gradient_vjp_of` is the helper taking a zero (None) tangent.

Part of the runtime: copied into generated modules that use it (NumPy only).
"""

from __future__ import annotations

import numpy as np

from .numpy import gradient_of, gradient_vjp
from .statistics import median_vjp


def median_vjp_vjp(h, g, a, axis, keepdims):
    """The adjoint of `g` in `median_vjp(g, a, axis, keepdims)` given the result's
    adjoint `h` (shaped like a): h weighted by the places g went to, summed over the
    reduced axes, shaped like g."""
    weights = median_vjp(np.ones(np.shape(g)), a, axis, keepdims)
    total = np.sum(weights * np.asarray(h), axis=axis, keepdims=keepdims)
    return np.reshape(total, np.shape(g))


def gradient_vjp_vjp(h, g, f, spacings, axis, edge_order):
    """The adjoint of `g` in `gradient_vjp(g, f, spacings, axis, edge_order)` given the
    result's adjoint `h` (shaped like f): np.gradient of h along the same axes and
    spacings. One array, or for several axes (g a list) a list of one per axis, None
    where g's part is None (a zero, read by nothing)."""
    if h is None:
        return None
    out = gradient_of(np.asarray(h), spacings, axis, edge_order)
    if isinstance(g, (list, tuple)):
        return [None if part is None else o for part, o in zip(g, out, strict=True)]
    return out


def gradient_vjp_of(t, f, spacings, axis, edge_order):
    """`gradient_vjp(t, f, spacings, axis, edge_order)`, zeros shaped like f for a zero
    (None) t."""
    if t is None:
        return np.zeros(np.shape(f), dtype=np.result_type(f, np.float32))
    return gradient_vjp(t, f, spacings, axis, edge_order)
