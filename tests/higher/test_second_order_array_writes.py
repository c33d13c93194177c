"""Second order through the writes a gradient makes into the array a view was made of
(`z = y[2:3]; z += ...` writes into y's array): differentiated again, the gradient's text
no longer carries the first-order mark saying the base is an array, and the transform
finds it again (transform/container_checks.py): the base made by arithmetic of names
that are arrays there (`_y2 = y * _y1`, y the argument's own copy), or a write guarded by
`if same_memory(v, b):` (transform/array_guards.py). Hessian-vector products against
autograd's of the same function written out of place, and against central differences
of the gradient; a base the transform still cannot show is an array is refused at the
user's line, naming the user's variable."""

from __future__ import annotations

import autograd
import gast
import numpy as np
import pytest
from reference import autograd_version, load_module

import tangentlike as tl
from tangentlike import runtime
from tangentlike.errors import TangentlikeError
from tangentlike.transform import array_guards

SOURCE = """
import numpy as np


def f_scaled_view(y):
    y *= y[1]
    z = y[2:3]
    z += y[-1:] * 0.5
    return np.sum(np.sin(y)) + np.sum(z ** 2)


def g_scaled_view(y):
    y = y * y[1]
    y = np.concatenate([y[:2], y[2:3] + y[-1:] * 0.5, y[3:]])
    z = y[2:3]
    return np.sum(np.sin(y)) + np.sum(z ** 2)


def f_shifted_update(x, y):
    v = np.ones(4)
    v[0] = x
    x = x + v[0] * y
    w = x
    x *= np.cos(w)
    return np.sum(x ** 2) + np.sum(w)


def g_shifted_update(x, y):
    x = x + x * y
    x = x * np.cos(x)
    return np.sum(x ** 2) + np.sum(x)


def f_summed(y):
    L = [y / 2, np.exp(-y ** 2)]
    k = 0
    while k < 2:
        k += 1
        y += y
    y = y + y
    y += sum(L)
    z = y[1:2]
    z += 1.21 * z[0]
    return np.sum(z ** 2) + np.sum(np.sin(y))
"""

# f: the function with updates in place; g: the same values out of place (for autograd);
# the arguments; the one differentiated
CASES = {
    "scaled_view": (lambda r: [r.randn(4) * 0.7], 0),
    "shifted_update": (lambda r: [0.7, r.randn(4) * 0.7], 1),
}


@pytest.fixture(scope="module")
def m(tmp_path_factory):
    return load_module(tmp_path_factory.mktemp("array_writes2"), SOURCE, name="tl_second_arrays")


def _copies(args):
    return [a.copy() if isinstance(a, np.ndarray) else a for a in args]


def _fd_of_gradient(f, args, v, i, eps=1e-6):
    """Central differences of tangentlike's gradient along v, each call on fresh copies
    (f changes its argument in place)."""
    g = tl.grad(f, wrt=i)
    up, down = _copies(args), _copies(args)
    up[i], down[i] = up[i] + eps * v, down[i] - eps * v
    return (np.asarray(g(*up)) - np.asarray(g(*down))) / (2 * eps)


@pytest.mark.parametrize("method", ["forward", "reverse"])
@pytest.mark.parametrize("case", sorted(CASES))
def test_hvp_through_writes_into_a_views_base(m, case, method):
    make, i = CASES[case]
    r = np.random.RandomState(0)
    args = make(r)
    v = r.randn(*np.shape(args[i]))
    f, g = getattr(m, "f_" + case), autograd_version(getattr(m, "g_" + case))
    assert np.isclose(f(*_copies(args)), g(*_copies(args)))  # the same function
    hv = tl.hvp(f, wrt=i, method=method)(*_copies(args), v)
    expected = autograd.grad(lambda *a: autograd.numpy.sum(autograd.grad(g, i)(*a) * v), i)(*args)
    assert np.allclose(hv, expected, rtol=1e-7, atol=1e-9)
    assert np.allclose(hv, _fd_of_gradient(f, args, v, i), rtol=1e-4, atol=1e-6)


def test_a_base_not_shown_an_array_is_refused_naming_the_users_variable(m):
    """`y += sum(L)`: the transform cannot show the gradient's sum is no list; the
    refusal names the user's `z` and line, not the gradient's temporary alone."""
    with pytest.raises(TangentlikeError) as err:
        tl.hvp(m.f_summed)(np.array([0.3, 0.5, 0.7]), np.ones(3))
    message = str(err.value)
    line = SOURCE.splitlines().index("    z += 1.21 * z[0]") + 1
    where = err.value.location
    assert where.filename.endswith("tl_second_arrays.py")
    assert where.text.strip() == SOURCE.splitlines()[where.line - 1].strip()  # the user's
    if where.line == line:  # refused where the gradient is built
        assert f"the update in place of 'z' at line {line}" in message
        assert "make it visible that 'z'" in message
    else:  # since the merge with stack10/form10: built, then refused where it runs
        assert where.text.strip() == "y += y" and "sharing memory" in message


def _guarded(text: str) -> list[str]:
    """The targets (as text) of the writes array_guards.guarded finds in `text`."""
    fn = gast.parse(text).body[0]
    helpers = {"same_memory": runtime.same_memory, "same_array": runtime.same_array}
    found = array_guards.guarded(fn, lambda f: helpers.get(getattr(f, "id", None)))
    return [
        gast.unparse(n.targets[0]).strip()
        for n in gast.walk(fn)
        if isinstance(n, gast.Assign) and id(n) in found
    ]


def test_guarded_writes_need_the_tested_name_unchanged():
    assert _guarded(
        "def f(x, b):\n"
        "    s = same_memory(x, b)\n"
        "    u = x * 2.0\n"
        "    if s:\n"
        "        b[...] = u\n"
        "        c[0] = u\n"
    ) == ["b[...]"]
    # rebound between the test and the write, or the test rebound: no guard
    assert (
        _guarded(
            "def f(x, b):\n    s = same_memory(x, b)\n    b = [x]\n    if s:\n        b[0] = x\n"
        )
        == []
    )
    assert (
        _guarded(
            "def f(x, b):\n    s = same_memory(x, b)\n    s = True\n    if s:\n        b[0] = x\n"
        )
        == []
    )
    assert (
        _guarded(
            "def f(x, b):\n    s = same_memory(x, b)\n"
            "    if s:\n        b = [x]\n        b[0] = x\n"
        )
        == []
    )
    # in the else branch, the test is false: no guard
    assert (
        _guarded(
            "def f(x, b):\n    s = same_memory(x, b)\n    if s:\n        pass\n"
            "    else:\n        b[0] = x\n"
        )
        == []
    )
    # any other test: no guard
    assert _guarded("def f(x, b):\n    s = g(x, b)\n    if s:\n        b[0] = x\n") == []


def test_guarded_writes_need_a_local_base_no_call_can_rebind():
    written = "    s = same_memory(x, b)\n    if s:\n        b[0] = x\n"
    assert _guarded("def f(x, b):\n" + written) == ["b[0]"]
    assert _guarded("def f(x):\n" + written) == []  # b a global: a call may rebind it
    assert _guarded("def f(x, b):\n    global c\n" + written) == []
