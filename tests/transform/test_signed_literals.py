"""Gradients of programs whose literals A-normal form folds or the emitter respells:
negative numbers in every operand position, powers of negative bases, special floats.
Each is compared with central differences and with autograd."""

from __future__ import annotations

import numpy as np
import pytest
from reference import autograd_grad, check_against_fd, load_module

import tangentlike as tl

# (body computing a scalar `out` from x (a (3,) array) and n (an int), an argument maker)
BODIES = [
    "out = np.sum(x * (-1.1) ** 2)",
    "out = np.sum((-1.0) ** n * x)",
    "out = np.sum((-2.0) ** n * x ** 2)",
    "out = np.sum(x * -1.1 ** 2)",
    "out = np.sum(x ** -2)",
    "out = np.sum(x ** -1.5)",
    "out = np.sum(x ** (-1) ** n)",
    "out = np.sum((-x) ** 2 - -x)",
    "out = np.sum(-x ** 2)",
    "out = np.sum(x * -0.5 - -0.25 * x ** 3)",
    "out = np.sum(x - -1e-3 * x) * -1e3",
    "out = np.sum(x[-1] * x[::-1] * x[-2:][0])",
    "out = np.sum(np.maximum(x, -np.inf) * (-3) ** 2)",
    "out = np.sum(np.where(x > -1.5, x * -2.0, x)) + (-1.0) ** 2 * x[0]",
    "y = -2.5\n    out = np.sum(x * y ** 2 + y * x)",
    "out = np.sum((x * (-1.0) ** (n + 1)) ** 2)",
    "out = np.sum(x if -1 < 0 else -x) * (-0.5) ** 3",
    "out = np.sum(x * np.float64(-1.5) ** 2)",
]


@pytest.mark.parametrize("n", [2, 3])
@pytest.mark.parametrize("body", BODIES)
def test_gradient_of_signed_literals(tmp_path, body, n):
    module = load_module(
        tmp_path,
        f"import numpy as np\n\n\ndef f(x, n):\n    {body}\n    return out\n",
    )
    x = np.array([0.7, 1.3, 2.1])
    g = tl.grad(module.f)(x, n)
    check_against_fd(module.f, g, [x, n], 0)
    np.testing.assert_allclose(g, autograd_grad(module.f, [x, n], 0), rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize(
    "constant", ["-1.1", "-0.0", "float('nan')", "float('inf')", "float('-inf')", "-3"]
)
def test_special_global_constants_keep_their_value(tmp_path, constant):
    module = load_module(
        tmp_path,
        f"""
        import numpy as np

        C = {constant}


        def f(x):
            safe = np.where(np.isfinite(C), C, 2.0)
            return np.sum(x ** 2 * safe + np.copysign(1.0, C) * x)
        """,
    )
    x = np.array([0.5, -1.5])
    df = tl.grad(module.f)
    check_against_fd(module.f, df(x), [x], 0)
    namespace: dict = {}
    exec(compile(df.source, "written.py", "exec"), namespace)  # the text alone, as written
    np.testing.assert_array_equal(namespace[df.__name__](x), df(x))


def test_values_that_are_no_literals_are_read_not_printed(tmp_path):
    """NumPy scalars folded into a call (a global tuple spelled out by `*T`, a partial's
    argument, a user rule's default) keep their type: read at run time or bound as a
    global, never printed as `np.float64(2.0)` text."""
    module = load_module(
        tmp_path,
        """
        import functools

        import numpy as np

        import tangentlike as tl

        T = (np.float64(-2.0), 3.0)


        def g(x, a, b):
            return x * a + b


        def scale(x, k=np.float32(-1.5)):
            return x * k


        @tl.adjoint(scale)
        def dscale(result, x, k=np.float32(-1.5)):
            d[x] = d[result] * k


        half = functools.partial(g, b=np.float64(-0.5))


        def f(x):
            return np.sum(g(x, *T) * scale(x) + half(x, a=np.float64(4.0)))
        """,
    )
    x = np.array([0.5, -1.25])
    g = tl.grad(module.f)(x)
    check_against_fd(module.f, g, [x], 0)
    np.testing.assert_allclose(g, 2 * x * 3.0 - 3.0 * 1.5 + 4.0)
