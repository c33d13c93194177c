"""The derivative-rule cases of the SciPy rule files (rules/scipy_*.py), in cases.py's form.

cases.py appends them to CASES, so test_table.py checks each against central
differences (and autograd.scipy where it has the function), in float64 and
float32, and its coverage guard sees every SciPy rule; test_tangents.py checks
each single application's forward form against its reverse form.

Importing this module imports the SciPy submodules the cases name (and
autograd's, for the oracle), so `scipy.stats.norm.logpdf` resolves in the
generated test functions.
"""

from __future__ import annotations

import scipy.integrate
import scipy.linalg
import scipy.signal
import scipy.special
import scipy.stats
from cases import Case, M, S, T, V, binary, unary

try:  # the oracle's SciPy wrappers, reached as attributes of autograd.scipy
    import autograd.scipy.integrate
    import autograd.scipy.linalg
    import autograd.scipy.signal
    import autograd.scipy.special
    import autograd.scipy.stats  # noqa: F401
except ImportError:  # pragma: no cover - autograd is a test dependency
    pass

_SPECIAL_SHAPES = (S, V, M)


def _special(name: str, domain: str = "real", autograd: bool = True) -> list[Case]:
    return [Case(f"scipy.special.{name}", {"x": s}, domain, autograd) for s in _SPECIAL_SHAPES]


SPECIAL: list[Case] = [
    *_special("erfcx(x)"),
    *_special("dawsn(x)"),
    *_special("loggamma(x)", "positive"),
    *_special("rgamma(x)", "positive"),
    *_special("i0(x)"),
    *_special("i0e(x)"),
    *_special("i1(x)"),
    Case("scipy.special.i1(x)", {"x": V}, "zero"),  # the removable point: 0.5
    *_special("i1e(x)"),
    *_special("j0(x)"),
    *_special("j1(x)"),
    *_special("y0(x)", "positive"),
    *_special("y1(x)", "positive"),
    *_special("k0(x)", "positive"),
    *_special("k0e(x)", "positive"),
    *_special("k1(x)", "positive"),
    *_special("k1e(x)", "positive"),
    *_special("spence(x)", "positive"),
    *_special("ellipk(x)", "probability"),
    *_special("ellipe(x)", "probability"),
    *_special("ellipkm1(x)", "probability"),
    *_special("expm1(x)"),
    *_special("log1p(x)", "positive"),
    *_special("exprel(x)"),
    Case("scipy.special.exprel(x * 1e-4)", {"x": V}),  # the series branch
    *_special("cbrt(x)", "positive"),
    *_special("exp2(x)"),
    *_special("exp10(x)"),
    *_special("sindg(x * 50.0)"),
    *_special("cosdg(x * 50.0)"),
    *_special("tandg(x * 50.0)", "unit"),
    *_special("cotdg(x * 50.0 + 90.0)", "unit"),
    *_special("cosm1(x)"),
    *_special("exp1(x)", "positive"),
    *_special("expi(x)", "positive"),
    *(_special("softplus(x)") if hasattr(scipy.special, "softplus") else []),
    *binary("scipy.special.kl_div(x, y)", "positive"),
    *binary("scipy.special.beta(x, y)", "positive"),
    *binary("scipy.special.binom(x + 3.0, y)", "positive"),
    Case("scipy.special.binom(x, y)", {"x": V, "y": V}, "above1"),
    *binary("scipy.special.poch(x, y)", "positive"),
    *binary("scipy.special.boxcox(x, y)", "positive"),
    Case("scipy.special.boxcox(x, 0.0)", {"x": V}, "positive"),
    Case("scipy.special.boxcox(x, y * 0.0)", {"x": V, "y": V}, "positive", autograd=False),
    *binary("scipy.special.boxcox1p(x, y)", "positive"),
    *binary("scipy.special.inv_boxcox(x, y)", "positive"),
    Case("scipy.special.inv_boxcox(x, y * 0.0)", {"x": V, "y": V}, "positive", autograd=False),
    *binary("scipy.special.huber(x, y * 2.0)", "positive"),
    *binary("scipy.special.pseudo_huber(x, y)", "positive"),
    *binary("scipy.special.owens_t(x, y)"),
    Case("scipy.special.polygamma(1, x)", {"x": M}, "positive"),
    Case("scipy.special.polygamma(2, x)", {"x": V}, "positive"),
    Case("scipy.special.multigammaln(x + 2.0, 3)", {"x": V}, "positive"),
    Case("scipy.special.multigammaln(x, 1)", {"x": S}, "above1"),
    Case("scipy.special.zeta(3.0, x)", {"x": M}, "positive"),
    Case("scipy.special.zeta(2.5, x)", {"x": V}, "positive"),
    Case("scipy.special.gammainc(2.5, x)", {"x": M}, "positive"),
    Case("scipy.special.gammaincc(1.5, x)", {"x": V}, "positive"),
    Case("scipy.special.gammaincinv(2.5, x)", {"x": V}, "probability"),
    Case("scipy.special.gammainccinv(2.5, x)", {"x": V}, "probability"),
    Case("scipy.special.betainc(2.0, 3.0, x)", {"x": M}, "probability"),
    Case("scipy.special.iv(1.5, x)", {"x": M}, "positive"),
    Case("scipy.special.iv(0.0, x)", {"x": V}),
    Case("scipy.special.ive(2.0, x)", {"x": M}),
    Case("scipy.special.kv(0.5, x)", {"x": M}, "positive"),
    Case("scipy.special.kve(1.0, x)", {"x": V}, "positive"),
    Case("scipy.special.jv(1.0, x)", {"x": M}),
    Case("scipy.special.jv(2.5, x)", {"x": V}, "positive"),
    Case("scipy.special.yv(1.5, x)", {"x": M}, "positive"),
    Case("scipy.special.yn(2, x)", {"x": M}, "positive"),
    Case("scipy.special.yn(0, x) * scipy.special.yn(1, x)", {"x": V}, "positive"),
    Case("scipy.special.jn(2, x)", {"x": V}),
    Case("scipy.special.expn(2, x)", {"x": V}, "positive"),
    Case("scipy.special.hyp1f1(1.5, 2.5, x)", {"x": V}),
    Case("scipy.special.hyp2f1(0.5, 1.5, 2.5, x)", {"x": V}, "unit"),
    Case("scipy.special.stdtr(4.0, x)", {"x": M}),
    Case("scipy.special.chdtr(3.0, x)", {"x": V}, "positive"),
    Case("scipy.special.gdtr(2.0, 3.0, x)", {"x": V}, "positive"),
    Case("scipy.special.radian(x, y, 30.0)", {"x": V, "y": V}),
    Case("scipy.special.ellipkinc(x, 0.5)", {"x": V}),
    Case("scipy.special.ellipeinc(x, 0.5)", {"x": V}),
    # the forward forms of the array rules (logsumexp, softmax, log_softmax)
    Case("scipy.special.logsumexp(x, axis=1)", {"x": M}),
    Case("scipy.special.logsumexp(x, axis=(0, 2), keepdims=True)", {"x": T}),
    Case("scipy.special.logsumexp(x, b=y)", {"x": M, "y": M}, "positive"),
]

