"""Markers users call in differentiated code.

Part of the runtime: copied into generated modules that use it (NumPy only).
"""

from __future__ import annotations


def stop_gradient(x):
    """`x` itself; tangentlike sends no gradient through it."""
    return x
