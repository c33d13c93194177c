"""L2-regularised logistic regression on small data (200 examples, 100 features).

Small enough that call overhead, not arithmetic, decides the time. The
hand-written gradient writes sigmoid(-y z) as 0.5 (1 - tanh(y z / 2)): stable,
one transcendental per example. The workload also carries the expert Hessian
with respect to w (100 parameters) for the Hessian measurement.
"""

from __future__ import annotations

import numpy as np

from .base import Workload


def loss(w, b, X, y, lam):
    z = X @ w + b
    return np.mean(np.logaddexp(0.0, -y * z)) + 0.5 * lam * np.sum(w * w)


def loss_by_hand(w, b, X, y, lam):
    yz = X @ w
    yz += b
    yz *= y
    # d/dz of log(1 + exp(-y z)) = -y sigmoid(-y z); sigmoid(-t) = (1 - tanh(t / 2)) / 2
    g = np.tanh(0.5 * yz)
    g -= 1.0
    g *= y
    g *= 0.5 / len(y)
    gw = X.T @ g
    gw += lam * w
    return gw, float(np.sum(g))


def hessian_by_hand(w, b, X, y, lam):
    """d^2 loss / dw^2 = X^T diag(s (1 - s)) X / n + lam I, s = sigmoid(y z)."""
    t = np.tanh(0.5 * (X @ w + b))  # y^2 = 1: s (1 - s) = (1 - tanh(z / 2)^2) / 4
    weights = (1.0 - t * t) * (0.25 / len(y))
    H = X.T @ (X * weights[:, None])
    H[np.diag_indices_from(H)] += lam
    return H


def loss_torch(w, b, X, y, lam):
    import torch

    z = X @ w + b
    return torch.mean(torch.nn.functional.softplus(-y * z)) + 0.5 * lam * torch.sum(w * w)


def inputs(size: str) -> tuple:
    n, d = (200, 100) if size == "full" else (15, 4)
    rng = np.random.default_rng(1)
    X = rng.standard_normal((n, d)) / np.sqrt(d)
    w_true = rng.standard_normal(d)
    y = np.where(X @ w_true + 0.3 * rng.standard_normal(n) > 0.0, 1.0, -1.0)
    return 0.1 * rng.standard_normal(d), 0.2, X, y, 1e-2


WORKLOAD = Workload(
    name="logreg",
    title="logistic regression, 200x100, float bias",
    f=loss,
    wrt=(0, 1),
    by_hand=loss_by_hand,
    inputs=inputs,
    torch_f=loss_torch,
    hessian_by_hand=hessian_by_hand,
)
