"""Forward forms whose result is a container (list, tuple, split, iterating a dict), through
jvp against vjp (dot product) and central differences."""

from __future__ import annotations

import numpy as np
import pytest
from corpus_check import check_case

from tests.reference import load_module

SOURCE = """
import numpy as np

def as_list(x):
    parts = list(x)
    return parts[0] * parts[2] + np.sin(parts[1])

def as_tuple(x):
    parts = tuple(x * 2.0)
    return parts[1] * parts[0]

def over_dict(p, x):
    total = 0.0
    for key in p:
        total = total + np.sum(p[key] * x)
    return total

def comprehension_dict(x):
    d = {k: x * k for k in (1.0, 2.0)}
    return d[2.0] - d[1.0] ** 2

def splits(x):
    a, b = np.split(x, 2)
    c = np.array_split(x, 3)
    return a * b + c[0][0] * c[2][-1]
"""


@pytest.fixture(scope="module")
def m(tmp_path_factory):
    return load_module(tmp_path_factory.mktemp("interim"), SOURCE)


CASES = [
    ("as_list", lambda r: (r.randn(3),), (0,)),
    ("as_tuple", lambda r: (r.randn(3),), (0,)),
    ("over_dict", lambda r: ({"a": r.randn(2), "b": r.randn(2)}, r.randn(2)), (0, 1)),
    ("comprehension_dict", lambda r: (r.randn(3),), (0,)),
    ("splits", lambda r: (r.randn(6),), (0,)),
]


@pytest.mark.parametrize("name, make, wrt", CASES, ids=[c[0] for c in CASES])
def test_container_result_forms(m, name, make, wrt):
    check_case(getattr(m, name), make(np.random.RandomState(0)), wrt)
