"""The suite's workloads, in the order the tables list them.

Each module holds one plain NumPy function as a user writes it, its expert
hand-written gradient, an input maker with fixed seeds and the spellings peers
need (see base.Workload). Add a workload by adding a module and its name here.
"""

from __future__ import annotations

import importlib

from .base import SIZES, Workload, rebind_numpy

NAMES = (
    "mlp",
    "rnn",
    "elementwise",
    "tiny_ops",
    "ode_euler",
    "logreg",
    "scalar_map",
    "logsumexp_loop",
)


def load(names: tuple[str, ...] | list[str] = NAMES) -> list[Workload]:
    """The workloads called `names`, in that order; an unknown name raises KeyError."""
    unknown = [name for name in names if name not in NAMES]
    if unknown:
        raise KeyError(f"unknown workload(s) {', '.join(unknown)}; known: {', '.join(NAMES)}")
    return [importlib.import_module(f"{__name__}.{name}").WORKLOAD for name in names]


__all__ = ["NAMES", "SIZES", "Workload", "load", "rebind_numpy"]
