"""The rules of the runtime helpers generated gradients call (rules/runtime_helpers.py):
each reverse form (through tl.grad) and forward form (through tl.jvp) against central
differences, per differentiable argument, on calls written as user code."""

from __future__ import annotations

import numpy as np
import pytest
from reference import check_forward_form, check_reverse_form, load_module

SOURCE = """
import numpy as np
from tangentlike import runtime
from tangentlike.runtime import forward

W23 = np.arange(6.0).reshape(2, 3) / 7.0 - 0.3
W3 = np.array([0.7, -1.1, 0.4])
W4 = np.array([0.2, -0.5, 1.3, 0.9])
W24 = np.arange(8.0).reshape(2, 4) / 5.0 - 0.6
W34 = np.arange(12.0).reshape(3, 4) / 9.0 - 0.5
W234 = np.arange(24.0).reshape(2, 3, 4) / 11.0 - 1.0
SAMPLES = np.linspace(W3, 1.0, 5)


def unbroadcast(g, x):
    return np.sum(runtime.unbroadcast(g, x) * W3)


def sum_to(g):
    return np.sum(runtime.sum_to(g, (1, 3)) * W3)


def gradient_like(b, x):
    return np.sum(runtime.gradient_like(b, x, "x") * W3)


def seed_like(s, out):
    return np.sum(runtime.seed_like(s, out, "f") * W3)


def adjoint_contribution(g, like):
    return np.sum(runtime.adjoint_contribution(g, like, "x", "here") * W3)


def add(a, b):
    return np.sum(runtime.add(a, b) * W23)


def add_terms(a, b):
    return np.sum(runtime.add_terms(a, b) * W23)


def no_object_zero(t):
    return np.sum(runtime.no_object_zero(t) * W3)


def add_item(b, x, g):
    return np.sum(runtime.add_item(b, x, slice(1, 3), g) * W4)


def add_item_first(x, g):
    return np.sum(runtime.add_item(None, x, 2, g) * W4)


def unsubscript(g, x):
    return np.sum(runtime.unsubscript(g, x, [0, 0, 3]) * W4)


def part(b, like):
    return np.sum(runtime.part(b, 1, like) * W4)


def unadd(g, x, y):
    r = runtime.unadd(g, x, y)
    return np.sum(r[0] * W23) + np.sum(r[1] * W3)


def unmul(g, x, y):
    r = runtime.unmul(g, x, y)
    return np.sum(r[0] * W23) + np.sum(r[1] * W3)


def unsetitem(g):
    r = runtime.unsetitem(g, slice(1, 3))
    return np.sum(r[0] * W4) + np.sum(r[1] * W4[:2])


def matmul_vjp_a(g, a, b):
    return np.sum(runtime.matmul_vjp_a(g, a, b) * W23)


def matmul_vjp_b(g, a, b):
    return np.sum(runtime.matmul_vjp_b(g, a, b) * W34)


def matmul_vjp_vector(g, a, b):
    return np.sum(runtime.matmul_vjp_a(g, a, b) * W3) + np.sum(runtime.matmul_vjp_b(g, a, b) * W34)


def dot_vjp_a(g, a, b):
    return np.sum(runtime.dot_vjp_a(g, a, b) * W23)


def dot_vjp_b(g, a, b):
    return np.sum(runtime.dot_vjp_b(g, a, b) * W34)


def ungradient_like(g, b):
    return np.sum(runtime.ungradient_like(g, b) * W3)


def add_part(g, a):
    return np.sum(runtime.add_part(g, a) * W3)


def item_part(g, x):
    return np.sum(runtime.item_part(g, x, slice(1, 3), W4[:2]) * W4[:2])


def unadd_vjp(h0, h1, g, x, y):
    return np.sum(runtime.unadd_vjp((h0, h1), g, x, y) * W23)


def unsequence(g, x):
    return np.sum(runtime.unsequence([g[0], g[1]], x) * W23)


def unsequence_vjp(h, g, x):
    return np.sum(np.stack(runtime.unsequence_vjp(h, [g[0], g[1]], x)) * W23)


def power_slope(x, y):
    return np.sum(runtime.power_slope(x, y) * W3)


def power_slope_dx(x, y):
    return np.sum(runtime.power_slope_dx(x, y) * W3)


def power_slope_dy(x, y):
    return np.sum(runtime.power_slope_dy(x, y) * W3)


def tangent_like(t, x):
    return np.sum(forward.tangent_like(t, x, "x") * W3)


def tangent_like_float(t, x):
    return forward.tangent_like(t, x, "x") * 1.3


def output_tangent(t, value):
    return np.sum(forward.output_tangent(t, value) * W3)


def unmul_vjp(h0, h1, g, x, y):
    parts = runtime.unmul_vjp((h0, h1), g, x, y)
    return np.sum(parts[0] * W23) + np.sum(parts[1] * W23) + np.sum(parts[2] * W3)


def add_part_vjp(h, g):
    return np.sum(runtime.add_part_vjp(h, g) * W23)


def power_slope_broadcast(x, y):
    return np.sum(runtime.power_slope(x, y) * W23)


def unarray(g):
    return np.sum(runtime.unarray(g, [W3, W3]) * W23)


def undiagonal(g):
    return np.sum(runtime.undiagonal(g, W34, 1, 0, 1) * W34)


def unrollaxis(g):
    return np.sum(runtime.unrollaxis(g, W234, 2, 1) * W234)


def unstack(g):
    parts = runtime.unstack(g, [W3, W4], "h")
    return np.sum(parts[0] * W3) + np.sum(parts[1] * W4)


def unstack_v(g):
    parts = runtime.unstack(g, [W4, W24], "v")
    return np.sum(parts[0] * W4) + np.sum(parts[1] * W24)


def unsum(g):
    return np.sum(runtime.unsum(g, W23, 0) * W23)


def unsum_list(g):
    parts = runtime.unsum(g, [W3, 1.0])
    return np.sum(parts[0] * W3) + np.sum(parts[1]) * 0.7


def linspace_vjp(g):
    return np.sum(runtime.linspace_vjp(g, W3, SAMPLES, 5, True, False, 0, 1) * W3)


def linspace_vjp_start(g):
    return np.sum(runtime.linspace_vjp(g, 0.4, SAMPLES, 5, True, False, 0, 0) * 1.3)


def unsetitem_vjp(h0, h1, g):
    return np.sum(runtime.unsetitem_vjp((h0, h1), g, slice(1, 3)) * W4)

def tensordot_vjp_a(g, b):
    return np.sum(runtime.tensordot_vjp(g, W23, b, 1, 0) * W23)


def tensordot_vjp_b(g, a):
    return np.sum(runtime.tensordot_vjp(g, a, W34, ([0], [1]), 1) * W34)


def kron_vjp_a(g, b):
    return np.sum(runtime.kron_vjp(g, W3, b, 0) * W3)


def kron_vjp_b(g, a):
    return np.sum(runtime.kron_vjp(g, a, W23, 1) * W23)


def cross_vjp_a(g, b):
    return np.sum(runtime.cross_vjp(g, W23, b, -1, -1, -1, None, 0) * W23)


def cross_vjp_b(g, a):
    return np.sum(runtime.cross_vjp(g, a, W23, -1, -1, -1, None, 1) * W23)


def cross_vjp_planar(g, b):
    return np.sum(runtime.cross_vjp(g, W23[:, :2], b, -1, -1, -1, None, 0) * W23[:, :2])


def einsum_vjp_0(g, b):
    return np.sum(runtime.einsum_vjp(g, "ij,jk->ik", 0, W23, b) * W23)


def einsum_vjp_1(g, a, c):
    return np.sum(runtime.einsum_vjp(g, "ij,jk,k->i", 1, a, W34, c) * W34)


def einsum_vjp_diag(g, b):
    return np.sum(runtime.einsum_vjp(g, "ii,ij->j", 0, W34[:3, :3], b) * W34[:3, :3])


def unrepeat(g):
    return np.sum(runtime.unrepeat(g, W23, 2, None) * W23)


def unrepeat_counts(g):
    return np.sum(runtime.unrepeat(g, W23, [1, 3], 0) * W23)


def tangent_as_rows(t):
    return np.sum(np.sin(forward.tangent_as(t, W34)) * W34)


def tangent_as_same(t):
    return np.sum(forward.tangent_as(t, W4) * W4)


def tangent_as_k_rows(t):  # k = 2 directions of a (4,) tangent lifted to (2, 1, 4)
    return np.sum(np.sin(forward.tangent_as_k(np.reshape(t, (2, 1, 4)), W34)) * W34)


def untile(g):
    return np.sum(runtime.untile(g, W23, (2, 1)) * W23)


def untile_scalar_reps(g):
    return np.sum(runtime.untile(g, W4, 3) * W4)


def zero_if_real(g):
    return np.sum(runtime.zero_if_real(g, W4, "np.imag") * W4) + np.sum(g * W4)


def undiff(g):
    return np.sum(runtime.undiff(g, W4, 1, -1) * W4)


def undiff_twice(g):
    return np.sum(runtime.undiff(g, W34, 2, 0) * W34)


def unconcatenate(g):
    parts = runtime.unconcatenate(g, [W23, W24], 1)
    return np.sum(parts[0] * W23) + np.sum(parts[1] * W24)


def unconcatenate_index(g):
    parts = runtime.unconcatenate_index(g, np.r_, (W3, 0.5, W4))
    return np.sum(parts[0] * W3) + parts[1] * 1.7 + np.sum(parts[2] * W4)


def unpick(g):
    return np.sum(runtime.unpick(g, W234, 1) * W234)


def unpick_list(g):
    parts = runtime.unpick(g, [0.3, 1.2, -0.4], 1)
    return parts[0] * 0.5 + parts[1] * 1.3 + parts[2] * 0.7


def unappend_copy(g):
    rest, last = runtime.unappend_copy([g, 2.0 * g, g * g], W3)
    return np.sum(rest[0] * W3) + np.sum(rest[1] * W3 * W3) + np.sum(last * W3)


def unextend_copy(g):
    rest, tail = runtime.unextend_copy([g, 2.0 * g, g * g], 2)
    return np.sum(rest[0] * W3) + np.sum(tail[0] * W3 * W3) + np.sum(tail[1] * W3)


def take_item_copy(g):
    rest, taken = runtime.take_item_copy([g, 2.0 * g, g * g], 1, g)
    return np.sum(rest[0] * W3) + np.sum(rest[2] * W3 * W3) + np.sum(taken * np.cos(W3))


def take_item_copy_dict(g):
    rest, taken = runtime.take_item_copy({"a": g * g, "b": np.sin(g)}, "b", g)
    return np.sum(rest["a"] * W3) + np.sum(taken * W3 * W3)
"""

