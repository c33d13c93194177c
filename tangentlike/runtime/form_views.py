"""The question behind views made again after a write in the differentiable form of a
generated gradient (higher/form_views.py).

Part of the runtime: copied into generated modules that use it (NumPy only).
"""

from __future__ import annotations

import numpy as np


def same_view(x, base, views):
    """Which of `views` (arrays made from the array `base` by the expressions the name x
    was made by) x is, memory for memory: k + 1 for views[k] where x is an array with its
    data address, shape, strides and dtype (then x and views[k] read the same bytes,
    whatever is written into base in place); 0 otherwise (x shares base some other way,
    or nothing of it; base is no array of numbers)."""
    if not (
        isinstance(x, np.ndarray)
        and x.dtype.kind != "O"
        and isinstance(base, np.ndarray)
        and base.dtype.kind != "O"
    ):
        return 0
    for k, view in enumerate(views):
        if (
            isinstance(view, np.ndarray)
            and x.__array_interface__["data"][0] == view.__array_interface__["data"][0]
            and x.shape == view.shape
            and x.strides == view.strides
            and x.dtype == view.dtype
        ):
            return k + 1
    return 0
