import numpy as np


def loss(params, xs):
    h = np.zeros(params["b"].shape)
    hs = []
    for x in xs:
        h = np.tanh(params["W"] @ h + params["U"] @ x + params["b"])
        hs.append(h)
    return np.sum(np.stack(hs) ** 2) + 0.1 * sum(np.sum(p * p) for p in params.values())
