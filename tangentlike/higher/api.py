"""Second-order entry points: `hvp` (Hessian-vector products) and `hessian`.

Both differentiate a generated gradient: `grad(f, wrt)` is built first, and its
generated code (made differentiable by higher/forms.py, its runtime helpers by
rules/runtime_helpers.py) is differentiated again.

- `hvp(f, wrt)(*args, v)` is H v, one gradient's cost times a small constant.
  method "forward": forward over reverse, the tangent of the gradient along v
  (`jvp(grad(f))`, no stack for the outer level); "reverse": reverse over
  reverse, the vector-Jacobian product of the gradient with seed v,
  vᵀ (∂ grad f / ∂x) = (H v)ᵀ, H being symmetric; "auto" (the default): forward
  when its transform covers the gradient's code, else reverse (both are built
  from the same generated gradient, and agree to rounding).
- `hessian(f, wrt)(*args)` is H, shaped x.shape + x.shape: method "forward" runs
  one vector-mode forward sweep of the gradient with the identity as its k-wide
  tangents (`jacobian(grad(f), mode="forward")`); "reverse" assembles H from the
  columns H e_k, one reverse-over-reverse product per basis vector; "auto" picks
  forward when it builds. A tuple wrt gives the nested tuple of blocks H[i][j],
  shaped x_i.shape + x_j.shape.

Assumes: f scalar-valued (grad's check says so otherwise), twice differentiable
where evaluated. Guarantees: H v has v's structure (an array shaped like x, a
tuple of them for a tuple wrt); the Hessian's float dtype is the arguments'.
"""

from __future__ import annotations

import functools
import inspect
import types
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from .. import api, api_forward, packed, specialize
from ..errors import CheckError, TangentlikeError, WrtError
from ..job import resolve_wrt
from ..parse.source import unwrap
from ..structure import call_arguments
from ..wrapper import _check_differentiable, reraise_container_output

METHODS = ("auto", "forward", "reverse")


def hvp(
    f: Callable,
    wrt: api.Wrt = 0,
    *,
    method: str = "auto",
    cache: api.CacheOption = True,
    checks: bool | None = None,
) -> Callable:
    """The Hessian-vector product of scalar-valued `f`: `hv(*args, v)` -> H v.

    `v` is shaped like the `wrt` argument (a tuple of such for a tuple `wrt`), and so
    is the result. `hv.source` is the generated HVP module, `hv.method` the method
    used ("forward" or "reverse"); `hv.gradient` the gradient it differentiates."""
    _check_method("hvp", method)
    plain = specialize.on_plain(
        functools.partial(hvp, method=method, cache=cache, checks=checks), f, wrt
    )
    if plain is not None:  # a bound method, partial or callable object
        return plain
    func = unwrap(f)
    inside = packed.request(func, wrt) if isinstance(func, types.FunctionType) else None
    if inside is not None:  # positions inside *args: the whole tuple's HVP, spread
        whole = hvp(f, inside.wrt, method=method, cache=cache, checks=checks)
        return packed.spreading(whole, inside, picks_result=True)
    names, single = resolve_wrt(f, wrt)  # its refusals first
    signature = _signature_of(func)
    gradient = api.grad(f, wrt, cache=cache, checks=checks)
    product, used = None, "reverse"
    if method in ("auto", "forward"):
        try:
            product, used = api_forward.jvp(gradient, wrt), "forward"
        except TangentlikeError:
            if method == "forward":
                raise
    if product is None:
        product = api.vjp(gradient, wrt, cache=cache, checks=checks)

    def hv(*args, **kwargs):
        if not args:
            raise TypeError("hvp: pass the vector v last, after f's arguments")
        *primal, v = args
        _check_point("hvp", func, signature, names, single, primal, kwargs, v)
        try:
            if used == "forward":
                return product(*primal, v, **kwargs)[1]
            return product(*primal, v, **kwargs)
        except (ValueError, TypeError) as err:
            reraise_container_output(f, tuple(primal), kwargs, err)
            raise

    functools.update_wrapper(hv, f, assigned=("__module__", "__doc__"), updated=())
    hv.__name__ = hv.__qualname__ = f"hvp_{getattr(f, '__name__', 'f')}"
    hv.__wrapped__ = product
    hv.source = product.source
    hv.gradient = gradient
    hv.wrt = names
    hv.method = used
    return hv


