"""Positions inside a `*args` parameter as `wrt`: `tl.grad(f, wrt=1)` for `def f(*xs)`.

A `*args` parameter's length is known only at a call, so a build differentiates with
respect to the whole tuple it collects (`wrt` naming the parameter: a tuple of
gradients, job.resolve_wrt) and the gradient picks the items asked for at each call.
`request` rewrites such a `wrt`; `picking` wraps the gradient of the rewritten one;
`spreading` wraps a forward-mode product (jvp, hvp) of it, the direction given for the
items asked for and zero for the others.

Guarantees: the picked gradient is the one the whole tuple's gradient holds for that
argument (nothing else is computed differently: the other items are computed and
dropped); a position beyond the arguments of a call raises WrtError naming it.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from dataclasses import dataclass

from .errors import WrtError
from .job import Mode


@dataclass(frozen=True)
class Request:
    """`wrt` with the positions inside `*packed` replaced by the parameter's name."""

    wrt: tuple[str, ...]  # what the build differentiates with respect to
    picks: tuple[tuple[int, int | None], ...]  # per item asked: (index in wrt, item or None)
    single: bool  # one gradient asked for (an int or str wrt), not a tuple
    packed: str  # the *args parameter
    start: int  # the position of its first item


def request(func: Callable, wrt: object) -> Request | None:
    """The rewritten request when `wrt` holds a position inside func's `*args`, else
    None (job.resolve_wrt then decides, refusals included)."""
    try:
        parameters = list(inspect.signature(func).parameters.values())
    except (TypeError, ValueError):
        return None
    params = [p.name for p in parameters if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    packed = [p.name for p in parameters if p.kind is p.VAR_POSITIONAL]
    single = isinstance(wrt, (int, str)) and not isinstance(wrt, bool)
    items = (wrt,) if single else tuple(wrt) if isinstance(wrt, (tuple, list)) else ()
    inside = [i for i in items if type(i) is int and packed and i >= len(params)]
    if not inside or any(type(i) not in (int, str) for i in items):
        return None
    names: list[str] = []
    picks = []
    for item in items:
        if type(item) is int and item >= len(params):
            name, part = packed[0], item - len(params)
        else:
            name = params[item] if type(item) is int else item
            part = None
        if name not in names:
            names.append(name)
        picks.append((names.index(name), part))
    if len(set(picks)) != len(picks):
        raise WrtError(f"wrt asks for one argument more than once ({', '.join(map(repr, items))})")
    return Request(tuple(names), tuple(picks), single, packed[0], len(params))


def picking(inner: Callable, asked: Request, mode: Mode) -> Callable:
    """The gradient of the items asked for, from `inner`, the gradient with respect to
    `asked.wrt` (a tuple: the `*args` item a tuple of its own)."""

    def pick(gradients: tuple, count: int) -> object:
        out = []
        for index, part in asked.picks:
            found = gradients[index]
            if part is not None:
                if part >= count:
                    raise WrtError(
                        f"wrt: position {asked.start + part} falls beyond the {count} "
                        f"argument(s) this call passes to *{asked.packed}"
                    )
                found = found[part]
            out.append(found)
        return out[0] if asked.single else tuple(out)

    @functools.wraps(
        inner, assigned=("__module__", "__name__", "__qualname__", "__doc__"), updated=()
    )
    def df(*args, **kwargs):
        count = max(len(args) - asked.start, 0)
        result = inner(*args, **kwargs)
        if hasattr(inner, "stats"):
            df.stats = inner.stats  # what the last call stored
        if mode is Mode.VALUE_AND_GRAD:
            value, gradients = result
            return value, pick(gradients, count)
        return pick(result, count - (1 if mode is Mode.VJP else 0))

    for name in ("source", "built_from", "external", "specialised", "jit_sources"):
        if hasattr(inner, name):
            setattr(df, name, getattr(inner, name))
    df.wrt = asked.wrt
    df.__tangentlike_picked__ = asked  # differentiated again: refused (gradients.py)
    return df


def spreading(inner: Callable, asked: Request, picks_result: bool) -> Callable:
    """A forward-mode product taking a direction for the items asked for (`t` last: one,
    or a tuple of one per item), from `inner`, the product with respect to `asked.wrt`:
    the direction of the whole `*args` tuple is zero but at the items asked for (zero
    tangents shaped like each argument of the call, runtime.forward.zero_tangent).
    `picks_result`: the result is shaped like the direction (an HVP), and picked like a
    gradient; else it is returned as it is (a jvp's value and J t)."""
    from .runtime.forward import zero_tangent

    def spread(args: tuple, t: object) -> tuple:
        given = (t,) if asked.single else t
        if not isinstance(given, (tuple, list)) or len(given) != len(asked.picks):
            raise WrtError(
                f"a product with respect to {len(asked.picks)} arguments takes a tuple of "
                f"{len(asked.picks)} directions, one per argument, not {type(t).__name__}"
            )
        items = list(args[asked.start :])
        whole: list[object] = [None] * len(asked.wrt)
        packed_at = asked.wrt.index(asked.packed)
        whole[packed_at] = [zero_tangent(item) for item in items]
        for (index, part), direction in zip(asked.picks, given, strict=True):
            if part is None:
                whole[index] = direction
            elif part >= len(items):
                raise WrtError(
                    f"wrt: position {asked.start + part} falls beyond the {len(items)} "
                    f"argument(s) this call passes to *{asked.packed}"
                )
            else:
                whole[packed_at][part] = direction
        whole[packed_at] = tuple(whole[packed_at])
        return tuple(whole)  # inner is with respect to the tuple asked.wrt

    @functools.wraps(
        inner, assigned=("__module__", "__name__", "__qualname__", "__doc__"), updated=()
    )
    def product(*args, **kwargs):
        if not args:
            raise TypeError("pass the direction last, after the function's arguments")
        *primal, t = args
        result = inner(*primal, spread(tuple(primal), t), **kwargs)
        if not picks_result:
            return result
        out = [result[i] if part is None else result[i][part] for i, part in asked.picks]
        return out[0] if asked.single else tuple(out)

    for name in ("source", "jit_sources", "method", "gradient"):
        if hasattr(inner, name):
            setattr(product, name, getattr(inner, name))
    product.wrt = asked.wrt
    product.__tangentlike_picked__ = asked  # differentiated again: refused
    return product


def refuse_again(f: Callable) -> None:
    """Raise WrtError for a derivative of a gradient that picks positions inside `*args`
    (its generated code computes the whole tuple's gradient; the picking is Python)."""
    asked = getattr(f, "__tangentlike_picked__", None)
    if asked is not None:
        raise WrtError(
            f"{f.__qualname__} is a derivative with respect to positions inside "
            f"*{asked.packed}, which tangentlike does not differentiate again",
            hint=f"What to do: differentiate the gradient with respect to {asked.packed!r} "
            "by name (tl.grad(f, wrt=...) naming it), and take its items in your function.",
        )
