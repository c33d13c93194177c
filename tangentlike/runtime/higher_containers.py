"""The maths of the second-order rules of a dict comprehension's adjoint helper
(`undict_of`, rules/runtime_containers.py): its transpose.

Part of the runtime: copied into generated modules that use it (NumPy only). None is a
zero adjoint, as in containers.py.
"""

from __future__ import annotations


def undict_of_vjp(h, keys):
    """The adjoint of `g` in `undict_of(g, keys)` given h, one adjoint per position: the
    dict of each key's adjoint at its last position (undict_of reads g there only; the
    earlier positions of a repeated key read nothing), as `dict_of(keys, h)` builds it."""
    if h is None:
        return None
    out = {}
    for key, value in zip(keys, h, strict=True):
        out[key] = value  # later positions win
    return out
