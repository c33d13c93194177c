"""Functions docs/forward.md shows beside their generated forward-mode source
(scripts/forward_docs.py writes the page)."""

import numpy as np


def squash(x, A):
    """A vector field: its Jacobian is 4 x 3, so forward mode (3 directions) is the
    cheaper way to build it."""
    return np.tanh(A @ x) * 2.0


def cell(W, h):
    return np.tanh(W @ h) + 0.5 * h


def unroll(W, h, steps):
    """A loop over a helper: the helper gets a forward variant returning its value and
    tangent; the loop carries both."""
    out = np.zeros((steps, h.shape[0]))
    for t in range(steps):
        h = cell(W, h)
        out[t] = h
    return out


def piecewise(x, a):
    if np.sum(x) > 0.0:  # noqa: SIM108 (a branch, shown as one)
        y = np.exp(x) * a
    else:
        y = x * x - a
    return {"y": y, "total": np.sum(y)}
