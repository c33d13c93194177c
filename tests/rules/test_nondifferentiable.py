"""Every entry of every non-differentiable list earns its place, numerically.

An entry passes a differentiated value through with a zero gradient, which is right
only if its result is integer or boolean, or locally constant in each floating
argument. For each entry, CALLS holds calls with floating arguments; the test checks
the result's dtype, or else evaluates the call at random points, keeps the points
where the result does not move within ±1e-3 (away from a jump), requires most points
to qualify (a smooth function has none), and checks that the central difference with
step 1e-6 is exactly zero there. A coverage guard fails for an entry without calls.
"""

from __future__ import annotations

import builtins
import math
import operator
from collections.abc import Callable
from dataclasses import dataclass

import gast
import numpy as np
import pytest

from tangentlike import runtime
from tangentlike.rules.registry import default_registry


@dataclass(frozen=True)
class Call:
    """`func(*args)`, where the arguments at `floats` are perturbed (each in turn)."""

    func: Callable
    args: tuple
    floats: tuple[int, ...] = (0,)


V = np.array([1.3, -2.6, 0.8, 4.1])
W = np.array([0.7, -1.9, 2.2, 4.1])
A = np.array([[2.0, 1.0], [1.0, 3.0]])
SORTED = np.array([-2.0, -0.5, 1.0, 3.5])
INTS = np.array([3, 5, 6])


