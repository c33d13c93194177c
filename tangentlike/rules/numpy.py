"""Rules for the `numpy` namespace.

Order: elementwise one-liners (unary, then broadcasting binary), then
non-differentiable functions, then array methods and attributes. The other
rules live by topic, each written with its rule kind (rules/kinds.py) so its
forward form comes from the same statement: numpy_reductions (sum, mean,
max, var, ...), numpy_products (matmul, dot, einsum, ...), numpy_shape
(reshape, concatenate, slicing helpers, ...), numpy_values (constructors,
where, clip, sort, casts, two-result functions).

Conventions: at a kink the subgradient is the one NumPy's own comparison
picks (`abs` and `sign` give 0 at 0); `maximum(x, y)` and `minimum(x, y)`
send the gradient to x where x wins strictly and to y on ties, so
`np.maximum(x, 0.0)` has gradient 0 at 0, the usual ReLU subgradient (their
rules read only the result and y, so x need not be kept for the backward
sweep); `fmax`/`fmin` send ties to x; `max`/`min` reductions split the
gradient equally among tied maxima.
"""

from __future__ import annotations

import math

import numpy as np

from .. import runtime
from . import numpy_products, numpy_reductions, numpy_shape, numpy_statistics, numpy_values
from .registry import Registry

_GLOBALS = {"np": np, "runtime": runtime}
_LN2, _LN10 = repr(math.log(2.0)), repr(math.log(10.0))
_DEG, _RAD = repr(math.pi / 180.0), repr(180.0 / math.pi)

# d[x] in terms of g = d[result], x and result.
UNARY = {
    np.negative: "-g",
    np.positive: "g",
    np.exp: "g * result",
    np.exp2: f"g * result * {_LN2}",
    np.expm1: "g * (result + 1.0)",
    np.log: "g / x",
    np.log2: f"g / (x * {_LN2})",
    np.log10: f"g / (x * {_LN10})",
    np.log1p: "g / (x + 1.0)",
    np.sqrt: "g * 0.5 / result",
    np.cbrt: "g / (3.0 * result * result)",
    np.square: "g * 2.0 * x",
    np.reciprocal: "-g * result * result",
    np.sin: "g * np.cos(x)",
    np.cos: "-g * np.sin(x)",
    np.tan: "g * (1.0 + result * result)",
    np.arcsin: "g / np.sqrt(1.0 - x * x)",
    np.arccos: "-g / np.sqrt(1.0 - x * x)",
    np.arctan: "g / (1.0 + x * x)",
    np.sinh: "g * np.cosh(x)",
    np.cosh: "g * np.sinh(x)",
    np.tanh: "g * (1.0 - result * result)",
    np.arcsinh: "g / np.sqrt(x * x + 1.0)",
    np.arccosh: "g / np.sqrt(x * x - 1.0)",
    np.arctanh: "g / (1.0 - x * x)",
    np.abs: "g * np.sign(x)",
    np.fabs: "g * np.sign(x)",
    # d sinc(x) = (cos(pi x) - sinc(x)) / x, its series near 0 (runtime.sinc_slope, with a
    # second-order rule of its own: through np.where(x == 0, ...) the second derivative at 0
    # was 0, not -pi^2/3)
    np.sinc: "g * runtime.sinc_slope(x)",
    np.deg2rad: f"g * {_DEG}",
    np.radians: f"g * {_DEG}",
    np.rad2deg: f"g * {_RAD}",
    np.degrees: f"g * {_RAD}",
    np.conjugate: "g",  # real inputs only: the identity
    np.real: "g",
    np.real_if_close: "g",  # real inputs only: the identity
    np.nan_to_num: "g * np.isfinite(x)",
}

# (d[x], d[y]) in terms of g, x, y and result; broadcasting is undone by the kind.
BINARY = {
    np.add: ("g", "g"),
    np.subtract: ("g", "-g"),
    np.multiply: ("g * y", "g * x"),
    np.divide: ("g / y", "-g * result / y"),
    np.true_divide: ("g / y", "-g * result / y"),
    np.power: ("g * runtime.power_slope(x, y)", "g * result * runtime.power_log(x, y)"),
    np.maximum: ("g * (result > y)", "g * (result <= y)"),  # x > y exactly where max(x, y) > y
    np.minimum: ("g * (result < y)", "g * (result >= y)"),
    np.fmax: ("g * (x >= y)", "g * (x < y)"),
    np.fmin: ("g * (x <= y)", "g * (x > y)"),
    np.arctan2: ("g * y / (x * x + y * y)", "-g * x / (x * x + y * y)"),
    np.hypot: ("g * x / result", "g * y / result"),
    np.logaddexp: ("g * np.exp(x - result)", "g * np.exp(y - result)"),
    np.logaddexp2: ("g * np.exp2(x - result)", "g * np.exp2(y - result)"),
    # float_power computes in float64 whatever the inputs: cast the adjoints back.
    np.float_power: (
        "np.asarray(g * y * np.float_power(x, y - 1.0), np.result_type(x))",
        "np.asarray(g * result * runtime.power_log(x, y), np.result_type(y))",
    ),
    np.copysign: ("g * np.sign(x) * np.sign(result)", "0.0 * g"),
    np.fmod: ("g", "-g * np.trunc(x / y)"),
    np.remainder: ("g", "-g * np.floor_divide(x, y)"),
}

