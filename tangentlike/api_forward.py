"""Forward-mode entry points: jvp (one direction, or k at once) and jacobian.

`jvp(f, wrt)(*args, t)` returns `(f(*args), J t)`: generated forward-mode source
(pipeline_forward.ForwardBuilder), kept current like a gradient (live.Live: guards
checked before each call, rebuilt when what it was built from changes) and cached
in memory per function and options. `jacobian(f, wrt, mode)` builds the full
Jacobian, shape `out.shape + x.shape`: forward mode runs one vector-mode jvp with
the identity as its k-wide tangents (k = the input's size); reverse mode runs vjp
once per output element (a loop over rows: reverse mode has no batched seeds).
"""

from __future__ import annotations

import functools
import threading
import types
import warnings
import weakref
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from . import packed, specialize
from .api import vjp
from .build import cached
from .errors import JitError, JitWarning, UnknownClassError, WrtError
from .gradients import _function_for, disk_cache
from .job import Job, Mode, resolve_wrt
from .live import Built, Live, refreshed, show
from .parse.record import Recorder
from .parse.source import peel_bound, unwrap
from .pipeline import ModuleText
from .pipeline_forward import ForwardBuilder
from .rules.registry import Registry, default_registry
from .structure import call_arguments
from .wrapper import _check_differentiable, _reraise_check, reraise_primal_error

Wrt = int | str | Sequence[int | str]

_cache: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
_lock = threading.Lock()


def jvp(
    f: Callable,
    wrt: Wrt = 0,
    *,
    optimize: bool = True,
    verbose: int = 0,
    jit: bool | str = False,
) -> Callable:
    """The Jacobian-vector product of `f`: `jf(*args, t)` returns `(f(*args), J t)`.

    `t` is shaped like the `wrt` argument (a tuple of such for a tuple `wrt`; a
    container argument takes a tangent of its structure, None for a zero part);
    the tangent of the output has the output's structure (array, tuple, dict).
    `jit=True` runs the tangent code compiled by numba in nopython mode (numbers and
    arrays; `pip install tangentlike[jit]`), refusing with a located JitError what it
    cannot compile; `jit="auto"` runs the Python code instead, with one JitWarning."""
    return _jvp(f, wrt, optimize, verbose, vector=False, jit=jit)


def jvp_vector(f: Callable, wrt: Wrt = 0, *, optimize: bool = True, verbose: int = 0) -> Callable:
    """`jvp` for k directions in one pass: `t` has a leading axis of length k (each
    part of a container tangent too), and so has every part of the returned tangent."""
    return _jvp(f, wrt, optimize, verbose, vector=True)


def _jvp(
    f: Callable,
    wrt: Wrt,
    optimize: bool,
    verbose: int,
    vector: bool,
    param_types: tuple[tuple[str, type], ...] = (),
    jit: bool | str = False,
) -> Callable:
    if not (jit is True or jit is False or jit == "auto"):
        raise TypeError(f'jit= takes True, False or "auto", not {jit!r}')
    packed.refuse_again(f)
    rebuild = functools.partial(_jvp, optimize=optimize, verbose=verbose, vector=vector, jit=jit)
    if hasattr(f, "__tangentlike_bound__"):  # the derivative of a bound method, partial...
        return specialize.of_bound_derivative(f, wrt, rebuild)
    if peel_bound(f) is not None:  # a bound method, partial or callable object
        return specialize.bound(f, *resolve_wrt(f, wrt), rebuild)
    if hasattr(f, "__tangentlike_live__"):  # a gradient: its code as it runs now
        refreshed(f)
    func = unwrap(f)
    if not isinstance(func, types.FunctionType):
        func = _function_for(func)
    inside = None if vector else packed.request(func, wrt)
    if inside is not None:  # positions inside *args: the whole tuple's jvp, spread
        whole = _jvp(f, inside.wrt, optimize, verbose, vector, param_types, jit)
        return packed.spreading(whole, inside, picks_result=False)
    key = (tuple(wrt) if isinstance(wrt, list) else wrt, optimize, vector, param_types, jit)
    found = _cache.get(func, {}).get(key)
    if found is not None:
        if verbose:
            print(found.source)
        return found
    names, single = resolve_wrt(func, wrt)
    registry = default_registry()

    # a gradient made by tangentlike stands for the code it runs now (gradients.py)
    front = f if hasattr(f, "__tangentlike_live__") else None

    def build() -> Built:
        now = func if front is None else unwrap(refreshed(front))
        return _build(now, names, optimize, vector, registry, dict(param_types), front)

    try:
        live = Live(build(), build)
    except UnknownClassError as err:  # built at each call, for its arguments' classes
        if param_types:
            raise
        return specialize.per_call(func, wrt, names, True, err, rebuild)
    wrapper = _wrap(func, live, names, single, _compiled(func, names, live, jit))
    show(wrapper, live.built)
    wrapper.__tangentlike_live__ = live
    live.wrappers.append(wrapper)
    with _lock:
        _cache.setdefault(func, {})[key] = wrapper
    if verbose:
        print(wrapper.source)
    return wrapper


