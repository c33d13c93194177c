"""A stand-in for Google Tangent's `tangent` package, backed by tangentlike.

Installed as `tangent` (and `tangent.grad_util`, `tangent.quoting`) by
scripts/tangent_suite_plugin.py, so that Tangent's own tests run tangentlike where they
ran Tangent:

- `autodiff(f, mode="reverse")` is `tl.vjp(f, wrt)`: the returned function takes f's
  arguments and the seed (positionally in Tangent's "joint" motion, as `init_grad=` in
  its "split" motion; 1.0 when Tangent's input_derivative is DefaultOne) and returns the
  gradient (a tuple for several wrt), with `preserve_result` `(gradient, value)`: the
  value from `tl.value_and_grad` for a scalar seed, else from calling f.
- `autodiff(f, mode="forward")` is `tl.jvp(f, wrt)`: `df(*args, tangent)` returns the
  tangent of the output (with `preserve_result`, `(tangent, value)`).
- `grad(f)` is `tl.grad(f, wrt)`; `grad(grad(f))` is `tl.grad(tl.grad(f))` (reverse over
  reverse); `autodiff(autodiff(f, mode=m1), mode=m2)` called as `ddf(x, 1, v)` is the
  Hessian-vector product: `tl.hvp` forward over reverse (m1 reverse, m2 forward), reverse
  over reverse (both reverse), and `tl.grad` of `x -> <tl.jvp(f)(x, v), 1>` (m1 forward,
  m2 reverse: reverse over forward).
- Tangent's options `motion`, `optimized`, `check_dims`, `verbose` do not change what
  tangentlike computes and are ignored. Tangent's runtime (`init_grad`, `Stack`, `push`,
  `pop`, `insert_grad_of`, `trace`) is given plain-Python stand-ins so that its test
  corpus imports and its numeric references run; the tests that differentiate code
  calling it are out of scope (the plugin says which).

A function whose globals name `autograd.numpy` (the Hessian-vector-product tests write
their functions with it) is differentiated as its plain-NumPy twin. Every exception from
tangentlike or from the code it generated is tagged (`exc.tl_origin = True`) so that the
plugin can tell a tangentlike failure from a failure of Tangent's reference.
"""

from __future__ import annotations

import contextlib
import enum
import functools
import types

import numpy as np
from autograd_suite_plugin import _module_function, _names, _plain

import tangentlike as tl

INPUT_DERIVATIVE = enum.Enum("InputDerivative", ("Required", "DefaultOne"))
calls: list[dict] = []  # what the current test asked tangentlike (the plugin resets it)
_twins: dict = {}


def _tagged(run):
    """`run` with every exception it raises marked as tangentlike's."""

    @functools.wraps(run)
    def call(*args, **kwargs):
        try:
            return run(*args, **kwargs)
        except Exception as e:
            e.tl_origin = True
            raise

    return call


def _numpy_twin(func):
    """func itself, or (when its globals name autograd.numpy) its plain-NumPy twin."""
    if not isinstance(func, types.FunctionType):
        return func
    read = _names(func.__code__) & set(func.__globals__)
    values = [func.__globals__[k] for k in read]
    if not any(getattr(v, "__name__", "").startswith("autograd") for v in values):
        return func
    if func not in _twins:
        _twins[func] = _plain(func, {})
    return _twins[func]


def _wrt(wrt) -> int | tuple[int, ...]:
    wrt = tuple(wrt) if isinstance(wrt, (tuple, list)) else (wrt,)
    return wrt[0] if len(wrt) == 1 else wrt


def _seed(seed):
    return float(seed) if type(seed) is int else seed


def _arity(func) -> int:
    return func.__code__.co_argcount


def autodiff(
    func,
    wrt=(0,),
    optimized=True,
    motion="joint",
    mode="reverse",
    preserve_result=False,
    check_dims=True,
    input_derivative=INPUT_DERIVATIVE.Required,
    verbose=0,
):
    """Tangent's autodiff, answered by tangentlike (see the module docstring)."""
    del optimized, motion, check_dims, verbose
    if getattr(func, "tl_first", None) is not None:
        return _second(func.tl_first, mode)
    func = _numpy_twin(func)
    if mode == "forward":
        return _forward(func, wrt, preserve_result)
    default_one = input_derivative is INPUT_DERIVATIVE.DefaultOne
    return _reverse(func, wrt, preserve_result, default_one)


