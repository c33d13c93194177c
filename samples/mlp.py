"""A two-layer perceptron with softmax cross-entropy and weight decay, in plain NumPy.

`loss` is written the way a researcher would write it; tangentlike differentiates
it from this source. `loss_grad_by_hand` is the gradient an expert would write
by hand (forward intermediates reused, nothing computed twice): the reference
the demo checks against and the benchmark times.

    import tangentlike as tl
    dloss = tl.grad(loss, wrt=("W1", "W2"))
    gW1, gW2 = dloss(W1, W2, X, y_onehot, weight_decay)
"""

from __future__ import annotations

import numpy as np


def loss(W1, W2, X, y_onehot, weight_decay):
    """Mean softmax cross-entropy of a ReLU MLP plus weight decay on both weight matrices.

    X is (n, n_in), W1 (n_in, n_hidden), W2 (n_hidden, n_out), y_onehot (n, n_out).
    """
    H = np.maximum(X @ W1, 0.0)  # hidden layer
    logits = H @ W2
    shifted = logits - np.max(logits, axis=1, keepdims=True)
    log_probs = shifted - np.log(np.sum(np.exp(shifted), axis=1, keepdims=True))
    data = -np.sum(y_onehot * log_probs) / X.shape[0]
    return data + weight_decay * (np.sum(W1 * W1) + np.sum(W2 * W2))


def loss_grad_by_hand(W1, W2, X, y_onehot, weight_decay):
    """The gradient of `loss` with respect to (W1, W2), written by hand.

    Assumes each row of y_onehot sums to one (one-hot labels), which makes the
    gradient on the logits (softmax - y) / n; the max shift cancels out of it.
    Works in place on its own temporaries: one buffer per layer, no mask copies.
    """
    H = X @ W1
    np.maximum(H, 0.0, out=H)
    g_logits = H @ W2  # becomes softmax(logits), then the gradient on the logits
    g_logits -= np.max(g_logits, axis=1, keepdims=True)
    np.exp(g_logits, out=g_logits)
    g_logits /= np.sum(g_logits, axis=1, keepdims=True)
    g_logits -= y_onehot
    g_logits *= 1.0 / X.shape[0]
    g_H = g_logits @ W2.T
    g_H *= H > 0.0  # through the ReLU
    gW1 = X.T @ g_H
    gW1 += (2.0 * weight_decay) * W1
    gW2 = H.T @ g_logits
    gW2 += (2.0 * weight_decay) * W2
    return gW1, gW2


def init_params(rng, n_in, n_hidden, n_out):
    """He-initialised weights (W1, W2) for a ReLU hidden layer, drawn from `rng`."""
    W1 = rng.standard_normal((n_in, n_hidden)) * np.sqrt(2.0 / n_in)
    W2 = rng.standard_normal((n_hidden, n_out)) * np.sqrt(1.0 / n_hidden)
    return W1, W2