def _build(
    func: Callable,
    wrt: tuple[str, ...],
    optimize: bool,
    vector: bool,
    registry: Registry,
    param_types: dict[str, type],
    front: Callable | None = None,
) -> Built:
    """`front`: the tangentlike gradient `func` is the generated code of (watched, so that
    this jvp is rebuilt when that gradient is rebuilt or refreshed, as build.build does)."""
    roots: dict[str, object] = {"entry": func}
    roots.update({f"param:{p}": t for p, t in param_types.items()})
    if front is not None:
        roots["given"] = front
    mode = Mode.VECTOR_JVP if vector else Mode.JVP
    job = Job(func, wrt, len(wrt) == 1, mode=mode, optimize=optimize)

    def transform() -> tuple[str, ModuleText, Recorder]:
        builder = ForwardBuilder(registry, job=job, recorder=Recorder(dict(roots)), vector=vector)
        if front is not None:
            builder.recorder.watch(front, "current")
        name = builder.jvp_entry(func, wrt, param_types)
        source = f"{builder.parsed[0].basename}:{builder.parsed[0].first_line}"
        return name, builder.render(job.header(source, name)), builder.recorder

    # the disk cache key: the job's options, its mode (jvp, k-wide or not) among them
    return cached(job.disk_options(), roots, registry, disk_cache(True), transform)


def _compiled(func: Callable, wrt: tuple[str, ...], live: Live, jit: bool | str) -> Any:
    """With `jit`, the compiled jvp standing for the generated function (jit/compiled.py),
    its lowering checked now so that `jvp` itself refuses what cannot be compiled
    (jit="auto": a warning, and None: the Python code runs)."""
    if not jit:
        return None
    from .jit import compiled

    job = Job(func, wrt, len(wrt) == 1, mode=Mode.JVP, jit=jit)
    try:
        compiled.check_lowering(live.built, job)
    except JitError as err:
        if jit != "auto":
            raise
        warnings.warn(
            f"jit='auto': running the Python jvp of {func.__qualname__}: {err}",
            JitWarning,
            stacklevel=4,
        )
        return None
    return compiled.JitGradient(job, live, None, disk_cache(True))


