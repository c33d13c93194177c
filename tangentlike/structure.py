"""Gradients of container arguments: the argument's structure, each leaf's float dtype.

A gradient with respect to a dict, list or tuple (nested, of arrays and floats)
has exactly the argument's structure. The generated code returns a container
adjoint (lists of per-element adjoints, dicts of per-key adjoints, None for
zero) or, where a rule saw the whole container, a stacked array; `like` turns
either into the argument's structure, zeros where nothing reached.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

CONTAINERS = (dict, list, tuple)


def leaves(value: Any, path: str = "") -> Iterator[tuple[str, Any]]:
    """(path, leaf) pairs of a nested container, paths like `['W1']` or `[0][1]`."""
    if isinstance(value, dict):
        for key, item in value.items():
            yield from leaves(item, f"{path}[{key!r}]")
    elif isinstance(value, (list, tuple)):
        for i, item in enumerate(value):
            yield from leaves(item, f"{path}[{i}]")
    else:
        yield path, value


def like(g: Any, arg: Any, leaf: Callable[[Any, Any], Any]) -> Any:
    """`g` in the structure of the container `arg`; `leaf(g, x)` shapes one leaf.
    No two leaves of the result share memory (adjoints may be shared inside)."""
    seen: set[int] = set()

    def distinct(g: Any, x: Any) -> Any:
        out = leaf(g, x)
        if isinstance(out, np.ndarray):
            if id(out) in seen:
                out = out.copy()
            seen.add(id(out))
        return out

    return _like(g, arg, distinct)


def _like(g: Any, arg: Any, leaf: Callable[[Any, Any], Any]) -> Any:
    if g is None or (isinstance(g, np.ndarray) and g.dtype == object and g.ndim == 0):
        g = None  # zero: `np.zeros_like` of a container is a 0-d object array of 0
    if isinstance(arg, dict):
        if g is not None and not isinstance(g, dict):
            raise TypeError(f"tangentlike: internal error, adjoint {type(g)} for a dict")
        return {k: _like(None if g is None else g.get(k), v, leaf) for k, v in arg.items()}
    if isinstance(arg, (list, tuple)):
        if g is not None and len(g) != len(arg):
            raise TypeError(
                f"tangentlike: internal error, adjoint of length {len(g)} for {len(arg)} items"
            )
        items = [_like(None if g is None else g[i], v, leaf) for i, v in enumerate(arg)]
        return type(arg)(items) if type(arg) in (list, tuple) else type(arg)(*items)
    if g is None:
        g = np.zeros(np.shape(arg))
    return leaf(g, arg)


def copy(seed: Any) -> Any:
    """A copy of a container seed's lists and dicts (the backward sweep updates them)."""
    if isinstance(seed, dict):
        return {k: copy(v) for k, v in seed.items()}
    if isinstance(seed, (list, tuple)):
        return [copy(v) for v in seed]
    return seed


def fresh_arrays(value: Any) -> Any:
    """`value` with every array in it (inside lists, tuples and dicts too) copied: the
    arguments of one of several calls of a function that may change them in place
    (tl.hessian's and tl.jacobian's columns and rows), so that all run at the point
    the caller passed and the caller's arrays change once, as by one call."""
    if isinstance(value, np.ndarray):
        return value.copy()
    if type(value) in (list, tuple):
        return type(value)(fresh_arrays(v) for v in value)
    if type(value) is dict:
        return {k: fresh_arrays(v) for k, v in value.items()}
    return value


def call_arguments(args: tuple, kwargs: dict, last: bool) -> tuple[tuple, dict]:
    """The arguments for one of several calls of a function that may change them in
    place: the caller's own for the last call, fresh copies (fresh_arrays) before it."""
    return (args, kwargs) if last else (fresh_arrays(args), fresh_arrays(kwargs))