def _calls() -> dict[object, list[Call]]:
    random = np.random
    calls: dict[object, list[Call]] = {
        # operators (their callable forms)
        gast.FloorDiv: [Call(operator.floordiv, (V, 0.7), (0, 1))],
        gast.BitAnd: [Call(operator.and_, (INTS, 6), ())],
        gast.BitOr: [Call(operator.or_, (INTS, 6), ())],
        gast.BitXor: [Call(operator.xor, (INTS, 6), ())],
        gast.LShift: [Call(operator.lshift, (INTS, 2), ())],
        gast.RShift: [Call(operator.rshift, (INTS, 1), ())],
        gast.Invert: [Call(operator.invert, (INTS,), ())],
        gast.Not: [Call(operator.not_, (1.3,))],
        gast.Eq: [Call(operator.eq, (V, W), (0, 1))],
        gast.NotEq: [Call(operator.ne, (V, W), (0, 1))],
        gast.Lt: [Call(operator.lt, (V, W), (0, 1))],
        gast.LtE: [Call(operator.le, (V, W), (0, 1))],
        gast.Gt: [Call(operator.gt, (V, W), (0, 1))],
        gast.GtE: [Call(operator.ge, (V, W), (0, 1))],
        gast.Is: [Call(operator.is_, (1.3, None))],
        gast.IsNot: [Call(operator.is_not, (1.3, None))],
        gast.In: [Call(lambda a, b: operator.contains([b, 2.0], a), (1.3, 0.5), (0, 1))],
        gast.NotIn: [Call(lambda a, b: a not in [b, 2.0], (1.3, 0.5), (0, 1))],
        # builtins
        builtins.len: [Call(len, (V,))],
        builtins.range: [Call(range, (4,), ())],
        builtins.int: [Call(int, (2.6,))],
        builtins.bool: [Call(bool, (2.6,))],
        builtins.round: [Call(round, (2.6,)), Call(round, (2.63, 1))],
        builtins.print: [Call(lambda v: print(v, end="\r"), (2.6,))],
        builtins.isinstance: [Call(isinstance, (2.6, float))],
        builtins.type: [Call(type, (2.6,))],
        builtins.id: [Call(id, (2.6,))],
        builtins.hash: [Call(hash, (2.6,))],
        # numpy
        np.shape: [Call(np.shape, (V,))],
        np.ndim: [Call(np.ndim, (A,))],
        np.size: [Call(np.size, (A,))],
        np.result_type: [Call(np.result_type, (V, 1.5), (0, 1))],
        np.zeros: [Call(np.zeros, (3,), ())],
        np.ones: [Call(np.ones, ((2, 3),), ())],
        np.empty: [Call(lambda n: np.empty(n) * 0.0, (3,), ())],
        np.zeros_like: [Call(np.zeros_like, (V,))],
        np.ones_like: [Call(np.ones_like, (V,))],
        # values are undefined; only the shape and dtype are the function's
        np.empty_like: [Call(lambda v: np.zeros(np.shape(np.empty_like(v))), (V,))],
        np.eye: [Call(np.eye, (3,), ())],
        np.identity: [Call(np.identity, (3,), ())],
        np.argmax: [Call(np.argmax, (V,))],
        np.argmin: [Call(np.argmin, (V,))],
        np.argsort: [Call(np.argsort, (V,))],
        np.nonzero: [Call(np.nonzero, (V,))],
        np.argwhere: [Call(np.argwhere, (V,))],
        np.flatnonzero: [Call(np.flatnonzero, (V,))],
        np.searchsorted: [Call(np.searchsorted, (SORTED, V), (0, 1))],
        np.digitize: [Call(np.digitize, (V, SORTED), (0, 1))],
        np.count_nonzero: [Call(np.count_nonzero, (V,))],
        np.sign: [Call(np.sign, (V,))],
        np.floor: [Call(np.floor, (V,))],
        np.ceil: [Call(np.ceil, (V,))],
        np.round: [Call(np.round, (V,)), Call(np.round, (V, 1))],
        np.around: [Call(np.around, (V,)), Call(np.around, (V, 2))],
        np.rint: [Call(np.rint, (V,))],
        np.trunc: [Call(np.trunc, (V,))],
        np.fix: [Call(np.fix, (V,))],
        np.floor_divide: [Call(np.floor_divide, (V, W), (0, 1))],
        np.isnan: [Call(np.isnan, (V,))],
        np.isinf: [Call(np.isinf, (V,))],
        np.isfinite: [Call(np.isfinite, (V,))],
        np.signbit: [Call(np.signbit, (V,))],
        np.greater: [Call(np.greater, (V, W), (0, 1))],
        np.greater_equal: [Call(np.greater_equal, (V, W), (0, 1))],
        np.less: [Call(np.less, (V, W), (0, 1))],
        np.less_equal: [Call(np.less_equal, (V, W), (0, 1))],
        np.equal: [Call(np.equal, (V, W), (0, 1))],
        np.not_equal: [Call(np.not_equal, (V, W), (0, 1))],
        np.logical_and: [Call(np.logical_and, (V, W), (0, 1))],
        np.logical_or: [Call(np.logical_or, (V, W), (0, 1))],
        np.logical_not: [Call(np.logical_not, (V,))],
        np.logical_xor: [Call(np.logical_xor, (V, W), (0, 1))],
        np.all: [Call(np.all, (V,))],
        np.any: [Call(np.any, (V,))],
        np.isclose: [Call(np.isclose, (V, W), (0, 1))],
        np.allclose: [Call(np.allclose, (V, W), (0, 1))],
        np.array_equal: [Call(np.array_equal, (V, W), (0, 1))],
        np.isreal: [Call(np.isreal, (V,))],
        np.iscomplex: [Call(np.iscomplex, (V,))],
        np.isscalar: [Call(np.isscalar, (2.6,))],
        np.linalg.matrix_rank: [Call(np.linalg.matrix_rank, (A,))],
        # random draws take shapes, integer bounds or a seed: no floating argument
        random.rand: [Call(random.rand, (3,), ())],
        random.randn: [Call(random.randn, (3,), ())],
        random.randint: [Call(random.randint, (0, 5, 3), ())],
        random.random: [Call(random.random, (3,), ())],
        random.random_sample: [Call(random.random_sample, (3,), ())],
        random.standard_normal: [Call(random.standard_normal, (3,), ())],
        random.seed: [Call(random.seed, (0,), ())],
        random.default_rng: [Call(random.default_rng, (0,), ())],
        # the index xs.pop(i) removes (normalize/anf_expressions.py): an integer or a key
        runtime.item_index: [Call(runtime.item_index, ([1.5, 2.5, 3.5], -1), ())],
        # whether an update through a possible view goes to its base (transform.view_updates)
        runtime.same_memory: [
            Call(runtime.same_memory, (np.ones((2, 2)).T, np.ones((2, 2))), ()),
            Call(runtime.same_memory, (1.5, 2.5), ()),
        ],
        # whether a name bound to an array on one path only is it (transform.view_updates)
        runtime.same_array: [
            Call(runtime.same_array, (A, A, "shared"), ()),
            Call(runtime.same_array, (1.5, A, "shared"), ()),
        ],
        # whether a slice or reshape of what may be no array is a view (transform.view_updates)
        runtime.part_of: [
            Call(runtime.part_of, (A[1:], A, "shared"), ()),
            Call(runtime.part_of, ([1.5], [1.5, 2.5], "shared"), ()),
        ],
        # which view of a restored array a name is (higher/form_views.py): a number
        runtime.same_view: [
            Call(runtime.same_view, (A[1:], A, (A[:1], A[1:])), ()),
            Call(runtime.same_view, (A[1:].copy(), A, (A[1:],)), ()),
        ],
        # a stand-in pushed for an array or number read back for its shape only
        # (higher/form_shapes.py): zeros (other values, never read for more, as they are)
        runtime.shape_kept: [
            Call(runtime.shape_kept, (V,)),
            Call(runtime.shape_kept, (1.3,)),
            Call(runtime.shape_kept, (np.float32(1.3),)),
        ],
        # the keys a dict copy iterates (dict(d), {**d}; normalize/builtin_calls.py)
        runtime.keys_of: [Call(runtime.keys_of, ({"a": 1.5, "b": 2.5}, "not a dict"), ())],
        # math
        math.floor: [Call(math.floor, (2.6,))],
        math.ceil: [Call(math.ceil, (2.6,))],
        math.trunc: [Call(math.trunc, (-2.6,))],
        math.isqrt: [Call(math.isqrt, (17,), ())],
        math.comb: [Call(math.comb, (5, 2), ())],
        math.perm: [Call(math.perm, (5, 2), ())],
        math.factorial: [Call(math.factorial, (5,), ())],
        math.gcd: [Call(math.gcd, (12, 18), ())],
        math.lcm: [Call(math.lcm, (4, 6), ())],
        math.isfinite: [Call(math.isfinite, (2.6,))],
        math.isinf: [Call(math.isinf, (2.6,))],
        math.isnan: [Call(math.isnan, (2.6,))],
        math.isclose: [Call(math.isclose, (2.6, 2.4), (0, 1))],
        math.ulp: [Call(math.ulp, (2.6,)), Call(math.ulp, (-1.3e5,))],
    }
    from scipy import special

    calls[special.gammasgn] = [Call(special.gammasgn, (V,))]
    # a generated gradient's helper (the position a max or min picked), read again when
    # that gradient is differentiated
    calls[runtime.extremum_index] = [
        Call(runtime.extremum_index, (np.array([0.3, 1.2, -0.4]), 1.2), (0,)),
        Call(runtime.extremum_index, ((0.3, 1.2, 1.2), 1.2), ()),
    ]
    # LAPACK's pivots as a row order (scipy.linalg.lu_factor's helpers), integers
    calls[runtime.pivot_order] = [Call(runtime.pivot_order, (np.array([2, 2, 2]),), ())]
    # whether an exponent is an integer (runtime.power_log): a boolean, for floats too
    calls[runtime.integer_exponent] = [
        Call(runtime.integer_exponent, (2.5,)),
        Call(runtime.integer_exponent, (V,)),
        Call(runtime.integer_exponent, (3,), ()),
    ]
    # the end of a loop over zip(..., strict=True) (normalize/strict_zips.py): lengths in,
    # None out (or Python's ValueError)
    calls[runtime.zip_strict_end] = [Call(runtime.zip_strict_end, (3, 3), ())]
    return calls