def _wrap(
    func: Callable,
    live: Live,
    wrt: tuple[str, ...],
    single: bool,
    compiled: Any = None,
) -> Callable:
    """`jf(*args, t)`: the tangents passed by keyword to the generated function (its
    last parameters are the tangents, positional or keyword-only); jf also takes them by
    those keywords (`jf(x, dx=t)`). `compiled`: the compiled jvp
    (jit/compiled.JitGradient), called instead of it."""
    import inspect

    generated = live.caller() if compiled is None else compiled.generic()
    params = list(inspect.signature(live.built.generated).parameters)
    keywords = params[len(params) - len(wrt) :]
    kwarg = [
        p.name
        for p in inspect.signature(live.built.generated).parameters.values()
        if p.kind is p.VAR_KEYWORD
    ]
    if kwarg:  # the tangents come just before **kwargs
        keywords = params[len(params) - len(wrt) - 1 : -1]
    positions = {p: i for i, p in enumerate(inspect.signature(func).parameters)}

    def jf(*args, **kwargs):
        by_keyword = [k for k in keywords if k in kwargs]
        if by_keyword:  # jf(x, dx=t): the generated function's own spelling
            if len(by_keyword) != len(keywords):
                missing = ", ".join(k for k in keywords if k not in kwargs)
                raise TypeError(f"jvp: the tangents passed by keyword lack {missing}")
            primal = list(args)
            t = tuple(kwargs.pop(k) for k in keywords)
            t = t[0] if single else t
        elif not args:
            raise TypeError("jvp: pass the tangent (shaped like the wrt argument) last")
        else:
            *primal, t = args
        if single:
            t = (t,)
        elif not isinstance(t, (tuple, list)) or len(t) != len(wrt):
            raise WrtError(
                f"jvp with respect to {', '.join(wrt)} takes a tuple of {len(wrt)} tangents, "
                f"one per argument, not {type(t).__name__}"
            )
        for n in wrt:
            i = positions[n]
            value = primal[i] if i < len(primal) else kwargs.get(n)
            _check_differentiable(value, n, func)
        try:
            return generated(*primal, **kwargs, **dict(zip(keywords, t, strict=True)))
        except ValueError as err:
            reraise_primal_error(func, tuple(primal), kwargs, err)
            _reraise_check(err, func)
            raise

    functools.update_wrapper(jf, func, assigned=("__module__", "__doc__"), updated=())
    jf.__name__ = live.built.generated.__name__
    jf.__qualname__ = live.built.generated.__qualname__
    jf.wrt = wrt
    # the keywords it also takes its tangents by, which a differentiated function calling
    # it passes them as (normalize/jvp_calls.py), and whether it takes one tangent
    jf.__tangentlike_jvp__ = (tuple(keywords), single)
    if compiled is not None:
        jf.jit_sources = compiled.sources  # the lowered module numba compiles
    return jf


# ---------------------------------------------------------------------------
# Jacobians


