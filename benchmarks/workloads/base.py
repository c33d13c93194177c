"""What a workload is: a plain NumPy function, its expert hand-written gradient, and inputs.

A workload module builds one `Workload`. The suite reads nothing else from it,
so a workload never needs a peer library to import: peer spellings (torch,
jax.numpy) import their library inside the function body.
"""

from __future__ import annotations

import types
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

# Sizes a workload's inputs come in: "full" is what the suite times; "test" is small
# enough for the consistency tests (finite differences over every input).
SIZES = ("full", "test")


@dataclass(frozen=True)
class Workload:
    """One function to differentiate, with everything each contender needs.

    f: the function as a user writes it (plain NumPy, loops where the workload says
        loops); the contenders that read source (tangentlike, tangent-ad) and the ones
        that rebind `np` (autograd, and jax unless `jax_f` is given) all start from it.
    wrt: positions of the differentiated parameters; every gradient is a tuple in
        this order.
    by_hand: the gradient an expert writes by hand, same parameters as `f`, returning
        a tuple of gradients in `wrt` order.
    inputs: `inputs(size)` -> the argument tuple (fixed seeds), size in SIZES.
    torch_f: `f` spelled with torch (tensors in, 0-d tensor out), or None.
    jax_f: `f` spelled with jax.numpy where rebinding `np` is not enough (a branch on
        a traced value, in-place writes), or None to rebind `np` in a copy of `f`.
    jax_jit_f: the spelling jax.jit runs, where a JAX user would not jit the Python
        loop (XLA takes minutes to compile 1,000 unrolled steps): the same loop as
        `jax.lax.fori_loop` or `scan`. None: jax.jit runs what jax runs.
    hessian_by_hand: for the Hessian measurement, the expert Hessian with respect to
        `wrt[0]` (shape x.shape + x.shape), or None when the workload has none.
    """

    name: str
    title: str
    f: Callable
    wrt: tuple[int, ...]
    by_hand: Callable
    inputs: Callable[[str], tuple]
    torch_f: Callable | None = None
    jax_f: Callable | None = None
    jax_jit_f: Callable | None = None
    hessian_by_hand: Callable | None = None


def rebind_numpy(f: Callable, module: Any) -> Callable:
    """A copy of `f` whose global `np` is `module` (f's own globals are untouched).

    The way tests/reference.py runs autograd: the same code object, new globals.
    Functions `f` calls keep their own globals, so workloads keep `f` self-contained.
    """
    copy = types.FunctionType(
        f.__code__, {**f.__globals__, "np": module}, f.__name__, f.__defaults__, f.__closure__
    )
    copy.__kwdefaults__ = f.__kwdefaults__
    return copy
