"""Scalar functions for second-order tests: loops, branches, while, helpers, reductions,
linear algebra, broadcasting, indexing, containers. CASES lists (function, arguments)
with the first argument differentiated; every function is twice differentiable at its
arguments (no kink nearby) and written so that autograd runs it too."""

import numpy as np


def cubic(x, w):
    return np.sum(w * x**3) + np.sum(x[:-1] * x[1:])


def poly(x, k):
    return x * x * k + x


def trig(x):
    return np.sum(np.sin(x) * np.cos(x[::-1]) + np.exp(0.3 * x))


def loop(x, n):
    s = 0.0
    for i in range(n):
        s = s + np.sin(x * s + x[i])
    return np.sum(s**2)


def loop_overwrites(x):
    h = x
    for _ in range(3):
        h = np.tanh(h * 1.5 + 0.2) * x
    return np.sum(h * h)


def branch(x):
    if np.sum(x) > 0:
        y = x * x * x
    else:
        y = np.exp(x)
    return np.sum(y)


def branch_in_loop(x):
    total = 0.0
    for i in range(4):
        if i % 2 == 0:
            total = total + np.sum(x * x) * i
        else:
            total = total + np.sum(np.sin(x)) ** 2
    return total


def while_loop(x):
    s = x
    k = 0
    while k < 3:
        s = s * np.cos(s)
        k = k + 1
    return np.sum(s)


def _helper(v, a):
    return np.log(1.0 + v * v) * a


def calls_helper(x):
    return np.sum(_helper(x, 2.0) + _helper(x * x, 0.5))


def reductions(x):
    return np.mean(x**2) * np.max(x) + np.prod(1.0 + 0.1 * x)


def linalg(x, A):
    y = A @ x
    return np.dot(y, y) + np.sum(np.tanh(A.T @ y))


def quadratic_form(x, A):
    return x @ A @ x + np.linalg.norm(x) ** 2


def matrix_input(X):
    return np.sum(np.tanh(X @ X.T))


def broadcasting(x, B):
    return np.sum((B * x) ** 2) + np.sum(np.exp(x[:, None] * B.T))


def indexing(x):
    return x[0] * x[1] ** 2 + np.sum(x[1:] * x[:-1]) + x[-1] ** 3


def logistic(w, X, y):
    z = X @ w
    return np.sum(np.logaddexp(0.0, z) - y * z) + 0.5 * np.dot(w, w)


def softmax_ce(w, X):
    z = X @ w
    m = np.max(z)
    return np.log(np.sum(np.exp(z - m))) + m


def early_return(x):
    if np.sum(x) < -10.0:
        return np.sum(x)
    y = x * x
    return np.sum(y * x)


def scalar_float(x, k):
    y = x
    for _ in range(2):
        y = np.sin(y) * k + y * y
    return y


RNG = np.random.RandomState(0)
X4 = RNG.randn(4)
A34 = RNG.randn(3, 4)
S44 = RNG.randn(4, 4)

CASES = {
    "cubic": (cubic, (X4, RNG.rand(4) + 0.5)),
    "poly": (poly, (1.5, 2.0)),
    "trig": (trig, (X4,)),
    "loop": (loop, (X4 * 0.3, 3)),
    "loop_overwrites": (loop_overwrites, (X4,)),
    "branch_positive": (branch, (np.abs(X4) + 0.1,)),
    "branch_negative": (branch, (-np.abs(X4) - 0.1,)),
    "branch_in_loop": (branch_in_loop, (X4,)),
    "while_loop": (while_loop, (X4 * 0.5,)),
    "calls_helper": (calls_helper, (X4,)),
    "reductions": (reductions, (X4,)),
    "linalg": (linalg, (X4, A34)),
    "quadratic_form": (quadratic_form, (X4, S44)),
    "matrix_input": (matrix_input, (RNG.randn(3, 2) * 0.5,)),
    "broadcasting": (broadcasting, (RNG.randn(3) * 0.5, RNG.randn(2, 3) * 0.5)),
    "indexing": (indexing, (X4,)),
    "logistic": (logistic, (RNG.randn(3) * 0.3, RNG.randn(6, 3), (RNG.rand(6) > 0.5) * 1.0)),
    "softmax_ce": (softmax_ce, (RNG.randn(3), RNG.randn(5, 3))),
    "early_return": (early_return, (X4,)),
    "scalar_float": (scalar_float, (0.4, 1.3)),
}
