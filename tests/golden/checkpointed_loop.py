import numpy as np

import tangentlike as tl


def rnn(W, h, xs):
    for t in tl.checkpointed(range(len(xs)), snapshots=4):
        h = np.tanh(W @ h + xs[t])
    return np.sum(h * h)
