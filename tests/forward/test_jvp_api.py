"""The jvp entry point: caching, staleness, structures, dtypes, bound methods, rules."""

from __future__ import annotations

import numpy as np
import pytest

import tangentlike as tl
from tests.reference import load_module

SOURCE = """
import numpy as np

SCALE = 2.0

def scaled(x):
    return np.sin(x) * SCALE

def poly(x, k):
    return x * x * k + x

def over_dict(p, x):
    return {"a": p["w"] * x, "b": np.sum(p["v"] ** 2)}

class Model:
    def __init__(self, w):
        self.w = w

    def apply(self, x):
        return np.tanh(self.w * x)
"""


@pytest.fixture
def m(tmp_path):
    return load_module(tmp_path, SOURCE)


def test_second_jvp_is_served_from_memory(m):
    assert tl.jvp(m.scaled) is tl.jvp(m.scaled)
    assert tl.jvp(m.scaled, wrt=(0,)) is not tl.jvp(m.scaled)


def test_a_changed_global_is_read_again(m):
    jf = tl.jvp(m.scaled)
    x = np.array([0.1, 0.2])
    assert np.allclose(jf(x, np.ones(2))[1], 2.0 * np.cos(x))
    m.SCALE = 3.0
    assert np.allclose(jf(x, np.ones(2))[1], 3.0 * np.cos(x))


def test_python_float_in_python_float_tangent_out(m):
    value, tangent = tl.jvp(m.poly)(1.5, 2.0, 1.0)
    assert type(value) is float
    assert type(tangent) is float and tangent == pytest.approx(2 * 1.5 * 2.0 + 1)


def test_float32_tangent_stays_float32(m):
    x = np.array([0.1, 0.2], dtype=np.float32)
    _, tangent = tl.jvp(m.scaled)(x, np.ones(2, dtype=np.float32))
    assert tangent.dtype == np.float32


def test_container_wrt_and_output(m):
    p = {"w": np.array([1.0, 2.0]), "v": np.array([0.5, -1.0])}
    x = np.array([3.0, 4.0])
    value, tangent = tl.jvp(m.over_dict)(p, x, {"w": np.ones(2), "v": None})
    assert set(value) == {"a", "b"}
    assert set(tangent) == {"a", "b"}
    assert np.allclose(tangent["a"], x) and tangent["b"] == 0.0
    _, tangent = tl.jvp(m.over_dict)(p, x, {"w": np.zeros(2), "v": np.ones(2)})
    assert np.isclose(tangent["b"], np.sum(2 * p["v"]))


def test_bound_method(m):
    model = m.Model(np.array([0.5, 2.0]))
    x = np.array([0.3, -0.1])
    value, tangent = tl.jvp(model.apply)(x, np.ones(2))
    assert np.allclose(value, model.apply(x))
    assert np.allclose(tangent, model.w * (1 - np.tanh(model.w * x) ** 2))


def test_a_function_with_a_rule_and_no_source():
    value, tangent = tl.jvp(np.sin)(np.array([0.3]), np.array([2.0]))
    assert np.allclose(value, np.sin(0.3))
    assert np.allclose(tangent, 2.0 * np.cos(0.3))


def test_source_is_readable(m):
    text = tl.jvp(m.poly).source
    assert "def jvp_poly(x, k, dx):" in text and "return poly, output_tangent(dpoly, poly)" in text
