"""The adjoint (`_vjp`) and tangent (`_jvp`) helpers of the solvers, factorizations,
statistics and SciPy's linear algebra, statistics and integration that a second
differentiation reads through their source (rules/runtime_helpers.py THROUGH_SOURCE
takes this set in), as it reads a user's function.

What each one assumes, and why reading its source gives the right second derivative:
it is plain NumPy whose every call has a rule of its own (or is listed
non-differentiable: `pivot_order`, the row order of LAPACK's pivots, is integers); it
dispatches on no differentiated value's type; its branches test structure only (ndim,
`lower`, `trans`, `mode`, an argument or tangent that is None, a mean given or not),
or cases the first order refuses too, which raise at run time at second order as well
(a rank-deficient lstsq, a non-square lu_factor, cho_factor's unused triangle holding
neither a's values nor zeros, np.cov's y or weights, solve's assume_a, a complex sqrtm
or eig). Where the first order holds a discrete choice constant (lu's pivots, eig's
pairing of eigenvalues, the rank of lstsq's matrix), the choice is locally constant
there, so its derivative is zero, as reading it gives.

`digamma` (math.lgamma's and math.gamma's slope) is a reflection, a recurrence and an
asymptotic series: each exact or of relative error below 1e-13, and their derivatives
that of trigamma, polygamma(1, x), to about 1e-10 relative (the series' derivative
loses a little near x = 6, where the recurrence stops): tests check it against SciPy.
`sinc_curvature` (np.sinc's second derivative) is np.where between a 7-term Taylor series
(|x| < 0.1) and the closed form, the same function; each differentiated is the third
derivative (tests/higher/test_second_order_sinc.py: against the series in 60 digits).

tests/higher/test_second_order_scipy.py, test_second_order_statistics.py,
test_reverse_over_forward_linalg.py and test_third_order_products.py check each against
central differences of the gradient (or of the jvp, or of the second derivative) and
against autograd where autograd has the function.
"""

from __future__ import annotations

from .. import runtime

# The first-order helpers whose source is plain NumPy calls with rules of their own
# (no isinstance dispatch on differentiated values, no raise but a refusal of a case the
# first order refuses too (svd_vjp's full U of a tall matrix, eig_vjp's complex
# eigenvalues), and no branch between formulas whose derivatives differ: cumprod_vjp's
# exact case at a zero takes the tail after the zero as the constant 0, whose derivative
# is not; tests/higher keeps it refused): their second derivative is that of their
# source, read and differentiated like a user's function. The decompositions' helpers
# are smooth where their first-order conditions hold (distinct eigen- and singular
# values): tests/higher/test_second_order_decompositions.py checks them against autograd
# and central differences of the gradient.
_DECOMPOSITIONS_AND_PRODUCTS = frozenset(
    {
        runtime.prod_others,
        runtime.cumprod_vjp,  # no zero in its input; cumprod_vjp_at_zeros refuses
        runtime.norm_vjp,
        runtime.power_slope_dx,
        runtime.power_slope_dy,
        runtime.power_log,
        runtime.pinv_vjp,
        runtime.slogdet_vjp,
        runtime.solve_vjp,
        runtime.cholesky_vjp,
        runtime.eigh_vjp,
        runtime.eig_vjp,
        runtime.svd_vjp,
        runtime.qr_vjp,
        runtime.frechet_block,
        runtime.top_right,
        runtime.standard,  # scipy.linalg.eigh's check of a standard problem: a, or raises
    }
)

THROUGH_SOURCE = _DECOMPOSITIONS_AND_PRODUCTS | frozenset(
    {
        # scipy.linalg: cho_factor/cho_solve, lu_factor/lu_solve, solve_triangular,
        # solve's and inv's check of a general matrix, sqrtm's of a real root
        runtime.cho_factor_vjp,
        runtime.cho_factor_jvp,
        runtime.cho_solve_vjp,
        runtime.cho_solve_jvp,
        runtime.lu_factor_vjp,
        runtime.lu_factor_jvp,
        runtime.lu_solve_vjp,
        runtime.lu_solve_jvp,
        runtime.triangular_vjp,
        runtime.triangular_jvp,
        runtime.general,
        runtime.real_root,
        # scipy.stats.multivariate_normal.logpdf and pdf
        runtime.mvn_logpdf_vjp,
        runtime.mvn_logpdf_jvp,
        # np.linalg: powers, chained products, least squares
        runtime.matrix_power_vjp,
        runtime.matrix_power_jvp,
        runtime.multi_dot_vjp,
        runtime.multi_dot_jvp,
        runtime.lstsq_vjp,
        runtime.lstsq_jvp,
        # np.linalg's tangents (reverse over forward: tl.grad of a jvp); their reverse
        # forms are in runtime_helpers.py's own set
        runtime.cholesky_jvp,
        runtime.eigh_jvp,
        runtime.eig_jvp,
        runtime.svd_jvp,
        runtime.qr_jvp,
        runtime.norm_jvp,
        runtime.pinv_jvp,
        runtime.slogdet_jvp,
        runtime.solve_jvp,
        # np.cumprod's tangent: out of place, exact at zeros (its first order: cumprod's)
        runtime.cumprod_jvp,
        # np.cov, np.corrcoef, np.polyval, np.vander
        runtime.cov_vjp,
        runtime.cov_jvp,
        runtime.corrcoef_vjp,
        runtime.corrcoef_jvp,
        runtime.polyval_vjp_p,
        runtime.polyval_slope,
        runtime.vander_slope,
        # math.lgamma and math.gamma
        runtime.digamma,
        # np.sinc's curvature (a third derivative through np.sinc)
        runtime.sinc_curvature,
        # scipy.integrate.simpson and cumulative_trapezoid
        runtime.linear_weights_vjp,
        runtime.cumulative_trapezoid_vjp,
        # the second-order helpers of np.tensordot, np.kron, np.inner, np.cross and
        # np.einsum (runtime/higher_products.py): multilinear, the products and their
        # first-order helpers (third order: tests/higher/test_third_order_products.py)
        runtime.tensordot_vjp_vjp,
        runtime.kron_vjp_vjp,
        runtime.inner_vjp_vjp,
        runtime.cross_vjp_vjp,
        runtime.einsum_vjp_vjp,
    }
)
