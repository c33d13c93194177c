"""Random programs that WRITE into their list and dict arguments, against differences
(reverse and forward mode).

`f(P, xs, x)` takes a dict of parameters, a list of vectors and a vector, and mixes
reads with writes into the caller's containers: item and key assignment (reading the
old item or not), augmented assignment of a float entry, append, pop, new keys,
loops that rewrite every item. Two things must hold for every program that is not
refused with a located error:

- the gradient with respect to the arguments' values at the call (before f changes
  them) agrees with central differences along a random direction;
- the caller's containers end up exactly as when f itself runs (same keys, length,
  values), since `df` runs f's forward computation.

autograd cannot be the oracle here: its boxed containers refuse item assignment.
"""

from __future__ import annotations

import itertools

import numpy as np
from hypothesis import given
from hypothesis import strategies as st
from reference import load_module

import tangentlike as tl
from tangentlike.errors import TangentlikeError

WRITES = [
    "P['b'] = P['b'] * {a}",
    "P['b'] = np.tanh({a})",
    "P['s'] += np.sum({a}) * 0.5",
    "P['s'] = P['s'] * 1.5",
    "xs[{i}] = np.sin(xs[{i}]) + {a}",
    "xs[{i}] = {a} * 0.5",
    "xs.append({a} * 2.0)",
    "P['new'] = {a} + P['b']",
    "for k in range(len(xs)):\n    xs[k] = xs[k] * {a}",
    "xs[{i}] *= 0.5",
    "P['W'] = P['W'] * 0.9",
]

READS = [
    "v{n} = np.tanh(P['W'] @ {a}) * P['s']",
    "v{n} = sum(xs) * {a}",
    "v{n} = {a} * xs[{i}] + P['b']",
    "v{n} = xs.pop() * {a}",
    "v{n} = np.exp(-{a} * {a}) + P.get('new', 0.0)",
]

_ids = itertools.count()


@st.composite
def programs(draw) -> str:
    arrays, lines = ["x"], []
    for n in range(draw(st.integers(2, 6))):
        a = draw(st.sampled_from(arrays))
        i = draw(st.sampled_from(["0", "-1", "1"]))
        if draw(st.booleans()):
            lines.append(draw(st.sampled_from(WRITES)).format(a=a, i=i))
        else:
            lines.append(draw(st.sampled_from(READS)).format(n=n, a=a, i=i))
            arrays.append(f"v{n}")
    result = f"np.sum({arrays[-1]} ** 2) + np.sum({arrays[-2]})" if len(arrays) > 1 else "0.0"
    result += " + np.sum(P['b'] * P['s']) + np.sum(xs[0] ** 2)"
    body = "\n".join(lines) + f"\nreturn {result}"
    indented = "\n".join("    " + line for line in body.splitlines())
    return f"import numpy as np\n\n\ndef f(P, xs, x):\n{indented}\n"


def _arguments(seed: int) -> tuple[dict, list, np.ndarray]:
    r = np.random.RandomState(seed)
    P = {"W": r.randn(3, 3) * 0.5, "b": r.randn(3), "s": 0.7}
    xs = [r.randn(3) for _ in range(3)]
    return P, xs, r.randn(3)


def _copy(args: tuple) -> tuple:
    P, xs, x = args
    return (
        {k: np.copy(v) if isinstance(v, np.ndarray) else v for k, v in P.items()},
        [np.copy(v) for v in xs],
        np.copy(x),
    )


def _flat(args: tuple) -> np.ndarray:
    P, xs, x = args
    return np.concatenate([np.ravel(P[k]) for k in ("W", "b", "s")] + [*xs, x])


def _unflat(v: np.ndarray) -> tuple:
    W, b, s = v[:9].reshape(3, 3), v[9:12], float(v[12])
    xs = [v[13 + 3 * k : 16 + 3 * k] for k in range(3)]
    return {"W": W, "b": b, "s": s}, xs, v[22:25]


def _flat_gradient(grads: tuple) -> np.ndarray:
    gP, gxs, gx = grads
    return np.concatenate(
        [np.ravel(gP[k]) for k in ("W", "b", "s")] + [np.ravel(g) for g in gxs[:3]] + [gx]
    )


def _same_containers(a: tuple, b: tuple) -> None:
    (Pa, xa, _), (Pb, xb, _) = a, b
    assert sorted(Pa) == sorted(Pb)
    for k in Pa:
        np.testing.assert_allclose(Pa[k], Pb[k], rtol=1e-12, atol=1e-12)
    assert len(xa) == len(xb)
    for u, v in zip(xa, xb, strict=True):
        np.testing.assert_allclose(u, v, rtol=1e-12, atol=1e-12)


@given(source=programs(), seed=st.integers(0, 2**16))
def test_writes_into_container_arguments_match_differences(tmp_path_factory, source, seed):
    module = load_module(tmp_path_factory.mktemp("cw"), source, name=f"cw_{next(_ids)}")
    args = _arguments(seed)
    expected_after = _copy(args)
    try:
        module.f(*expected_after)
    except (IndexError, KeyError):  # popped or indexed past the end: not a program
        return
    called = _copy(args)
    try:
        grads = tl.grad(module.f, wrt=(0, 1, 2))(*called)
    except TangentlikeError as err:  # refused: must say where
        assert err.location is not None, str(err)
        return
    _same_containers(called, expected_after)

    def value(v: np.ndarray) -> float:
        return float(module.f(*_copy(_unflat(v))))

    point = _flat(args)
    u = np.random.RandomState(seed + 1).standard_normal(point.shape)
    eps = 1e-6
    slope = (value(point + eps * u) - value(point - eps * u)) / (2 * eps)
    actual = float(_flat_gradient(grads) @ u)
    assert np.isclose(actual, slope, rtol=1e-5, atol=1e-6), (actual, slope, source)

    called = _copy(args)  # forward mode: J u, and the caller's containers as f leaves them
    try:
        _, tangent = tl.jvp(module.f, wrt=(0, 1, 2))(*called, _unflat(u))
    except TangentlikeError as err:
        assert err.location is not None, str(err)
        return
    _same_containers(called, expected_after)
    assert np.isclose(tangent, slope, rtol=1e-5, atol=1e-6), (tangent, slope, source)
