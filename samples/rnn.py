"""A tanh recurrent network over a long sequence, and its checkpointed twin.

Reverse mode keeps every hidden state of `loss` for the backward sweep:
O(T) memory. `loss_checkpointed` marks the loop with tl.checkpointed, so its
gradient keeps at most `snapshots` hidden states and recomputes the rest.
Run it: python samples/rnn.py
"""

import numpy as np

import tangentlike as tl


def loss(W, U, h, xs):
    for t in range(len(xs)):
        h = np.tanh(W @ h + U @ xs[t])
    return np.sum(h * h)


def loss_checkpointed(W, U, h, xs, snapshots):
    for t in tl.checkpointed(range(len(xs)), snapshots=snapshots):
        h = np.tanh(W @ h + U @ xs[t])
    return np.sum(h * h)


def problem(steps=2000, hidden=32, seed=0):
    r = np.random.RandomState(seed)
    W = r.randn(hidden, hidden) / np.sqrt(hidden)
    U = r.randn(hidden, hidden) / np.sqrt(hidden)
    return W, U, r.randn(hidden), r.randn(steps, hidden)


def main():
    W, U, h, xs = problem()
    plain = tl.grad(loss, wrt=("W", "U"), stats=True)
    marked = tl.grad(loss_checkpointed, wrt=("W", "U"), stats=True)
    gW, gU = plain(W, U, h, xs)
    cW, cU = marked(W, U, h, xs, 8)
    print(f"{len(xs)} steps, hidden size {len(h)}")
    print(
        f"  gradients agree: {np.allclose(gW, cW, rtol=1e-10) and np.allclose(gU, cU, rtol=1e-10)}"
    )
    for name, df in (("plain", plain), ("8 snapshots", marked)):
        s = df.stats
        print(
            f"  {name:12s} peak {s.peak_bytes / 1e3:8.1f} kB stored "
            f"({s.pushes} pushes, {s.recomputed_steps} steps recomputed)"
        )


if __name__ == "__main__":
    main()
