"""Checks that the differentiable form of a generated gradient (higher/forms.py) makes at
run time, where what it relies on is a fact of generated code not visible in its text.

Part of the runtime: copied into generated modules that use it (NumPy only).
"""

from __future__ import annotations

import numpy as np


def popped_array(x, what):
    """`x`, a value popped from a stack chain into a name the function writes into by
    index (an array, or None before its first binding), as it is; anything else (a list,
    a dict, a number) raises ValueError(what). Differentiating the form relies on the
    name never holding a container (higher/form_pops.py)."""
    if x is None or isinstance(x, np.ndarray):
        return x
    raise ValueError(f"tangentlike: {what}")


def pushed(x):
    """`x` itself: a value pushed on a stack chain that the function reads back only
    through the name it saved it under (higher/form_pairs.py), which is why analyze/memory
    counts the chain's entry as sharing no memory."""
    return x


def same_pushed(top, saved):
    """Whether `top`, the value on top of a stack chain, reads the very bytes the saved
    name `saved` reads (higher/form_pairs.py), where it is not that object itself: both
    arrays of numbers with one data address, shape, strides and dtype. The second pass
    makes a saved view again after a write into its base (transform/view_updates.py), a
    new object of the same memory; binding it instead of the chain's entry then computes
    the same values, now and after any write into that memory."""
    return (
        isinstance(top, np.ndarray)
        and isinstance(saved, np.ndarray)
        and top.dtype.kind != "O"
        and top.__array_interface__["data"][0] == saved.__array_interface__["data"][0]
        and top.shape == saved.shape
        and top.strides == saved.strides
        and top.dtype == saved.dtype
    )
