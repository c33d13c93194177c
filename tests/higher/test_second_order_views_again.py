"""Second order where the gradient restores an array in place and reads a view of it
afterwards (`z1 = A[0:3]; z1 *= 2`, a reshape updated twice, an argument changed
through an alias): the differentiable form makes those views again after the restore
(higher/form_views.py). Hessian-vector products (forward over reverse, reverse over
reverse) against autograd on an out-of-place twin of each function, and central
differences of the gradient on fresh copies."""

from __future__ import annotations

import ast

import autograd
import autograd.numpy as anp
import numpy as np
import pytest
from reference import fresh_copies, load_module

import tangentlike as tl
from tangentlike import runtime
from tangentlike.higher.form_views import views_made_again

SOURCE = """
import numpy as np


def f_alias_then_slice(x, w):
    y = x * x
    z1 = y
    z1 += np.cumsum(y) * w
    z2 = z1[0:2]
    z2 += np.sin(z2)
    return np.mean(np.sin(y)) - 2.0 * np.sum(z1 ** 2) + 2.0 * np.mean(np.sin(z2))


def f_argument_changed_through_alias(w, y):
    for i in range(2):
        if np.sum(y) > -10.0:
            break
        y = y * 0.9 + 0.1 * np.sin(y)
    v2 = y * 2.0
    z1 = y
    z1 -= y * w
    v2 -= -3.0 - y
    return np.sum(y ** 3) + np.sum(np.cos(z1)) + np.sum(v2 ** 2)


def f_out_into_argument(w, y):
    np.multiply(y, y[::-1], out=y)
    s = np.dot(y, np.append(y[-2:], y[::2])) * w
    y *= w
    return np.sum(y ** 2) * s


def f_reshape_updated_twice(y):
    s1 = np.tanh(np.sum(y))
    v1 = y * y
    z1 = v1.reshape(2, 2)
    z1 += s1
    z1 += z1 ** 2
    return np.sum(np.sin(v1)) + np.sum(z1 * z1)
"""


def _twin_alias_then_slice(x, w):
    y = x * x
    y = y + anp.cumsum(y) * w
    y = anp.concatenate([y[0:2] + anp.sin(y[0:2]), y[2:]])
    return anp.mean(anp.sin(y)) - 2.0 * anp.sum(y**2) + 2.0 * anp.mean(anp.sin(y[0:2]))


def _twin_argument_changed(w, y):
    v2 = y * 2.0
    y = y - y * w
    v2 = v2 - (-3.0 - y)
    return anp.sum(y**3) + anp.sum(anp.cos(y)) + anp.sum(v2**2)


def _twin_out_into_argument(w, y):
    y = y * y[::-1]
    s = anp.dot(y, anp.concatenate([y[-2:], y[::2]])) * w
    y = y * w
    return anp.sum(y**2) * s


# name -> (twin, the position of the array differentiated; the other argument is w)
TWINS = {
    "f_alias_then_slice": (_twin_alias_then_slice, 0),
    "f_argument_changed_through_alias": (_twin_argument_changed, 1),
    "f_out_into_argument": (_twin_out_into_argument, 1),
}


@pytest.fixture(scope="module")
def m(tmp_path_factory):
    return load_module(tmp_path_factory.mktemp("views_again"), SOURCE, name="tl_views_again")


def _fd_hvp(f, args, i, v, eps=1e-6):
    """Central differences of tangentlike's gradient along v, on fresh copies (f changes
    its argument in place)."""
    g = tl.grad(f, wrt=i)

    def at(step):
        moved = list(fresh_copies(args))
        moved[i] = moved[i] + step * v
        return np.asarray(g(*moved))

    return (at(eps) - at(-eps)) / (2 * eps)


