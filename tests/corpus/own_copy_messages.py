"""Programs refused where an argument the function changes works on its own copy
(`_y_own1`): the messages must name the argument, never the copy (random programs,
fuzz reverse seed 7 #146 and #259)."""

import numpy as np


def _helper(a, b, q, u):
    b -= (q @ b) ** 2 / -0.5
    return np.sin(q) / 3


def through_helper(x, y, A):
    """A dict item updating y in place, then a helper changing its parameter b (y)."""
    if -1.5 < (x if x < 0.001 <= x else 0) <= 1.0:
        x = 0.5 * x + np.tanh(y.min())
        D1 = {"a": y}
        D1["a"] *= max(-0.5, x)
        if x < 1.5:
            x += y @ _helper(y, y, y, -3.0)
    return np.sum(y) + np.sum(A**2) * x


def rebound_then_view(x, y, n):
    """y updated in place on one path (its own copy), rebound to a new array on the other;
    z3 (y) updated in place while y is read afterwards: asked at run time, and followed
    since y is either the copy or shares none of it. (`* 1.0` makes the product
    certainly a float array: `np.maximum(y, y) * n` alone may repeat a list n when y is
    an integer, and is refused at the build as holding n's items.)"""
    if n >= 2:
        y = 0.5 * y + np.tanh(y % (y**2 + 0.5))
    else:
        L1 = [y, y]
        L1[0] += np.maximum(y, y) * 1.0 * n
    v1 = y
    z2 = v1[0:1]
    z2 += -1 / (z2**2 + 0.5)
    z3 = v1
    z3 /= (z3**3) ** 2 + 1.0
    return np.mean(np.sin(y)) + np.sum(v1) + np.mean(np.sin(z2)) * np.mean(np.sin(z3)) * x


def item_updated_in_place(x, xs):
    """A list argument grown (the function works on its own copy, own_container) whose array
    item is updated in place while `a` holds it: refused at run time."""
    a = xs[0]
    xs[0] *= 0.5
    xs.append(x * a)
    return np.sum(a * x) + np.sum(xs[0]) + np.sum(xs[-1])


def partly_the_argument(x, y, n):
    """y updated in place on one path (its own copy), a slice of it on the other: with
    n < 2 the update through z2 writes into part of the argument's copy, which the
    gradient does not follow there: refused at run time, naming the argument."""
    if n >= 2:
        y += 1.0
    else:
        y = y[0:2]
    v1 = y
    z2 = v1[0:1]
    z2 += -1 / (z2**2 + 0.5)
    return np.sum(np.sin(y)) * x + np.sum(v1)
