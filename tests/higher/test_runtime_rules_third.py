"""The rules of rules/runtime_third.py (the helpers a second-order gradient calls through
list appends, extends, item writes and np.linspace) and of rules/runtime_jvp.py (forward
mode's helpers a differentiated jvp calls): each reverse form (through tl.grad) and
forward form (through tl.jvp) against central differences, per differentiable argument,
on calls written as user code (as test_runtime_rules.py)."""

from __future__ import annotations

import numpy as np
import pytest
from reference import check_forward_form, check_reverse_form, load_module

SOURCE = """
import numpy as np
from tangentlike import runtime
from tangentlike.runtime import forward

W3 = np.array([0.7, -1.1, 0.4])
W23 = np.arange(6.0).reshape(2, 3) / 7.0 - 0.3
ROWS = np.zeros((3, 3))
SAMPLES = np.linspace(W3, 1.0, 5)
SAMPLES_STEP = np.linspace(W3, 1.0, 5, retstep=True)
W7 = np.array([0.3, -0.8, 1.2, 0.5, -1.4, 0.9, 0.2])


def unappend_vjp(h0, h1):
    out = runtime.unappend_vjp(([h0, h0 * h0], h1), [W3, W3, W3])
    return np.sum(out[0] * W3) + np.sum(out[1] * W3 * W3) + np.sum(np.sin(out[2]) * W3)


def unappend_vjp_rows(h0, h1):
    out = runtime.unappend_vjp(([h0, None], h1), ROWS)
    return np.sum(out * W23[:, :3].sum(axis=0)) + np.sum(np.sin(out[2]))


def unextend_vjp(h0, h1):
    out = runtime.unextend_vjp(([h0], [h1, h1 * h0]), [W3, W3, W3], 2)
    return np.sum(out[0] * W3) + np.sum(np.cos(out[1]) * W3) + np.sum(out[2] * W3 * W3)


def take_item_vjp(h0, h1):
    out = runtime.take_item_vjp(([h0, h0 * h0, h0], h1), [W3, W3, W3], 1)
    return np.sum(out[0] * W3) + np.sum(np.sin(out[1]) * W3) + np.sum(out[2] * W3 * W3)


def take_item_vjp_dict(h0, h1):
    out = runtime.take_item_vjp(({"a": h0, "b": h0 * h0}, h1), {"a": W3, "b": W3}, "b")
    return np.sum(out["a"] * W3) + np.sum(np.sin(out["b"]) * W3)


def linspace_vjp_vjp_stop(h):
    out = runtime.linspace_vjp_vjp(h, None, 1.0, SAMPLES, 5, True, False, 0, 1)
    return np.sum(np.sin(out) * SAMPLES)


def linspace_vjp_vjp_start(h):
    out = runtime.linspace_vjp_vjp(h, None, W3, SAMPLES, 5, False, False, 0, 0)
    return np.sum(np.sin(out) * SAMPLES)


def linspace_vjp_vjp_step(h):
    out = runtime.linspace_vjp_vjp(h, None, W3, SAMPLES_STEP, 5, True, True, 0, 0)
    return np.sum(np.sin(out[0]) * SAMPLES) + np.sum(out[1] ** 2 * W3)


def fresh_tangent(t):
    return np.sum(np.sin(forward.fresh_tangent(t)) * W3)


def fresh_tangent_list(t):
    out = forward.fresh_tangent([t, t * t])
    return np.sum(out[0] * W3) + np.sum(np.cos(out[1]))


def concatenated_tangent(t, s):
    out = forward.concatenated_tangent(np.r_, (W3, 0.5, W3), (t, None, s))
    return np.sum(np.sin(out) * W7)


def concatenated_tangent_c(t):
    out = forward.concatenated_tangent(np.c_, (W3, W3), (t, t * t))
    return np.sum(np.sin(out) * W23.T)


def concatenated_vjp(g):
    pieces = runtime.concatenated_vjp(g, np.r_, (W3, 0.5, W3), (W3, None, W3))
    return np.sum(np.sin(pieces[0]) * W3) + np.sum(pieces[2] ** 2 * W3)
"""

R = np.random.RandomState(11)


def r(*shape):
    return R.standard_normal(shape)


# function name, arguments, positions of the differentiable arguments
CASES = [
    ("unappend_vjp", (r(3), r(3)), (0, 1)),
    ("unappend_vjp_rows", (r(3), r(3)), (0, 1)),
    ("unextend_vjp", (r(3), r(3)), (0, 1)),
    ("take_item_vjp", (r(3), r(3)), (0, 1)),
    ("take_item_vjp_dict", (r(3), r(3)), (0, 1)),
    ("linspace_vjp_vjp_stop", (0.8,), (0,)),
    ("linspace_vjp_vjp_start", (r(3),), (0,)),
    ("linspace_vjp_vjp_step", (r(3),), (0,)),
    ("fresh_tangent", (r(3),), (0,)),
    ("fresh_tangent_list", (r(3),), (0,)),
    ("concatenated_tangent", (r(3), r(3)), (0, 1)),
    ("concatenated_tangent_c", (r(3),), (0,)),
    ("concatenated_vjp", (r(7),), (0,)),
]
PARAMS = [(name, args, i) for name, args, positions in CASES for i in positions]


@pytest.fixture(scope="module")
def m(tmp_path_factory):
    return load_module(tmp_path_factory.mktemp("rules_third"), SOURCE, name="tl_rules_third")


@pytest.mark.parametrize("name,args,i", PARAMS, ids=[f"{n}-{i}" for n, _, i in PARAMS])
def test_reverse_form_against_differences(m, name, args, i):
    check_reverse_form(getattr(m, name), args, i)


@pytest.mark.parametrize("name,args,i", PARAMS, ids=[f"{n}-{i}" for n, _, i in PARAMS])
def test_forward_form_against_differences(m, name, args, i):
    check_forward_form(getattr(m, name), args, i, R)