SCIPY_CASES: list[Case] = [*SPECIAL]
__all__ = ["SCIPY_CASES", "T", "unary"]


def _distribution(call: str, domain: str, shapes=(V, M)) -> list[Case]:
    return [Case(call, {"x": s, "y": s}, domain) for s in shapes]


_LOC_SCALE = {
    "norm": ("", "real"),
    "t": ("4.5, ", "real"),
    "gamma": ("2.5, ", "positive"),
    "beta": ("2.5, 3.5, ", "probability"),
    "expon": ("", "positive"),
    "laplace": ("", "distinct"),
    "logistic": ("", "real"),
    "cauchy": ("", "real"),
    "lognorm": ("0.7, ", "positive"),
    "chi2": ("3.0, ", "positive"),
}
_METHODS = ("logpdf", "pdf", "cdf", "logcdf", "sf", "logsf")

STATS: list[Case] = [
    # x and loc differentiated, then x and scale: loc = -y / 3 keeps x - loc in the support
    *[
        Case(f"scipy.stats.{name}.{method}(x, {shape}loc=y * -0.125)", {"x": s, "y": s}, domain)
        for name, (shape, domain) in _LOC_SCALE.items()
        for method in _METHODS
        for s in (V,)
    ],
    *[
        Case(f"scipy.stats.{name}.{method}(x, {shape}scale=y + 0.5)", {"x": M, "y": S}, domain)
        for name, (shape, domain) in _LOC_SCALE.items()
        for method in ("logpdf", "cdf", "logsf")
    ],
    # shape parameters where a closed form exists
    Case("scipy.stats.t.logpdf(x, y + 2.0)", {"x": V, "y": V}),
    Case("scipy.stats.gamma.logpdf(x, y)", {"x": V, "y": S}, "positive"),
    Case("scipy.stats.beta.logpdf(x, y + 1.0, y * 2.0 + 1.0)", {"x": V, "y": V}, "probability"),
    Case("scipy.stats.lognorm.logcdf(x, y)", {"x": V, "y": V}, "positive"),
    Case("scipy.stats.lognorm.sf(x, y, 0.0, 1.5)", {"x": M, "y": S}, "positive"),
    # autograd: no gradient in chi2's df
    Case("scipy.stats.chi2.pdf(x, y + 2.0)", {"x": V, "y": V}, "positive", autograd=False),
    Case("scipy.stats.norm.logpdf(x, 0.5, 2.0)", {"x": T}),
    Case("scipy.stats.norm.logpdf(x, y)", {"x": M, "y": V}),
    # discrete distributions in their continuous parameters
    Case("scipy.stats.poisson.logpmf(np.arange(3.0), x)", {"x": V}, "positive"),
    Case("scipy.stats.poisson.pmf(2, x)", {"x": M}, "positive"),
    Case("scipy.stats.binom.logpmf(np.arange(3.0), 5, x)", {"x": V}, "probability"),
    Case("scipy.stats.binom.pmf(2, 6, x)", {"x": M}, "probability"),
    Case("scipy.stats.nbinom.logpmf(3, x + 1.0, y)", {"x": V, "y": V}, "probability"),
    Case("scipy.stats.nbinom.pmf(np.arange(3.0), 2.5, x)", {"x": V}, "probability"),
    # the multivariate normal in x, mean and cov (a positive definite z z^T + 3 I)
    Case("scipy.stats.multivariate_normal.logpdf(x, y)", {"x": V, "y": V}),
    Case("scipy.stats.multivariate_normal.logpdf(x, y)", {"x": (4, 3), "y": V}),
    Case(
        "scipy.stats.multivariate_normal.logpdf(x, y, z @ z.T + 3.0 * np.eye(3))",
        {"x": (4, 3), "y": V, "z": (3, 3)},
    ),
    Case(
        "scipy.stats.multivariate_normal.pdf(x, np.ones(3), y)", {"x": (2, 3), "y": V}, "positive"
    ),
    Case("scipy.stats.multivariate_normal.logpdf(x, np.ones(3), y)", {"x": V, "y": S}, "positive"),
    Case("scipy.stats.multivariate_normal.logpdf(x, 0.5, y)", {"x": V, "y": S}, "positive"),
    Case(
        "scipy.stats.multivariate_normal.logpdf(x, cov=z + 3.0 * np.eye(3))",
        {"x": V, "z": (3, 3)},
        autograd=False,  # autograd differentiates the full matrix; SciPy reads its lower triangle
    ),
]

