"""np.imag and np.angle: of a real value the gradient is zero (locally constant); of
a complex value made inside the function (x * 1j) it is the complex form's (autograd's
convention); of a complex value tangentlike cannot see being made (a complex argument
not differentiated), zero would be wrong, so the gradient refuses it at run time."""

from __future__ import annotations

import numpy as np
import pytest
from reference import autograd_grad, check_against_fd, load_module

import tangentlike as tl

SOURCE = """
import numpy as np

def imag_of_complex(x):
    return np.sum(np.imag(x * 1j) * x)

def angle_of_complex(x):
    return np.sum(np.angle(x + 1j))

def imag_of_real(x):
    return np.sum(np.imag(x) + np.angle(x) + x)

def imag_of_argument(x, h):
    return np.sum(np.imag(x * h))
"""


@pytest.mark.parametrize("name", ["imag_of_complex", "angle_of_complex", "imag_of_real"])
def test_complex_parts(tmp_path, name):
    f = getattr(load_module(tmp_path, SOURCE), name)
    x = np.array([0.5, -1.2, 2.0])
    g = tl.grad(f)(x)
    check_against_fd(f, g, [x], 0)
    np.testing.assert_allclose(g, autograd_grad(f, [x], 0), rtol=1e-10)


def test_a_complex_argument_is_refused(tmp_path):
    m = load_module(tmp_path, SOURCE)
    with pytest.raises(tl.CheckError, match=r"np\.imag of a complex value"):
        tl.grad(m.imag_of_argument)(np.array([0.5, -1.2]), np.array([1j, 2.0 + 1j]))
