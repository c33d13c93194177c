"""Gradients specialised to objects: bound methods, partials, callable objects, and
functions that call methods of (or functions passed as) their arguments.

The generated code resolves `self.forward(x)` statically, so it is built for the
classes of the objects involved (and of their attributes, `self.encoder.dense`),
and for the functions passed in. `bound` differentiates the plain function behind
a bound method or partial and passes the bound values; `per_call` builds, at each
call, for the classes of the arguments (each build cached by them, so a changed
class gives a new build, never a stale one).
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable

import numpy as np

from .errors import TangentlikeError, UnknownClassError, UnknownKindError
from .live import show
from .parse.resolve import MISSING, object_classes, user_class
from .parse.source import peel_bound

# build(func, wrt, param_types=...) -> a gradient wrapper (gradients.gradient, options bound)
Build = Callable[..., Callable]


def bound(f: Callable, names: tuple[str, ...], single: bool, build: Build) -> Callable:
    """The gradient of a bound method, partial or callable object (wrt `names` of its
    visible parameters): the gradient of the plain function, specialised to the
    classes of the bound objects, called with them."""
    func, args, keywords = peel_bound(f)
    params = list(inspect.signature(func).parameters)

    def specialised() -> Callable:
        # the classes of the bound objects and their attributes, checked at every call
        types_ = tuple(t for p, v in zip(params, args, strict=False) for t in object_classes(p, v))
        return build(func, names[0] if single else names, param_types=types_)

    def df(*more, **more_keywords):
        inner = specialised()  # rebuilt when what it was built from changed
        df.source, df.built_from = inner.source, getattr(inner, "built_from", None)
        return inner(*args, *more, **{**keywords, **more_keywords})

    inner = specialised()
    # not its other attributes: this gradient takes fewer arguments than the inner one
    functools.update_wrapper(
        df, inner, assigned=("__module__", "__name__", "__qualname__"), updated=()
    )
    df.source, df.wrt, df.__wrapped__ = inner.source, inner.wrt, inner
    df.built_from, df.external = getattr(inner, "built_from", None), getattr(inner, "external", {})
    df.__tangentlike_bound__ = (f, names, single, build)  # its derivatives: of_bound_derivative
    return df


def of_bound_derivative(df: Callable, wrt: object, make: Build) -> Callable:
    """`make(d, wrt)` for the derivative `df` that `bound` made of a bound method, partial
    or callable object f: `make` of f's plain function's derivative (built as `bound`
    built df, without specialising: it specialises per call), called with the bound values
    first. df itself is a wrapper whose code passes them on through *args, which a
    derivative of it cannot follow (`tl.jvp(tl.grad(obj.method))`, grad of grad). `wrt`
    counts and names f's visible parameters."""
    from .job import resolve_wrt

    f, names, single, build = df.__tangentlike_bound__
    func, bound_args, bound_keywords = peel_bound(f)
    plain = build(func, names[0] if single else names)
    outer, outer_single = resolve_wrt(f, wrt)
    inner = make(plain, outer[0] if outer_single else outer)

    def call(*args, **kwargs):
        return inner(*bound_args, *args, **{**bound_keywords, **kwargs})

    return _like(call, inner)


def _like(call: Callable, inner: Callable) -> Callable:
    """`call`, standing for `inner` called with bound values first: its name, source and
    the attributes the entry points show."""
    functools.update_wrapper(call, inner, assigned=("__module__", "__name__", "__qualname__"))
    call.__wrapped__ = inner
    for attribute in ("source", "gradient", "method", "wrt"):
        if hasattr(inner, attribute):
            setattr(call, attribute, getattr(inner, attribute))
    return call


