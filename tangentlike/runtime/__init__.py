"""The helpers generated code may call, one module per job. NumPy only.

Written derivative modules carry copies of the helpers they use (emit/module.py
copies a helper and the helpers it calls), so each helper is pure and changing
what one computes is a versioned event: copies live in users' repositories.

    broadcast     unbroadcast
    numpy         rule maths of rules/numpy_reductions, numpy_shape, numpy_values
    numpy_products  rule maths of rules/numpy_products.py
    numpy_linalg  rule maths of rules/numpy_linalg.py
    numpy_tangents, numpy_linalg_tangents  forward forms (tangents) of those rules
    indexing      x[index] and y[index] = v; run-time checks of subscripts and updates
    containers    list, tuple and dict adjoints
    boundary      values crossing into and out of generated code (checked)
    schedule      checkpoint schedules and the measuring stack
    gradient      stop_gradient
    scalars       rule maths of rules/builtins.py and rules/math.py (Python floats)
"""

from __future__ import annotations

from .boundary import adjoint_contribution, gradient_like, rule_contribution, seed_like
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
from .higher import (
    add_part,
    add_part_vjp,
    item_part,
    no_object_zero,
    unadd_vjp,
    ungradient_like,
    unmul_term,
    unmul_vjp,
    unsetitem_vjp,
)
from .indexing import selects, unsetitem, unshared, unsubscript
from .numpy import (
    arange_vjp,
    cumprod_vjp,
    gradient_of,
    gradient_vjp,
    linspace_vjp,
    median_vjp,
    partitioned_like,
    prod_others,
    select_vjp,
    unarray,
    uncast,
    unconcatenate,
    unconcatenate_index,
    undiagonal,
    undiff,
    unpad,
    unpartition,
    unrepeat,
    unrollaxis,
    unsort,
    unsplit,
    unstack,
    untake,
    untake_along_axis,
    untile,
    unweights,
    weights_like,
    zero_if_real,
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
from .numpy_linalg_tangents import (
    cholesky_jvp,
    eigh_jvp,
    matrix_power_jvp,
    multi_dot_jvp,
    norm_jvp,
    pinv_jvp,
    qr_jvp,
    slogdet_jvp,
    solve_jvp,
    svd_jvp,
)
from .numpy_products import (
    convolve_vjp,
    cross_vjp,
    dot_vjp_a,
    dot_vjp_b,
    einsum_vjp,
    inner_vjp,
    interp_vjp,
    kron_vjp,
    matmul_vjp_a,
    matmul_vjp_b,
    tensordot_vjp,
    trapezoid_vjp,
)
from .numpy_tangents import (
    cast_tangent,
    cumprod_jvp,
    einsum_of,
    iterable_tangent,
    quotient_remainder_tangent,
    sorted_like,
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
from .scipy_linalg import (
    frechet_block,
    general,
    standard,
    top_right,
    triangular_jvp,
    triangular_vjp,
)
from .scipy_signal import cumulative_trapezoid_vjp, full_of, linear_weights_vjp
from .scipy_stats import mvn_logpdf_jvp, mvn_logpdf_vjp


def owns(obj: object) -> bool:
    """Whether `obj` is defined in this package (a helper generated code may call)."""
    module = getattr(obj, "__module__", None) or ""
    return module == __name__ or module.startswith(__name__ + ".")


__all__ = [
    "add",
    "add_item",
    "add_part",
    "add_part_vjp",
    "adjoint_contribution",
    "arange_vjp",
    "cast_tangent",
    "cholesky_jvp",
    "cholesky_vjp",
    "convolve_vjp",
    "cross_vjp",
    "cumprod_jvp",
    "cumprod_vjp",
    "dict_of",
    "digamma",
    "dot_vjp_a",
    "dot_vjp_b",
    "eigh_jvp",
    "eigh_vjp",
    "einsum_of",
    "einsum_vjp",
    "extremum_index",
    "gradient_like",
    "gradient_of",
    "gradient_vjp",
    "inner",
    "inner_vjp",
    "interp_vjp",
    "item_part",
    "iterable",
    "iterable_tangent",
    "kron_vjp",
    "linspace_vjp",
    "matmul_vjp_a",
    "matmul_vjp_b",
    "matrix_power_jvp",
    "matrix_power_vjp",
    "median_vjp",
    "multi_dot_jvp",
    "multi_dot_vjp",
    "negated",
    "no_object_zero",
    "norm_jvp",
    "norm_vjp",
    "owns",
    "part",
    "partitioned_like",
    "pinv_jvp",
    "pinv_vjp",
    "power_slope",
    "prod_of",
    "prod_others",
    "qr_jvp",
    "qr_vjp",
    "quotient_remainder_tangent",
    "rule_contribution",
    "seed_like",
    "select_vjp",
    "selects",
    "slogdet_jvp",
    "slogdet_vjp",
    "solve_jvp",
    "solve_vjp",
    "sorted_like",
    "stop_gradient",
    "sum_to",
    "svd_jvp",
    "svd_vjp",
    "tensordot_vjp",
    "trapezoid_vjp",
    "unadd",
    "unadd_vjp",
    "unappend",
    "unarray",
    "unbroadcast",
    "uncast",
    "unconcatenate",
    "unconcatenate_index",
    "undiagonal",
    "undict_of",
    "undiff",
    "undist",
    "unextend",
    "ungradient_like",
    "unmul",
    "unmul_term",
    "unmul_vjp",
    "unpad",
    "unpartition",
    "unpick",
    "unprod",
    "unrepeat",
    "unrollaxis",
    "unsequence",
    "unsetitem",
    "unsetitem_vjp",
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
    "zero_if_real",
    "zeros_of",
]
__all__ += [  # the SciPy rule files' helpers
    "cumulative_trapezoid_vjp",
    "frechet_block",
    "full_of",
    "general",
    "linear_weights_vjp",
    "mvn_logpdf_jvp",
    "mvn_logpdf_vjp",
    "standard",
    "top_right",
    "triangular_jvp",
    "triangular_vjp",
]