def hessian(
    f: Callable,
    wrt: api.Wrt = 0,
    *,
    method: str = "auto",
    cache: api.CacheOption = True,
    checks: bool | None = None,
) -> Callable:
    """The Hessian of scalar-valued `f`: `H(*args)`, shaped x.shape + x.shape for one
    `wrt`; for a tuple `wrt`, the nested tuple of blocks H[i][j] (x_i.shape + x_j.shape).
    """
    _check_method("hessian", method)
    plain = specialize.on_plain(
        functools.partial(hessian, method=method, cache=cache, checks=checks), f, wrt
    )
    if plain is not None:  # a bound method, partial or callable object
        return plain
    func = unwrap(f)
    inside = packed.request(func, wrt) if isinstance(func, types.FunctionType) else None
    if inside is not None:  # positions inside *args: columns of the spread HVP
        product = hvp(f, wrt, method=method, cache=cache, checks=checks)
        return _hessian_by_columns(f, product, inside.single)
    resolve_wrt(f, wrt)  # its refusals first
    single = isinstance(wrt, (int, str))
    if method in ("auto", "forward"):
        gradient = api.grad(f, wrt, cache=cache, checks=checks)
        try:
            api_forward.jvp_vector(gradient, wrt)  # builds it: the Jacobian below reuses it
        except TangentlikeError:
            if method == "forward":
                raise
        else:
            return _forward_hessian(f, gradient, wrt, single)
    product = hvp(f, wrt, method="reverse", cache=cache, checks=checks)
    return _hessian_by_columns(f, product, single)


def _hessian_by_columns(f: Callable, product: Callable, single: bool) -> Callable:
    """H assembled from the products H e_k, one per basis vector e_k of each argument
    asked for (`product`: an HVP, spreading over `*args` when positions inside it were
    asked for, packed.spreading); `single`: one argument asked for, H itself returned."""
    asked = getattr(product, "__tangentlike_picked__", None)

    def points_of(args: tuple, kwargs: dict) -> list[Any]:
        if asked is None:
            return [_argument(product, args, kwargs, n) for n in product.wrt]
        found = []
        for index, part in asked.picks:
            if part is None:
                found.append(_argument(product, args, kwargs, asked.wrt[index]))
            elif asked.start + part < len(args):
                found.append(args[asked.start + part])
            else:
                raise WrtError(
                    f"wrt: position {asked.start + part} falls beyond the "
                    f"{max(len(args) - asked.start, 0)} argument(s) this call passes to "
                    f"*{asked.packed}"
                )
        return found

    def H(*args, **kwargs):
        points = points_of(args, kwargs)
        count = len(points)
        columns = [_columns(product, args, kwargs, points, j, single) for j in range(count)]
        blocks = tuple(
            tuple(_block(columns[j][i], points[i], points[j]) for j in range(count))
            for i in range(count)
        )
        return blocks[0][0] if single else blocks

    functools.update_wrapper(H, f, assigned=("__module__", "__doc__"), updated=())
    H.__name__ = H.__qualname__ = f"hessian_{getattr(f, '__name__', 'f')}"
    H.hvp = product
    H.source = product.source
    H.method = "reverse" if asked is None else f"columns of the {product.method} HVP"
    return H


def _forward_hessian(f: Callable, gradient: Callable, wrt: api.Wrt, single: bool) -> Callable:
    """H as the Jacobian of the gradient, by one vector-mode forward sweep."""
    jacobian = api_forward.jacobian(gradient, wrt, mode="forward")
    func, names = unwrap(f), resolve_wrt(f, wrt)[0]
    signature = _signature_of(func)

    def H(*args, **kwargs):
        _check_point("hessian", func, signature, names, single, args, kwargs)
        try:
            blocks = jacobian(*args, **kwargs)
        except (ValueError, TypeError) as err:
            reraise_container_output(f, args, kwargs, err)
            raise
        if single:
            return blocks
        return tuple(tuple(row) for row in blocks)

    functools.update_wrapper(H, f, assigned=("__module__", "__doc__"), updated=())
    H.__name__ = H.__qualname__ = f"hessian_{getattr(f, '__name__', 'f')}"
    H.source = api_forward.jvp_vector(gradient, wrt).source
    H.method = "forward"
    return H


