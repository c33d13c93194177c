"""Writes into lists and dicts the function makes (transform/container_writes.py): by
constant or computed index and key, incrementally in loops, overwriting, adding keys,
lists of arrays; gradients against central differences (every entry) and autograd,
forward mode (jvp) against the same differences, values and arguments untouched, and
the located refusals of writes it cannot follow."""

from __future__ import annotations

import numpy as np
import pytest
from reference import autograd_version, fd_gradient, load_module

import tangentlike as tl
from tangentlike.errors import CheckError, UnsupportedSyntaxError

SOURCE = """
import numpy as np


def list_constant_index(x):
    out = [0.0, 0.0, 0.0]
    out[0] = x[0] * 2
    out[2] = x[1] * x[2]
    return out[0] + out[1] + out[2] * 3


def list_loop(x):
    n = 3
    out = [0.0] * n
    for i in range(n):
        out[i] = x[i] * 2
    return out[0] * out[1] + out[2]


def list_recurrence(x):
    out = [0.0] * 3
    out[0] = x[0]
    for i in range(1, 3):
        out[i] = out[i - 1] * x[i]
    return sum(out)


def list_negative_index_twice(x):
    out = [x[0], x[1], x[2]]
    out[-1] = out[0] * out[-1]
    out[-1] = np.sin(out[-1]) + out[1]
    return out[0] * out[2]


def list_of_arrays(x):
    hs = [None] * 3
    h = x
    for t in range(3):
        h = np.tanh(h * 0.5 + t)
        hs[t] = h
    return np.sum(hs[0] * hs[2]) + np.sum(hs[1])


def list_then_append(x):
    out = []
    for i in range(3):
        out.append(x[i])
    out[1] = out[0] * out[2]
    out.append(out[1] ** 2)
    out[0] = out[3] - out[1]
    return out[0] + out[1] * out[2]


def list_from_comprehension(x):
    out = [np.cos(v) for v in x]
    out[1] = out[0] * x[2]
    return sum(out)


def list_in_while(x):
    out = [1.0] * 3
    i = 0
    while i < 5:
        k = i % 3
        if x[k] > 0:
            out[k] = out[k] * x[k] + 1.0
        else:
            out[k] = out[k] - x[k]
        i = i + 1
    return out[0] * out[1] * out[2]


def dict_constant_key(x):
    d = {}
    d['a'] = x[0] * 2
    d['b'] = np.sin(x[1])
    return d['a'] * d['b']


def dict_computed_key(x):
    d = {}
    for k in ['p', 'q', 'r']:
        d[k] = x[len(d)] ** 2
    return d['p'] + d['q'] * d['r']


def dict_overwrite(x):
    d = {'a': x[0], 'b': x[2]}
    d['a'] = d['a'] * x[1]
    d['a'] = d['a'] + d['b']
    return d['a'] * d['b']


def dict_accumulate(x):
    counts = {}
    for i in range(3):
        key = 'even' if i % 2 == 0 else 'odd'
        counts[key] = counts.get(key, 0.0) + x[i] ** 2
    return counts['even'] * counts['odd']


def dict_from_comprehension(x):
    d = {k: x[i] for i, k in enumerate('ab')}
    d['c'] = d['a'] * d['b']
    d['a'] = x[2]
    return d['a'] + d['c']


def dict_of_arrays(W, x):
    params = {}
    params['w'] = W * 2.0
    params['h'] = np.tanh(params['w'] @ x)
    return np.sum(params['h'] ** 2)


def _helper(v):
    out = [0.0, 0.0]
    out[0] = v[0] * v[1]
    out[1] = out[0] + v[2]
    return out


def calls_a_writer(x):
    a = _helper(x)
    return a[0] * a[1]


def pops(x):
    xs = [x[0], x[1] * 2, x[2] * 3, x[0] * x[1]]
    a = xs.pop()
    b = xs.pop(0)
    c = xs.pop(-2)
    return a * b + c * xs[0] + len(xs)


def pop_until_empty(x):
    xs = [x[0], x[1], x[2]]
    s = 0.0
    while xs:
        s = s * 0.5 + np.sin(xs.pop())
    return s


def pop_then_write(x):
    xs = list(x)
    first = xs.pop(0)
    xs[0] = xs[0] * first
    xs.append(first ** 2)
    return xs[0] + xs[1] * xs[2]


def dict_pop(x):
    d = {'a': x[0], 'b': x[1] * x[2]}
    a = d.pop('a')
    d['c'] = a * 3.0
    return d['b'] * d['c'] + len(d)


def handed_on_after_writes(x):
    out = [0.0] * 3
    for i in range(3):
        out[i] = x[i] ** 2
    copy = out
    total = 0.0
    for v in copy:
        total = total + v * x[0]
    return total
"""