@pytest.mark.parametrize("method", ["forward", "reverse"])
@pytest.mark.parametrize("case", sorted(TWINS))
def test_hvp_through_views_made_again(m, case, method):
    f, (twin, i) = getattr(m, case), TWINS[case]
    rng = np.random.RandomState(3)
    x, v = rng.standard_normal(4) * 0.3, rng.standard_normal(4)
    args = [x, 0.7] if i == 0 else [0.7, x]
    hv = tl.hvp(f, wrt=i, method=method)(*fresh_copies(args), v)
    at = list(args)
    pick = autograd.grad(lambda y: anp.sum(autograd.grad(twin, i)(*_put(at, i, y)) * v))
    assert np.allclose(hv, pick(x), rtol=1e-7, atol=1e-9)
    assert np.allclose(hv, _fd_hvp(f, args, i, v), rtol=1e-4, atol=1e-6)
    first = tl.grad(f, wrt=i)(*fresh_copies(args))
    assert np.allclose(first, autograd.grad(twin, i)(*args), rtol=1e-9, atol=1e-12)


def _put(args, i, y):
    out = list(args)
    out[i] = y
    return out


def _rewritten(text: str) -> str:
    fn = ast.parse(text).body[0]
    views_made_again(fn, {"np": np, "same_view": runtime.same_view})
    return ast.unparse(fn)


FORM = """
def df(A, x, _stack):
    z1 = A[0:3]
    _pushed1 = z1
    A[0:3] = x
    z1 = x
    {between}
    z1 = _pushed1
    A[0:3] = _stack[0]
    {after}
    return z1
"""


def test_a_view_read_after_a_restore_is_made_again():
    text = _rewritten(FORM.format(between="pass", after="pass"))
    assert "same_view(z1, A, (A[0:3],))" in text
    assert text.count("z1 = A[0:3]") == 2  # made, then again after the restore
    assert "same_view(_pushed1," not in text  # bound once, by a view: left as it is


@pytest.mark.parametrize(
    "between, after, asked",
    [
        ("pass", "pass", 1),
        ("pass", "z1 = A[0:3] * 0.0", 0),  # bound again before it is read: nothing to do
        ("ok = z1 is A", "pass", 0),  # compared by identity: never bound to another object
    ],
)
def test_views_made_again_only_where_read(between, after, asked):
    text = _rewritten(FORM.format(between=between, after=after))
    assert text.count("same_view(") == asked


def test_same_view_answers_by_memory():
    a = np.arange(6.0)
    assert runtime.same_view(a[1:4], a, (a[0:3], a[1:4])) == 2
    assert runtime.same_view(a[1:4].copy(), a, (a[1:4],)) == 0
    assert runtime.same_view(a[::2], a, (a[0:3],)) == 0
    assert runtime.same_view(a.reshape(2, 3), a, (np.reshape(a, (3, 2)),)) == 0
    assert runtime.same_view([a], a, (a,)) == 0  # a container: never made again
    assert runtime.same_view(a, [a], (a,)) == 0  # written into a list: no memory kept
    assert runtime.same_view(None, a, (a,)) == 0


def _twin_reshape_updated_twice(y):
    s1 = anp.tanh(anp.sum(y))
    z1 = (y * y).reshape(2, 2) + s1
    z1 = z1 + z1**2
    return anp.sum(anp.sin(z1.reshape(4))) + anp.sum(z1 * z1)


@pytest.mark.parametrize("method", ["forward", "reverse"])
def test_a_reshape_updated_twice_at_second_order(m, method):
    """Once refused (the old view pushed, its push compared by identity, and made again
    by the second pass after the write): the pop now checks the key its push saved and
    binds the saved view (higher/form_pairs.py; tests/higher/test_second_order_shared_memory.py
    keeps a refusal located at the user's line)."""
    x, v = np.arange(1.0, 5.0) * 0.1, np.array([0.3, -1.1, 0.7, 0.4])
    hv = tl.hvp(m.f_reshape_updated_twice, method=method)(x.copy(), v)
    twin = autograd.grad(lambda y: anp.sum(autograd.grad(_twin_reshape_updated_twice)(y) * v))
    assert np.allclose(hv, twin(x), rtol=1e-7, atol=1e-9)
