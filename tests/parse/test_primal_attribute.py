"""parse.resolve.primal_attribute: which attribute holds the function a wrapper calls."""

from __future__ import annotations

import functools
import types

import numpy as np

import tangentlike as tl
from tangentlike.parse.resolve import primal_attribute, primal_of


def _square(x):
    return x * x


def test_wrappers_name_their_function() -> None:
    assert primal_attribute(functools.lru_cache(_square)) == "__wrapped__"
    wrapped = tl.differentiable(_square)
    assert primal_attribute(wrapped) == "__tangentlike_primal__"
    assert primal_of(wrapped) is _square


def test_a_module_is_read_for_its_own_names_only() -> None:
    """A module's __getattr__ (NumPy's runs a chain of tests for each name) is not asked."""
    answering = types.ModuleType("answering")
    answering.__getattr__ = lambda name: _square  # answers every name
    assert primal_attribute(answering) is None
    assert primal_attribute(np) is None and primal_of(np) is np
    holding = types.ModuleType("holding")
    holding.__tangentlike_primal__ = _square
    assert primal_attribute(holding) == "__tangentlike_primal__"
