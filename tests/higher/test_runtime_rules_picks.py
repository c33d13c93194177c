"""The second-order rules of rules/runtime_picks.py, of the signal helpers of
rules/runtime_products.py (np.select, np.take, np.take_along_axis, astype, np.split,
np.convolve, np.correlate, np.trapezoid, np.interp), of the helpers those rules call
(select_vjp_vjp, interp_slope_vjp), of rules/runtime_lists.py (np.meshgrid,
np.vectorize, np.apply_along_axis) and of rules/runtime_tangents.py (forward forms
differentiated in reverse, np.average's weights): each reverse form (through tl.grad)
and forward form (through tl.jvp) against central differences, per differentiable
argument, on calls written as user code (as tests/higher/test_runtime_rules.py)."""

from __future__ import annotations

import numpy as np
import pytest
from reference import check_forward_form, check_reverse_form, load_module

SOURCE = """
import numpy as np
from tangentlike import runtime

W3 = np.array([0.7, -1.1, 0.4])
W4 = np.array([0.2, -0.5, 1.3, 0.9])
W5 = np.array([0.3, 1.4, -0.8, 0.6, -1.2])
W23 = np.arange(6.0).reshape(2, 3) / 7.0 - 0.3
W34 = np.arange(12.0).reshape(3, 4) / 9.0 - 0.5
X5 = np.array([-1.5, -0.6, 0.2, 0.9, 2.0])
XP = np.array([-1.0, -0.2, 0.5, 1.5])
CONDS = [X5 > 0, X5 < -1]


def select_vjp(g):
    pieces, rest = runtime.select_vjp(g, CONDS, [W5, 0.5], W5)
    return np.sum(pieces[0] * W5) + pieces[1] * 1.7 + np.sum(rest * W5[::-1])


def select_vjp_vjp(h0, h1, h2):
    return np.sum(runtime.select_vjp_vjp(([h0, h1], h2), W5, CONDS, [W5, 0.5], W5) * W5)


def untake(g):
    return np.sum(runtime.untake(g, W34, np.array([[2, 0], [2, 1]]), 1, "raise") * W34)


def untake_flat(g):
    return np.sum(runtime.untake(g, W5, [6, -1, 2], None, "wrap") * W5)


def untake_along_axis(g):
    return np.sum(runtime.untake_along_axis(g, W34, np.argsort(W34, axis=0), 0) * W34)


def uncast(g):
    return np.sum(runtime.uncast(g, W4, W4.astype(np.float32)) * W4)


def unsplit(g0, g1):
    return np.sum(runtime.unsplit([g0, None, g1], [W4[:1], W4[1:2], W4[2:]], 0) * W4)


def convolve_vjp_a(g, a, v):
    return np.sum(runtime.convolve_vjp(g, a, v, "same", 0, False) * W5)


def convolve_vjp_v(g, a, v):
    return np.sum(runtime.convolve_vjp(g, a, v, "full", 1, False) * W3)


def correlate_vjp_a(g, a, v):
    return np.sum(runtime.convolve_vjp(g, a, v, "valid", 0, True) * W5)


def correlate_vjp_v(g, a, v):
    return np.sum(runtime.convolve_vjp(g, a, v, "same", 1, True) * W3)


def trapezoid_vjp_y(g, y, x):
    return np.sum(runtime.trapezoid_vjp(g, y, x, 1.0, -1, 0) * W23)


def trapezoid_vjp_x(g, y, x):
    return np.sum(runtime.trapezoid_vjp(g, y, x, 1.0, -1, 1) * W3)


def trapezoid_vjp_dx(g, y):
    return np.sum(runtime.trapezoid_vjp(g, y, None, 0.4, 0, 0) * W23)


def interp_vjp_x(g, x, fp):
    return np.sum(runtime.interp_vjp(g, x, XP, fp, 0) * W5)


def interp_vjp_fp(g, x, fp):
    return np.sum(runtime.interp_vjp(g, x, XP, fp, 2) * W4)


def meshgrid_vjp(g0, g1):
    return np.sum(runtime.meshgrid_vjp([g0, g1], 1, (W3, W4, None), "xy") * W4)


def meshgrid_vjp_vjp(h):
    out = runtime.meshgrid_vjp_vjp(h, [W34, None], 0, (W3, W4, None), "ij")
    return np.sum(out[0] * W34)


def meshgrid_of(x0, x1):
    a, b = runtime.meshgrid_of(x0, x1, None, indexing="xy")
    return np.sum(a * W34) + np.sum(b * W34[::-1])


def unvectorized(g):
    return sum(np.sum(p * W3[k]) for k, p in enumerate(runtime.unvectorized(g, [0.0, 0.0, 0.0])))


def unvectorized_vjp(h0, h2):
    return np.sum(runtime.unvectorized_vjp([h0, None, h2], W3, [0.0, 0.0, 0.0]) * W3)


def unalong_axis(g):
    rows = runtime.unalong_axis(g, [W4, W4, W4], W34, 1)
    return np.sum(rows[0] * W4) + np.sum(rows[2] * W4[::-1])


def unalong_axis_vjp(h0, h1):
    return np.sum(runtime.unalong_axis_vjp([h0, h1, None], W34, [W4, W4, W4], W34, 1) * W34)


def unrows_along(g0, g2):
    return np.sum(runtime.unrows_along([g0, None, g2], W34, 1) * W34)


def sorted_like(t):
    return np.sum(runtime.sorted_like(t, W34, 1) * W34)


def sorted_like_flat(t):
    return np.sum(runtime.sorted_like(t, W5[::-1], None) * W5)


def partitioned_like(t):
    a = np.array([0.5, -1.0, 2.0, 0.1, -0.3])
    return np.sum(runtime.partitioned_like(t, a, np.partition(a, 2), -1) * W5)


def gradient_of(f):
    return np.sum(runtime.gradient_of(f, (0.5, None, None), -1, 1) * W34)


def gradient_of_axes(f):
    g0, g1 = runtime.gradient_of(f, (None, None, None), None, 2)
    return np.sum(g0 * W34) + np.sum(g1 * W34[::-1])


def quotient_remainder_tangent(t):
    q, r = runtime.quotient_remainder_tangent(t, (W3 * 0.0, W23))
    return np.sum(r * W23) + np.sum(q)


def weights_like(w):
    return np.sum(runtime.weights_like(w, W34, 0) * W34)


def unweights(g):
    return np.sum(runtime.unweights(g, W3, 0) * W3)


def unweights_same(g):
    return np.sum(runtime.unweights(g, W34, 1) * W34)


def unconcatenate_vjp(h0, h1):
    arrays = [W23[:, :1], W23[:, 1:]]
    return np.sum(runtime.unconcatenate_vjp([h0, h1], W23, arrays, 1) * W23)


def unconcatenate_index_vjp(h0, h2):
    items = (W3, slice(0, 2), W4)
    g = np.linspace(0.0, 1.0, 9)
    return np.sum(runtime.unconcatenate_index_vjp([h0, None, h2], g, np.r_, items) ** 2)


def unstack_vjp(h0, h1):
    return np.sum(runtime.unstack_vjp([h0, h1], W34, [W4, W34[1:]], "v") * W34)


def unsum_vjp(h0, h1):
    return np.sum(runtime.unsum_vjp([h0, h1], W23, [W23, W3]) * W23)


def interp_slope_vjp(c):
    return np.sum(runtime.interp_slope_vjp(c, X5, XP, W4) * W4)
"""

