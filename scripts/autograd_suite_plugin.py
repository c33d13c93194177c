"""A pytest plugin that re-runs autograd's own gradient checks with tangentlike.

autograd's tests check gradients through `autograd.test_util.check_grads(fun, argnum)`
(also inside `combo_check`). This plugin replaces that function: `fun` is rebound to
plain NumPy/SciPy (a copy whose globals and closure cells name `numpy` where they named
`autograd.numpy`, recursively for the test's own helper functions), differentiated with
`tl.vjp(fun, wrt=argnum)`, and checked the way autograd checks itself: a random
cotangent and a random direction, the vector-Jacobian product against central
differences (autograd's tolerances). Each call's outcome is recorded, never raised, so
one test's later checks still run; `TL_AUTOGRAD_OUT` names the JSON file written at the
end: for every test that called check_grads, the outcome of each call.

Outcomes: ok; refused (a tangentlike error: the construct or rule is not supported);
wrong (the gradient differs from central differences); crash (any other exception
from tangentlike or from the generated code). Reverse mode; `TL_AUTOGRAD_ORDER=2`
checks the second order instead: where the first-order check passes, the generated
vector-Jacobian product itself is differentiated (tl.grad of x -> <vjp(x, seed), u>)
and checked the same way against central differences of the generated product.
"""

from __future__ import annotations

import importlib
import itertools
import json
import os
import sys
import tempfile
import types
from pathlib import Path

import numpy
import pytest

import tangentlike as tl

TOL = RTOL = 1e-6  # autograd.test_util's
EPS = 1e-6
_results: dict[str, list[dict]] = {}
_current: list[str] = [""]
_wrappers = itertools.count()


def _plain(value, seen: dict):
    """The NumPy/SciPy object an autograd object stands for; test helpers copied."""
    if isinstance(value, types.ModuleType):
        name = value.__name__
        if name == "autograd.numpy" or name.startswith(("autograd.numpy.", "autograd.scipy")):
            return importlib.import_module(name.removeprefix("autograd."))
        return value
    if isinstance(value, types.FunctionType) and _in_autograd(value):
        wrapped = getattr(value, "fun", None)  # a primitive: the NumPy/SciPy function
        if wrapped is not None and not (
            isinstance(wrapped, types.FunctionType) and _in_autograd(wrapped)
        ):
            return wrapped
        module = value.__module__ or ""
        target = (
            "numpy" if module.startswith("autograd.numpy") else module.removeprefix("autograd.")
        )
        try:
            return getattr(importlib.import_module(target), value.__name__)
        except (ImportError, AttributeError):
            return value  # autograd's own operators (grad, ...): out of scope
    if isinstance(value, types.FunctionType) and not (value.__module__ or "").startswith("numpy"):
        return _twin(value, seen)
    return value


def _in_autograd(f: types.FunctionType) -> bool:
    return f"{os.sep}autograd{os.sep}" in f.__code__.co_filename


def _names(code: types.CodeType) -> set[str]:
    """The global names `code` and the code nested in it read."""
    names = set(code.co_names)
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            names |= _names(const)
    return names


def _twin(f: types.FunctionType, seen: dict) -> types.FunctionType:
    """A copy of `f` that sees NumPy where f saw autograd.numpy."""
    if f in seen:
        return seen[f]
    glb = dict(f.__globals__)
    seen[f] = f  # while copying: a function that refers to itself keeps the original
    cells = None
    if f.__closure__:
        cells = tuple(types.CellType(_plain(c.cell_contents, seen)) for c in f.__closure__)
    copy = types.FunctionType(f.__code__, glb, f.__name__, f.__defaults__, cells)
    seen[f] = copy
    read = _names(f.__code__) & set(glb)  # only what f reads: other tests stay as they are
    for k in read:
        glb[k] = _plain(glb[k], seen)
    values = [f.__globals__[name] for name in read]
    values += [c.cell_contents for c in cells or ()]
    if any(
        isinstance(v, types.FunctionType) and _in_autograd(v) and _plain(v, {}) is v for v in values
    ):
        seen["autograd operator"] = True  # grad(...) inside: a higher-order test
    copy.__kwdefaults__ = f.__kwdefaults__
    copy.__qualname__ = f.__qualname__
    copy.__module__ = f.__module__
    return copy


