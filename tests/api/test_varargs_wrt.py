"""`wrt` naming a `*args` parameter (`def f(a, *xs)`, `tl.grad(f, wrt="xs")`): the
gradient is a tuple with one gradient per collected argument (ragged shapes, floats),
in every mode, against autograd and central differences; a position inside `*xs` picks
its item of that tuple (reverse modes, jvp and hvp: the direction zero at the other
items; hessian from the columns of that hvp, jacobian from jvp columns or vjp rows)."""

from __future__ import annotations

import numpy as np
import pytest
from reference import autograd_version, directional_fd, load_module

import tangentlike as tl
from tangentlike.errors import WrtError

SOURCE = """
import numpy as np


def scaled(a, *xs):
    return a * np.sum(xs[0]) * np.sum(xs[1] ** 2)


def total(*xs):
    s = 0.0
    for x in xs:
        s = s + np.sum(np.sin(x) * x)
    return s


def looped(*xs):
    return sum(np.sum(x ** 2) for x in xs) * len(xs)


def vector_out(a, *xs):
    return np.tanh(a * xs[0]) + xs[1][:2] ** 2
"""
ARGS = {
    "scaled": (1.5, np.array([0.3, -0.7]), np.array([0.5, 1.1, -0.2])),
    "total": (np.array([0.3, -0.7]), 0.9, np.array([[0.5, 1.1], [0.2, -1.3]])),
    "looped": (np.array([0.3, -0.7]), 0.9),
}


@pytest.fixture(scope="module")
def m(tmp_path_factory):
    return load_module(tmp_path_factory.mktemp("varargs"), SOURCE, "varargs_wrt")


def _autograd_star(f, args, k):
    """autograd's gradient with respect to the k-th argument."""
    import autograd

    return autograd.grad(autograd_version(f), k)(*args)


@pytest.mark.parametrize("name", sorted(ARGS))
def test_gradient_of_the_collected_tuple_against_autograd_and_differences(m, name):
    f, args = getattr(m, name), ARGS[name]
    start = 1 if name == "scaled" else 0
    g = tl.grad(f, wrt="xs")(*args)
    assert type(g) is tuple and len(g) == len(args) - start
    rng = np.random.default_rng(0)
    for k, (gk, arg) in enumerate(zip(g, args[start:], strict=True)):
        assert np.shape(gk) == np.shape(arg) and type(gk) is type(arg)
        np.testing.assert_allclose(gk, _autograd_star(f, args, start + k), rtol=1e-12)
        u = rng.standard_normal(np.shape(arg)) if np.ndim(arg) else 1.0
        expected = directional_fd(f, list(args), start + k, u)
        np.testing.assert_allclose(np.sum(gk * u), expected, rtol=1e-6)


def test_named_and_collected_parameters_together_in_every_mode(m):
    f, args = m.scaled, ARGS["scaled"]
    value, (ga, gxs) = tl.value_and_grad(f, wrt=("a", "xs"))(*args)
    assert value == f(*args)
    np.testing.assert_allclose(ga, _autograd_star(f, args, 0), rtol=1e-12)
    seed = 2.0
    va, vxs = tl.vjp(f, wrt=("a", "xs"))(*args, seed)
    np.testing.assert_allclose(va, seed * ga, rtol=1e-12)
    for v, g in zip(vxs, gxs, strict=True):
        np.testing.assert_allclose(v, seed * g, rtol=1e-12)
    t = (np.array([1.0, -0.5]), np.array([0.2, 0.4, -1.0]))
    value, tangent = tl.jvp(f, wrt="xs")(*args, t)
    expected = sum(np.sum(g * d) for g, d in zip(gxs, t, strict=True))
    np.testing.assert_allclose(tangent, expected, rtol=1e-12)
    hv = tl.hvp(f, wrt="xs")(*args, t)
    eps = 1e-6
    plus = tl.grad(f, wrt="xs")(args[0], *(x + eps * d for x, d in zip(args[1:], t, strict=True)))
    minus = tl.grad(f, wrt="xs")(args[0], *(x - eps * d for x, d in zip(args[1:], t, strict=True)))
    for h, p, q in zip(hv, plus, minus, strict=True):
        np.testing.assert_allclose(h, (p - q) / (2 * eps), rtol=1e-6, atol=1e-8)


