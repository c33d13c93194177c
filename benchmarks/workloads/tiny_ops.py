"""Many tiny array operations: about 30 NumPy calls on vectors of 8 elements, straight-line.

Like a small physics or geometry kernel: each operation costs far more to
dispatch than to compute. The hand-written gradient reuses every forward
intermediate and sums contributions in the order an expert derives them.
"""

from __future__ import annotations

import numpy as np

from .base import Workload


def loss(w, x):
    a = w * x
    s = np.sin(a) + np.cos(w)
    e = np.exp(-a * a)
    d = s * e - np.tanh(x + w)
    r = np.sqrt(1.0 + d * d)
    q = np.log(r + e)
    g = q / (1.0 + w * w)
    return np.sum(g * a) + np.dot(s, e) - np.mean(r)


def loss_by_hand(w, x):
    a = w * x
    sin_a = np.sin(a)
    s = sin_a + np.cos(w)
    e = np.exp(-a * a)
    th = np.tanh(x + w)
    d = s * e - th
    r = np.sqrt(1.0 + d * d)
    re = r + e
    q = np.log(re)
    den = 1.0 + w * w
    g = q / den
    # backward
    ga = g.copy()  # from sum(g * a)
    gq = a / den
    gw = -2.0 * w * gq * g  # from g = q / den
    t = gq / re  # from q = log(r + e)
    gr = t - 1.0 / len(r)  # and from mean(r)
    ge = s + t  # from dot(s, e)
    gd = gr * d / r
    gs = e + gd * e
    ge += gd * s
    gu = gd * (1.0 - th * th)  # u = x + w enters d through -tanh(u)
    gx = -gu
    gw -= gu
    ga -= 2.0 * a * e * ge  # from e = exp(-a^2)
    ga += gs * np.cos(a)
    gw -= gs * np.sin(w)
    gw += ga * x
    gx += ga * w
    return gw, gx


def loss_torch(w, x):
    import torch

    a = w * x
    s = torch.sin(a) + torch.cos(w)
    e = torch.exp(-a * a)
    d = s * e - torch.tanh(x + w)
    r = torch.sqrt(1.0 + d * d)
    q = torch.log(r + e)
    g = q / (1.0 + w * w)
    return torch.sum(g * a) + torch.dot(s, e) - torch.mean(r)


def inputs(size: str) -> tuple:
    rng = np.random.default_rng(4)
    return rng.standard_normal(8), rng.standard_normal(8)


WORKLOAD = Workload(
    name="tiny_ops",
    title="~30 NumPy ops on 8-element vectors",
    f=loss,
    wrt=(0, 1),
    by_hand=loss_by_hand,
    inputs=inputs,
    torch_f=loss_torch,
)
