"""grad (and hvp, hessian) of a function returning a tuple, list or dict: a clear
NonScalarOutputError pointing at vjp, as for an array output. The generated scalar check
is `np.ndim(out)`: 0 for a dict, an error for a ragged tuple (hold-out 12: grad raised
"'float' object is not subscriptable" or NumPy's "inhomogeneous shape" instead)."""

from __future__ import annotations

import numpy as np
import pytest
from reference import load_module

import tangentlike as tl
from tangentlike.errors import NonScalarOutputError

MODULE = """
import numpy as np


def ragged(x):
    return np.sum(x ** 2), np.sin(x) * x[0]


def named(x):
    return {"energy": np.sum(x ** 3), "field": np.cos(x) * x[1]}


def listed(x):
    return [np.sum(x), x * 2.0]


def helper_dict(x):
    return named(x * 2.0)
"""

X = np.array([1.3, 0.6, -0.4])


@pytest.mark.parametrize("name", ["ragged", "named", "listed", "helper_dict"])
@pytest.mark.parametrize("way", ["grad", "value_and_grad", "hvp", "hessian"])
def test_container_output_is_refused_pointing_at_vjp(tmp_path, name, way):
    m = load_module(tmp_path, MODULE)
    f = getattr(m, name)
    call = {
        "grad": lambda: tl.grad(f)(X),
        "value_and_grad": lambda: tl.value_and_grad(f)(X),
        "hvp": lambda: tl.hvp(f)(X, X),
        "hessian": lambda: tl.hessian(f)(X),
    }[way]
    with pytest.raises(NonScalarOutputError) as err:
        call()
    message = str(err.value)
    assert "scalar output" in message and "vjp" in message and name in message
    # holdout13: a dict was described as "an output of shape ()" (np.shape of a dict)
    assert "shape ()" not in message
    if way == "grad":
        kind = {"ragged": "tuple", "named": "dict", "listed": "list", "helper_dict": "dict"}
        assert f"returned a {kind[name]}" in message


def test_vjp_of_a_container_output_still_works(tmp_path):
    m = load_module(tmp_path, MODULE)
    g = tl.vjp(m.named)(X, {"energy": 1.0, "field": np.ones(3)})
    np.testing.assert_allclose(
        g, 3 * X**2 + np.array([0.0, np.sum(np.cos(X)), 0.0]) - np.sin(X) * X[1]
    )


ARRAY_MODULE = """
import numpy as np


def field(x):
    e = np.exp(x - np.max(x))
    return e / np.sum(e)
"""


@pytest.mark.parametrize("method", ["forward", "reverse"])
@pytest.mark.parametrize("way", ["hvp", "hessian"])
def test_array_output_of_hvp_and_hessian_is_a_nonscalar_error(tmp_path, way, method):
    """holdout13: hvp/hessian of an array output raised the generated check's plain
    ValueError ("grad needs a scalar output; use vjp"), not the NonScalarOutputError that
    grad raises, with the output's shape and the user's return line."""
    m = load_module(tmp_path, ARRAY_MODULE)
    call = {
        "hvp": lambda: tl.hvp(m.field, method=method)(X, X),
        "hessian": lambda: tl.hessian(m.field, method=method)(X),
    }[way]
    with pytest.raises(NonScalarOutputError) as err:
        call()
    message = str(err.value)
    assert "field returned an output of shape (3,)" in message
    assert "vjp" in message and ".py:7)" in message
