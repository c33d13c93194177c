import numpy as np


def loss(W1, W2, X, y):
    H = np.maximum(X @ W1, 0.0)
    logits = H @ W2
    shifted = logits - np.max(logits, axis=1, keepdims=True)
    logp = shifted - np.log(np.sum(np.exp(shifted), axis=1, keepdims=True))
    data = -np.sum(y * logp) / X.shape[0]
    return data + 0.01 * (np.sum(W1 * W1) + np.sum(W2 * W2))
