"""Second order: hvp, hessian and grad of grad against autograd and central differences
of the gradient, over functions with loops, branches, while, helpers, reductions,
linear algebra, broadcasting and indexing (tests/corpus/second_order.py)."""

from __future__ import annotations

import autograd
import numpy as np
import pytest
from corpus.second_order import CASES
from reference import autograd_version, load_module

import tangentlike as tl

# functions whose second order goes through a helper with no second-order rule yet
REFUSED_SOURCE = """
import numpy as np

def list_pop(x):
    items = [x[0], x[1] * x[2]]
    first = items.pop(0)
    return first * items[0] * x[3]
"""
# (np.average's weights_like has a rule now: tests/higher/test_second_order_tangents.py;
# np.arange's arange_vjp too: test_second_order_scalars.py)
REFUSED = {"list_pop": "with_zero_item"}
SUPPORTED = sorted(CASES)


def _direction(x, seed=1):
    return np.random.RandomState(seed).standard_normal(np.shape(x))


def _autograd_hvp(f, args, v):
    af = autograd_version(f)

    def inner(*a):
        return autograd.numpy.sum(autograd.grad(af)(*a) * v)

    return autograd.grad(inner)(*args)


def _fd_hvp(f, args, v, eps=1e-6):
    g = tl.grad(f)
    up, down = list(args), list(args)
    up[0] = args[0] + eps * v
    down[0] = args[0] - eps * v
    return (np.asarray(g(*up)) - np.asarray(g(*down))) / (2 * eps)


@pytest.mark.parametrize("method", ["forward", "reverse"])
@pytest.mark.parametrize("case", SUPPORTED)
def test_hvp_matches_autograd_and_differences_of_the_gradient(case, method):
    f, args = CASES[case]
    v = _direction(args[0])
    product = tl.hvp(f, method=method)
    assert product.method == method
    hv = product(*args, v)
    assert np.shape(hv) == np.shape(args[0])
    assert np.allclose(hv, _autograd_hvp(f, args, v), rtol=1e-7, atol=1e-9)
    assert np.allclose(hv, _fd_hvp(f, args, v), rtol=1e-4, atol=1e-6)


@pytest.mark.parametrize("method", ["forward", "reverse"])
@pytest.mark.parametrize("case", SUPPORTED)
def test_hessian_matches_autograd_and_is_symmetric(case, method):
    f, args = CASES[case]
    H = tl.hessian(f, method=method)(*args)
    x = args[0]
    assert np.shape(H) == np.shape(x) + np.shape(x)
    expected = autograd.hessian(autograd_version(f))(*args)
    assert np.allclose(H, expected, rtol=1e-7, atol=1e-9)
    n = int(np.size(x))
    flat = np.reshape(H, (n, n))
    assert np.allclose(flat, flat.T, rtol=1e-7, atol=1e-9)


@pytest.mark.parametrize("case", ["poly", "scalar_float"])
def test_grad_of_grad_matches_autograd(case):
    f, args = CASES[case]
    second = tl.grad(tl.grad(f))
    expected = autograd.grad(autograd.grad(autograd_version(f)))(*args)
    assert second(*args) == pytest.approx(expected, rel=1e-9)


def test_third_derivative_of_a_loop_free_function():
    f, args = CASES["poly"]
    third = tl.grad(tl.grad(tl.grad(f)))
    assert third(*args) == pytest.approx(0.0)  # x * x * k + x


THIRD_ORDER = """
def branches(x):
    if x > 0:
        y = x * x * x * x
    else:
        y = x * x * x
    return y

def loop(x):
    s = x
    for i in range(3):
        s = s * x + 1.0
    return s
"""


