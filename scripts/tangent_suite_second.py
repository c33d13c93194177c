"""The second-order check of scripts/tangent_suite_plugin.py: the derivative a Tangent
test had tangentlike build, differentiated again by tangentlike.

For a reverse-mode derivative (a vjp: `df(*args, seed)`), phi(x) = <df(x, seed), u>; for
a forward-mode one (a jvp: `jf(*args, t)`), phi(x) = <jf(x, t)[1], u>, u random. phi is
written as a module-level function (its source readable by tangentlike; one per
generated derivative, so tangentlike's cache builds each second derivative once), the
sums spelled out per part for container arguments (Tangent's dict and tuple tests).
tl.grad(phi) along random moves is compared with central differences of phi; where
differences at two step sizes disagree (a kink of the gradient: Tangent's corpus
evaluates `a > b` branches at a == b), the point has no second derivative to check.
"""

from __future__ import annotations

import functools
import itertools

import numpy
from autograd_suite_plugin import _close, _failure, _inner, _module_function, _randn_like

import tangentlike as tl

EPS = 1e-6


def check(c: dict, rng) -> dict:
    """The outcome of the second-order check of the recorded call `c`."""
    wrt = c["wrt"]
    positions = wrt if isinstance(wrt, tuple) else (wrt,)
    args = tuple(c["args"])
    out = c["df"](*args, c["seed"])
    out = out[1] if c["kind"] == "forward" else out
    parts = (out,) if c["kind"] == "forward" or len(positions) == 1 else tuple(out)
    shapes = tuple(_paths(p) for p in parts)
    phi = _projection(c["df"], c["kind"], len(args), len(parts), shapes)
    extra = (c["seed"], *(_like(p, rng) for p in parts))
    try:
        second = tl.grad(phi, wrt=positions if len(positions) > 1 else positions[0])
        grads = second(*args, *extra)
    except Exception as e:
        return _failure(e, "order 2: ")
    grads = grads if len(positions) > 1 else (grads,)
    moves = [_like(args[i], rng) for i in positions]
    exact = sum(_dot(g, w) for g, w in zip(grads, moves, strict=True))
    return _compare(exact, phi, args, positions, moves, extra)


def check_nested(c: dict, rng) -> dict:
    """The gradient of a gradient a reverse-over-reverse test built (`c["df"]`, the
    tl.grad of the first gradient `c["func"]`, whose output is a number), along random
    moves, against central differences of the first gradient: tighter than the test's
    own comparison (relative 1e-2, NaN counted as 0)."""
    wrt = c["wrt"]
    positions = wrt if isinstance(wrt, tuple) else (wrt,)
    args = tuple(c["args"])
    grads = c["df"](*args)
    grads = grads if len(positions) > 1 else (grads,)
    moves = [_like(args[i], rng) for i in positions]
    exact = sum(_dot(g, w) for g, w in zip(grads, moves, strict=True))
    return _compare(exact, c["func"], args, positions, moves, ())


def _compare(exact: float, phi, args: tuple, positions, moves, extra: tuple) -> dict:
    """ok if `exact` is the derivative of phi along the moves (central differences);
    out of scope where phi has no derivative to check there (not finite, a kink);
    wrong otherwise."""
    numeric = _difference(phi, args, positions, moves, extra, EPS)
    if _close(exact, numeric, 1e-5):
        return {"outcome": "ok"}
    if not numpy.isfinite(numeric):
        why = f"phi is not finite here (outside the function's domain): {numeric!r}"
        return {"outcome": "out of scope", "why": f"order 2: {why}"}
    finer = _difference(phi, args, positions, moves, extra, EPS / 10)
    if not _close(numeric, finer, 1e-3):
        why = f"the gradient has a kink here (differences {numeric!r} and {finer!r})"
        return {"outcome": "out of scope", "why": f"order 2: {why}"}
    return {"outcome": "wrong", "why": f"order 2: {exact!r} vs differences {numeric!r}"}


def _paths(x, path: tuple = ()) -> tuple:
    """The access paths of x's leaves (keys and indices of dicts, lists, tuples)."""
    if isinstance(x, dict):
        return tuple(itertools.chain.from_iterable(_paths(v, (*path, k)) for k, v in x.items()))
    if isinstance(x, (list, tuple)):
        return tuple(itertools.chain.from_iterable(_paths(v, (*path, i)) for i, v in enumerate(x)))
    return (path,)


def _like(x, rng):
    """Random values of x's structure and shapes."""
    if isinstance(x, dict):
        return {k: _like(v, rng) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return type(x)(_like(v, rng) for v in x)
    return _randn_like(x, rng)


def _axpy(x, t: float, w):
    """x + t w, part by part."""
    if isinstance(x, dict):
        return {k: _axpy(v, t, w[k]) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return type(x)(_axpy(v, t, wv) for v, wv in zip(x, w, strict=True))
    return x + t * w


def _dot(g, w) -> float:
    if isinstance(w, dict):
        return sum(_dot(g[k], v) for k, v in w.items())
    if isinstance(w, (list, tuple)):
        return sum(_dot(gv, v) for gv, v in zip(g, w, strict=True))
    return _inner(g, w)


def _difference(phi, args: tuple, positions, moves, extra: tuple, eps: float) -> float:
    def at(t):
        out = list(args)
        for i, w in zip(positions, moves, strict=True):
            out[i] = _axpy(args[i], t, w)
        return float(phi(*out, *extra))

    return (at(eps / 2) - at(-eps / 2)) / eps


@functools.cache
def _projection(df, kind: str, n: int, k: int, shapes: tuple):
    """phi(x0.., seed, u0..) = sum over the k parts of the derivative (and their leaves,
    by their access paths) of np.sum(part * u)."""
    params = [f"x{i}" for i in range(n)]
    names = [f"g{j}" for j in range(k)]
    if kind == "forward":
        first = f"    _, g0 = df({', '.join(params)}, seed)\n"
    else:
        first = f"    {', '.join(names) if k > 1 else 'g0'} = df({', '.join(params)}, seed)\n"
    terms = [
        f"np.sum(np.real({g}{_spell(p)}) * u{j}{_spell(p)})"
        for j, (g, paths) in enumerate(zip(names, shapes, strict=True))
        for p in paths
    ]
    source = (
        "import numpy as np\n\n\n"
        f"def phi({', '.join([*params, 'seed', *(f'u{j}' for j in range(k))])}):\n"
        f"{first}    return {' + '.join(terms)}\n"
    )
    return _module_function("tl_tangent_phi", source, "phi", df=df)


def _spell(path: tuple) -> str:
    return "".join(f"[{p!r}]" for p in path)