def _wrapper(fun, args: tuple, positions: tuple[int, ...], kwargs: dict):
    """A plain function of the positional arguments that calls `fun` with `kwargs`, as a
    user would write it (a module on disk, so that its source can be read): arguments
    not differentiated that are plain constants (ints, strings, lists of them: einsum's
    sublists, axes) are written into the call as literals."""
    params = ", ".join(f"x{i}" for i in range(len(args)))
    passed = [
        repr(a) if i not in positions and _literal(a) else f"x{i}" for i, a in enumerate(args)
    ]
    extra = "".join(f", {k}={v!r}" for k, v in kwargs.items())
    source = f"def call({params}):\n    return fun({', '.join(passed)}{extra})\n"
    return _module_function("tl_ag_wrap", source, "call", fun=fun)


def _module_function(stem: str, source: str, name: str, **names):
    """Function `name` of `source` written as a module on disk (its source readable by
    tangentlike), with `names` bound in it."""
    path = Path(tempfile.mkdtemp(prefix="tl-ag-")) / f"{stem}_{next(_wrappers)}.py"
    path.write_text(source)
    spec = importlib.util.spec_from_file_location(path.stem, path)
    module = importlib.util.module_from_spec(spec)
    vars(module).update(names)
    spec.loader.exec_module(module)
    sys.modules[path.stem] = module
    return getattr(module, name)


def _literal(value) -> bool:
    if value is None or type(value) in (int, str, bool):
        return True
    return type(value) in (list, tuple) and all(_literal(v) for v in value)


def _inner(a, b) -> float:
    return float(numpy.real(numpy.sum(numpy.asarray(a) * numpy.asarray(b))))


def _randn_like(x, rng):
    if numpy.ndim(x) == 0 and not isinstance(x, numpy.ndarray):
        return float(rng.standard_normal())
    return rng.standard_normal(numpy.shape(x))


def _check(fun, argnum, args: tuple, kwargs: dict) -> dict:
    seen: dict = {}
    plain = _plain(fun, seen)
    if isinstance(plain, types.FunctionType) and _in_autograd(plain):
        return {"outcome": "out of scope", "why": "a function made by autograd (grad, ...)"}
    if seen.get("autograd operator"):
        return {"outcome": "out of scope", "why": "calls autograd's grad inside (higher order)"}
    positions = (argnum,) if isinstance(argnum, int) else tuple(argnum)
    if kwargs or not isinstance(plain, types.FunctionType):  # a NumPy function itself
        plain = _wrapper(plain, args, positions, kwargs)
    if any(numpy.iscomplexobj(args[i]) for i in positions):
        return {"outcome": "out of scope", "why": "complex input"}
    rng = numpy.random.default_rng(0)
    try:
        y = plain(*args)
    except Exception as e:  # the plain NumPy twin cannot run: the harness's limit
        return {"outcome": "out of scope", "why": f"numpy twin raises {type(e).__name__}: {e}"}
    if numpy.iscomplexobj(y) or not isinstance(y, (float, int, numpy.ndarray, numpy.generic)):
        return {"outcome": "out of scope", "why": f"output of type {type(y).__name__}"}
    seed = _randn_like(y, rng)
    wrt = positions if len(positions) > 1 else positions[0]
    try:
        df = tl.vjp(plain, wrt=wrt)
        grads = df(*args, seed)
    except Exception as e:
        return _failure(e, "")
    grads = grads if len(positions) > 1 else (grads,)
    directions = [_randn_like(args[i], rng) for i in positions]
    exact = sum(_inner(g, u) for g, u in zip(grads, directions, strict=True))
    numeric = _inner(_difference(plain, args, positions, directions, ()), seed)
    if not _close(exact, numeric):
        return {"outcome": "wrong", "why": f"vjp {exact!r} vs differences {numeric!r}"}
    if os.environ.get("TL_AUTOGRAD_ORDER") == "2":
        return _check_second(df, args, positions, seed, directions, rng)
    return {"outcome": "ok"}