R = np.random.RandomState(7)


def r(*shape):
    return R.standard_normal(shape)


# function name, arguments, positions of the differentiable arguments
CASES = [
    ("unbroadcast", (r(2, 3), r(3)), (0,)),
    ("sum_to", (r(2, 3),), (0,)),
    ("gradient_like", (r(3), r(3)), (0,)),
    ("seed_like", (r(3), r(3)), (0,)),
    ("adjoint_contribution", (r(3), r(3)), (0,)),
    ("add", (r(2, 3), r(3)), (0, 1)),
    ("add_terms", (r(2, 3), r(3)), (0, 1)),
    ("no_object_zero", (r(3),), (0,)),
    ("add_item", (r(4), r(4), r(2)), (0, 2)),
    ("add_item_first", (r(4), 0.7), (1,)),
    ("unsubscript", (r(3), r(4)), (0,)),
    ("part", (r(3, 4), r(4)), (0,)),
    ("unadd", (r(2, 3), r(2, 3), r(3)), (0,)),
    ("unmul", (r(2, 3), r(2, 3), r(3)), (0, 1, 2)),
    ("unsetitem", (r(4),), (0,)),
    ("matmul_vjp_a", (r(2, 4), r(2, 3), r(3, 4)), (0, 2)),
    ("matmul_vjp_b", (r(2, 4), r(2, 3), r(3, 4)), (0, 1)),
    ("matmul_vjp_vector", (r(4), r(3), r(3, 4)), (0, 1, 2)),
    ("dot_vjp_a", (r(2, 4), r(2, 3), r(3, 4)), (0, 2)),
    ("dot_vjp_b", (r(2, 4), r(2, 3), r(3, 4)), (0, 1)),
    ("ungradient_like", (r(3), r(3)), (0,)),
    ("add_part", (r(2, 3), r(3)), (0,)),
    ("item_part", (r(4), r(4)), (0,)),
    ("unadd_vjp", (r(2, 3), r(3), r(2, 3), r(2, 3), r(3)), (0, 1)),
    ("unsetitem_vjp", (r(4), r(2), r(4)), (0, 1)),
    ("unsequence", (r(2, 3), r(2, 3)), (0,)),
    ("unsequence_vjp", (r(2, 3), r(2, 3), r(2, 3)), (0,)),
    ("power_slope", (np.abs(r(3)) + 0.5, r(3) * 2.0), (0, 1)),
    ("power_slope_dx", (np.abs(r(3)) + 0.5, r(3) * 2.0), (0, 1)),
    ("power_slope_dy", (np.abs(r(3)) + 0.5, r(3) * 2.0), (0, 1)),
    ("tangent_like", (r(3), r(3)), (0,)),
    ("tangent_like_float", (0.7, 1.2), (0,)),
    ("output_tangent", (r(3), r(3)), (0,)),
    ("unmul_vjp", (r(2, 3), r(3), r(2, 3), r(2, 3), r(3)), (0, 1, 2, 3, 4)),
    ("add_part_vjp", (r(3), r(2, 3)), (0,)),
    ("power_slope_broadcast", (1.3, np.abs(r(2, 3)) + 0.5), (0, 1)),
    ("unarray", (r(2, 3),), (0,)),
    ("undiagonal", (r(3),), (0,)),
    ("unrollaxis", (r(2, 4, 3),), (0,)),
    ("unstack", (r(7),), (0,)),
    ("unstack_v", (r(3, 4),), (0,)),
    ("unsum", (r(3),), (0,)),
    ("unsum_list", (r(3),), (0,)),
    ("linspace_vjp", (r(5, 3),), (0,)),
    ("linspace_vjp_start", (r(5, 3),), (0,)),
    ("tensordot_vjp_a", (r(2, 4), r(3, 4)), (0, 1)),
    ("tensordot_vjp_b", (r(3, 3), r(4, 3)), (0, 1)),
    ("kron_vjp_a", (r(6), r(2)), (0, 1)),
    ("kron_vjp_b", (r(4, 9), r(2, 3)), (0, 1)),
    ("cross_vjp_a", (r(2, 3), r(3)), (0, 1)),
    ("cross_vjp_b", (r(2, 3), r(2, 3)), (0, 1)),
    ("cross_vjp_planar", (r(2), r(2, 2)), (0, 1)),
    ("einsum_vjp_0", (r(2, 4), r(3, 4)), (0, 1)),
    ("einsum_vjp_1", (r(2), r(2, 3), r(4)), (0, 1, 2)),
    ("einsum_vjp_diag", (r(3), r(3, 3)), (0, 1)),
    ("unrepeat", (r(12),), (0,)),
    ("unrepeat_counts", (r(4, 3),), (0,)),
    ("tangent_as_rows", (r(4),), (0,)),
    ("tangent_as_same", (r(4),), (0,)),
    ("tangent_as_k_rows", (r(8),), (0,)),
    ("untile", (r(4, 3),), (0,)),
    ("untile_scalar_reps", (r(12),), (0,)),
    ("zero_if_real", (r(4),), (0,)),
    ("undiff", (r(3),), (0,)),
    ("undiff_twice", (r(1, 4),), (0,)),
    ("unconcatenate", (r(2, 7),), (0,)),
    ("unconcatenate_index", (r(8),), (0,)),
    ("unpick", (r(3, 4),), (0,)),
    ("unpick_list", (0.8,), (0,)),
    ("unappend_copy", (r(3),), (0,)),
    ("unextend_copy", (r(3),), (0,)),
    ("take_item_copy", (r(3),), (0,)),
    ("take_item_copy_dict", (r(3),), (0,)),
]
PARAMS = [(name, args, i) for name, args, positions in CASES for i in positions]


@pytest.fixture(scope="module")
def m(tmp_path_factory):
    return load_module(tmp_path_factory.mktemp("runtime_rules"), SOURCE, name="tl_runtime_rules")


@pytest.mark.parametrize("name,args,i", PARAMS, ids=[f"{n}-{i}" for n, _, i in PARAMS])
def test_reverse_form_against_differences(m, name, args, i):
    check_reverse_form(getattr(m, name), args, i)


@pytest.mark.parametrize("name,args,i", PARAMS, ids=[f"{n}-{i}" for n, _, i in PARAMS])
def test_forward_form_against_differences(m, name, args, i):
    check_forward_form(getattr(m, name), args, i, R)