def _reverse(func, wrt, preserve_result: bool, default_one: bool):
    n, w = _arity(func), _wrt(wrt)
    build = _tagged(tl.vjp)

    def df(*args, init_grad=None):
        primal, rest = args[:n], args[n:]
        seed = rest[0] if rest else init_grad
        seed = 1.0 if seed is None and default_one else _seed(seed)
        vjp = build(func, wrt=w)
        calls.append(dict(kind="reverse", df=vjp, func=func, wrt=w, args=primal, seed=seed))
        if preserve_result and np.ndim(seed) == 0:
            value, grads = _tagged(tl.value_and_grad(func, wrt=w))(*primal)
            grads = tuple(g * seed for g in grads) if isinstance(w, tuple) else grads * seed
            return grads, value
        grads = _tagged(vjp)(*primal, seed)
        return (grads, func(*primal)) if preserve_result else grads

    df.tl_first = ("reverse", func, w)
    return df


def _forward(func, wrt, preserve_result: bool):
    n, w = _arity(func), _wrt(wrt)
    build = _tagged(tl.jvp)

    def df(*args):
        primal, rest = args[:n], args[n:]
        k = len(w) if isinstance(w, tuple) else 1
        tangents = tuple(_seed(t) for t in rest[:k])
        jvp = build(func, wrt=w)
        t = tangents if isinstance(w, tuple) else tangents[0]
        calls.append(dict(kind="forward", df=jvp, func=func, wrt=w, args=primal, seed=t))
        value, tangent_out = _tagged(jvp)(*primal, t)
        return (tangent_out, value) if preserve_result else tangent_out

    df.tl_first = ("forward", func, w)
    return df


def _second(first, mode2: str):
    """A derivative of a derivative made here: Hessian-vector products, `ddf(x, 1, v)`."""
    mode1, func, w = first
    if mode1 == "reverse":
        hv = _tagged(tl.hvp)(func, wrt=w, method="forward" if mode2 == "forward" else "reverse")
    else:  # reverse over forward: the gradient of x -> J(x) v, f scalar
        n = _arity(func)
        params = ", ".join(f"x{i}" for i in range(n))
        source = f"def phi({params}, v):\n    return jf({params}, v)[1]\n"
        phi = _module_function("tl_tangent_rof", source, "phi", jf=_tagged(tl.jvp)(func, wrt=w))
        hv = _tagged(tl.grad)(phi, wrt=w)

    def ddf(*args):
        n = _arity(func)
        return _tagged(hv)(*args[:n], args[-1])

    return ddf


def grad(func, wrt=(0,), optimized=True, preserve_result=False, check_dims=True, verbose=0):
    """Tangent's grad (scalar output, seed 1): `tl.grad`, of a gradient made here too."""
    del optimized, check_dims, verbose
    inner = getattr(func, "tl_grad", None)
    target = inner if inner is not None else _numpy_twin(func)
    w = _wrt(wrt)
    built = _tagged(tl.grad)(target, wrt=w, preserve_result=preserve_result)

    user = getattr(func, "tl_user", func)  # the corpus function, under any gradients

    def df(*args):
        nested = inner is not None  # the gradient of a gradient made here
        call = dict(kind="grad", df=built, func=target, wrt=w, args=args, seed=1.0)
        calls.append(dict(call, nested=nested, user=user, preserve_result=preserve_result))
        out = _tagged(built)(*args)
        return (out[1], out[0]) if preserve_result else out

    df.tl_grad = built
    df.tl_user = user
    return df


def vjp(func, wrt=(0,), optimized=True, check_dims=True, preserve_result=False, verbose=0):
    return autodiff(func, wrt, optimized, "joint", "reverse", preserve_result, check_dims)


def jvp(func, wrt=(0,), optimized=True, check_dims=True, preserve_result=False, verbose=0):
    return autodiff(func, wrt, optimized, "joint", "forward", preserve_result, check_dims)


# Tangent's runtime, for its test corpus to import and its numeric references to run.


def init_grad(obj, allow_lazy_initializer=False):
    """Zeros of obj's structure (Tangent's init_grad)."""
    if obj is None:
        return 0.0
    if isinstance(obj, dict):
        return {k: init_grad(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return type(obj)(init_grad(v) for v in obj)
    if isinstance(obj, np.ndarray):
        return np.zeros_like(obj)
    return 0.0 * obj


def tangent(func):
    """Tangent's decorator removing `with insert_grad_of` blocks: the function itself."""
    return func


def trace(func):
    return func


class Stack(list):
    """Tangent's stack type."""


def push(stack, x, op_id):
    stack.append(x.copy() if isinstance(x, np.ndarray) else x)


def pop(stack, op_id):
    return stack.pop()


@contextlib.contextmanager
def insert_grad_of(var):
    yield var


def parse_function(func):
    raise NotImplementedError("Tangent's parser is not tangentlike's: out of scope")


quoting = types.ModuleType("tangent.quoting")
quoting.parse_function = parse_function
grad_util = types.ModuleType("tangent.grad_util")
grad_util.INPUT_DERIVATIVE = INPUT_DERIVATIVE
grad_util.autodiff, grad_util.jvp, grad_util.vjp, grad_util.grad = autodiff, jvp, vjp, grad
