"""The compiled path: `tl.grad(f, jit=True)` runs the generated adjoint compiled by numba.

lower.py rewrites a generated module's text into one numba compiles in nopython mode:
context.py holds what its passes share, stacks.py gives each save site a typed stack
and split variants their saves as values, inplace.py updates adjoints no other name
sees in place, emit.py writes the module (the gradients shaped in Python after the
call). kernels.py and kernels_join.py are the numba versions of the runtime helpers;
compiled.py writes the lowered module as a real file (so numba's `cache=True` works),
imports it and runs it, turning numba's refusals into located JitErrors. Only the
kernels and compiled.py's calls import numba, and only when a compiled gradient is
asked for: tangentlike works without it.
"""

from __future__ import annotations

import importlib.util


def available() -> bool:
    """Whether numba can be imported here (`pip install tangentlike[jit]`)."""
    return importlib.util.find_spec("numba") is not None
