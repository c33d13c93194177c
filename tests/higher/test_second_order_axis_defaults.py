"""Second order through a helper whose `axis` parameter keeps its default (holdout13):
the gradient pushes `axis` beside the helper's arrays and its derivative reads it back
from the stack chain, where it looked differentiated, and `np.sum(..., axis=axis)`,
`np.expand_dims(b, axis)` refused it ("the gradient with respect to argument 'axis' of
expand_dims is not implemented"). NumPy takes integers only there (Rule.locally_constant).
Hessian-vector products, Hessians and Jacobians of the gradient against autograd."""

from __future__ import annotations

import autograd
import numpy as np
import pytest
from reference import autograd_version, load_module

import tangentlike as tl

SOURCE = """
import numpy as np


def _lse(z, axis=-1):
    m = np.max(z, axis=axis, keepdims=True)
    return np.squeeze(m, axis=axis) + np.log(np.sum(np.exp(z - m), axis=axis))


def _softmax(z):
    e = np.exp(z - np.max(z, axis=-1, keepdims=True))
    return e / np.sum(e, axis=-1, keepdims=True)


def row_sums(z, axis=1):
    return np.sum(z, axis=axis)


def mixture(x):
    L = np.stack([-(x - 1.0) ** 2, -x**2, -(x + 0.5) ** 2], axis=1)
    return np.sum(_lse(L, axis=1)) + np.sum(_lse(L))


def attention(q, K):
    w = _softmax(K @ q)
    return np.sum(w**3) + _lse(K @ q)


def squared_row_sums(x):
    return np.sum(row_sums(x) ** 2)


def squared_axis_sums(x, axis):
    return np.sum(np.sum(x, axis=axis) ** 2)
"""


@pytest.fixture(scope="module")
def mod(tmp_path_factory):
    return load_module(tmp_path_factory.mktemp("axis_defaults"), SOURCE)


CASES = [
    ("mixture", lambda rng: (rng.standard_normal(4),)),
    ("attention", lambda rng: (rng.standard_normal(3), rng.standard_normal((5, 3)))),
    ("squared_row_sums", lambda rng: (rng.standard_normal((2, 3)),)),
]


@pytest.mark.parametrize("name,make", CASES, ids=[c[0] for c in CASES])
@pytest.mark.parametrize("method", ["forward", "reverse"])
def test_hvp_and_hessian_against_autograd(mod, name, make, method):
    rng = np.random.default_rng(3)
    f = getattr(mod, name)
    args = make(rng)
    x = args[0]
    H = autograd.hessian(autograd_version(f))(*args)
    v = rng.standard_normal(np.shape(x))
    n = np.size(x)
    Hv = (H.reshape(n, n) @ v.ravel()).reshape(np.shape(x))
    assert np.allclose(tl.hvp(f, method=method)(*args, v), Hv)
    assert np.allclose(tl.hessian(f, method=method)(*args), H)


@pytest.mark.parametrize("name,make", CASES, ids=[c[0] for c in CASES])
def test_jacobian_of_gradient_against_autograd(mod, name, make):
    rng = np.random.default_rng(4)
    f = getattr(mod, name)
    args = make(rng)
    H = autograd.hessian(autograd_version(f))(*args)
    for mode in ("forward", "reverse"):
        assert np.allclose(tl.jacobian(tl.grad(f), mode=mode)(*args), H)


def test_a_differentiated_axis_in_the_users_code_is_still_refused(mod):
    """Only the derivative's own pops are read as integers: `wrt` at an axis the user's
    code passes is refused at the user's line, naming the argument."""
    for make in (tl.grad, tl.jvp, tl.hvp):
        with pytest.raises(tl.UnsupportedSyntaxError, match="argument 'axis' of sum") as err:
            make(mod.squared_axis_sums, wrt=1)
        assert "np.sum(np.sum(x, axis=axis) ** 2)" in str(err.value)


def test_the_form_pass_rewrites_only_integer_reads():
    """form_integers on form text: a pop read only at `axis` / in `is None` is bound
    through stop_gradient; one also read in arithmetic, or whose new name is taken, is
    left as it is."""
    import ast

    from tangentlike.higher.form_integers import integer_pops_as_constants

    def rewritten(body: str) -> str:
        fn = ast.parse(f"def _bwd(_stack, b):\n{body}").body[0]
        integer_pops_as_constants(fn, {"np": np})
        return ast.unparse(fn)

    only_axis = (
        "    axis, z = _stack[0]\n    _stack = _stack[1]\n"
        "    if axis is None:\n        return z\n    return np.expand_dims(b, axis) * z\n"
    )
    assert "axis = stop_gradient(_popped_axis)" in rewritten(only_axis)
    assert "stop_gradient" not in rewritten(only_axis + "    w = axis * z\n")
    taken = only_axis.replace("return z", "return z + _popped_axis")
    assert "stop_gradient" not in rewritten(taken)
    single = "    k = _stack[0]\n    _stack = _stack[1]\n    return np.sum(b, axis=k)\n"
    assert "k = stop_gradient(_stack[0])" in rewritten(single)