CALLS = _calls()
# The one entry listed for another reason than its result: the user asked for no gradient.
ON_PURPOSE = {runtime.stop_gradient}


def _entries() -> list[object]:
    return [p for p in default_registry().nondifferentiable_primals() if p not in ON_PURPOSE]


def _name(primal: object) -> str:
    module = getattr(primal, "__module__", "") or ""
    return f"{module.split('.')[0]}.{getattr(primal, '__name__', primal)}".lstrip(".")


def test_every_entry_has_calls_and_a_reason():
    registry = default_registry()
    missing = [_name(p) for p in _entries() if p not in CALLS]
    assert not missing, f"non-differentiable entries without a numerical check: {missing}"
    for primal in registry.nondifferentiable_primals():
        assert registry.nondifferentiable_reason(primal), _name(primal)
    assert registry.nondifferentiable_reason(runtime.stop_gradient) == (
        "blocks the gradient on purpose"
    )


def _integer_or_boolean(value: object) -> bool:
    """Integers, booleans, None, text, classes, dtypes, ranges and tuples or lists of
    such (a dict's keys): no float."""
    if value is None or isinstance(value, (type, np.dtype, range, bool, int, np.integer, str)):
        return True
    if isinstance(value, np.bool_):
        return True
    if isinstance(value, (tuple, list)):
        return all(_integer_or_boolean(v) for v in value)
    if isinstance(value, np.ndarray):
        return value.dtype.kind in "biu"
    return False


