"""Second-order rules of SciPy's adjoint helpers that are not read through their source
(registered by rules/runtime_helpers.py beside its other rules).

- full_of (a convolution's adjoint placed inside zeros of the full result's shape) is
  linear in the adjoint g and reads the inputs for their shapes only, and the mode,
  boundary, fill value, axes and margin as constants (the cases it does not refuse):
  its transpose is full_part, the part of the full array where full_of puts g, and
  full_part's transpose is full_of again. Both forms: the transpose (reverse) and the
  helper at the tangent (forward).
"""

from __future__ import annotations

from collections.abc import Callable

from .. import runtime
from .template import d


def register(adjoint: Callable, tangent: Callable) -> None:
    """State both forms of each helper's rule with the registering functions given."""
    _convolutions(adjoint, tangent)


def _convolutions(adjoint: Callable, tangent: Callable) -> None:
    constant = ("in1", "in2", "mode", "boundary", "fillvalue", "axes", "late")

    @adjoint(runtime.full_of, constant=constant)
    def full_of(result, g, in1, in2, mode, boundary="fill", fillvalue=0, axes=None, late=False):
        d[g] = runtime.full_part(d[result], g, in1, in2, mode, late)

    @tangent(runtime.full_of)
    def full_of_tangent(
        result, g, in1, in2, mode, boundary="fill", fillvalue=0, axes=None, late=False
    ):
        d[result] = runtime.full_of(d[g], in1, in2, mode, boundary, fillvalue, axes, late)

    @adjoint(runtime.full_part, constant=("g", "in1", "in2", "mode", "late"))
    def full_part(result, h, g, in1, in2, mode, late=False):
        d[h] = runtime.full_of(d[result], in1, in2, mode, "fill", 0, None, late)

    @tangent(runtime.full_part)
    def full_part_tangent(result, h, g, in1, in2, mode, late=False):
        d[result] = runtime.full_part(d[h], g, in1, in2, mode, late)
