"""The public entry points: grad, value_and_grad, vjp, differentiable, adjoint, source.

A call builds (or finds in the cache) a generated module (gradients.py), then wraps
its entry function (wrapper.py) so that gradients come back in the structure, shape
and float dtype of their arguments.
"""

from __future__ import annotations

import functools
import types
from collections.abc import Callable

from .checkpoint import Schedule
from .gradients import checks_from_environment, gradient
from .job import CacheOption, Mode, Wrt
from .rules.registry import Registry, default_registry
from .wrapper import Stats

__all__ = [
    "Stats",
    "adjoint",
    "checks_from_environment",
    "differentiable",
    "grad",
    "source",
    "value_and_grad",
    "vjp",
]


def grad(
    f: Callable,
    wrt: Wrt = 0,
    *,
    preserve_result: bool = False,
    optimize: bool = True,
    verbose: int = 0,
    cache: CacheOption = True,
    checkpoint: Schedule | None = None,
    stats: bool = False,
    checks: bool | None = None,
    jit: bool | str = False,
) -> Callable:
    """The gradient of scalar-valued `f` with respect to the parameter(s) `wrt`.

    `df(*args, **kwargs)` takes f's parameters. An int or str `wrt` gives one
    gradient, a tuple gives a tuple; with `preserve_result=True` the result
    is `(value, gradient)`. `checkpoint=tl.Binomial(snapshots=k)` (or
    `tl.FixedInterval(every=n)`) checkpoints every outermost `for` loop of f
    that has no marker of its own and no `break`/`return`; `stats=True` makes
    `df.stats` report what the last call stored (see `Stats`). `checks=True` (by
    default the environment variable TANGENTLIKE_CHECKS=1) builds the debug-mode
    gradient, which checks at run time that every push is popped by its own pop,
    the stack ends empty, and every adjoint has its value's shape and a real dtype.
    `jit=True` runs the adjoint compiled by numba in nopython mode (`pip install
    tangentlike[jit]`), compiled at the first call for the argument types and cached on
    disk; what numba cannot compile raises a JitError at the first construct that
    blocks it. `jit="auto"` runs the Python adjoint instead, with one JitWarning.
    """
    mode = Mode.VALUE_AND_GRAD if preserve_result else Mode.GRAD
    options = dict(optimize=optimize, cache=cache, checkpoint=checkpoint, stats=stats, jit=jit)
    return gradient(f, wrt, mode, verbose, checks, **options)


def value_and_grad(
    f: Callable,
    wrt: Wrt = 0,
    *,
    optimize: bool = True,
    verbose: int = 0,
    cache: CacheOption = True,
    checkpoint: Schedule | None = None,
    stats: bool = False,
    checks: bool | None = None,
    jit: bool | str = False,
) -> Callable:
    """Like `grad`, returning `(f(*args), gradient)`."""
    options = dict(optimize=optimize, cache=cache, checkpoint=checkpoint, stats=stats, jit=jit)
    return gradient(f, wrt, Mode.VALUE_AND_GRAD, verbose, checks, **options)


def vjp(
    f: Callable,
    wrt: Wrt = 0,
    *,
    optimize: bool = True,
    verbose: int = 0,
    cache: CacheOption = True,
    checkpoint: Schedule | None = None,
    stats: bool = False,
    checks: bool | None = None,
    jit: bool | str = False,
) -> Callable:
    """The vector-Jacobian product of `f`: `df(*args, seed)` for outputs of any shape.

    The seed has the output's structure (tuple, list, dict; None for a zero part)
    and each part the output's shape: anything else is refused, never broadcast."""
    options = dict(optimize=optimize, cache=cache, checkpoint=checkpoint, stats=stats, jit=jit)
    return gradient(f, wrt, Mode.VJP, verbose, checks, **options)


def source(df: Callable) -> str:
    """The text of the module generated for `df`."""
    try:
        return df.source
    except AttributeError:
        raise TypeError(f"{df!r} was not made by tangentlike") from None


def adjoint(primal: Callable, *, registry: Registry | None = None) -> Callable:
    """Decorator registering a derivative template for `primal`:

    @tl.adjoint(my_cube)
    def dcube(result, x):
        d[x] = d[result] * 3.0 * x * x
    """
    return (registry or default_registry()).adjoint(primal, origin="user")


class differentiable:
    """Decorator: the function stays callable as is and gains .grad, .value_and_grad, .vjp.

    @tl.differentiable                  # wrt the first parameter
    @tl.differentiable(wrt=("W", "b"))  # wrt several: .grad returns a tuple
    """

    def __new__(cls, func: Callable | None = None, *, wrt: Wrt = 0):
        if func is None:
            return lambda f: cls(f, wrt=wrt)
        return super().__new__(cls)

    def __init__(self, func: Callable | None = None, *, wrt: Wrt = 0) -> None:
        functools.update_wrapper(self, func)
        self.__tangentlike_primal__ = func
        self._wrt = wrt

    def __call__(self, *args, **kwargs):
        return self.__wrapped__(*args, **kwargs)

    def __get__(self, obj, objtype=None):
        if obj is None:
            return self
        # a method: model.loss(x) calls it, model.loss.grad(x) differentiates it
        bound = differentiable(types.MethodType(self.__wrapped__, obj), wrt=self._wrt)
        bound.__tangentlike_primal__ = types.MethodType(self.__wrapped__, obj)
        return bound

    def grad(self, *args, **kwargs):
        return grad(self.__wrapped__, self._wrt)(*args, **kwargs)

    def value_and_grad(self, *args, **kwargs):
        return value_and_grad(self.__wrapped__, self._wrt)(*args, **kwargs)

    def vjp(self, *args, **kwargs):
        return vjp(self.__wrapped__, self._wrt)(*args, **kwargs)
