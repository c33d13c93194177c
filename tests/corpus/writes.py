import numpy as np


def fill(x, w):
    out = np.zeros(x.shape[0])
    for i in range(x.shape[0]):
        out[i] = np.sum(np.sin(x[i] * w))
    return np.sum(out * out)


def column(x, v):
    y = x.copy()
    y[:, 1] = v * 2.0
    y[0] += v[0]
    return np.sum(y * y)


def masked(x):
    y = x * 1.0
    y[y < 0] = 0.0
    return np.sum(y**3)


def rnn_buffer(W, h0, T):
    H = np.zeros((T + 1, h0.shape[0]))
    H[0] = h0
    for t in range(1, T + 1):
        H[t] = np.tanh(W @ H[t - 1])
    return np.sum(H[T] ** 2) + 0.1 * np.sum(H)


def overwrite_twice(x):
    y = np.zeros(3)
    y[1] = x[0] * 2.0
    z = np.sum(y * x)
    y[1] = x[1] * 3.0
    return z + np.sum(y * y)


def fancy(x, v):
    y = x * 1.0
    y[np.array([0, 2])] = v
    return np.sum(y * x)