X = np.array([0.7, -1.3, 0.4])
W = np.array([[0.5, -0.2, 0.1], [0.3, 0.8, -0.4]])
ARGS = {
    "list_constant_index": (X,),
    "list_loop": (X,),
    "list_recurrence": (X,),
    "list_negative_index_twice": (X,),
    "list_of_arrays": (X,),
    "list_then_append": (X,),
    "list_from_comprehension": (X,),
    "list_in_while": (X,),
    "dict_constant_key": (X,),
    "dict_computed_key": (X,),
    "dict_overwrite": (X,),
    "dict_accumulate": (X,),
    "dict_from_comprehension": (X,),
    "dict_of_arrays": (W, X),
    "calls_a_writer": (X,),
    "handed_on_after_writes": (X,),
    "pops": (X,),
    "pop_until_empty": (X,),
    "pop_then_write": (X,),
    "dict_pop": (X,),
}


@pytest.fixture(scope="module")
def module(tmp_path_factory):
    return load_module(tmp_path_factory.mktemp("writes"), SOURCE, "container_writes_cases")


def _wrt(args):
    return tuple(range(len(args)))


@pytest.mark.parametrize("name", list(ARGS))
def test_matches_finite_differences(module, name):
    f, args = getattr(module, name), ARGS[name]
    grads = tl.grad(f, wrt=_wrt(args))(*args)
    for i, g in enumerate(grads):
        np.testing.assert_allclose(g, fd_gradient(f, list(args), i), rtol=1e-6, atol=1e-8)


