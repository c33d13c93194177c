"""Rules for `scipy.stats` distributions, keyed by their bound methods (`stats.norm.logpdf`).

The rules are on the functions, never on SciPy's source (which parses
arguments and raises). A continuous distribution is described by its
standardized log density in z = (x - loc) / scale: its score dlogp/dz and
the derivatives of logp in its shape parameters. From those, every method's
rule follows:

    logpdf  d/dx = s(z) / scale, d/dloc = -s(z) / scale, d/dscale = -(s(z) z + 1) / scale
    pdf     the same, times pdf
    cdf     d/dx = pdf, d/dloc = -pdf, d/dscale = -pdf z
    logcdf  the cdf's, over cdf (exp(logpdf - logcdf)); sf and logsf with the sign flipped

A shape parameter whose cdf derivative has no closed form (the `df` of t,
the `a` of gamma) is refused in cdf, logcdf, sf and logsf when a
differentiated value reaches it: unknown is never zero. Every rule is an
elementwise expression rule, so its forward form is derived (rules/tangent.py).
"""

from __future__ import annotations

import math

import numpy as np

from .. import runtime
from .registry import Registry
from .template import d

Z = "((x - loc) / scale)"
_INV_SQRT_2PI = repr(1.0 / math.sqrt(2.0 * math.pi))
_HALF_LN2 = repr(0.5 * math.log(2.0))

# name -> (score s(z), {shape: d logp / d shape}, {shape: d cdf / d shape, times g})
CONTINUOUS: dict[str, tuple[str, dict[str, str], dict[str, str]]] = {
    "norm": (f"-{Z}", {}, {}),
    "t": (
        f"-(df + 1.0) * {Z} / (df + {Z} ** 2)",
        {
            "df": "0.5 * (special.digamma((df + 1.0) / 2.0) - special.digamma(df / 2.0)) "
            f"- 0.5 / df - 0.5 * np.log1p({Z} ** 2 / df) "
            f"+ (df + 1.0) * {Z} ** 2 / (2.0 * df * (df + {Z} ** 2))"
        },
        {},
    ),
    "gamma": (f"(a - 1.0) / {Z} - 1.0", {"a": f"np.log({Z}) - special.digamma(a)"}, {}),
    "beta": (
        f"(a - 1.0) / {Z} - (b - 1.0) / (1.0 - {Z})",
        {
            "a": f"np.log({Z}) - special.digamma(a) + special.digamma(a + b)",
            "b": f"np.log1p(-{Z}) - special.digamma(b) + special.digamma(a + b)",
        },
        {},
    ),
    "expon": (f"-1.0 + 0.0 * {Z}", {}, {}),
    "laplace": (f"-np.sign({Z})", {}, {}),
    "logistic": (f"-np.tanh({Z} / 2.0)", {}, {}),
    "cauchy": (f"-2.0 * {Z} / (1.0 + {Z} ** 2)", {}, {}),
    "lognorm": (
        f"-(1.0 + np.log({Z}) / (s * s)) / {Z}",
        {"s": f"-1.0 / s + np.log({Z}) ** 2 / s ** 3"},
        # cdf = ndtr(log(z) / s)
        {"s": f"-{_INV_SQRT_2PI} * np.exp(-0.5 * (np.log({Z}) / s) ** 2) * np.log({Z}) / (s * s)"},
    ),
    "chi2": (
        f"(df / 2.0 - 1.0) / {Z} - 0.5",
        {"df": f"0.5 * np.log({Z}) - {_HALF_LN2} - 0.5 * special.digamma(df / 2.0)"},
        {},
    ),
}

# name -> (shapes, {shape: d logpmf / d shape}); k and loc are integers, never differentiated
DISCRETE: dict[str, tuple[tuple[str, ...], dict[str, str]]] = {
    "poisson": (("mu",), {"mu": "(k - loc) / mu - 1.0"}),
    "binom": (("n", "p"), {"p": "(k - loc) / p - (n - k + loc) / (1.0 - p)"}),
    "nbinom": (
        ("n", "p"),
        {
            "n": "special.digamma(k - loc + n) - special.digamma(n) + np.log(p)",
            "p": "n / p - (k - loc) / (1.0 - p)",
        },
    ),
}


