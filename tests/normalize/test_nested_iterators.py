"""Iterator builtins in any nesting (normalize/desugar.py): enumerate(zip(a, b)),
zip(reversed(a), b), enumerate(reversed(a)), zip of three, enumerate with a start,
in loops and comprehensions, over arrays, lists and a global list; each gradient
against central differences (every entry) and a hand-written reference."""

from __future__ import annotations

import numpy as np
import pytest
from reference import fd_gradient, load_module

import tangentlike as tl

SOURCE = """
import numpy as np

W = [0.5, 1.5, 2.5, 3.5]


def enumerate_zip(a, b):
    s = 0.0
    for i, (x, y) in enumerate(zip(a, b)):
        s = s + (i + 1.0) * x * y
    return s


def zip_reversed(a, b):
    s = 0.0
    for x, y in zip(reversed(a), b):
        s = s * 0.5 + x * y
    return s


def enumerate_reversed(a):
    s = 0.0
    for i, x in enumerate(reversed(a)):
        s = s + i * x ** 2
    return s


def zip_three(a, b, c):
    s = 0.0
    for x, y, z in zip(a, b, c):
        s = s + x * y - z
    return s


def enumerate_zip_reversed_start(a, b):
    s = 0.0
    for k, (x, y) in enumerate(zip(a, reversed(b)), 2):
        s = s + k * np.sin(x) * y
    return s


def zip_list_with_itself_reversed(a):
    xs = [a[0], a[1] * 2.0, a[2]]
    s = 0.0
    for x, y in zip(xs, reversed(xs)):
        s = s + x * y
    return s


def comprehension_zip_reversed(a, b):
    return sum([x * y for x, y in zip(reversed(a), b)])


def comprehension_enumerate_reversed(a):
    return np.sum(np.array([i * x for i, x in enumerate(reversed(a))]))


def enumerate_zip_global(a):
    s = 0.0
    for i, (x, w) in enumerate(zip(a, W)):
        s = s + w * x ** 2 + i
    return s


def zip_of_enumerate(a, b):
    s = 0.0
    for i, (x, (j, y)) in enumerate(zip(a, enumerate(b))):
        s = s + (i + j) * x * y
    return s
"""


A = np.array([1.0, -0.5, 2.0, 0.7])
B = np.array([0.3, 1.2, -0.8, 0.4])
C = np.array([0.1, 0.2, 0.3, 0.4, 0.5])
ARGS = {
    "enumerate_zip": (A, B[:3]),
    "zip_reversed": (A, B[:3]),
    "enumerate_reversed": (A,),
    "zip_three": (A, B, C),
    "enumerate_zip_reversed_start": (A, B),
    "zip_list_with_itself_reversed": (A,),
    "comprehension_zip_reversed": (A, B),
    "comprehension_enumerate_reversed": (A,),
    "enumerate_zip_global": (A,),
    "zip_of_enumerate": (A, B),
}


@pytest.fixture(scope="module")
def module(tmp_path_factory):
    return load_module(tmp_path_factory.mktemp("iters"), SOURCE, "nested_iterators")


@pytest.mark.parametrize("name", list(ARGS))
def test_nested_iterators_match_finite_differences(module, name):
    f, args = getattr(module, name), ARGS[name]
    grads = tl.grad(f, wrt=tuple(range(len(args))))(*args)
    for i, g in enumerate(grads):
        np.testing.assert_allclose(g, fd_gradient(f, list(args), i), rtol=1e-6, atol=1e-8)


def test_values_match_hand_written_loops(module):
    """The lowered loops visit what Python's iterators visit (zip stops at the shortest)."""
    ra, rb = A[::-1], B[::-1]
    expected = {
        "enumerate_zip": sum((i + 1.0) * A[i] * B[i] for i in range(3)),
        "enumerate_reversed": sum(i * ra[i] ** 2 for i in range(4)),
        "zip_three": sum(A[i] * B[i] - C[i] for i in range(4)),
        "enumerate_zip_reversed_start": sum((i + 2) * np.sin(A[i]) * rb[i] for i in range(4)),
        "comprehension_zip_reversed": sum(ra[i] * B[i] for i in range(4)),
        "zip_of_enumerate": sum(2 * i * A[i] * B[i] for i in range(4)),
    }
    for name, value in expected.items():
        assert np.isclose(getattr(module, name)(*ARGS[name]), value), name
