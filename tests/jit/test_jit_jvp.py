"""tl.jvp(f, jit=True): the forward-mode tangent code compiled by numba gives the
tangent the Python jvp gives, on loops, branches, while loops, helpers (their tangents
passed by keyword), reductions and tuple outputs, checked against the Python jvp,
central differences along the tangent and autograd's make_jvp; what it cannot compile
is refused with a located JitError, and jit="auto" falls back with one JitWarning."""

from __future__ import annotations

import types
import warnings

import numpy as np
import pytest
from reference import line_of, load_module

import tangentlike as tl
from tangentlike.errors import JitError, JitWarning

pytest.importorskip("numba")

SOURCE = """
import math

import numpy as np
from scipy.special import gammaln


def scalar_map(x, a, steps):
    for _ in range(steps):
        x = x * a + np.sin(x) * 0.1
    return x


def while_loop(x):
    y = x
    n = 0
    while n < 6:
        y = y * 0.9 + np.cos(y)
        n += 1
    return y


def branches(x, a):
    if x > 0:
        y = x * a
    else:
        y = math.exp(x) - a
    return y * y


def scaled(u, c=2.0):
    return np.tanh(u) * c


def with_helper(x, W):
    z = W @ x
    s = 0.0
    for i in range(3):
        s = s + scaled(z[i], c=1.5) * np.sum(x ** 2)
    return s * s, z


def logsumexp(x):
    m = x[0]
    for i in range(1, x.shape[0]):
        if x[i] > m:
            m = x[i]
    s = 0.0
    for i in range(x.shape[0]):
        s = s + np.exp(x[i] - m)
    return m + np.log(s)


def ode(q, v, dt, steps):
    for _ in range(steps):
        a = -q + 0.1 * q[::-1]
        v = v + dt * a
        q = q + dt * v
    return q


def with_dict(x, d):
    return x * d["a"]


def with_comprehension(x):
    return sum([x * k for k in range(3)])


def with_roll(x):
    return np.sum(np.roll(x, 2) * x)


def with_gammaln(x):
    y = gammaln(x) * 2.0
    return y


def with_dict_literal(x):
    d = {"a": x, "b": 2.0}
    return d["a"] * d["b"]
"""

RNG = np.random.default_rng(5)
VEC = RNG.standard_normal(6)
MAT = RNG.standard_normal((3, 3))

# (function, arguments, argument differentiated)
CASES = [
    ("scalar_map", (0.5, 0.9, 30), 0),
    ("scalar_map", (0.5, 0.9, 30), 1),
    ("while_loop", (0.3,), 0),
    ("branches", (1.2, 0.7), 0),
    ("branches", (-1.2, 0.7), 1),
    ("with_helper", (VEC[:3].copy(), MAT), 0),
    ("with_helper", (VEC[:3].copy(), MAT), 1),
    ("logsumexp", (VEC * 3.0,), 0),
    ("ode", (VEC, VEC[::-1].copy(), 0.01, 50), 0),
    ("ode", (VEC, VEC[::-1].copy(), 0.01, 50), 1),
    ("with_comprehension", (0.7,), 0),
    ("with_roll", (VEC,), 0),
]


@pytest.fixture(scope="module")
def m(tmp_path_factory):
    return load_module(tmp_path_factory.mktemp("jit_jvp"), SOURCE)


def _autograd_jvp(f, args, i, t, parts=None):
    """autograd's J t (make_jvp) of a copy of f on autograd.numpy; `parts`: the number
    of items of a tuple output (autograd's forward mode takes one array output)."""
    pytest.importorskip("autograd")
    anp = pytest.importorskip("autograd.numpy")
    from autograd.differential_operators import make_jvp

    g = types.FunctionType(f.__code__, {**f.__globals__, "np": anp, "math": anp}, f.__name__)
    if parts is None:
        return make_jvp(g, i)(*args)(t)[1]
    return tuple(make_jvp(lambda *a, j=j: g(*a)[j], i)(*args)(t)[1] for j in range(parts))