def _continuous(name: str) -> dict[str, dict[str, str]]:
    """{method: {param: contribution}} of one continuous distribution."""
    score, shape_logp, shape_cdf = CONTINUOUS[name]
    score = f"({score})"
    shapes = ", ".join([*shape_logp, "loc", "scale"])
    pdf = f"stats.{name}.pdf(x, {shapes})"
    logpdf = f"stats.{name}.logpdf(x, {shapes})"
    log_density = {
        "x": f"g * {score} / scale",
        "loc": f"-g * {score} / scale",
        "scale": f"-g * ({score} * {Z} + 1.0) / scale",
        **{p: f"g * ({e})" for p, e in shape_logp.items()},
    }
    cdf = {
        "x": f"g * {pdf}",
        "loc": f"-g * {pdf}",
        "scale": f"-g * {pdf} * {Z}",
        **{p: f"g * ({e})" for p, e in shape_cdf.items()},
    }
    over_cdf = {  # d log F = dF / F, with pdf / F = exp(logpdf - logcdf)
        "x": f"g * np.exp({logpdf} - result)",
        "loc": f"-g * np.exp({logpdf} - result)",
        "scale": f"-g * np.exp({logpdf} - result) * {Z}",
        **{p: f"g * ({e}) * np.exp(-result)" for p, e in shape_cdf.items()},
    }
    return {
        "logpdf": log_density,
        "pdf": {p: f"{e} * result" for p, e in log_density.items()},
        "cdf": cdf,
        "sf": {p: f"-({e})" for p, e in cdf.items()},
        "logcdf": over_cdf,
        "logsf": {p: f"-({e})" for p, e in over_cdf.items()},
    }


def register(registry: Registry) -> None:
    """Register the rules; the registry calls this once scipy.stats is imported."""
    try:
        from scipy import special, stats
    except ImportError:  # pragma: no cover - exercised only without scipy
        return
    globals_ = {"np": np, "special": special, "stats": stats, "runtime": runtime}
    made = []
    for name in CONTINUOUS:
        dist = getattr(stats, name)
        shapes = tuple(s.strip() for s in (dist.shapes or "").split(",") if s.strip())
        params = ("x", *shapes, "loc", "scale")
        for method, exprs in _continuous(name).items():
            primal = getattr(dist, method)
            registry.expressions(
                primal,
                params,
                exprs,
                unbroadcast=True,
                globals_=globals_,
                defaults={"loc": 0.0, "scale": 1.0},
                restriction="inside the support; shape parameters where a closed form exists",
            )
            made.append(primal)
    for name, (shapes, shape_logp) in DISCRETE.items():
        dist = getattr(stats, name)
        params = ("k", *shapes, "loc")
        logpmf = {p: f"g * ({e})" for p, e in shape_logp.items()}
        for method, exprs in (
            ("logpmf", logpmf),
            ("pmf", {p: f"{e} * result" for p, e in logpmf.items()}),
        ):
            primal = getattr(dist, method)
            registry.expressions(
                primal,
                params,
                exprs,
                unbroadcast=True,
                globals_=globals_,
                defaults={"loc": 0},
                restriction="the continuous parameters (k and loc are integers)",
            )
            made.append(primal)
    _multivariate_normal(registry, stats)
    made += [stats.multivariate_normal.logpdf, stats.multivariate_normal.pdf]
    registry.array_makers(made)


def _multivariate_normal(registry: Registry, stats: object) -> None:
    adjoint, tangent = registry.adjoint, registry.tangent
    mvn = stats.multivariate_normal
    restriction = (
        "a positive definite cov; SciPy reads its lower triangle, where the gradient lives"
    )

    @adjoint(mvn.logpdf, restriction=restriction)
    def mvn_logpdf(result, x, mean=None, cov=1, allow_singular=False):
        grads = runtime.mvn_logpdf_vjp(d[result], x, mean, cov)
        d[x] = grads[0]
        d[mean] = grads[1]
        d[cov] = grads[2]

    @tangent(mvn.logpdf)
    def mvn_logpdf_tangent(result, x, mean=None, cov=1, allow_singular=False):
        d[result] = runtime.mvn_logpdf_jvp(x, mean, cov, d[x], d[mean], d[cov])

    @adjoint(mvn.pdf, restriction=restriction)
    def mvn_pdf(result, x, mean=None, cov=1, allow_singular=False):
        grads = runtime.mvn_logpdf_vjp(d[result] * result, x, mean, cov)
        d[x] = grads[0]
        d[mean] = grads[1]
        d[cov] = grads[2]

    @tangent(mvn.pdf)
    def mvn_pdf_tangent(result, x, mean=None, cov=1, allow_singular=False):
        d[result] = result * runtime.mvn_logpdf_jvp(x, mean, cov, d[x], d[mean], d[cov])
