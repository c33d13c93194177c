"""The compiled path: `tl.grad(f, jit=True)` runs the generated adjoint compiled by numba.

lower.py rewrites a generated module's text into one numba compiles in nopython mode
(typed stacks, kernels for the runtime helpers, gradients shaped in Python after the
call); kernels.py holds the numba versions of the runtime helpers; compiled.py writes the
lowered module as a real file (so numba's `cache=True` works), imports it, and runs it,
turning numba's refusals into located JitErrors. Only kernels.py and compiled.py import
numba, and only when a compiled gradient is asked for: tangentlike works without it.
"""

from __future__ import annotations

import importlib.util


def available() -> bool:
    """Whether numba can be imported here (`pip install tangentlike[jit]`)."""
    return importlib.util.find_spec("numba") is not None
