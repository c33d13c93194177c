"""tl.jacobian of a function that changes its argument in place.

Every mode calls f, its vjp or its jvp more than once (auto calls f to measure the
output; reverse runs one vjp per output element), and each call writes f's update back
into the caller's array. Rows used to be taken at a point already changed by the rows
before them (diagonal 24, 384, 6144 for 6, 24, 96). Now all rows and columns are at
the caller's point, and the caller's array changes once, as by one call of f. Checked
against autograd on an out-of-place twin.
"""

from __future__ import annotations

import autograd
import autograd.numpy as anp
import numpy as np
import pytest

import tangentlike as tl


def cubed(x):
    x *= 2.0
    return x**3


def cubed_twin(x):
    x = x * 2.0
    return x**3


def mixed(x, y):
    x *= 2.0
    return np.sin(x) * y[0] + np.sum(x[1:]) * y


def mixed_twin(x, y):
    x = x * 2.0
    return anp.sin(x) * y[0] + anp.sum(x[1:]) * y


X = np.array([0.5, 1.0, 2.0])
Y = np.array([1.5, 2.0, -0.5])


@pytest.mark.parametrize("mode", ["reverse", "forward", "auto"])
def test_every_row_at_the_callers_point(mode):
    x = X.copy()
    J = tl.jacobian(cubed, mode=mode)(x)
    np.testing.assert_allclose(J, autograd.jacobian(cubed_twin)(X.copy()), rtol=1e-12)
    np.testing.assert_allclose(x, 2.0 * X)  # changed once, as by cubed(x)


@pytest.mark.parametrize("mode", ["reverse", "forward", "auto"])
def test_two_arguments_one_changed(mode):
    x, y = X.copy(), Y.copy()
    Jx, Jy = tl.jacobian(mixed, wrt=(0, 1), mode=mode)(x, y)
    np.testing.assert_allclose(Jx, autograd.jacobian(mixed_twin, 0)(X.copy(), Y), rtol=1e-12)
    np.testing.assert_allclose(Jy, autograd.jacobian(mixed_twin, 1)(X.copy(), Y), rtol=1e-12)
    np.testing.assert_allclose(x, 2.0 * X)
    np.testing.assert_array_equal(y, Y)
