"""Helpers in another module, called by corpus programs."""

import numpy as np


def softplus(x):
    return np.log1p(np.exp(x))


def layer(W, b, x):
    return np.tanh(x @ W + b)


def scaled(x, k):
    y = x * k
    for _ in range(2):
        y = y + np.sin(y)
    return y