def test_a_vector_output_through_vjp(m):
    f, args = m.vector_out, ARGS["scaled"]
    seed = np.array([0.5, -1.0])
    _, gxs = tl.vjp(f, wrt=("a", "xs"))(*args, seed)

    def scalar(*a):
        return np.sum(f(*a) * seed)

    for k, gk in enumerate(gxs):
        u = np.linspace(-1.0, 1.0, np.size(args[1 + k])).reshape(np.shape(args[1 + k]))
        np.testing.assert_allclose(np.sum(gk * u), directional_fd(scalar, list(args), 1 + k, u))


@pytest.mark.parametrize(
    ("name", "wrt"),
    [("total", 0), ("total", 2), ("scaled", 1), ("scaled", (0, 2)), ("scaled", (2, "a"))],
)
def test_a_position_inside_star_args_picks_its_gradient(m, name, wrt):
    """grad, value_and_grad and vjp with respect to positions inside *xs: the whole
    tuple's gradient, the items asked for picked at the call; against autograd."""
    f, args = getattr(m, name), ARGS[name]
    items = wrt if isinstance(wrt, tuple) else (wrt,)
    positions = [0 if item == "a" else item for item in items]
    got = tl.grad(f, wrt=wrt)(*args)
    value, again = tl.value_and_grad(f, wrt=wrt)(*args)
    pulled = tl.vjp(f, wrt=wrt)(*args, 2.0)
    got, again, pulled = ((g,) if not isinstance(wrt, tuple) else g for g in (got, again, pulled))
    assert value == pytest.approx(f(*args))
    for k, g, h, p in zip(positions, got, again, pulled, strict=True):
        expected = _autograd_star(f, args, k)
        np.testing.assert_allclose(g, expected, rtol=1e-10, atol=1e-12)
        np.testing.assert_allclose(h, expected, rtol=1e-10, atol=1e-12)
        np.testing.assert_allclose(p, 2.0 * expected, rtol=1e-10, atol=1e-12)


def test_a_position_beyond_the_arguments_of_a_call_is_refused(m):
    with pytest.raises(WrtError, match=r"position 3 falls beyond the 2 argument\(s\)"):
        tl.grad(m.scaled, wrt=3)(*ARGS["scaled"])


@pytest.mark.parametrize(
    ("name", "wrt"),
    [("total", 0), ("total", 2), ("scaled", 1), ("scaled", (0, 2)), ("scaled", (2, "a"))],
)
def test_jvp_and_hvp_at_positions_inside_star_args(m, name, wrt):
    """jvp and hvp with respect to positions inside *xs: the whole tuple's product, the
    direction zero but at the items asked for; J t against autograd's gradient (f is
    scalar: J t = <grad, t>), H v against autograd's hessian-vector product."""
    import autograd

    f, args = getattr(m, name), ARGS[name]
    items = wrt if isinstance(wrt, tuple) else (wrt,)
    positions = [0 if item == "a" else item for item in items]
    rng = np.random.default_rng(3)
    directions = [rng.standard_normal(np.shape(args[k])) for k in positions]
    given = tuple(directions) if isinstance(wrt, tuple) else directions[0]
    value, tangent = tl.jvp(f, wrt=wrt)(*args, given)
    assert value == pytest.approx(f(*args))
    pairs = list(zip(positions, directions, strict=True))
    expected = sum(np.sum(_autograd_star(f, args, k) * t) for k, t in pairs)
    assert tangent == pytest.approx(expected, rel=1e-10, abs=1e-12)
    product = tl.hvp(f, wrt=wrt)(*args, given)
    product = product if isinstance(wrt, tuple) else (product,)
    twin = autograd_version(f)

    def along(*xs):  # <grad f, v> over the asked positions: its gradient is H v
        full = list(args)
        for k, x in zip(positions, xs, strict=True):
            full[k] = x
        return sum(
            autograd.numpy.sum(autograd.grad(twin, k)(*full) * t)
            for k, t in zip(positions, directions, strict=True)
        )

    for j, got in enumerate(product):
        want = autograd.grad(along, j)(*(args[k] for k in positions))
        np.testing.assert_allclose(got, want, rtol=1e-9, atol=1e-12)


