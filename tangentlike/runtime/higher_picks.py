"""The maths of the second-order rules of the adjoint helpers of NumPy's picks
(rules/runtime_picks.py): what `select_vjp` (np.select) contributes when a generated
gradient calling it is differentiated again.

`select_vjp(g, condlist, choicelist, default)` is linear in g and reads the conditions
for their truth values and the choices and default for their shapes only: each choice
gets g where its condition is the first true one (summed down to its shape), default
gets g where none is. Its transpose spreads each piece's adjoint back over the entries
it was taken from.

Part of the runtime: copied into generated modules that use it (NumPy only). None is
a zero adjoint throughout, as in containers.py.
"""

from __future__ import annotations

import numpy as np


def select_vjp_vjp(h, g, condlist, choicelist, default):
    """The adjoint of `g` in `select_vjp(g, condlist, choicelist, default)`, given the
    adjoint `h` of its pair (the choices' adjoints as a list or stacked rows, and the
    default's; None for a zero one): each broadcast back where its entries were taken."""
    g = np.asarray(g)
    h0, h1 = (None, None) if h is None else (h[0], h[1])
    pieces = [None] * len(choicelist) if h0 is None else list(h0)
    out = np.zeros(g.shape, dtype=np.result_type(g, np.float32))
    taken = np.zeros(g.shape, dtype=bool)
    for cond, piece in zip(condlist, pieces, strict=True):
        mine = np.broadcast_to(cond, g.shape) & ~taken
        taken = taken | mine
        if piece is not None:
            out = out + np.where(mine, np.broadcast_to(piece, g.shape), 0.0)
    if h1 is not None:
        out = out + np.where(taken, 0.0, np.broadcast_to(h1, g.shape))
    return out
