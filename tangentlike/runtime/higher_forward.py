"""The maths of the rules of forward mode's helpers (rules/runtime_jvp.py): what a
generated jvp's own helper calls contribute when the jvp is differentiated again.

Part of the runtime: copied into generated modules that use it (NumPy only). None is a
zero adjoint throughout, as in containers.py.
"""

from __future__ import annotations

import numpy as np


def concatenated_vjp(g, concatenator, items, tangents, k=None):
    """The adjoint of the items' tangents in `concatenated_tangent(concatenator, items,
    tangents, k)` (the tangent of np.r_[...] or np.c_[...]), given the adjoint `g` of
    that tangent: g cut along the concatenation axis into each item's piece, shaped like
    the item; None for an item that does not vary (tangent None), a slice or a directive
    string. One direction only (k None): vector mode is refused."""
    if k is not None:
        raise ValueError(
            "tangentlike: differentiating the k-direction tangent of np.r_ or np.c_ is not "
            "supported\nWhat to do: differentiate a jvp of one direction."
        )
    if any(isinstance(item, str) for item in items):
        raise ValueError(
            "tangentlike: differentiating the tangent of np.r_ or np.c_ with a directive "
            "string is not supported\nWhat to do: concatenate with np.concatenate."
        )
    axis = concatenator.axis
    widths = [np.shape(concatenator[item])[axis] for item in items]
    g = np.broadcast_to(np.asarray(g), np.shape(concatenator[tuple(items)]))
    pieces = np.split(g, np.cumsum(widths)[:-1], axis=axis)
    return tuple(
        None if t is None or isinstance(item, slice) else np.reshape(piece, np.shape(item)).copy()
        for item, t, piece in zip(items, tangents, pieces, strict=True)
    )
