"""The helpers generated code may call, one module per job. NumPy only.

Written derivative modules carry copies of the helpers they use (emit/module.py
copies a helper and the helpers it calls), so each helper is pure and changing
what one computes is a versioned event: copies live in users' repositories.

    broadcast     unbroadcast
    numpy         rule maths of rules/numpy.py
    numpy_linalg  rule maths of rules/numpy_linalg.py
    indexing      x[index] and y[index] = v; run-time checks of subscripts and updates
    containers    list, tuple and dict adjoints
    boundary      values crossing into and out of generated code (checked)
    schedule      checkpoint schedules and the measuring stack
    gradient      stop_gradient
    scalars       rule maths of rules/builtins.py and rules/math.py (Python floats)
"""

from __future__ import annotations

from .broadcast import sum_to, unbroadcast
from .containers import (
    add,
    add_item,
    dict_of,
    iterable,
    part,
    unadd,
    unappend,
    undict_of,
    unextend,
    unmul,
    unsequence,
    unsum,
    zeros_of,
)
from .gradient import stop_gradient
from .indexing import selects, unsetitem, unshared, unsubscript
from .numpy import (
    arange_vjp,
    convolve_vjp,
    cumprod_vjp,
    dot_vjp_a,
    dot_vjp_b,
    einsum_vjp,
    inner_vjp,
    interp_vjp,
    kron_vjp,
    linspace_vjp,
    matmul_vjp_a,
    matmul_vjp_b,
    median_vjp,
    prod_others,
    select_vjp,
    tensordot_vjp,
    trapezoid_vjp,
    unarray,
    uncast,
    unconcatenate_index,
    undiagonal,
    undiff,
    unpad,
    unrepeat,
    unsort,
    unsplit,
    unstack,
    untake,
    untake_along_axis,
    untile,
    unweights,
    weights_like,
)
from .numpy_linalg import (
    cholesky_vjp,
    eigh_vjp,
    matrix_power_vjp,
    multi_dot_vjp,
    norm_vjp,
    pinv_vjp,
    qr_vjp,
    slogdet_vjp,
    solve_vjp,
    svd_vjp,
)
from .scalars import (
    digamma,
    extremum_index,
    inner,
    negated,
    power_slope,
    prod_of,
    undist,
    unpick,
    unprod,
)


def owns(obj: object) -> bool:
    """Whether `obj` is defined in this package (a helper generated code may call)."""
    module = getattr(obj, "__module__", None) or ""
    return module == __name__ or module.startswith(__name__ + ".")


__all__ = [
    "add",
    "add_item",
    "arange_vjp",
    "cholesky_vjp",
    "convolve_vjp",
    "cumprod_vjp",
    "dict_of",
    "digamma",
    "dot_vjp_a",
    "dot_vjp_b",
    "eigh_vjp",
    "einsum_vjp",
    "extremum_index",
    "inner",
    "inner_vjp",
    "interp_vjp",
    "iterable",
    "kron_vjp",
    "linspace_vjp",
    "matmul_vjp_a",
    "matmul_vjp_b",
    "matrix_power_vjp",
    "median_vjp",
    "multi_dot_vjp",
    "negated",
    "norm_vjp",
    "owns",
    "part",
    "pinv_vjp",
    "power_slope",
    "prod_of",
    "prod_others",
    "qr_vjp",
    "select_vjp",
    "selects",
    "slogdet_vjp",
    "solve_vjp",
    "stop_gradient",
    "sum_to",
    "svd_vjp",
    "tensordot_vjp",
    "trapezoid_vjp",
    "unadd",
    "unappend",
    "unarray",
    "unbroadcast",
    "uncast",
    "unconcatenate_index",
    "undiagonal",
    "undict_of",
    "undiff",
    "undist",
    "unextend",
    "unmul",
    "unpad",
    "unpick",
    "unprod",
    "unrepeat",
    "unsequence",
    "unsetitem",
    "unshared",
    "unsort",
    "unsplit",
    "unstack",
    "unsubscript",
    "unsum",
    "untake",
    "untake_along_axis",
    "untile",
    "unweights",
    "weights_like",
    "zeros_of",
]
