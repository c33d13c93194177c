"""Array methods taking their axes as separate arguments, as NumPy's methods do:
`x.transpose(1, 0)` is np.transpose(x, (1, 0)), like `x.reshape(2, 3)`."""

from __future__ import annotations

import autograd.numpy as anp
import numpy as np
import pytest
from reference import autograd_grad, fd_gradient, load_module

import tangentlike as tl

SOURCE = """
import numpy as np

W = np.arange(24.0).reshape(4, 3, 2) / 10.0


def axes_apart(x):
    return np.sum(np.sin(x.transpose(2, 0, 1)) * W)


def axes_packed(x):
    return np.sum(np.sin(x.transpose((2, 0, 1))) * W)


def reversed_axes(x):
    return np.sum(np.sin(x.transpose()) * W)
"""

W = np.arange(24.0).reshape(4, 3, 2) / 10.0
TWINS = {
    "axes_apart": lambda x: anp.sum(anp.sin(anp.transpose(x, (2, 0, 1))) * W),
    "axes_packed": lambda x: anp.sum(anp.sin(anp.transpose(x, (2, 0, 1))) * W),
    "reversed_axes": lambda x: anp.sum(anp.sin(anp.transpose(x)) * W),
}


@pytest.mark.parametrize("name", sorted(TWINS))
def test_transpose_with_axes_as_arguments(tmp_path, name):
    f = getattr(load_module(tmp_path, SOURCE, f"methods_{name}"), name)
    shape = (2, 3, 4) if name == "reversed_axes" else (3, 2, 4)  # made (4, 3, 2)
    x = np.linspace(-1.0, 1.0, 24).reshape(shape)
    for checks in (False, True):  # the specialised build; debug mode's generic one
        g = tl.grad(f, checks=checks)(x)
        np.testing.assert_allclose(g, autograd_grad(TWINS[name], (x,), 0), rtol=1e-12)
        np.testing.assert_allclose(g, fd_gradient(f, (x,), 0), rtol=1e-6, atol=1e-8)
    t = np.cos(np.arange(24.0)).reshape(x.shape)
    assert tl.jvp(f)(x, t)[1] == pytest.approx(np.sum(g * t), rel=1e-10)