SCIPY_CASES += STATS

_MODES = ("full", "same", "valid")
SIGNAL: list[Case] = [
    *[
        Case(f"scipy.signal.{f}(x, y, {mode!r})", {"x": a, "y": b})
        for f in ("convolve", "correlate", "fftconvolve")
        for mode in _MODES
        for a, b in [((6,), (3,)), ((3,), (5,)), ((4, 5), (2, 3))]
        if not (mode == "valid" and a[0] < b[0] and len(a) > 1)
    ],
    Case("scipy.signal.convolve(x, y)", {"x": (5,), "y": (5,)}),
    Case("scipy.signal.correlate(x, y, method='direct')", {"x": (2, 3, 4), "y": (2, 2, 2)}),
    *[
        Case(f"scipy.signal.{f}(x, y, {mode!r})", {"x": (4, 5), "y": b})
        for f in ("convolve2d", "correlate2d")
        for mode in _MODES
        for b in [(2, 3), (3, 3)]
    ],
    Case("scipy.signal.convolve2d(x, y, mode='same')", {"x": (3, 4), "y": (4, 5)}),
]

INTEGRATE: list[Case] = [
    Case("scipy.integrate.trapezoid(x)", {"x": (5,)}),
    Case("scipy.integrate.trapezoid(x, dx=0.3)", {"x": (2, 5)}),
    Case("scipy.integrate.trapezoid(x, y, axis=0)", {"x": (4, 3), "y": (4,)}, "distinct"),
    Case("scipy.integrate.trapezoid(x, np.cumsum(y, axis=0), axis=0)", {"x": (4, 3), "y": (4, 3)}),
    Case("scipy.integrate.simpson(x)", {"x": (5,)}),
    Case("scipy.integrate.simpson(x)", {"x": (6,)}),
    Case("scipy.integrate.simpson(x, dx=0.5, axis=0)", {"x": (4, 3)}),
    Case("scipy.integrate.simpson(x, x=np.array([0.0, 0.3, 1.0, 1.2, 2.0]))", {"x": (2, 5)}),
    Case("scipy.integrate.cumulative_trapezoid(x)", {"x": (5,)}),
    Case("scipy.integrate.cumulative_trapezoid(x, dx=0.5, axis=0, initial=0)", {"x": (4, 3)}),
    Case(
        "scipy.integrate.cumulative_trapezoid(x, np.array([0.0, 0.3, 1.0, 1.2]), axis=0)",
        {"x": (4, 3)},
    ),
]

SCIPY_CASES += SIGNAL + INTEGRATE