def _failure(error: Exception, prefix: str) -> dict:
    """The outcome of an exception from tangentlike or the code it generated: refused
    (a tangentlike error, its first line) or crash (anything else)."""
    if isinstance(error, tl.TangentlikeError):
        first = str(error).splitlines()[0] if str(error) else ""
        return {"outcome": "refused", "why": f"{prefix}{type(error).__name__}: {first}"}
    return {"outcome": "crash", "why": f"{prefix}{type(error).__name__}: {error}"}


def _difference(f, args: tuple, positions, moves, extra: tuple):
    """Central difference of f(*args, *extra) along `moves` at the `positions`."""

    def at(t):
        out = list(args)
        for i, w in zip(positions, moves, strict=True):
            out[i] = args[i] + t * w
        return numpy.asarray(f(*out, *extra))

    return (at(EPS / 2) - at(-EPS / 2)) / EPS


def _close(exact: float, numeric: float, tol: float = TOL) -> bool:
    """autograd's test: absolutely or relatively close. Without a division: where
    exact == -numeric (a flipped sign) the quotient raised ZeroDivisionError, which the
    harness counted out of scope instead of wrong. NaN is never close."""
    diff = abs(exact - numeric)
    return bool(diff < tol or diff < tol * abs(exact + numeric))


def _check_second(df, args: tuple, positions: tuple[int, ...], seed, directions, rng) -> dict:
    """The gradient of the generated gradient: phi(x) = <df(x, seed), u> differentiated
    by tangentlike, along new directions, against central differences of phi."""
    phi = _projection(df, len(args), positions)
    extra = (seed, *directions)
    try:
        second = tl.grad(phi, wrt=positions if len(positions) > 1 else positions[0])
        grads = second(*args, *extra)
    except Exception as e:
        return _failure(e, "order 2: ")
    grads = grads if len(positions) > 1 else (grads,)
    moves = [_randn_like(args[i], rng) for i in positions]
    exact = sum(_inner(g, w) for g, w in zip(grads, moves, strict=True))
    numeric = float(_difference(phi, args, positions, moves, extra))
    if not _close(exact, numeric, 1e-5):  # differences of a gradient: one order less exact
        return {"outcome": "wrong", "why": f"order 2: {exact!r} vs differences {numeric!r}"}
    return {"outcome": "ok"}


def _projection(df, n: int, positions: tuple[int, ...]):
    """A module-level function (its source readable) of the arguments, the seed and one
    direction per differentiated argument: the generated gradient's value along them."""
    params = [f"x{i}" for i in range(n)]
    dirs = [f"u{k}" for k in range(len(positions))]
    grads = "g" if len(positions) == 1 else ", ".join(f"g{k}" for k in range(len(positions)))
    names = ["g"] if len(positions) == 1 else [f"g{k}" for k in range(len(positions))]
    terms = " + ".join(f"np.sum(np.real({g}) * {u})" for g, u in zip(names, dirs, strict=True))
    source = (
        "import numpy as np\n\n\n"
        f"def phi({', '.join([*params, 'seed', *dirs])}):\n"
        f"    {grads} = df({', '.join(params)}, seed)\n"
        f"    return {terms}\n"
    )
    return _module_function("tl_ag_phi", source, "phi", df=df)


def check_grads(fun, argnum=0, modes=None, order=2):
    def run(*args, **kwargs):
        if modes is not None and "rev" not in modes:
            return
        if os.environ.get("TL_AUTOGRAD_ORDER") == "2" and order < 2:
            # autograd itself checks this call at order 1 only (a kink: abs at 0)
            record = {"outcome": "out of scope", "why": "the test checks order 1 here"}
            record["function"] = getattr(fun, "__name__", repr(fun))
            _results.setdefault(_current[0], []).append(record)
            return
        try:
            record = _check(fun, argnum, args, kwargs)
        except Exception as e:  # the harness itself failed on this call
            record = {"outcome": "out of scope", "why": f"harness: {type(e).__name__}: {e}"}
        record["function"] = getattr(fun, "__name__", repr(fun))
        _results.setdefault(_current[0], []).append(record)

    return run


def pytest_configure(config):
    import autograd.test_util

    autograd.test_util.check_grads = check_grads


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item):
    _current[0] = item.nodeid


def pytest_unconfigure(config):
    out = os.environ.get("TL_AUTOGRAD_OUT")
    if out:
        Path(out).write_text(json.dumps(_results, indent=1))
