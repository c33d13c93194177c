"""Shared by the forward-mode tests: random tangents and cotangents of any structure,
inner products, and the three checks of one corpus case (jvp value, dot product
against vjp, central differences)."""

from __future__ import annotations

import numpy as np

import tangentlike as tl


def random_like(value, rng):
    """A random float value of `value`'s structure and shapes (None where none)."""
    if isinstance(value, dict):
        return {k: random_like(v, rng) for k, v in value.items()}
    if type(value) in (list, tuple):
        return type(value)(random_like(v, rng) for v in value)
    if isinstance(value, (bool, np.bool_)) or not isinstance(
        value, (int, float, np.ndarray, np.generic)
    ):
        return None
    if np.ndim(value) == 0:
        return float(rng.standard_normal())
    return rng.standard_normal(np.shape(value))


def inner(a, b) -> float:
    """<a, b> over matching structures (None counts as zero)."""
    if a is None or b is None:
        return 0.0
    if isinstance(a, dict):
        return sum(inner(a[k], b.get(k) if isinstance(b, dict) else None) for k in a)
    if isinstance(a, (list, tuple)):
        return sum(inner(x, y) for x, y in zip(a, b, strict=True))
    return float(np.sum(np.asarray(a, dtype=float) * np.asarray(b, dtype=float)))


def axpy(x, t, eps):
    """x + eps t over a structure (parts without a tangent unchanged)."""
    if t is None:
        return x
    if isinstance(x, dict):
        return {k: axpy(v, t.get(k), eps) for k, v in x.items()}
    if type(x) in (list, tuple):
        return type(x)(axpy(v, u, eps) for v, u in zip(x, t, strict=True))
    return x + eps * t


def same(a, b, rtol=1e-7, atol=1e-9) -> bool:
    if isinstance(a, dict):
        return isinstance(b, dict) and set(a) == set(b) and all(same(a[k], b[k]) for k in a)
    if isinstance(a, (list, tuple)):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    try:
        return bool(np.allclose(a, b, rtol=rtol, atol=atol, equal_nan=True))
    except TypeError:
        return a == b


def check_case(f, args, positions, seed=0, fd=True):
    """jvp's value is f's; <u, J t> == <J^T u, t> against vjp; J t against central
    differences. Returns nothing; asserts."""
    rng = np.random.RandomState(seed)
    args = list(args)
    wrt = tuple(positions)
    ts = tuple(random_like(args[i], rng) for i in wrt)
    value, jt = tl.jvp(f, wrt=wrt)(*[_copy(a) for a in args], ts)  # f may change them
    expected = f(*[_copy(a) for a in args])
    assert same(value, expected), (value, expected)
    u = random_like(expected, rng)
    bs = tl.vjp(f, wrt=wrt)(*[_copy(a) for a in args], _copy(u))
    forward = inner(u, jt)
    reverse = sum(inner(b, t) for b, t in zip(bs, ts, strict=True))
    assert np.isclose(forward, reverse, rtol=1e-7, atol=1e-9), (forward, reverse)
    if fd:
        eps = 1e-6
        up = [_copy(a) for a in args]
        down = [_copy(a) for a in args]
        for i, t in zip(wrt, ts, strict=True):
            up[i] = axpy(_copy(args[i]), t, eps)
            down[i] = axpy(_copy(args[i]), t, -eps)
        diff = (inner(u, f(*up)) - inner(u, f(*down))) / (2 * eps)
        assert np.isclose(forward, diff, rtol=1e-4, atol=1e-6), (forward, diff)


def _copy(value):
    if isinstance(value, dict):
        return {k: _copy(v) for k, v in value.items()}
    if type(value) in (list, tuple):
        return type(value)(_copy(v) for v in value)
    if isinstance(value, np.ndarray):
        return value.copy()
    return value


def check_vector(f, args, positions, k=3, seed=1):
    """jvp_vector with k directions equals k single-direction jvps, part by part."""
    from tangentlike.api_forward import jvp_vector

    rng = np.random.RandomState(seed)
    args = list(args)
    wrt = tuple(positions)
    singles = [tuple(random_like(args[i], rng) for i in wrt) for _ in range(k)]
    stacked = tuple(_stack([s[n] for s in singles]) for n in range(len(wrt)))
    value, jts = jvp_vector(f, wrt=wrt)(*[_copy(a) for a in args], stacked)
    jf = tl.jvp(f, wrt=wrt)
    for j, ts in enumerate(singles):
        one_value, jt = jf(*[_copy(a) for a in args], ts)
        assert same(value, one_value)
        assert same(_pick(jts, j), jt), (j, _pick(jts, j), jt)


def _stack(parts):
    first = parts[0]
    if isinstance(first, dict):
        return {k: _stack([p[k] for p in parts]) for k in first}
    if type(first) in (list, tuple):
        return type(first)(_stack([p[i] for p in parts]) for i in range(len(first)))
    if first is None:
        return None
    return np.stack([np.asarray(p, dtype=float) for p in parts])


def _pick(value, j):
    if isinstance(value, dict):
        return {k: _pick(v, j) for k, v in value.items()}
    if type(value) in (list, tuple):
        return type(value)(_pick(v, j) for v in value)
    if value is None:
        return None
    return value[j]