def jacobian(f: Callable, wrt: Wrt = 0, *, mode: str = "auto") -> Callable:
    """The Jacobian of `f`: `J(*args)` has shape `out.shape + x.shape` (a tuple `wrt`
    gives a tuple of blocks; a tuple or dict output the same container of them).

    mode "forward": one vector-mode jvp, the identity as tangents (cost ~ input size);
    "reverse": one vjp per output element; "auto": forward when the input is smaller
    than the output, else reverse."""
    if mode not in ("auto", "forward", "reverse"):
        raise ValueError(f'jacobian: mode must be "auto", "forward" or "reverse", not {mode!r}')
    if hasattr(f, "__tangentlike_bound__"):  # the derivative of a bound method, partial...
        return specialize.of_bound_derivative(f, wrt, functools.partial(jacobian, mode=mode))
    plain = specialize.on_plain(functools.partial(jacobian, mode=mode), f, wrt)
    if plain is not None:  # a bound method, partial or callable object
        return plain
    func = unwrap(f)
    inside = packed.request(func, wrt) if isinstance(func, types.FunctionType) else None
    if inside is None:
        names, single = resolve_wrt(
            func if isinstance(func, types.FunctionType) else _function_for(func), wrt
        )
    else:  # positions inside *args: columns of jvp, or rows of vjp, which spread and pick
        names, single = inside.wrt, inside.single
    positions = {p: i for i, p in enumerate(_parameters(f))}

    def argument(args: tuple, kwargs: dict, name: str) -> Any:
        i = positions[name]
        return args[i] if i < len(args) else kwargs[name]

    def inputs(args: tuple, kwargs: dict) -> list[tuple[str, Any]]:
        if inside is None:
            return [(n, argument(args, kwargs, n)) for n in names]
        found = []
        for index, part in inside.picks:
            name = inside.wrt[index]
            if part is None:
                found.append((name, argument(args, kwargs, name)))
            elif inside.start + part < len(args):
                found.append((f"{name}[{part}]", args[inside.start + part]))
            else:
                raise WrtError(
                    f"wrt: position {inside.start + part} falls beyond the "
                    f"{max(len(args) - inside.start, 0)} argument(s) this call passes to "
                    f"*{inside.packed}"
                )
        return found

    def J(*args, **kwargs):
        xs = []
        for n, x in inputs(args, kwargs):
            if isinstance(x, (dict, list, tuple)):
                raise WrtError(
                    f"jacobian: {n!r} is a {type(x).__name__}; jacobian takes arrays and floats",
                    hint="What to do: use jvp or vjp, which take containers.",
                )
            _check_differentiable(x, n, func)
            xs.append(x)
        chosen = mode
        if mode == "auto":
            size_in = sum(int(np.size(x)) for x in xs)
            at, named = call_arguments(args, kwargs, last=False)  # f may change them
            size_out = sum(int(np.size(leaf)) for leaf in _leaves(f(*at, **named)))
            chosen = "forward" if size_in < size_out else "reverse"
        if chosen == "forward" and inside is None:
            blocks = _forward_blocks(f, wrt, names, xs, args, kwargs)
        elif chosen == "forward":
            blocks = _forward_columns(f, wrt, single, xs, args, kwargs)
        else:
            asked = tuple(names) if inside is None else (wrt,) if single else tuple(wrt)
            blocks = _reverse_blocks(f, asked, xs, args, kwargs)
        return _map(lambda b: b[0] if single else tuple(b), blocks)

    J.__name__ = f"jacobian_{getattr(func, '__name__', 'f')}"
    return J


def _parameters(f: Callable) -> list[str]:
    import inspect

    return list(inspect.signature(f).parameters)


def _forward_blocks(f, wrt, names, xs, args, kwargs):
    """One vector jvp: direction j moves input element j (all inputs flattened)."""
    sizes = [int(np.size(x)) for x in xs]
    k = sum(sizes)
    tangents, start = [], 0
    for x, size in zip(xs, sizes, strict=True):
        t = np.zeros((k, size))
        t[start : start + size] = np.eye(size)
        tangents.append(t.reshape((k, *np.shape(x))))
        start += size
    jf = jvp_vector(f, wrt=tuple(names))
    _, dout = jf(*args, tuple(tangents), **kwargs)
    return _map_leaves(lambda d: _split(d, xs), dout)


def _forward_columns(f, wrt, single, xs, args, kwargs):
    """One jvp per input element (positions inside *args, which vector mode does not
    spread), the columns stacked as the vector jvp would give them."""
    jf = jvp(f, wrt=wrt)
    columns: list[Any] = []
    total = sum(int(np.size(x)) for x in xs)
    for j, x in enumerate(xs):
        for e in np.eye(int(np.size(x))):
            directions = [
                e.reshape(np.shape(x)) if i == j else np.zeros(np.shape(other))
                for i, other in enumerate(xs)
            ]
            directions = [  # a float for a float input
                d if np.ndim(other) else float(d) for d, other in zip(directions, xs, strict=True)
            ]
            at, named = call_arguments(args, kwargs, last=len(columns) == total - 1)
            columns.append(jf(*at, directions[0] if single else tuple(directions), **named)[1])
    return _map_leaves(lambda d: _split(d, xs), _stacked(columns))


def _stacked(trees: list[Any]) -> Any:
    """Trees of one structure as one tree of arrays with a leading axis over them."""
    first = trees[0]
    if isinstance(first, dict):
        return {k: _stacked([t[k] for t in trees]) for k in first}
    if isinstance(first, (list, tuple)):
        return type(first)(_stacked([t[i] for t in trees]) for i in range(len(first)))
    return np.stack([np.asarray(t) for t in trees])


