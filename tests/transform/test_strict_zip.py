"""Loops over `zip(..., strict=True)` (normalize/desugar.py): the loop runs over the
positions every sequence has, as a non-strict zip's does, and ends (without break or
return) with runtime.zip_strict_end, which raises Python's own ValueError when the
lengths differ. Gradients (reverse, forward, hvp) against autograd and central
differences; unequal lengths raise from every derivative as from f, with f's message,
after the loop as in Python (a break before the end raises nothing)."""

from __future__ import annotations

import itertools

import autograd
import numpy as np
import pytest
from reference import autograd_version, load_module

import tangentlike as tl
from tangentlike import runtime
from tangentlike.errors import TangentlikeError

SOURCE = """
import numpy as np

import tangentlike as tl


def weighted(x, ws):
    s = 0.0
    for a, w in zip(x, ws, strict=True):
        s = s + np.sin(a) * w
    return s


def three(x, ws, vs):
    s = 0.0
    for a, w, v in zip(x, ws, vs, strict=True):
        s = s + a * a * w + np.cos(a * v)
    return s


def counted(x, ws):
    s = 0.0
    for i, (a, w) in enumerate(zip(x, ws, strict=True)):
        s = s + (i + 1.0) * np.tanh(a * w)
    return s


def shifted(x):
    s = 0.0
    for a, b in zip(x[:-1], x[1:], strict=True):
        s = s + a * np.exp(b)
    return s


def comprehension(x, ws):
    return np.sum(np.array([a * a * w for a, w in zip(x, ws, strict=True)]))


def stopped(x, ws):
    s = 0.0
    for a, w in zip(x, ws, strict=True):
        s = s + a * a * w
        if s > 100.0:
            break
    return s


def returns_early(x, ws):
    s = 0.0
    for a, w in zip(x, ws, strict=True):
        s = s + a * w
        if s > 100.0:
            return s * s
    return s


def with_else(x, ws):
    s = 0.0
    for a, w in zip(x, ws, strict=True):
        s = s + a * a * w
    else:
        s = s * 2.0
    return s


def checkpointed(x, ws):
    s = 0.5
    for a, w in tl.checkpointed(zip(x, ws, strict=True), every=2):
        s = s * np.cos(a) + w * a
    return s


def keyed(x, ks):
    m = dict(zip(ks, x, strict=True))
    return m["a"] * m["b"] + np.sin(m["c"])


def generator(x, ws):
    return sum(a * a * w for a, w in zip(x, ws, strict=True))


def nested(x, ws, vs):
    s = 0.0
    for a, (w, v) in zip(x, zip(ws, vs, strict=True)):
        s = s + a * w * v
    return s
"""

X = np.array([0.3, -0.8, 1.1])
WS = [0.5, 2.0, -1.5]
VS = np.array([1.2, 0.4, -0.7])
CASES = {
    "weighted": (X, WS),
    "three": (X, WS, VS),
    "counted": (X, WS),
    "shifted": (X,),
    "comprehension": (X, WS),
    "stopped": (X, WS),
    "returns_early": (X, WS),
    "with_else": (X, WS),
    "checkpointed": (X, WS),
    "keyed": (X, ["a", "b", "c"]),
    "generator": (X, WS),
}


@pytest.fixture(scope="module")
def m(tmp_path_factory):
    return load_module(tmp_path_factory.mktemp("strict_zip"), SOURCE, name="tl_strict_zip")


def _fd(f, args, u, eps=1e-6):
    up, down = (args[0] + eps * u, *args[1:]), (args[0] - eps * u, *args[1:])
    return (f(*up) - f(*down)) / (2 * eps)


@pytest.mark.parametrize("name", list(CASES))
def test_gradient_against_autograd_and_differences(m, name):
    f, args = getattr(m, name), CASES[name]
    g = tl.grad(f)(*args)
    assert np.allclose(g, autograd.grad(autograd_version(f))(*args), rtol=1e-12, atol=1e-14)
    u = np.array([0.4, -1.0, 0.6])
    assert np.sum(g * u) == pytest.approx(_fd(f, args, u), rel=1e-6, abs=1e-9)


