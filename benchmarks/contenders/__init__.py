"""The contenders of each measurement, by kind, in the order the tables list them.

A kind is one measurement: "grad" (the gradient, against the hand-written
gradient), "jvp" (forward mode, against one hand-written reverse pass), "hvp"
(Hessian-vector product, against one hand-written reverse pass) and "hessian"
(the full Hessian, against the hand-written Hessian). Each kind's first
contender is its baseline. Add a contender by adding an adapter (a function
Task -> Prepared) and a row here.
"""

from __future__ import annotations

from .common import Adapter, NotAvailable, Prepared, Task
from .jax_peer import jax_eager, jax_jit
from .numpy_peers import (
    autograd_,
    hand_written,
    primal,
    tangent_ad,
    tangentlike_jit,
    tangentlike_python,
)
from .torch_peer import torch_eager

BASELINE = "hand-written"
# Contenders whose result is not a derivative: timed for context, never checked or averaged.
CONTEXT = frozenset({"f alone"})

_PEERS: list[tuple[str, Adapter]] = [
    ("tangentlike", tangentlike_python),
    ("autograd", autograd_),
    ("tangent-ad", tangent_ad),
    ("torch", torch_eager),
    ("jax", jax_eager),
    ("jax.jit", jax_jit),
]

KINDS: dict[str, list[tuple[str, Adapter]]] = {
    "grad": [
        (BASELINE, hand_written),
        ("f alone", primal),
        _PEERS[0],
        ("tangentlike jit", tangentlike_jit),
        *_PEERS[1:],
    ],
    "jvp": [(BASELINE, hand_written), _PEERS[0], ("tangentlike jit", tangentlike_jit), *_PEERS[1:]],
    "hvp": [(BASELINE, hand_written), *_PEERS],
    "hessian": [(BASELINE, hand_written), *_PEERS],
}

# What the baseline of each kind is, for the table headings.
BASELINE_MEANS = {
    "grad": "the hand-written gradient",
    "jvp": "one hand-written reverse pass (the gradient)",
    "hvp": "one hand-written reverse pass (the gradient)",
    "hessian": "the hand-written Hessian",
}

__all__ = ["BASELINE", "BASELINE_MEANS", "CONTEXT", "KINDS", "NotAvailable", "Prepared", "Task"]
