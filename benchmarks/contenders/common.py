"""What every contender adapter shares: the task it is built for and what it hands back.

An adapter turns a `Task` (a workload, its arguments, what to compute) into a
`Prepared`: a zero-argument `call` the timer runs (arguments already converted
to the library's own arrays, so conversion is not timed) and `as_numpy`, which
turns one result into NumPy for the correctness check. An adapter that cannot
run says why by raising `NotAvailable`; the suite reports it as n/a and moves on.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..workloads import Workload


class NotAvailable(Exception):
    """This contender cannot run this task; the message says why (shown as n/a)."""


@dataclass(frozen=True)
class Task:
    """What to compute for one workload.

    kind: "grad" (gradient with respect to every `wrt`), "jvp" (J t for a tangent t
    of argument `wrt[0]`), "hvp" (H v for argument `wrt[0]`) or "hessian" (the
    Hessian with respect to `wrt[0]`). `probe` is t or v (None for grad, hessian).
    """

    workload: Workload
    args: tuple
    kind: str
    probe: Any = None

    @property
    def argnum(self) -> int:
        """The argument jvp, hvp and hessian differentiate."""
        return self.workload.wrt[0]


@dataclass(frozen=True)
class Prepared:
    """A ready-to-time contender: `call()` computes, `as_numpy(call())` gives NumPy values.

    `as_numpy` returns a tuple: the gradients in wrt order (grad), or a 1-tuple
    holding J t, H v or the Hessian.
    """

    call: Callable[[], Any]
    as_numpy: Callable[[Any], tuple]


Adapter = Callable[[Task], Prepared]


def numpy_tuple(values: Any) -> tuple:
    """Results of any array library as a tuple of float64 NumPy arrays."""
    items = values if isinstance(values, (tuple, list)) else (values,)
    out = []
    for v in items:
        if hasattr(v, "detach"):  # torch
            v = v.detach().cpu().numpy()
        out.append(np.asarray(v, dtype=np.float64))
    return tuple(out)


def bind(f: Callable, args: tuple, i: int) -> Callable:
    """`f` as a function of argument i alone, the others fixed (for jvp, hvp, hessian)."""

    def partial(x):
        return f(*args[:i], x, *args[i + 1 :])

    return partial


def require(module: str) -> Any:
    """Import `module` or say it is not installed (the bench extra brings the peers)."""
    import importlib

    try:
        return importlib.import_module(module)
    except ImportError as err:
        raise NotAvailable(f"not installed ({err}); pip install -e '.[bench]'") from None


def refused(err: BaseException) -> NotAvailable:
    """A peer that fails on a workload: n/a, with the first line of its reason."""
    lines = [line.strip() for line in str(err).splitlines()]
    words = [line for line in lines if len(line.split()) >= 4]  # past banners and titles
    first = (words or [line for line in lines if line] or [""])[0]
    return NotAvailable(f"fails: {type(err).__name__}: {first}"[:200])
