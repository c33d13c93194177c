"""The Jacobian's float dtype is the same in every mode: float32 arguments and outputs
give a float32 Jacobian (hold-out 12: mode="reverse" filled float64 rows while forward
mode gave float32); a float64 output of a float32 argument gives float64."""

from __future__ import annotations

import numpy as np
import pytest
from reference import load_module

import tangentlike as tl

SOURCE = """
import numpy as np


def single(x):
    return np.sin(x) * x[0]


def widened(x):
    return np.sin(x) * np.ones(3)


def scalar(x):
    return np.sum(np.sin(x))
"""


@pytest.mark.parametrize(
    "name, dtype", [("single", np.float32), ("widened", np.float64), ("scalar", np.float32)]
)
def test_every_mode_gives_one_dtype(tmp_path, name, dtype):
    f = getattr(load_module(tmp_path, SOURCE), name)
    x = np.array([0.3, -0.5, 0.8], dtype=np.float32)
    found = {mode: tl.jacobian(f, mode=mode)(x) for mode in ("forward", "reverse", "auto")}
    assert {mode: J.dtype for mode, J in found.items()} == dict.fromkeys(found, np.dtype(dtype))
    np.testing.assert_allclose(found["forward"], found["reverse"], rtol=1e-6)
