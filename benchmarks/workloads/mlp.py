"""A two-layer ReLU perceptron with softmax cross-entropy and weight decay (digits-sized).

The model of samples/mlp.py, kept here so the suite's workloads stand alone.
The hand-written gradient works in place on its own temporaries and uses that
one-hot labels make the gradient on the logits (softmax - y) / n.
"""

from __future__ import annotations

import numpy as np

from .base import Workload


def loss(W1, W2, X, y_onehot, weight_decay):
    H = np.maximum(X @ W1, 0.0)
    logits = H @ W2
    shifted = logits - np.max(logits, axis=1, keepdims=True)
    log_probs = shifted - np.log(np.sum(np.exp(shifted), axis=1, keepdims=True))
    data = -np.sum(y_onehot * log_probs) / X.shape[0]
    return data + weight_decay * (np.sum(W1 * W1) + np.sum(W2 * W2))


def loss_by_hand(W1, W2, X, y_onehot, weight_decay):
    H = X @ W1
    np.maximum(H, 0.0, out=H)
    g_logits = H @ W2  # becomes softmax(logits), then the gradient on the logits
    g_logits -= np.max(g_logits, axis=1, keepdims=True)
    np.exp(g_logits, out=g_logits)
    g_logits /= np.sum(g_logits, axis=1, keepdims=True)
    g_logits -= y_onehot
    g_logits *= 1.0 / X.shape[0]
    g_H = g_logits @ W2.T
    g_H *= H > 0.0
    gW1 = X.T @ g_H
    gW1 += (2.0 * weight_decay) * W1
    gW2 = H.T @ g_logits
    gW2 += (2.0 * weight_decay) * W2
    return gW1, gW2


def loss_torch(W1, W2, X, y_onehot, weight_decay):
    import torch

    H = torch.clamp(X @ W1, min=0.0)
    log_probs = torch.log_softmax(H @ W2, dim=1)
    data = -torch.sum(y_onehot * log_probs) / X.shape[0]
    return data + weight_decay * (torch.sum(W1 * W1) + torch.sum(W2 * W2))


def inputs(size: str) -> tuple:
    n, n_in, n_hidden, n_out = (1797, 64, 128, 10) if size == "full" else (12, 5, 7, 3)
    rng = np.random.default_rng(0)
    W1 = rng.standard_normal((n_in, n_hidden)) * np.sqrt(2.0 / n_in)
    W2 = rng.standard_normal((n_hidden, n_out)) * np.sqrt(1.0 / n_hidden)
    X = rng.random((n, n_in))
    Y = np.eye(n_out)[rng.integers(0, n_out, size=n)]
    return W1, W2, X, Y, 1e-4


WORKLOAD = Workload(
    name="mlp",
    title="MLP 1797x64-128-10, softmax cross-entropy",
    f=loss,
    wrt=(0, 1),
    by_hand=loss_by_hand,
    inputs=inputs,
    torch_f=loss_torch,
)
