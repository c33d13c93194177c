"""The helpers generated code may call, one module per job. NumPy only.

Written derivative modules carry copies of the helpers they use (emit/module.py
copies a helper and the helpers it calls), so each helper is pure and changing
what one computes is a versioned event: copies live in users' repositories.

    broadcast     unbroadcast; spread (the adjoint of a reduction)
    numpy         rule maths of rules/numpy_reductions, numpy_shape, numpy_values
    numpy_products  rule maths of rules/numpy_products.py
    numpy_linalg  rule maths of rules/numpy_linalg.py
    numpy_linalg_solvers  lstsq and eig (both forms) of rules/numpy_linalg.py
    numpy_tangents, numpy_linalg_tangents  forward forms (tangents) of those rules
    numpy_fft     rule maths of rules/numpy_fft.py; the real part at a real value
    indexing      x[index] and y[index] = v; run-time checks of subscripts and updates
    containers    list, tuple and dict adjoints
    boundary      values crossing into and out of generated code (checked)
    schedule      checkpoint schedules and the measuring stack
    gradient      stop_gradient
    draws         random draws from a Generator passed in (constants)
    scalars       rule maths of rules/builtins.py and rules/math.py (Python floats)
    statistics    rule maths of rules/numpy_statistics.py (quantiles, cov, polynomials)
    higher, higher_containers, higher_forward, higher_lists, higher_picks, higher_pieces,
    higher_products, higher_scalars, higher_statistics
                  rule maths of the rules of runtime helpers (derivatives of generated gradients)
"""

from __future__ import annotations

from .argument_containers import apart, own_container, own_tangent, write_back_items
from .boundary import adjoint_contribution, gradient_like, rule_contribution, seed_like
from .broadcast import spread, sum_to, unbroadcast
from .containers import (
    add,
    add_item,
    copied,
    dict_of,
    item_index,
    iterable,
    keys_of,
    part,
    restore_item,
    saved_item,
    take_item,
    unadd,
    unappend,
    undict_of,
    unextend,
    unmul,
    unsequence,
    unsum,
    with_zero_item,
    without_item,
    zeros_of,
    zip_strict_end,
)
from .draws import random_draw
from .form_views import same_view
from .forms import own_values, popped_array, popped_dict, popped_list, pushed, shape_kept
from .gradient import stop_gradient
from .higher import (
    add_part,
    add_part_vjp,
    add_terms,
    item_part,
    linspace_vjp_vjp,
    no_object_zero,
    unadd_vjp,
    ungradient_like,
    unmul_term,
    unmul_vjp,
    unmul_vjp_tangent,
    unmul_vjp_term,
    unmul_vjp_vjp,
    unsequence_vjp,
    unsetitem_vjp,
    unstack_vjp,
    unsum_vjp,
)
from .higher_containers import undict_of_vjp
from .higher_forward import concatenated_vjp
from .higher_lists import meshgrid_vjp_vjp, unalong_axis_vjp, unvectorized_vjp
from .higher_picks import select_vjp_vjp
from .higher_pieces import (
    cumprod_zero_refused,
    take_item_copy,
    take_item_vjp,
    unappend_copy,
    unappend_vjp,
    unconcatenate_index_vjp,
    unconcatenate_vjp,
    unextend_copy,
    unextend_vjp,
)
from .higher_products import (
    cross_vjp_vjp,
    einsum_vjp_term,
    einsum_vjp_vjp,
    inner_vjp_vjp,
    kron_vjp_vjp,
    tensordot_vjp_vjp,
)
from .higher_scalars import (
    arange_vjp_vjp,
    ratio_or_zero,
    scaled,
    uncast_tangent,
    uniterable_tangent,
    unprod_hessian,
)
from .higher_statistics import gradient_vjp_of, gradient_vjp_vjp, median_vjp_vjp
from .indexing import (
    array_base,
    copies_array,
    entry_copy,
    kept_apart,
    numeric_item,
    part_of,
    same_array,
    same_memory,
    selects,
    unsetitem,
    unshared,
    unsubscript,
    untouched,
    updated,
    write_back,
)
from .numpy import (
    arange_vjp,
    cumprod_vjp,
    cumprod_vjp_at_zeros,
    gradient_of,
    gradient_vjp,
    linspace_vjp,
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
from .numpy_fft import (
    fft_vjp,
    fftn_vjp,
    hfft_vjp,
    ihfft_vjp,
    irfft_vjp,
    irfftn_vjp,
    real_part,
    rfft_vjp,
    rfftn_vjp,
)
from .numpy_grids import meshgrid_of, meshgrid_vjp
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
from .numpy_linalg_solvers import eig_jvp, eig_vjp, lstsq_jvp, lstsq_vjp
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
    interp_slope_vjp,
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
    integer_exponent,
    negated,
    power_log,
    power_slope,
    power_slope_dx,
    power_slope_dy,
    prod_of,
    sinc_curvature,
    sinc_slope,
    undist,
    unpick,
    unprod,
)
from .scipy_factors import (
    cho_factor_jvp,
    cho_factor_vjp,
    cho_solve_jvp,
    cho_solve_vjp,
    lu_factor_jvp,
    lu_factor_vjp,
    lu_solve_jvp,
    lu_solve_vjp,
    pivot_order,
    real_root,
)
from .scipy_linalg import (
    frechet_block,
    general,
    standard,
    top_right,
    triangular_jvp,
    triangular_vjp,
)
from .scipy_signal import cumulative_trapezoid_vjp, full_of, full_part, linear_weights_vjp
from .scipy_stats import mvn_logpdf_jvp, mvn_logpdf_vjp
from .statistics import (
    corrcoef_jvp,
    corrcoef_vjp,
    cov_jvp,
    cov_vjp,
    median_vjp,
    polyval_slope,
    polyval_vjp_p,
    quantile_jvp,
    quantile_vjp,
    quantile_weights,
    vander_slope,
)
from .vectorized import (
    along_axis,
    rows_along,
    unalong_axis,
    unrows_along,
    unvectorized,
    vectorized,
)


def owns(obj: object) -> bool:
    """Whether `obj` is defined in this package (a helper generated code may call)."""
    module = getattr(obj, "__module__", None) or ""
    return module == __name__ or module.startswith(__name__ + ".")


# every helper imported above (each defined in this package), and `owns`
__all__ = sorted(
    name
    for name, value in list(globals().items())
    if not name.startswith("_") and callable(value) and owns(value)
)