def test_third_derivatives_of_branches_and_loops_agree(tmp_path):
    m = load_module(tmp_path, THIRD_ORDER)
    for x in (1.5, -0.7):
        for f in (m.branches, m.loop):
            third = tl.grad(tl.grad(tl.grad(f)))(x)
            assert third == pytest.approx(autograd.grad(autograd.grad(autograd.grad(f)))(x))
            second = tl.grad(tl.grad(f))(x)
            assert second == pytest.approx(autograd.grad(autograd.grad(f))(x))


def test_grad_of_grad_with_respect_to_another_argument():
    f, args = CASES["poly"]  # x * x * k + x: d/dk d/dx = 2 x
    mixed = tl.grad(tl.grad(f, wrt=0), wrt=1)
    assert mixed(*args) == pytest.approx(2 * args[0])


@pytest.mark.parametrize("method", ["forward", "reverse"])
def test_tuple_wrt_gives_blocks_of_the_hessian(method):
    f, (x, A) = CASES["linalg"]
    blocks = tl.hessian(f, wrt=(0, 1), method=method)(x, A)
    af = autograd_version(f)
    for i in range(2):
        for j in range(2):
            expected = autograd.jacobian(autograd.grad(af, i), j)(x, A)
            assert blocks[i][j].shape == np.shape((x, A)[i]) + np.shape((x, A)[j])
            assert np.allclose(blocks[i][j], expected, rtol=1e-7, atol=1e-9)
    vx, vA = _direction(x, 2), _direction(A, 3)
    hx, hA = tl.hvp(f, wrt=(0, 1), method=method)(x, A, (vx, vA))
    assert np.allclose(hx, np.tensordot(blocks[0][0], vx, 1) + np.tensordot(blocks[0][1], vA, 2))
    assert np.allclose(hA, np.tensordot(blocks[1][0], vx, 1) + np.tensordot(blocks[1][1], vA, 2))


def test_hvp_by_parameter_name_and_keyword_arguments():
    f, (w, X, y) = CASES["logistic"]
    v = _direction(w)
    by_name = tl.hvp(f, wrt="w")(w, X, y, v)
    assert np.allclose(by_name, _autograd_hvp(f, (w, X, y), v))


def test_hvp_exposes_its_generated_source_and_gradient():
    f, args = CASES["cubic"]
    hv = tl.hvp(f)
    assert "def " in hv.source and "gradient_like" in hv.source
    assert np.allclose(hv.gradient(*args), tl.grad(f)(*args))


def test_auto_uses_forward_over_reverse_where_it_builds():
    f, _ = CASES["logistic"]
    assert tl.hvp(f).method == "forward" and tl.hessian(f).method == "forward"


def test_an_unknown_method_is_refused():
    with pytest.raises(tl.WrtError, match="method"):
        tl.hvp(CASES["poly"][0], method="sideways")


@pytest.mark.parametrize("method", ["auto", "forward", "reverse"])
@pytest.mark.parametrize("case", sorted(REFUSED))
def test_what_has_no_second_order_rule_is_refused_with_its_line(case, method, tmp_path):
    f = getattr(load_module(tmp_path, REFUSED_SOURCE), case)
    x = np.array([0.3, -1.2, 2.0, 0.7])
    with pytest.raises(tl.UnsupportedSyntaxError) as err:
        tl.hvp(f, method=method)(x, _direction(x))
    message = str(err.value)
    assert REFUSED[case] in message and "no second-order rule" in message, message
    assert "^" in message and "What to do" in message, message
    # located at the user's line, the generated line it was found in shown after it
    location = err.value.location
    assert location.filename == f.__code__.co_filename, message
    assert f.__code__.co_firstlineno < location.line, message
    assert "in the derivative code generated for it (<tangentlike" in message, message
    assert REFUSED[case] in err.value.generated_location.text, message


@pytest.mark.parametrize("options,words", [({"stats": True}, "stats=True")])
def test_gradients_the_differentiable_form_does_not_cover_are_refused(options, words):
    """(A gradient with checkpointed loops is differentiated as the same gradient with
    plain loops: tests/higher/test_checkpointed.py.)"""
    f, args = CASES["loop_overwrites"]
    inner = tl.grad(f, **options)
    with pytest.raises(tl.UnsupportedSyntaxError) as err:
        tl.vjp(inner)(*args, _direction(args[0]))
    message = str(err.value)
    assert words in message and "^" in message and "What to do" in message, message


