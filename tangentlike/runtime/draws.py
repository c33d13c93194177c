"""Random draws from a NumPy Generator or RandomState passed in: `rng.normal(...)`.

Part of the runtime: copied into generated modules that use it (NumPy only).
"""

from __future__ import annotations

# the methods of numpy.random.Generator and RandomState that draw (A-normal form calls
# them through random_draw: constants for differentiation, unless an argument is
# differentiated, which is refused: rules/runtime_helpers.py)
RANDOM_METHODS = frozenset(
    {
        "beta",
        "binomial",
        "choice",
        "dirichlet",
        "exponential",
        "gamma",
        "gumbel",
        "integers",
        "laplace",
        "logistic",
        "lognormal",
        "multinomial",
        "multivariate_normal",
        "normal",
        "permutation",
        "poisson",
        "rand",
        "randint",
        "randn",
        "random",
        "random_sample",
        "standard_cauchy",
        "standard_exponential",
        "standard_gamma",
        "standard_normal",
        "standard_t",
        "uniform",
    }
)


def random_draw(rng, method, *args, **kwargs):
    """`rng.<method>(*args, **kwargs)` for a NumPy random Generator or RandomState."""
    module = type(rng).__module__ or ""
    if not module.startswith("numpy.random"):
        raise TypeError(
            f"tangentlike: .{method}(...) was differentiated as a random draw (a constant), "
            f"but it is called on a {type(rng).__name__}, not a numpy.random.Generator or "
            "RandomState; call a function of your own class through its class "
            f"(Cls.{method}(obj, ...)) so its source is differentiated"
        )
    return getattr(rng, method)(*args, **kwargs)