R = np.random.RandomState(8)


def r(*shape):
    return R.standard_normal(shape)


X = np.array([-1.5, -0.6, 0.2, 0.9, 2.0])  # outside, inside and past the knots
# function name, arguments, positions of the differentiable arguments
CASES = [
    ("select_vjp", (r(5),), (0,)),
    ("select_vjp_vjp", (r(5), 0.8, r(5)), (0, 1, 2)),
    ("untake", (r(3, 2, 2),), (0,)),
    ("untake_flat", (r(3),), (0,)),
    ("untake_along_axis", (r(3, 4),), (0,)),
    ("uncast", (r(4).astype(np.float32),), (0,)),
    ("unsplit", (r(1), r(2)), (0, 1)),
    ("convolve_vjp_a", (r(5), r(5), r(3)), (0, 2)),
    ("convolve_vjp_v", (r(7), r(5), r(3)), (0, 1)),
    ("correlate_vjp_a", (r(3), r(5), r(3)), (0, 2)),
    ("correlate_vjp_v", (r(5), r(5), r(3)), (0, 1)),
    ("trapezoid_vjp_y", (r(2), r(2, 3), np.cumsum(np.abs(r(3)))), (0, 2)),
    ("trapezoid_vjp_x", (r(2), r(2, 3), np.cumsum(np.abs(r(3)))), (0, 1)),
    ("trapezoid_vjp_dx", (r(3), r(2, 3)), (0,)),
    ("interp_vjp_x", (r(5), X, r(4)), (0, 2)),
    ("interp_vjp_fp", (r(5), X, r(4)), (0, 1)),
    ("interp_slope_vjp", (r(5),), (0,)),
    ("meshgrid_vjp", (r(4, 3), r(4, 3)), (0, 1)),
    ("unconcatenate_vjp", (r(2, 1), r(2, 2)), (0, 1)),
    ("unconcatenate_index_vjp", (r(3), r(4)), (0, 1)),
    ("unstack_vjp", (r(4), r(2, 4)), (0, 1)),
    ("unsum_vjp", (r(2, 3), r(3)), (0, 1)),
    ("sorted_like", (r(3, 4),), (0,)),
    ("sorted_like_flat", (r(5),), (0,)),
    ("partitioned_like", (r(5),), (0,)),
    ("gradient_of", (r(3, 4),), (0,)),
    ("gradient_of_axes", (r(3, 4),), (0,)),
    ("quotient_remainder_tangent", (r(3),), (0,)),
    ("weights_like", (r(3),), (0,)),
    ("unweights", (r(3, 4),), (0,)),
    ("unweights_same", (r(3, 4),), (0,)),
    ("meshgrid_vjp_vjp", (r(3),), (0,)),
    ("meshgrid_of", (r(4), r(3)), (0, 1)),
    ("unvectorized", (r(3),), (0,)),
    ("unvectorized_vjp", (0.3, -1.2), (0, 1)),
    ("unalong_axis", (r(3, 4),), (0,)),
    ("unalong_axis_vjp", (r(4), r(4)), (0, 1)),
    ("unrows_along", (r(4), r(4)), (0, 1)),
]
PARAMS = [(name, args, i) for name, args, positions in CASES for i in positions]


@pytest.fixture(scope="module")
def m(tmp_path_factory):
    return load_module(tmp_path_factory.mktemp("runtime_picks"), SOURCE, name="tl_runtime_picks")


@pytest.mark.parametrize("name,args,i", PARAMS, ids=[f"{n}-{i}" for n, _, i in PARAMS])
def test_reverse_form_against_differences(m, name, args, i):
    check_reverse_form(getattr(m, name), args, i, rtol=1e-4)


@pytest.mark.parametrize("name,args,i", PARAMS, ids=[f"{n}-{i}" for n, _, i in PARAMS])
def test_forward_form_against_differences(m, name, args, i):
    check_forward_form(getattr(m, name), args, i, R, rtol=1e-4)
