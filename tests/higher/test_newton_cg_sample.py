"""samples/newton_cg.py runs (small): Newton-CG with generated gradient and HVP, L-BFGS-B
and gradient descent reach the same minimum; Newton-CG in far fewer iterations."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("sklearn")
pytest.importorskip("scipy")

SAMPLE = Path(__file__).resolve().parents[2] / "samples" / "newton_cg.py"


@pytest.fixture(scope="module")
def sample():
    spec = importlib.util.spec_from_file_location("newton_cg_sample", SAMPLE)
    module = importlib.util.module_from_spec(spec)
    sys.modules["newton_cg_sample"] = module
    spec.loader.exec_module(module)
    return module


def test_the_generated_derivatives_are_right(sample):
    import autograd
    from reference import autograd_version

    X, y = sample.load_data(subset=60)
    w = np.random.RandomState(0).standard_normal(X.shape[1]) * 0.1
    v = np.random.RandomState(1).standard_normal(X.shape[1])
    af = autograd_version(sample.loss)
    assert np.allclose(sample.tl.grad(sample.loss)(w, X, y, 0.1), autograd.grad(af)(w, X, y, 0.1))
    expected = autograd.hessian(af)(w, X, y, 0.1) @ v
    assert np.allclose(sample.tl.hvp(sample.loss)(w, X, y, 0.1, v), expected)


def test_newton_cg_reaches_the_minimum_in_few_iterations(sample, capsys):
    results = {r.method: r for r in sample.main(penalty=0.1, subset=120, tol=1e-7)}
    newton, lbfgs, descent = results["Newton-CG"], results["L-BFGS-B"], results["gradient descent"]
    assert newton.hessian_vector_products > 0
    assert abs(newton.loss - descent.loss) < 1e-9 and abs(newton.loss - lbfgs.loss) < 1e-7
    assert newton.iterations < lbfgs.iterations < descent.iterations
    out = capsys.readouterr().out
    assert "Newton-CG" in out and "H v" in out
