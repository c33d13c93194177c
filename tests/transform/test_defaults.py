"""Default values are what the function holds (evaluated once, at its definition, or set
since), not what its text would evaluate to now."""

from __future__ import annotations

import numpy as np
import pytest
from reference import check_against_fd, load_module

import tangentlike as tl

SOURCE = """
import numpy as np

SCALE = 2.0
SHIFT = np.array([0.5, -0.5])


def g(x, a=SCALE, *, b=SCALE):
    return np.sin(x) * a + b * x


def f(x, c=SCALE):
    return g(x) * c


def keyword_only(x):
    return g(x, b=1.0)


def array_default(x, shift=SHIFT):
    return np.sum(np.sin(x + shift))


SCALE = 3.0  # after the definitions: their defaults keep 2.0
SHIFT = np.zeros(2)
"""


@pytest.mark.parametrize("name", ["f", "keyword_only", "array_default"])
def test_defaults_are_the_values_of_the_definition(tmp_path, name):
    mod = load_module(tmp_path, SOURCE)
    f = getattr(mod, name)
    x = 0.3 if name != "array_default" else np.array([0.1, 0.2])
    check_against_fd(f, tl.grad(f, cache=False)(x), [x], 0)


def test_literal_defaults_are_written_out(tmp_path):
    mod = load_module(tmp_path, SOURCE)
    text = tl.grad(mod.f, cache=False).source
    assert "a=2.0" in text and "c=2.0" in text