@pytest.mark.parametrize("name", list(CASES))
def test_forward_and_hvp(m, name):
    f, args = getattr(m, name), CASES[name]
    u = np.array([0.4, -1.0, 0.6])
    value, slope = tl.jvp(f)(*args, u)
    assert value == pytest.approx(f(*args))
    assert slope == pytest.approx(float(np.sum(tl.grad(f)(*args) * u)), rel=1e-12)
    if name in NO_HVP:
        return
    hv = tl.hvp(f)(*args, u)
    differences = _fd(tl.grad(f), args, u)
    assert np.allclose(hv, differences, rtol=1e-5, atol=1e-8)


# dict(zip(...)) at second order: undict_of has no second-order rule (strict or not)
NO_HVP = {"keyed"}
UNEQUAL = {
    "weighted": [(X, WS[:2]), (X, [*WS, 1.0])],
    "three": [(X, WS, VS[:2]), (X, WS[:2], VS), (X, [*WS, 1.0], VS)],
    "counted": [(X, WS[:2]), (X, [*WS, 1.0])],
    "comprehension": [(X, WS[:2])],
    "with_else": [(X, WS[:1])],
    "checkpointed": [(X, WS[:2])],
    "keyed": [(X, ["a", "b", "c", "d"])],
    "generator": [(X, [*WS, 1.0])],
}


def _message(f, args) -> str:
    with pytest.raises(ValueError) as raised:
        f(*args)
    return str(raised.value)


@pytest.mark.parametrize(
    ("name", "k"), [(n, k) for n, cases in UNEQUAL.items() for k in range(len(cases))]
)
def test_unequal_lengths_raise_from_every_derivative_as_from_f(m, name, k):
    f, args = getattr(m, name), UNEQUAL[name][k]
    expected = _message(f, args)
    assert expected.startswith("zip() argument")
    u = np.ones_like(X)
    derivatives = [
        tl.grad(f),
        tl.value_and_grad(f),
        lambda *a: tl.jvp(f)(*a, u),
    ]
    if name not in NO_HVP:
        derivatives.append(lambda *a: tl.hvp(f)(*a, u))
    for derivative in derivatives:
        assert _message(derivative, args) == expected


def test_a_break_before_the_end_raises_nothing(m):
    """Python's strict zip raises only when the loop asks for the item after the shortest
    sequence's last: a loop that breaks (or returns) first ends without error."""
    big = np.array([300.0, 1.0, 1.0])
    for name in ("stopped", "returns_early"):
        f = getattr(m, name)
        args = (big, [1.0, 1.0])
        expected = autograd.grad(autograd_version(f))(*args)
        assert np.allclose(tl.grad(f)(*args), expected)


def test_a_strict_zip_inside_another_zip_stays_refused(m):
    """The inner zip may stop before its end (the outer one stops first): not lowered,
    refused at its line as before."""
    with pytest.raises(TangentlikeError) as raised:
        tl.grad(m.nested)(X, WS, VS)
    message = str(raised.value)
    assert "zip" in message
    assert "a zip(..., strict=True) inside another zip" in message
    assert "zip(ws, vs, strict=True)" in raised.value.location.text  # the line, shown
    assert "zip all the sequences in one zip(..., strict=True)" in raised.value.hint


def _python(lengths: tuple[int, ...]) -> str | None:
    try:
        for _ in zip(*(range(n) for n in lengths), strict=True):
            pass
    except ValueError as e:
        return str(e)
    return None


@pytest.mark.parametrize("k", [2, 3, 4])
def test_the_check_raises_what_python_raises(k):
    for lengths in itertools.product(range(4), repeat=k):
        expected = _python(lengths)
        if expected is None:
            assert runtime.zip_strict_end(*lengths) is None
            continue
        with pytest.raises(ValueError) as raised:
            runtime.zip_strict_end(*lengths)
        assert str(raised.value) == expected