def test_second_order_through_helpers_read_from_their_source(tmp_path):
    """np.prod and np.linalg.norm: their adjoints' helpers (prod_others, norm_vjp) are
    plain NumPy, differentiated through their source; exact where an element is zero
    (autograd's Hessian of prod divides by it: nan)."""
    m = load_module(
        tmp_path,
        "import numpy as np\n\n"
        "def prod3(x):\n    return np.prod(x) * 3.0\n\n"
        "def norms(x):\n"
        "    rows = np.linalg.norm(np.reshape(x, (2, 2)), axis=1)\n"
        "    return np.linalg.norm(x * 2.0) ** 3 + rows[0]\n",
    )
    x0 = np.array([1.0, 0.0, -3.0, 0.5])
    exact = np.zeros((4, 4))
    for i in range(4):
        for j in range(4):
            if i != j:
                exact[i, j] = 3.0 * np.prod([x0[k] for k in range(4) if k not in (i, j)])
    for method in ("forward", "reverse"):
        assert np.allclose(tl.hessian(m.prod3, method=method)(x0), exact)
    x = np.array([1.0, 2.0, -3.0, 0.5])
    expected = autograd.hessian(autograd_version(m.norms))(x)
    for method in ("forward", "reverse"):
        assert np.allclose(tl.hessian(m.norms, method=method)(x), expected)


def test_second_order_of_a_power_with_a_variable_exponent(tmp_path):
    """x ** y differentiated twice in x and y (power_slope's rules): against autograd, and
    at y == 0 against the exact mixed derivative 3 / x, where autograd's Hessian is not
    even symmetric (1.8 for 5.0 at x = 0.6)."""
    m = load_module(tmp_path, "def g(x, y):\n    return x ** y * 3.0\n")
    ga = autograd_version(m.g)
    for x, y in [(1.3, 2.0), (2.0, 1.0), (1.7, -0.5), (0.8, 3.5)]:
        blocks = tl.hessian(m.g, wrt=(0, 1))(x, y)
        for i in range(2):
            for j in range(2):
                expected = autograd.grad(autograd.grad(ga, i), j)(x, y)
                assert float(blocks[i][j]) == pytest.approx(expected, rel=1e-9, abs=1e-12)
        third = tl.grad(tl.grad(tl.grad(m.g)))(x, y)
        assert third == pytest.approx(autograd.grad(autograd.grad(autograd.grad(ga)))(x, y))
    blocks = tl.hessian(m.g, wrt=(0, 1))(0.6, 0.0)
    assert float(blocks[0][1]) == pytest.approx(3.0 / 0.6)
    assert float(blocks[1][0]) == pytest.approx(3.0 / 0.6)


def test_a_run_time_refusal_of_the_differentiated_gradient_names_the_users_line(tmp_path):
    """A check failing inside a generated gradient that is differentiated again (here an
    in-place update of an argument passed twice, refused when it runs) carries the
    location of the user's line, not only its text (the random-program tester's hvp
    mode found it unlocated)."""
    from tangentlike.errors import CheckError

    source = "import numpy as np\n\n\ndef f(A, B):\n    A *= 2.0\n    return np.sum(A * B)\n"
    f = load_module(tmp_path, source, "aliased_arguments").f
    X = np.arange(1.0, 7.0).reshape(2, 3)
    for run in (lambda: tl.hvp(f)(X, X, np.ones_like(X)), lambda: tl.grad(f)(X, X)):
        with pytest.raises(CheckError) as err:
            run()
        assert err.value.location is not None, str(err.value)
        assert err.value.location.filename == f.__code__.co_filename
        assert err.value.location.line == 5