def _same(a: object, b: object) -> bool:
    if isinstance(a, (np.ndarray, float, np.floating)):
        return np.shape(a) == np.shape(b) and bool(np.all(np.asarray(a) == np.asarray(b)))
    return a == b


def _as_float(arg: object) -> object:
    return tuple(float(a) for a in arg) if isinstance(arg, tuple) else float(arg)


def _perturbed(call: Call, i: int, point: np.ndarray, step: float):
    args = list(call.args)
    args[i] = point + step if np.ndim(call.args[i]) else float(point + step)
    return call.func(*args)


@pytest.mark.parametrize("primal", list(CALLS), ids=_name)
def test_result_is_integer_boolean_or_locally_constant(primal):
    for call in CALLS[primal]:
        value = call.func(*call.args)
        if _integer_or_boolean(value):
            continue
        if not call.floats:  # floats from shapes and sizes: which cannot be floats
            for i, arg in enumerate(call.args):
                args = list(call.args)
                args[i] = _as_float(arg)
                with pytest.raises(TypeError):
                    call.func(*args)
            continue
        rng = np.random.RandomState(0)
        for i in call.floats:
            base = np.asarray(call.args[i], dtype=float)
            kept = 0
            for _ in range(20):
                point = base + rng.uniform(-0.5, 0.5, np.shape(base))
                here = _perturbed(call, i, point, 0.0)
                if not all(_same(here, _perturbed(call, i, point, s)) for s in (-1e-3, 1e-3)):
                    continue  # a jump nearby
                kept += 1
                up, down = _perturbed(call, i, point, 1e-6), _perturbed(call, i, point, -1e-6)
                difference = (np.asarray(up, float) - np.asarray(down, float)) / 2e-6
                assert np.all(difference == 0.0), (_name(primal), i, point)
            assert kept >= 10, f"{_name(primal)} moves with argument {i} almost everywhere"


@pytest.mark.parametrize(
    "primal",
    [gast.BitAnd, gast.BitOr, gast.BitXor, gast.LShift, gast.RShift, gast.Invert],
    ids=_name,
)
def test_integer_only_operators_refuse_floats(primal):
    call = CALLS[primal][0]
    args = [np.asarray(a, dtype=float) for a in call.args]
    with pytest.raises(TypeError):
        call.func(*args)


def test_the_checker_catches_a_smooth_function():
    """The local-constancy check fails for a function that does move (np.sin listed by
    mistake would be caught)."""
    CALLS[np.sin] = [Call(np.sin, (V,))]
    try:
        with pytest.raises(AssertionError, match="almost everywhere"):
            test_result_is_integer_boolean_or_locally_constant(np.sin)
    finally:
        del CALLS[np.sin]