# Zero gradient, each for its reason: the result is integer, boolean or locally constant
# in every floating argument (tests/rules/test_nondifferentiable.py checks each
# numerically). np.full, np.full_like, np.arange and np.linspace are not here: their
# values move with fill_value, start, step and stop, and they have rules.
BOOLEAN = "boolean result"
INDICES = "integer indices"
STEP = "piecewise constant: locally constant away from its jumps"
SHAPE = "depends on shapes, sizes and dtypes only"
NONDIFFERENTIABLE = {
    np.shape: SHAPE,
    np.ndim: SHAPE,
    np.size: SHAPE,
    np.result_type: SHAPE,
    np.zeros: SHAPE,
    np.ones: SHAPE,
    np.empty: SHAPE,
    np.zeros_like: SHAPE,
    np.ones_like: SHAPE,
    np.empty_like: SHAPE,
    np.eye: SHAPE,
    np.identity: SHAPE,
    np.argmax: INDICES,
    np.argmin: INDICES,
    np.argsort: INDICES,
    np.nonzero: INDICES,
    np.argwhere: INDICES,
    np.flatnonzero: INDICES,
    np.searchsorted: INDICES,
    np.digitize: INDICES,
    np.count_nonzero: "an integer count",
    np.sign: STEP,
    np.floor: STEP,
    np.ceil: STEP,
    np.round: STEP,
    np.around: STEP,
    np.rint: STEP,
    np.trunc: STEP,
    np.fix: STEP,
    np.floor_divide: STEP,
    np.isnan: BOOLEAN,
    np.isinf: BOOLEAN,
    np.isfinite: BOOLEAN,
    np.signbit: BOOLEAN,
    np.greater: BOOLEAN,
    np.greater_equal: BOOLEAN,
    np.less: BOOLEAN,
    np.less_equal: BOOLEAN,
    np.equal: BOOLEAN,
    np.not_equal: BOOLEAN,
    np.logical_and: BOOLEAN,
    np.logical_or: BOOLEAN,
    np.logical_not: BOOLEAN,
    np.logical_xor: BOOLEAN,
    np.all: BOOLEAN,
    np.any: BOOLEAN,
    np.isclose: BOOLEAN,
    np.allclose: BOOLEAN,
    np.array_equal: BOOLEAN,
    np.isreal: BOOLEAN,
    np.iscomplex: BOOLEAN,
    np.isscalar: BOOLEAN,
}

# Random draws: registered once the program has imported numpy.random (importing it
# here would cost every gradient ~10 ms).
RANDOM_DRAWS = (
    "rand",
    "randn",
    "randint",
    "random",
    "random_sample",
    "standard_normal",
    "seed",
    "default_rng",
)


def _random_draws(registry: Registry) -> None:
    import numpy.random as random

    draws = "a random draw or generator: its arguments are shapes, integer bounds or a seed"
    registry.nondifferentiable({getattr(random, n): draws for n in RANDOM_DRAWS})


# x.name(...) -> numpy.name(x, ...)
METHODS = {
    "sum": "numpy.sum",
    "mean": "numpy.mean",
    "max": "numpy.max",
    "min": "numpy.min",
    "dot": "numpy.dot",
    "clip": "numpy.clip",
    "ravel": "numpy.ravel",
    "squeeze": "numpy.squeeze",
    "argmax": "numpy.argmax",
    "argmin": "numpy.argmin",
    "argsort": "numpy.argsort",
    "prod": "numpy.prod",
    "var": "numpy.var",
    "std": "numpy.std",
    "cumsum": "numpy.cumsum",
    "cumprod": "numpy.cumprod",
    "trace": "numpy.trace",
    "round": "numpy.round",
    "nonzero": "numpy.nonzero",
    "all": "numpy.all",
    "any": "numpy.any",
    "swapaxes": "numpy.swapaxes",
    "repeat": "numpy.repeat",
    "take": "numpy.take",
    "diagonal": "numpy.diagonal",
    "copy": "numpy.copy",
    "astype": "numpy.astype",
    "conj": "numpy.conjugate",
    "conjugate": "numpy.conjugate",
}
# x.reshape(2, 3) == np.reshape(x, (2, 3)); x.transpose(1, 0) == np.transpose(x, (1, 0))
PACKED_METHODS = {"reshape": "numpy.reshape", "transpose": "numpy.transpose"}
# x.flatten() == np.ravel(np.copy(x)): a copy always (np.ravel alone may be a view of x)
COPYING_METHODS = {"flatten": "numpy.ravel"}
ATTRIBUTES = {"T": "numpy.transpose", "real": "numpy.real", "imag": "numpy.imag"}


