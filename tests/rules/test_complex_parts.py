"""np.imag and np.angle of real values have a zero gradient; of a complex value (which
real code can make, e.g. x * 1j) zero would be wrong, so the gradient refuses it."""

from __future__ import annotations

import numpy as np
import pytest
from reference import load_module

import tangentlike as tl

SOURCE = """
import numpy as np

def imag_of_complex(x):
    return np.sum(np.imag(x * 1j))

def angle_of_complex(x):
    return np.sum(np.angle(x + 1j))
"""


@pytest.mark.parametrize("name", ["imag_of_complex", "angle_of_complex"])
def test_a_complex_argument_is_refused(tmp_path, name):
    m = load_module(tmp_path, SOURCE)
    with pytest.raises(tl.CheckError, match="of a complex value: tangentlike differentiates real"):
        tl.grad(getattr(m, name))(np.array([0.5, -1.2]))
