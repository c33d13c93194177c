"""Checks that the differentiable form of a generated gradient (higher/forms.py) makes at
run time, where what it relies on is a fact of generated code not visible in its text.

Part of the runtime: copied into generated modules that use it (NumPy only).
"""

from __future__ import annotations

import numpy as np


def popped_array(x, what):
    """`x`, a value popped from a stack chain into a name the function writes into by
    index (an array; a number, where the write is taken only when the name holds an
    array; or None before its first binding), as it is; anything else (a list, a dict, a
    tuple) raises ValueError(what). Differentiating the form relies on the name never
    holding a container (higher/form_pops.py)."""
    if x is None or isinstance(x, (np.ndarray, np.generic, int, float)):
        return x
    raise ValueError(f"tangentlike: {what}")


def popped_list(x, what):
    """`x`, a value popped from a stack chain into a name the differentiable form spells
    out writes by index for, as a list (higher/form_items.py): a list or None (the
    name's prebinding) as it is; anything else raises ValueError(what)."""
    if x is None or type(x) is list:
        return x
    raise ValueError(f"tangentlike: {what}")


def popped_dict(x, what):
    """`x`, popped into a name whose writes by key the form spells out for a dict
    (higher/form_items.py): a dict or None as it is; anything else raises
    ValueError(what)."""
    if x is None or type(x) is dict:
        return x
    raise ValueError(f"tangentlike: {what}")


def pushed(x):
    """`x` itself: a value pushed on a stack chain that the function reads back only
    through the name it saved it under (higher/form_pairs.py), which is why analyze/memory
    counts the chain's entry as sharing no memory."""
    return x


def own_values(x):
    """A copy of x where it is an array (x as it is otherwise: a number, or an item of a
    list): a view the differentiable form reads only while its array holds what it held
    when the view was made (higher/form_copies.py), so the copy reads the same values
    and shares no memory with the array written afterwards."""
    if isinstance(x, np.ndarray):
        return x.copy()
    return x


def shape_kept(x):
    """What a stack chain holds for a value whose pops the differentiable form reads only
    for their type, shape and dtype (higher/form_shapes.py): for an array, zeros of its
    shape and dtype (read-only, one element's memory), sharing no memory with anything
    the function writes into; for a number, a zero of its type; anything else (a list,
    a dict, a tuple, an object: what a later change in place could give another length
    or keys) as it is. The form reads it for its shape only, so its derivative is zero."""
    kind = type(x)
    if kind is np.ndarray:
        return np.broadcast_to(np.zeros((), x.dtype), x.shape)
    if kind in (bool, int, float, complex):
        return kind(0)
    if isinstance(x, np.generic):
        return np.zeros((), x.dtype)[()]
    return x