def _central(f, args, i, t, h=1e-6):
    plus, minus = list(args), list(args)
    plus[i] = args[i] + h * t
    minus[i] = args[i] - h * t
    return tl_map(lambda a, b: (np.asarray(a) - np.asarray(b)) / (2 * h), f(*plus), f(*minus))


def tl_map(fn, a, b):
    if isinstance(a, tuple):
        return tuple(tl_map(fn, x, y) for x, y in zip(a, b, strict=True))
    return fn(a, b)


def _close(a, b, rtol, atol):
    if isinstance(a, tuple):
        assert isinstance(b, tuple) and len(a) == len(b)
        for x, y in zip(a, b, strict=True):
            _close(x, y, rtol, atol)
        return
    assert np.shape(a) == np.shape(b)
    np.testing.assert_allclose(a, b, rtol=rtol, atol=atol)


@pytest.mark.parametrize("case", CASES, ids=[f"{c[0]}-wrt{c[2]}" for c in CASES])
def test_compiled_jvp_matches_python_fd_and_autograd(m, case):
    name, args, i = case
    f = getattr(m, name)
    t = RNG.standard_normal(np.shape(args[i]))
    t = float(t) if np.ndim(args[i]) == 0 else t
    value, tangent = tl.jvp(f, wrt=i, jit=True)(*args, t)
    plain_value, plain_tangent = tl.jvp(f, wrt=i)(*args, t)
    _close(value, plain_value, 1e-12, 1e-14)
    _close(tangent, plain_tangent, 1e-11, 1e-13)
    _close(tangent, _central(f, args, i, t), 1e-5, 1e-7)
    parts = len(tangent) if isinstance(tangent, tuple) else None
    _close(tangent, _autograd_jvp(f, args, i, t, parts), 1e-9, 1e-12)


def test_compiled_module_checks_tangents_in_python_and_is_kept(m):
    jf = tl.jvp(m.scalar_map, wrt=0, jit=True)
    jf(0.5, 0.9, 10, 1.0)
    (source,) = jf.jit_sources.values()
    assert "@numba.njit" in source
    assert "tangent_like(dx, x, 'x')" in source.split("@numba.njit")[0]  # Python, before
    with pytest.raises(ValueError, match="tangent of x"):
        jf(0.5, 0.9, 10, "one")  # the Python check still runs before the compiled code


def test_construct_it_cannot_compile_is_refused_at_jvp_with_its_line(m):
    with pytest.raises(JitError) as info:
        tl.jvp(m.with_dict_literal, jit=True)
    err = info.value
    assert err.location.filename == m.__file__
    assert err.location.line == line_of(m, 'd = {"a": x')
    assert "jit=True cannot compile this line: a dict" in str(err)


def test_what_numba_cannot_type_is_refused_at_the_first_call_with_its_line(m):
    jf = tl.jvp(m.with_gammaln, jit=True)
    with pytest.raises(JitError) as info:
        jf(2.0, 1.0)
    err = info.value
    assert err.location.filename == m.__file__
    assert err.location.line == line_of(m, "y = gammaln(x)")
    assert "jit=True cannot compile this gradient for these arguments" in str(err)


def test_argument_numba_cannot_type_is_refused_at_the_call(m):
    jf = tl.jvp(m.with_dict, wrt=0, jit=True)
    with pytest.raises(JitError, match="its argument d is a dict"):
        jf(2.0, {"a": 3.0}, 1.0)


def test_auto_falls_back_with_one_warning(m):
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        jf = tl.jvp(m.with_dict_literal, jit="auto")
        value, tangent = jf(2.0, 1.0)
    assert [w.category for w in seen] == [JitWarning]
    assert value == pytest.approx(4.0) and tangent == pytest.approx(2.0)


def test_jit_option_is_checked(m):
    with pytest.raises(TypeError, match='jit= takes True, False or "auto"'):
        tl.jvp(m.scalar_map, jit="yes")