def _split(d: Any, xs: list[Any]) -> _Blocks:
    """The blocks of one output leaf's tangents `d`, shaped (input size,) + out.shape:
    one per input x, shaped out.shape + x.shape."""
    out_shape = np.shape(d)[1:]
    found, start = [], 0
    for x in xs:
        size = int(np.size(x))
        part = np.asarray(d[start : start + size])  # (size,) + out.shape
        found.append(np.moveaxis(part, 0, -1).reshape((*out_shape, *np.shape(x))))
        start += size
    return _Blocks(found)


def _reverse_blocks(f, wrt, xs, args, kwargs):
    """One vjp per output element (a loop over the Jacobian's rows). f may change its
    arguments in place: every call but the last runs on copies, so all rows are at the
    caller's point and the caller's arrays change once, as by f."""
    at, named = call_arguments(args, kwargs, last=False)
    out = f(*at, **named)
    df = vjp(f, wrt=wrt)
    paths = list(_leaf_paths(out))

    def seed_for(path, index):
        return _seed(out, path, index)

    result = {}
    calls = sum(int(np.size(leaf)) for _, leaf in paths)
    for path, leaf in paths:
        shape = np.shape(leaf)
        # the float dtype forward mode gives (the output's and the input's, promoted)
        rows = [np.zeros((*shape, *np.shape(x)), dtype=_float_of(leaf, x)) for x in xs]
        for index in np.ndindex(*shape):
            calls -= 1
            at, named = call_arguments(args, kwargs, last=calls == 0)
            grads = df(*at, seed_for(path, index), **named)
            for row, g in zip(rows, grads, strict=True):
                row[index] = g
        result[path] = _Blocks(rows)
    return _rebuild(out, result)


def _float_of(*values: Any) -> np.dtype:
    """The promoted float dtype of `values` (float64 for integers and booleans)."""
    dtypes = [np.result_type(v) for v in values]
    return np.result_type(*(d if d.kind in "fc" else np.float64 for d in dtypes))


def _leaves(value: Any) -> list[Any]:
    return [leaf for _, leaf in _leaf_paths(value)]


def _leaf_paths(value: Any, path: tuple = ()):
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _leaf_paths(item, (*path, key))
    elif isinstance(value, (list, tuple)):
        for i, item in enumerate(value):
            yield from _leaf_paths(item, (*path, i))
    else:
        yield path, value


def _seed(out: Any, path: tuple, index: tuple) -> Any:
    """A seed of out's structure: 1 at `index` of the leaf at `path`, None elsewhere."""
    if not path:
        seed = np.zeros(np.shape(out))
        seed[index] = 1.0
        return seed if np.ndim(out) else 1.0
    if isinstance(out, dict):
        return {k: _seed(v, path[1:], index) if k == path[0] else None for k, v in out.items()}
    return type(out)(_seed(v, path[1:], index) if i == path[0] else None for i, v in enumerate(out))


def _rebuild(out: Any, blocks: dict, path: tuple = ()) -> Any:
    if isinstance(out, dict):
        return {k: _rebuild(v, blocks, (*path, k)) for k, v in out.items()}
    if isinstance(out, (list, tuple)):
        return type(out)(_rebuild(v, blocks, (*path, i)) for i, v in enumerate(out))
    return blocks[path]


class _Blocks(list):
    """The Jacobian blocks of one output leaf, one per wrt argument."""


def _map(fn: Callable, tree: Any) -> Any:
    """`fn` on each _Blocks of a container of them."""
    if isinstance(tree, _Blocks):
        return fn(tree)
    if isinstance(tree, dict):
        return {k: _map(fn, v) for k, v in tree.items()}
    return type(tree)(_map(fn, v) for v in tree)


def _map_leaves(fn: Callable, tree: Any) -> Any:
    if isinstance(tree, dict):
        return {k: _map_leaves(fn, v) for k, v in tree.items()}
    if isinstance(tree, (list, tuple)):
        return type(tree)(_map_leaves(fn, v) for v in tree)
    return fn(tree)