_SPD = "x @ x.T + 3.0 * np.eye(3)"  # symmetric positive definite, from any square x
LINALG: list[Case] = [
    Case("scipy.linalg.inv(x + 3.0 * np.eye(3))", {"x": (3, 3)}),
    Case("scipy.linalg.inv(x)", {"x": (3, 3)}, "distinct"),
    Case("scipy.linalg.det(x)", {"x": (3, 3)}, "distinct"),
    Case("scipy.linalg.solve(x, y)", {"x": (3, 3), "y": (3,)}, "distinct"),
    Case("scipy.linalg.solve(x, y)", {"x": (3, 3), "y": (3, 2)}, "distinct"),
    *[
        Case(f"scipy.linalg.solve_triangular(x, y{kw})", {"x": (3, 3), "y": b}, "distinct")
        for b in [(3,), (3, 2)]
        for kw in ["", ", lower=True", ", trans=1", ", trans='T', lower=True"]
    ],
    Case(
        "scipy.linalg.solve_triangular(x, y, lower=True, unit_diagonal=True)",
        {"x": (3, 3), "y": (3, 2)},
        "distinct",
        autograd=False,  # autograd reads the diagonal, which SciPy takes as ones here
    ),
    Case("scipy.linalg.cholesky(x + 3.0 * np.eye(3))", {"x": (3, 3)}, "positive", autograd=False),
    Case("scipy.linalg.cholesky(x + 3.0 * np.eye(3), lower=True)", {"x": (3, 3)}, "positive"),
    Case(f"scipy.linalg.cholesky({_SPD})", {"x": (3, 3)}),
    Case("scipy.linalg.expm(x)", {"x": (3, 3)}),
    Case("scipy.linalg.expm(x * 0.5)", {"x": (2, 3, 3)}),
    Case(f"scipy.linalg.eigh({_SPD})[0]", {"x": (3, 3)}),
    Case("scipy.linalg.eigh(x, eigvals_only=True)", {"x": (3, 3)}, autograd=False),
    Case(f"scipy.linalg.eigh({_SPD})[1] ** 2", {"x": (3, 3)}),
    Case("scipy.linalg.eigh(x, lower=False)[1] ** 2", {"x": (3, 3)}, autograd=False),
    Case("scipy.linalg.svd(x, compute_uv=False)", {"x": (3, 2)}),
    Case("scipy.linalg.svd(x, full_matrices=False)[0] ** 2", {"x": (3, 2)}),
    Case("scipy.linalg.norm(x)", {"x": (3, 2)}),
    Case("scipy.linalg.norm(x, 1, axis=0)", {"x": (3, 2)}, "distinct"),
    # factor-and-solve pairs: the packed factor is differentiated (both its parts)
    Case(f"scipy.linalg.cho_factor({_SPD})[0]", {"x": (3, 3)}),
    Case(f"scipy.linalg.cho_factor({_SPD}, lower=True)[0]", {"x": (3, 3)}),
    Case("scipy.linalg.cho_factor(x + 3.0 * np.eye(3))[0]", {"x": (2, 3, 3)}, "unit"),
    Case(f"scipy.linalg.cho_solve(scipy.linalg.cho_factor({_SPD}), y)", {"x": (3, 3), "y": V}),
    Case(
        f"scipy.linalg.cho_solve(scipy.linalg.cho_factor({_SPD}, lower=True), y)",
        {"x": (3, 3), "y": (3, 2)},
    ),
    Case("scipy.linalg.cho_solve((np.triu(x) + 3.0 * np.eye(3), False), y)", {"x": (3, 3), "y": V}),
    Case("scipy.linalg.cho_solve((x + 3.0 * np.eye(3), True), y)", {"x": (3, 3), "y": (3, 2)}),
    Case("scipy.linalg.lu_factor(x)[0]", {"x": (3, 3)}, "distinct"),
    Case("scipy.linalg.lu_factor(x)[0]", {"x": (2, 3, 3)}, "distinct"),
    Case("scipy.linalg.lu_solve(scipy.linalg.lu_factor(x), y)", {"x": (3, 3), "y": V}, "distinct"),
    Case(
        "scipy.linalg.lu_solve(scipy.linalg.lu_factor(x), y, trans=1)",
        {"x": (4, 4), "y": (4, 2)},
        "distinct",
    ),
    Case(
        "scipy.linalg.lu_solve((x + 3.0 * np.eye(3), np.array([0, 2, 2])), y, 0)",
        {"x": (3, 3), "y": (3, 2)},
        "unit",
    ),
    # sqrtm: a symmetric positive definite input, and a well-conditioned general one
    Case(f"scipy.linalg.sqrtm({_SPD})", {"x": (3, 3)}),
    Case("scipy.linalg.sqrtm(x + 4.0 * np.eye(3))", {"x": (3, 3)}, "unit"),
]

SCIPY_CASES += LINALG