_NO_VECTOR = object()


def _signature_of(func: Callable) -> inspect.Signature | None:
    """func's signature, read once where a derivative is made (not at each call), for
    _check_point; None for anything but a plain function."""
    return inspect.signature(func) if isinstance(func, types.FunctionType) else None


def _check_point(
    what: str,
    func: Callable,
    signature: inspect.Signature | None,
    names: tuple[str, ...],
    single: bool,
    args: Sequence[Any],
    kwargs: dict,
    v: Any = _NO_VECTOR,
) -> None:
    """Refuse, naming `func` (not the gradient it differentiates), a point where an
    argument in `names` is not a float value, and a vector `v` that is not shaped like
    the arguments (one per argument for a tuple wrt). A call that does not match func's
    signature (`signature`, None when func is no plain function) is left for the call
    itself to report."""
    if signature is None:
        return
    try:
        bound = signature.bind(*args, **kwargs)
    except TypeError:
        return
    bound.apply_defaults()
    for name in names:
        _check_differentiable(bound.arguments[name], name, func)
    if v is _NO_VECTOR:
        return
    if single:
        vectors = [v]
    elif isinstance(v, (tuple, list)) and len(v) == len(names):
        vectors = list(v)
    else:
        raise CheckError(
            f"{what} of {func.__qualname__} with respect to {', '.join(names)} takes v as a "
            f"tuple of {len(names)} vectors, one per argument, not {type(v).__name__}",
            hint="What to do: pass v = (v1, v2, ...), each shaped like its argument.",
        )
    for name, vector in zip(names, vectors, strict=True):
        x = bound.arguments[name]
        if isinstance(x, (np.ndarray, float, np.floating)) and np.shape(vector) != np.shape(x):
            raise CheckError(
                f"{what} of {func.__qualname__}: v has shape {np.shape(vector)} for "
                f"{name!r}, whose shape is {np.shape(x)}",
                hint=f"What to do: pass v shaped like {name!r} (no broadcasting).",
            )


def _check_method(what: str, method: str) -> None:
    if method not in METHODS:
        raise WrtError(f"{what}: method must be one of {', '.join(METHODS)}, not {method!r}")


def _argument(product: Callable, args: tuple, kwargs: dict, name: str) -> Any:
    bound = inspect.signature(product.gradient).bind_partial(*args, **kwargs)
    bound.apply_defaults()
    return bound.arguments[name]


def _columns(
    product: Callable, args: tuple, kwargs: dict, points: Sequence[Any], j: int, single: bool
) -> list[list[np.ndarray]]:
    """For each wrt argument i, the list over the basis vectors e_k of argument j of the
    i-th part of H (0, .., e_k, .., 0)."""
    xj = np.asarray(points[j])
    out: list[list[np.ndarray]] = [[] for _ in points]
    for k in range(xj.size):
        # f may change its arguments in place (and its gradient with it): every product
        # but the last is taken on copies, so that all are at the point the caller passed
        last = j == len(points) - 1 and k == xj.size - 1
        at, named = call_arguments(args, kwargs, last)
        e = np.zeros(xj.size, dtype=_float(xj))
        e[k] = 1.0
        direction = e.reshape(xj.shape)
        if single:
            v: Any = direction if np.ndim(points[j]) else float(direction)
            parts = (product(*at, v, **named),)
        else:
            v = tuple(
                (direction if np.ndim(p) else float(direction))
                if i == j
                else (np.zeros(np.shape(p), dtype=_float(p)) if np.ndim(p) else 0.0)
                for i, p in enumerate(points)
            )
            parts = product(*at, v, **named)
        for i, part in enumerate(parts):
            out[i].append(np.asarray(part))
    return out


def _block(columns: list[np.ndarray], xi: Any, xj: Any) -> np.ndarray:
    """H[i][j] from its columns H[i][j] e_k: shape xi.shape + xj.shape."""
    dtype = np.result_type(_float(xi), _float(xj))
    stacked = np.stack(columns, axis=-1).astype(dtype, copy=False)
    return stacked.reshape(np.shape(xi) + np.shape(xj))


def _float(x: Any) -> np.dtype:
    dtype = np.result_type(x)
    return dtype if dtype.kind == "f" else np.dtype(np.float64)