@pytest.mark.parametrize("name", list(ARGS))
def test_matches_autograd(module, name):
    import autograd

    f, args = getattr(module, name), ARGS[name]
    grads = tl.grad(f, wrt=_wrt(args))(*args)
    for i, g in enumerate(grads):
        expected = autograd.grad(autograd_version(f), i)(*args)
        np.testing.assert_allclose(g, expected, rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("name", list(ARGS))
def test_forward_mode_matches_finite_differences(module, name):
    f, args = getattr(module, name), ARGS[name]
    rng = np.random.RandomState(1)
    tangents = tuple(rng.standard_normal(np.shape(a)) for a in args)
    value, derivative = tl.jvp(f, wrt=_wrt(args))(*args, tangents)
    expected = sum(float(np.sum(fd_gradient(f, list(args), i) * t)) for i, t in enumerate(tangents))
    assert np.isclose(value, f(*args), rtol=1e-12)
    assert np.isclose(derivative, expected, rtol=1e-6, atol=1e-8), (derivative, expected)


@pytest.mark.parametrize("name", list(ARGS))
def test_value_kept_and_arguments_untouched(module, name):
    f, args = getattr(module, name), ARGS[name]
    before = [np.copy(a) for a in args]
    value, _ = tl.value_and_grad(f, wrt=_wrt(args))(*args)
    assert np.isclose(value, f(*args), rtol=1e-12)
    for a, b in zip(args, before, strict=True):
        np.testing.assert_array_equal(a, b)


def test_vjp_of_a_written_list_leaves_the_seed_alone(tmp_path):
    source = (
        "def f(x):\n    out = [0.0, 0.0]\n    out[0] = x[0] * x[1]\n"
        "    out[1] = out[0] * 3.0\n    return out\n"
    )
    f = load_module(tmp_path, source).f
    seed = [1.0, 2.0]
    g = tl.vjp(f)(X, seed)
    assert seed == [1.0, 2.0]
    np.testing.assert_allclose(g, [7.0 * X[1], 7.0 * X[0], 0.0])


def test_debug_mode_checks_pass(module, monkeypatch):
    monkeypatch.setenv("TANGENTLIKE_CHECKS", "1")
    for name in ("list_recurrence", "dict_accumulate", "list_then_append"):
        f, args = getattr(module, name), ARGS[name]
        g = tl.grad(f, wrt=0)(*args)
        np.testing.assert_allclose(g, fd_gradient(f, list(args), 0), rtol=1e-6, atol=1e-8)


def test_generated_code_saves_and_restores_the_item(module):
    source = tl.grad(module.dict_computed_key, checks=False).source  # debug mode checks pops
    assert "saved_item(d, k)" in source and "restore_item(d, k, _pop())" in source
    assert "take_item(bd, k" in source


REFUSED = [
    (
        "an alias made before the write",
        ["out = [x[0], x[1]]", "alias = out", "out[0] = x[2]", "return alias[0]"],
        6,
        "gets hold of it",
    ),
    (
        "a list held in another before the write",
        ["out = [x[0], x[1]]", "rows = [out]", "out[0] = x[2]", "return rows[0][0]"],
        6,
        "gets hold of it",
    ),
    (
        "a loop over the list it writes",
        [
            "out = [x[0], x[1]]",
            "for i, v in enumerate(out):",
            "    out[i] = v * 2",
            "return out[0]",
        ],
        6,
        "range(len(out))",
    ),
    (
        "an item of a list written",
        ["rows = [[x[0]], [x[1]]]", "r = rows[0]", "r[0] = x[2]", "return rows[0][0]"],
        7,
        "made it itself",
    ),
    (
        "a slice written",
        ["out = [x[0], x[1], x[2]]", "out[0:2] = [x[1], x[0]]", "return out[0]"],
        6,
        "one item at a time",
    ),
    (
        "a pop from a list another name holds",
        ["xs = [x[0], x[1]]", "ys = xs", "a = xs.pop()", "return a * ys[-1]"],
        6,
        "gets hold of it",
    ),
    (
        "a pop of another form",
        ["xs = [[x[0]]]", "a = xs[0].pop()", "return a"],
        6,
        "name.pop()",
    ),
    (
        "the caller's list",
        ["xs = x", "xs[0] = 2.0", "return xs"],  # (`return xs[0]`: refused when it runs)
        6,
        "changes the caller's",
    ),
]


@pytest.mark.parametrize("case", REFUSED, ids=[c[0] for c in REFUSED])
@pytest.mark.parametrize("mode", ["grad", "jvp"])
def test_writes_it_cannot_follow_are_refused_with_a_location(tmp_path, case, mode):
    _, body, line, words = case  # line: in the file
    source = "import numpy as np\n\n\ndef f(x):\n" + "".join(f"    {b}\n" for b in body)
    module = load_module(tmp_path, source)
    with pytest.raises(UnsupportedSyntaxError) as err:
        if mode == "grad":
            tl.grad(module.f)([0.5, 1.5, 2.5])
        else:
            tl.jvp(module.f)([0.5, 1.5, 2.5], [1.0, 0.0, 0.0])
    message = str(err.value)
    assert f"{module.__name__}.py:{line}:" in message, message
    assert words in message, message
    assert "What to do" in message and "^" in message, message


@pytest.mark.parametrize("mode", ["grad", "jvp"])
def test_an_augmented_write_into_an_array_item_is_refused_at_run_time(tmp_path, mode):
    """`L[0] /= 2` divides the array L[0] holds in place (here the argument itself), which
    L[1] holds too: the lowered `L[0] = L[0] / 2` would be another program (a name holding
    it is rebound to the new array, another slot is not). Numbers there are fine."""
    source = (
        "import numpy as np\n\n\ndef f(y):\n    L = [y, y]\n    L[0] /= 2.0\n"
        "    return np.mean(y) + L[1][0]\n\n\ndef g(y):\n    d = {'a': y[0], 'b': y[1]}\n"
        "    d['a'] *= y[2]\n    d['b'] += d['a']\n    return d['a'] * d['b']\n"
    )
    module = load_module(tmp_path, source)
    with pytest.raises(CheckError) as err:
        if mode == "grad":
            tl.grad(module.f)(X)
        else:
            tl.jvp(module.f)(X, np.ones(3))
    message = str(err.value)
    assert f"{module.__name__}.py:6:" in message and "in place" in message, message
    assert "What to do" in message, message
    g = tl.grad(module.g)(X)
    np.testing.assert_allclose(g, fd_gradient(module.g, [X], 0), rtol=1e-6, atol=1e-8)