def per_call(
    func: Callable,
    wrt: object,
    names: tuple[str, ...],
    seed_last: bool,
    error: UnknownClassError,
    build: Build,
) -> Callable:
    """A gradient built at each call for the classes of the object arguments (and the
    functions passed in), for a function whose build needed them (`error` says which)."""
    if isinstance(error, UnknownKindError):
        try:
            return kind_at_call(func, wrt, seed_last, error, build)
        except TangentlikeError:  # no gradient for an array there: one per call's kind
            pass
    sig = inspect.signature(func)

    def df(*args, **kwargs):
        primal = args[:-1] if seed_last else args
        arguments = sig.bind_partial(*primal, **kwargs)
        arguments.apply_defaults()
        given = arguments.arguments
        types_ = tuple(t for p, v in given.items() for t in object_classes(p, v))
        value = given.get(error.param, MISSING)
        if value is not MISSING and not user_class(type(value)):
            # a function passed in is specialised on (it decides what runs); else its class
            called = callable(value) and not isinstance(value, type)
            types_ += ((error.param, value if called else type(value)),)
        # lists and dicts too: a build that writes into them follows them (transform/
        # argument_containers.py), and one that does not is the same for any kind
        kinds = [(p, type(v)) for p, v in given.items() if type(v) in (list, dict)]
        types_ += tuple(k for k in kinds if k not in types_)
        if not types_:
            raise error
        built = build(func, wrt, param_types=types_)
        df.source, df.built_from = built.source, getattr(built, "built_from", None)
        return built(*args, **kwargs)

    functools.update_wrapper(df, func, assigned=("__module__", "__doc__"), updated=())
    df.source = (
        f"# The gradient of {func.__qualname__} is generated at each call for the classes "
        "of its object arguments (they decide which methods run); see .source after a call."
    )
    df.wrt = names
    df.built_from = None  # "transform" or "disk cache" once a call has built it
    df.built_per_call = (error.param,)  # the command-line tool cannot write it ahead
    return df


def kind_at_call(
    func: Callable, wrt: object, seed_last: bool, error: UnknownKindError, build: Build
) -> Callable:
    """The gradient of a function writing by index into a parameter that may be an array,
    a list or a dict (`error.param`): built now for an array (its source is there before
    any call, the command line writes it, it is differentiated again as it is), and at a
    call for a list or dict passed there (transform/argument_containers.py). Raises the
    array build's error when there is none for an array (per_call then builds at each
    call, for the kind passed)."""
    param = error.param
    array = build(func, wrt, param_types=((param, np.ndarray),))
    position = list(inspect.signature(func).parameters).index(param)

    def df(*args, **kwargs):
        primal = args[:-1] if seed_last else args
        value = primal[position] if position < len(primal) else kwargs.get(param)
        if type(value) in (list, dict):
            return build(func, wrt, param_types=((param, type(value)),))(*args, **kwargs)
        result = array(*args, **kwargs)
        if hasattr(array, "stats"):
            df.stats = array.stats  # what the last call stored
        return result

    for name in ("__module__", "__name__", "__qualname__", "__doc__", "wrt", "jit_sources"):
        if hasattr(array, name):
            setattr(df, name, getattr(array, name))
    # the array build's parameters (f's, then the seed): jacobian and hessian of this
    # gradient find its arguments by name (not `(*args, **kwargs)`)
    df.__signature__ = inspect.signature(array)
    live = getattr(array, "__tangentlike_live__", None)
    if live is not None:  # it shows, and stands for, what the array build runs now
        show(df, live.built)
        df.__tangentlike_live__ = live
        live.wrappers.append(df)
    return df


def on_plain(make: Callable, f: Callable, wrt: object) -> Callable | None:
    """`make(plain, wrt)` for the plain function behind a bound method, partial or
    callable object `f`, called with the bound values first (None for anything else).

    For the entry points that differentiate a gradient again or call f's derivative per
    column (hvp, hessian, jacobian): the gradient `bound` makes is a wrapper of its own,
    not code they can differentiate, while the plain function's derivatives specialise
    to the classes of the bound objects at each call (`per_call`). `wrt` counts and names
    f's visible parameters, as for f's gradient; the arguments of a call (a vector v last
    for hvp) follow the bound ones, and its keywords update the bound keywords."""
    from .job import resolve_wrt

    peeled = peel_bound(f)
    if peeled is None:
        return None
    func, bound_args, bound_keywords = peeled
    names, single = resolve_wrt(f, wrt)
    inner = make(func, names[0] if single else names)

    def call(*args, **kwargs):
        return inner(*bound_args, *args, **{**bound_keywords, **kwargs})

    return _like(call, inner)