# Always a new array, never a view of an argument: safe to write into by index.
ARRAY_MAKERS = [
    np.zeros,
    np.ones,
    np.empty,
    np.full,
    np.zeros_like,
    np.ones_like,
    np.empty_like,
    np.full_like,
    np.array,
    np.copy,
    np.arange,
    np.linspace,
    np.eye,
    np.identity,
    np.concatenate,
    np.stack,
    np.vstack,
    np.hstack,
    np.tile,
    np.repeat,
    np.outer,
    np.matmul,
    np.dot,
    np.where,
    np.sum,
    np.mean,
    np.prod,
    np.cumsum,
    np.cumprod,
    np.diag,
]
# More functions whose result is always new (a number or a new array), by name: some are
# NumPy >= 2 only. Not those returning tuples (eigh, svd): a tuple is a container.
# Called with a shape alone, a float ndarray (transform/containers.py: arithmetic with
# one is never a list repeated).
FLOAT_MAKERS = [np.zeros, np.ones, np.empty, np.eye, np.identity]
# f(x): an array of x's rank and dtype kind; f([a, b]): an array of rank >= 1.
KIND_KEEPERS = [np.copy]
LIST_ARRAYS = [np.array, np.asarray]
# f(x, ...) of a float or float array x: a float or float array (NumPy's promotion keeps
# floats floating); with analyze.numeric's float ufuncs, what `floating * xs` relies on.
FLOAT_KEEPERS = [
    *(getattr(np, n) for n in ("amax", "amin", "max", "min", "sum", "prod", "mean")),
    *(getattr(np, n) for n in ("cumsum", "cumprod", "dot", "outer", "inner", "clip")),
    *(getattr(np, n) for n in ("transpose", "reshape", "ravel", "squeeze", "diag", "trace")),
    *(getattr(np, n) for n in ("sort", "flip", "roll", "tile", "repeat", "diff")),
    *(getattr(np, n) for n in ("expand_dims", "average", "std", "var", "tensordot")),
]

NEW_RESULTS = [
    "amax",
    "amin",
    "append",
    "average",
    "clip",
    "column_stack",
    "convolve",
    "correlate",
    "cross",
    "cumulative_prod",
    "cumulative_sum",
    "diff",
    "dstack",
    "inner",
    "interp",
    "kron",
    "max",
    "median",
    "min",
    "nanmax",
    "nanmean",
    "nanmin",
    "nanprod",
    "nanstd",
    "nansum",
    "nanvar",
    "pad",
    "ptp",
    "roll",
    "select",
    "sinc",
    "sort",
    "std",
    "take",
    "take_along_axis",
    "tensordot",
    "trace",
    "trapezoid",
    "tril",
    "triu",
    "var",
    "vdot",
]

# `np.r_[a, 0:3, b]`, `np.c_[a, b]`: a subscript that concatenates its items.
INDEX_CONCATENATORS = [np.r_, np.c_]

# Return a list of arrays: the adjoint of the result is a list (analyze/containers).
SEQUENCE_MAKERS = [np.split, np.array_split, np.hsplit, np.vsplit, np.dsplit, np.divmod, np.modf]
SEQUENCE_MAKERS += [np.meshgrid]
# Take a list of arrays and give its adjoint as a list.
SEQUENCE_PARAMS = {
    np.stack: ("arrays",),
    np.concatenate: ("arrays",),
    np.hstack: ("tup",),
    np.vstack: ("tup",),
    np.dstack: ("tup",),
    np.column_stack: ("tup",),
}


def register(registry: Registry) -> None:
    registry.array_makers(ARRAY_MAKERS)
    registry.float_makers(FLOAT_MAKERS)
    registry.array_kinds(KIND_KEEPERS, LIST_ARRAYS)
    registry.float_keepers(FLOAT_KEEPERS)
    registry.array_makers(getattr(np, name) for name in NEW_RESULTS if hasattr(np, name))
    registry.sequence_makers(SEQUENCE_MAKERS)
    registry.sequence_params(SEQUENCE_PARAMS)
    for func, expr in UNARY.items():
        registry.expressions(func, ("x",), {"x": expr}, unbroadcast=False, globals_=_GLOBALS)
    for func, (dx, dy) in BINARY.items():
        registry.expressions(
            func, ("x", "y"), {"x": dx, "y": dy}, unbroadcast=True, globals_=_GLOBALS
        )
    registry.nondifferentiable(NONDIFFERENTIABLE)
    registry.index_concatenators(INDEX_CONCATENATORS)
    registry.defer("numpy.random", _random_draws)
    for name, dotted in METHODS.items():
        if hasattr(np, dotted.split(".")[-1]):  # np.astype is NumPy >= 2.1
            registry.method(name, dotted)
    for name, dotted in PACKED_METHODS.items():
        registry.method(name, dotted, pack_varargs=True)
    for name, dotted in COPYING_METHODS.items():
        registry.method(name, dotted, copies=True)
    for name, dotted in ATTRIBUTES.items():
        registry.attribute(name, dotted)
    for topic in (numpy_reductions, numpy_products, numpy_shape, numpy_statistics, numpy_values):
        topic.register(registry)