def _at(args: tuple, positions: list[int], f):
    """f as a function of the arguments at `positions` only (the others fixed to args)."""

    def g(*xs):
        full = list(args)
        for k, x in zip(positions, xs, strict=True):
            full[k] = x
        return f(*full)

    return g


@pytest.mark.parametrize(
    ("name", "wrt"), [("total", 0), ("total", (0, 2)), ("scaled", 1), ("scaled", (2, "a"))]
)
@pytest.mark.parametrize("method", ["auto", "forward", "reverse"])
def test_hessian_at_positions_inside_star_args(m, name, wrt, method):
    """H assembled from the spread HVP's columns, block by block against autograd."""
    import autograd

    f, args = getattr(m, name), ARGS[name]
    items = wrt if isinstance(wrt, tuple) else (wrt,)
    positions = [0 if item == "a" else item for item in items]
    H = tl.hessian(f, wrt=wrt, method=method)(*args)
    blocks = H if isinstance(wrt, tuple) else ((H,),)
    g = _at(args, positions, autograd_version(f))
    point = [args[k] for k in positions]
    for i in range(len(positions)):
        for j in range(len(positions)):
            expected = autograd.jacobian(autograd.grad(g, i), j)(*point)
            np.testing.assert_allclose(blocks[i][j], expected, rtol=1e-9, atol=1e-12)


@pytest.mark.parametrize("wrt", [1, (2, "a"), (1, 2)])
@pytest.mark.parametrize("mode", ["auto", "forward", "reverse"])
def test_jacobian_at_positions_inside_star_args(m, wrt, mode):
    import autograd

    args = ARGS["scaled"]  # (a, x of 2, x of 3): xs[1][:2] reads the second
    items = wrt if isinstance(wrt, tuple) else (wrt,)
    positions = [0 if item == "a" else item for item in items]
    J = tl.jacobian(m.vector_out, wrt=wrt, mode=mode)(*args)
    blocks = J if isinstance(wrt, tuple) else (J,)
    g = _at(args, positions, autograd_version(m.vector_out))
    point = [args[k] for k in positions]
    for j, block in enumerate(blocks):
        np.testing.assert_allclose(block, autograd.jacobian(g, j)(*point), rtol=1e-10)


def test_hessian_and_jacobian_at_a_position_beyond_the_arguments_of_a_call(m):
    for make in (tl.hessian, tl.jacobian):
        with pytest.raises(WrtError, match=r"position 3 falls beyond the 2 argument\(s\)"):
            make(m.scaled, wrt=(1, 3))(*ARGS["scaled"])


def test_a_position_beyond_the_arguments_of_a_call_in_jvp_and_hvp(m):
    for make in (tl.jvp, tl.hvp):
        with pytest.raises(WrtError, match=r"position 3 falls beyond the 2 argument\(s\)"):
            make(m.scaled, wrt=3)(*ARGS["scaled"], 1.0)


def test_a_spreading_product_is_not_differentiated_again(m):
    jf = tl.jvp(m.total, wrt=1)
    with pytest.raises(WrtError, match=r"positions inside \*xs, which tangentlike does not"):
        tl.grad(jf, wrt=0)


def test_a_picking_gradient_is_not_differentiated_again(m):
    dg = tl.grad(m.total, wrt=1)
    with pytest.raises(WrtError, match=r"positions inside \*xs, which tangentlike does not"):
        tl.grad(dg, wrt=0)


def test_jvp_at_positions_inside_star_args_checks_its_directions(m):
    """A tuple `wrt` takes a tuple of one direction per argument, given last."""
    jf = tl.jvp(m.scaled, wrt=(0, 2))
    expected = r"with respect to 2 arguments takes a tuple of 2 directions"
    with pytest.raises(WrtError, match=expected):
        jf(*ARGS["scaled"], 1.0)
    with pytest.raises(TypeError, match="pass the direction last"):
        jf()
