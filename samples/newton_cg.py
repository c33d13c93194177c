"""Second order in practice: logistic regression by Newton-CG with generated derivatives.

    pip install -e ".[demo]"
    python samples/newton_cg.py [--penalty C] [--subset N]

The loss is L2-penalised logistic regression on scikit-learn's bundled breast
cancer data (569 samples, 30 features, standardized; nothing is downloaded),
written as plain NumPy (`loss`). tangentlike generates its gradient
(`tl.grad`) and its Hessian-vector product (`tl.hvp`, the gradient
differentiated again); scipy.optimize.minimize(method="Newton-CG") uses both
(`jac=`, `hessp=`), against L-BFGS-B and plain gradient descent with the same
gradient. The script prints, per method, the iterations, function and gradient
evaluations, Hessian-vector products and the final loss; all three must agree
on the minimum, and Newton-CG needs a handful of iterations where gradient
descent needs hundreds.
"""

from __future__ import annotations

import argparse
import time
from dataclasses import dataclass

import numpy as np

import tangentlike as tl


def loss(w, X, y, penalty):
    """Mean logistic loss of the labels y in {0, 1}, plus penalty/2 |w|^2 (bias unpenalised:
    the last weight multiplies a column of ones)."""
    z = X @ w
    data = np.mean(np.logaddexp(0.0, z) - y * z)
    return data + 0.5 * penalty * np.sum(w[:-1] * w[:-1])


def load_data(subset: int | None = None):
    """Breast cancer features standardized, a column of ones appended; labels 0/1."""
    from sklearn.datasets import load_breast_cancer

    data = load_breast_cancer()
    X, y = data.data, data.target.astype(float)
    if subset is not None:
        X, y = X[:subset], y[:subset]
    X = (X - X.mean(axis=0)) / X.std(axis=0)
    return np.hstack([X, np.ones((len(X), 1))]), y


@dataclass
class Result:
    method: str
    iterations: int
    function_evaluations: int
    gradient_evaluations: int
    hessian_vector_products: int
    loss: float
    seconds: float
    w: np.ndarray


class Counted:
    """A function that counts its calls."""

    def __init__(self, f):
        self.f, self.calls = f, 0

    def __call__(self, *args):
        self.calls += 1
        return self.f(*args)


def minimize(method: str, X, y, penalty: float, tol: float = 1e-8) -> Result:
    from scipy.optimize import minimize as scipy_minimize

    gradient, product = tl.grad(loss), tl.hvp(loss)  # built once (and cached)
    f = Counted(lambda w: float(loss(w, X, y, penalty)))
    g = Counted(lambda w: gradient(w, X, y, penalty))
    hv = Counted(lambda w, v: product(w, X, y, penalty, v))
    w0 = np.zeros(X.shape[1])
    start = time.perf_counter()
    if method == "gradient descent":
        w, iterations = _gradient_descent(f, g, w0, tol)
    else:
        options = (
            {"xtol": tol}
            if method == "Newton-CG"
            else {"gtol": tol, "ftol": 1e-15, "maxiter": 10_000}
        )
        result = scipy_minimize(
            f,
            w0,
            jac=g,
            hessp=hv if method == "Newton-CG" else None,
            method=method,
            options=options,
        )
        w, iterations = result.x, int(result.nit)
    seconds = time.perf_counter() - start
    return Result(method, iterations, f.calls, g.calls, hv.calls, f(w), seconds, w)


def _gradient_descent(f, g, w, tol: float, max_iterations: int = 100_000):
    """Steepest descent with backtracking (Armijo) line search, until |grad| < tol."""
    step = 1.0
    for k in range(max_iterations):
        grad = g(w)
        norm2 = float(grad @ grad)
        if np.sqrt(norm2) < tol:
            return w, k
        value = f(w)
        step = min(step * 2.0, 16.0)
        while f(w - step * grad) > value - 0.5 * step * norm2:
            step *= 0.5
        w = w - step * grad
    return w, max_iterations


def main(penalty: float = 1e-2, subset: int | None = None, tol: float = 1e-8) -> list[Result]:
    X, y = load_data(subset)
    results = [
        minimize(m, X, y, penalty, tol) for m in ("Newton-CG", "L-BFGS-B", "gradient descent")
    ]
    print(f"logistic regression, {X.shape[0]} samples, {X.shape[1]} weights, penalty {penalty}")
    print(f"{'method':<18}{'iters':>7}{'f evals':>9}{'grads':>8}{'H v':>6}{'loss':>20}{'s':>8}")
    for r in results:
        print(
            f"{r.method:<18}{r.iterations:>7}{r.function_evaluations:>9}"
            f"{r.gradient_evaluations:>8}{r.hessian_vector_products:>6}{r.loss:>20.12f}"
            f"{r.seconds:>8.2f}"
        )
    return results


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--penalty", type=float, default=1e-2, help="L2 penalty (default 1e-2)")
    parser.add_argument("--subset", type=int, default=None, help="use the first N samples")
    parser.add_argument("--tol", type=float, default=1e-8, help="stopping tolerance")
    arguments = parser.parse_args()
    main(arguments.penalty, arguments.subset, arguments.tol)
