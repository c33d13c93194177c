"""tl.stop_gradient blocks the gradient and runs as the identity."""

from __future__ import annotations

import numpy as np
from reference import load_module

import tangentlike as tl


def test_stop_gradient_blocks_one_path_only(tmp_path):
    module = load_module(
        tmp_path,
        """
        import numpy as np
        import tangentlike as tl

        def f(x):
            frozen = tl.stop_gradient(x * x)
            return np.sum(frozen * x)
        """,
    )
    x = np.array([1.0, 2.0, -3.0])
    df = tl.grad(module.f)
    assert np.allclose(df(x), x * x)  # d/dx (c * x) with c = x*x held constant
    assert np.isclose(module.f(x), np.sum(x**3))
    assert "import tangentlike" not in df.source and "def stop_gradient" in df.source
