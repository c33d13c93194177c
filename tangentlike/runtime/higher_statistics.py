"""The maths of the second-order rules of np.median's adjoint helper
(rules/runtime_statistics.py).

`median_vjp(g, a, axis, keepdims)` puts each entry of g on the middle element of its
slice of a (half on each of the two middle ones for an even length): linear in g, and
locally constant in a (a's order picks the places; ties break by position, as the
first-order rule states). Its transpose, `median_vjp_vjp`, reads h at those places.

Part of the runtime: copied into generated modules that use it (NumPy only).
"""

from __future__ import annotations

import numpy as np

from .numpy import median_vjp


def median_vjp_vjp(h, g, a, axis, keepdims):
    """The adjoint of `g` in `median_vjp(g, a, axis, keepdims)` given the result's
    adjoint `h` (shaped like a): h weighted by the places g went to, summed over the
    reduced axes, shaped like g."""
    weights = median_vjp(np.ones(np.shape(g)), a, axis, keepdims)
    total = np.sum(weights * np.asarray(h), axis=axis, keepdims=keepdims)
    return np.reshape(total, np.shape(g))
