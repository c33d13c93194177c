"""Programs with checkpoint markers; each runs as plain Python too (the markers do nothing).

Trip counts and budgets are arguments, so one build serves every T and k."""

import numpy as np

import tangentlike as tl


def rnn(W, h, xs, k):
    for t in tl.checkpointed(range(len(xs)), snapshots=k):
        h = np.tanh(W @ h + xs[t])
    return np.sum(h * h)


def rnn_interval(W, h, xs, n):
    for t in tl.checkpointed(range(len(xs)), every=n):
        h = np.tanh(W @ h + xs[t])
    return np.sum(h * h)


def over_rows(xs, w, k):
    acc = 0.0
    for x in tl.checkpointed(xs, snapshots=k):
        acc = acc + np.sin(x @ w) * acc + np.sum(x)
    return acc


def with_branches_and_calls(w, h, T, k):
    s = 0.0
    for t in tl.checkpointed(range(T), snapshots=k):
        if t % 3 == 0:
            h = cell(w, h)
        elif np.sum(h) > 0:
            h = h * w - 0.1
        else:
            h = np.sin(h + w)
        s = s + np.sum(h) * 0.5
    return s + np.sum(h * w)


def cell(w, h):
    z = np.tanh(h * w + 0.5)
    return z * 0.9


@tl.checkpoint
def heavy_cell(w, h):
    a = np.tanh(h * w)
    b = np.sin(a) * h
    return a + b


def checkpointed_calls(w, h, T):
    for _ in range(T):
        h = heavy_cell(w, h)
    return np.sum(h)


def block(w, x):
    y = x * w
    with tl.checkpoint():
        z = np.sin(y)
        y = z * y + w
        y = np.tanh(y)
    return np.sum(y * x)


def blocks_in_loop(w, x, T):
    h = x
    for _ in range(T):
        with tl.checkpoint():
            a = np.tanh(h * w)
            h = a + 0.1 * h
        h = h * 0.9
    return np.sum(h)


def nested(w, h, T, k):
    for t in tl.checkpointed(range(T), snapshots=k):
        with tl.checkpoint():
            for _ in tl.checkpointed(range(3), every=2):
                h = np.tanh(h * w)
        h = heavy_cell(w, h)
    return np.sum(h)


def writes_in_place(w, x, T, k):
    out = np.zeros((T, x.shape[0]))
    h = x
    for t in tl.checkpointed(range(T), snapshots=k):
        h = np.tanh(h * w)
        out[t] = h
        out[0] += 0.1 * h
    return np.sum(out * out)


def state_bound_in_the_loop(w, x, T, k):
    s = 0.0
    for t in tl.checkpointed(range(T), snapshots=k):
        if t > 0:
            s = s + np.sum(prev * x)  # noqa: F821 (bound by the previous step)
        prev = np.sin(x * w + t)  # noqa: F841
    return s


def continues(w, x, T, k):
    for t in tl.checkpointed(range(T), snapshots=k):
        if t % 2 == 1:
            continue
        x = np.tanh(x * w)
    return np.sum(x)


def enumerated(xs, w, k):
    s = 0.0
    for i, x in tl.checkpointed(enumerate(xs), snapshots=k):
        s = s + i * np.sum(np.tanh(x * w)) + s * 0.1
    return s


def inside_plain_loop(w, x, T, k):
    for _ in range(2):
        for _ in tl.checkpointed(range(T), snapshots=k):
            x = np.sin(x * w)
        x = x + 1.0
    return np.sum(x)


def callee_with_checkpointed_loop(w, x, T, k):
    y = loop_helper(w, x, T, k)
    return np.sum(y * x)


def loop_helper(w, x, T, k):
    for _ in tl.checkpointed(range(T), snapshots=k):
        x = np.tanh(x * w) + 0.5
    return x


def reads_after_loop(w, x, T, k):
    z = x * 2.0
    for t in tl.checkpointed(range(T), snapshots=k):
        a = np.sin(z * w)
        z = z * 0.5 + a
    return np.sum(a * z) + np.sum(z)


def overwritten_after(w, x, T, k):
    y = x + 1.0
    for _ in tl.checkpointed(range(T), snapshots=k):
        y = np.tanh(y * w)
    w = w * 2.0
    return np.sum(y * w)


def appends(w, x, T, k):
    hs = [x]
    for t in tl.checkpointed(range(T), snapshots=k):
        h = np.tanh(hs[-1] * w)
        hs.append(h)
        if t % 2 == 0:
            hs.extend([h * 0.5])
    return np.sum(np.stack(hs) ** 2) + np.sum(hs[-1])
