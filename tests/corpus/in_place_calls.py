"""In-place updates through views made by calls and by new axes (issue 13): `np.squeeze`,
`np.asarray`, `np.atleast_1d/2d/3d`, `np.expand_dims`, their method forms, and
`y[..., None]`, updated or written by index while their base is read afterwards, or
the base written while they are read afterwards.

These views may be copies (of a number, of a list): the gradient asks at run time
(runtime.same_memory) and writes the update into the base where the view shares it
(transform.view_updates). CASES as in corpus.in_place (function, arguments, wrt,
out-of-place equivalent); corpus.in_place runs them with its own.
"""

import numpy as np


def _r(seed):
    return np.random.RandomState(seed)


def squeezed_row_updated(X):
    Y = X * 1.0
    s = np.squeeze(Y[0:1, :])
    s -= X[1]
    return np.sum(Y * Y)


def squeezed_row_updated_oop(X):
    return np.sum(np.concatenate([X[0:1] - X[1], X[1:]]) ** 2)


def squeezed_written_by_index(x):
    y = np.reshape(x, (1, 4)) * 1.0
    v = np.squeeze(y)
    v[1] = x[0] * 3.0
    return np.sum(y * y) + np.sum(v * x)


def squeezed_written_by_index_oop(x):
    v = np.concatenate([x[:1], x[0:1] * 3.0, x[2:]])
    return np.sum(v * v) + np.sum(v * x)


def as_array_updated(x):
    y = x * 1.0
    a = np.asarray(y)
    a /= 2.0
    return np.sum(y * x) + np.sum(a)


def as_array_updated_oop(x):
    y = x / 2.0
    return np.sum(y * x) + np.sum(y)


def at_least_2d_updated(x):
    y = x * 2.0
    v = np.atleast_2d(y)
    v *= x
    return np.sum(y * y) + np.sum(v[0] * x)


def at_least_2d_updated_oop(x):
    y = x * 2.0 * x
    return np.sum(y * y) + np.sum(y * x)


def at_least_1d_of_a_number(x):
    a = x[0] * 2.0
    v = np.atleast_1d(a)  # a new array: a itself stays as it was
    v += x[1]
    return a * x[2] + v[0] * x[3]


def at_least_1d_of_a_number_oop(x):
    a = x[0] * 2.0
    return a * x[2] + (a + x[1]) * x[3]


def expanded_argument_updated(X):
    v = np.expand_dims(X, 0)
    v += 1.0
    return np.sum(X * X * X)


def expanded_argument_updated_oop(X):
    return np.sum((X + 1.0) ** 3)


def new_axis_view_updated(x):
    y = x * 2.0
    v = y[..., None]
    v *= x[:, None]
    return np.sum(y * x) + np.sum(v)


def new_axis_view_updated_oop(x):
    y = x * 2.0 * x
    return np.sum(y * x) + np.sum(y)


def new_axis_row_written(X):
    Y = X * 1.0
    v = Y[1, None]
    v[0, 0] = X[0, 1] ** 2
    return np.sum(Y * Y) + np.sum(v)


def new_axis_row_written_oop(X):
    r = np.concatenate([X[0, 1:2] ** 2, X[1, 1:]])
    Y = np.concatenate([X[:1], r[None], X[2:]])
    return np.sum(Y * Y) + np.sum(r)


def new_axis_of_a_number(x):
    a = x[0] * 1.0
    v = a[None]  # a NumPy number: a new array
    v *= 2.0
    return a * x[1] + v[0] * x[2]


def new_axis_of_a_number_oop(x):
    a = x[0] * 1.0
    return a * x[1] + a * 2.0 * x[2]


def base_updated_squeezed_view_read(x):
    y = np.reshape(x, (4, 1)) * 1.0
    w = np.squeeze(y[0:2])
    y += x[:, None] ** 2
    return np.sum(w * w) + np.sum(y)


def base_updated_squeezed_view_read_oop(x):
    y = x + x**2
    return np.sum(y[0:2] ** 2) + np.sum(y)


def base_written_squeezed_view_read(x):
    y = x * 1.0
    w = np.squeeze(y[0:2])
    y[0] = 5.0 * x[1]
    return np.sum(w * w)


def base_written_squeezed_view_read_oop(x):
    return (5.0 * x[1]) ** 2 + x[1] ** 2


def method_views_updated(X):
    Y = X * 1.0
    s = Y.squeeze()
    r = Y.reshape(-1)
    r *= 2.0
    t = Y.T
    t[0] += X[:, 1]
    return np.sum(Y * Y) + np.sum(s * X)


def method_views_updated_oop(X):
    Y = X * 2.0
    Y = np.stack([Y[:, 0] + X[:, 1], Y[:, 1]], axis=1)
    return np.sum(Y * Y) + np.sum(Y * X)


def expanded_in_a_loop(x, w):
    y = x * 1.0
    v = np.expand_dims(y, 1)
    for i in range(3):
        v *= w[:, None]
    return np.sum(np.sin(y)) + np.sum(v)


def expanded_in_a_loop_oop(x, w):
    y = x * w * w * w
    return np.sum(np.sin(y)) + np.sum(y)


def _vec():
    return (_r(0).randn(4),)


def _mat():
    return (_r(2).randn(3, 2),)


CASES = [
    (squeezed_row_updated, _mat, (0,), squeezed_row_updated_oop),
    (squeezed_written_by_index, _vec, (0,), squeezed_written_by_index_oop),
    (as_array_updated, _vec, (0,), as_array_updated_oop),
    (at_least_2d_updated, _vec, (0,), at_least_2d_updated_oop),
    (at_least_1d_of_a_number, _vec, (0,), at_least_1d_of_a_number_oop),
    (expanded_argument_updated, _mat, (0,), expanded_argument_updated_oop),
    (new_axis_view_updated, _vec, (0,), new_axis_view_updated_oop),
    (new_axis_row_written, _mat, (0,), new_axis_row_written_oop),
    (new_axis_of_a_number, _vec, (0,), new_axis_of_a_number_oop),
    (base_updated_squeezed_view_read, _vec, (0,), base_updated_squeezed_view_read_oop),
    (base_written_squeezed_view_read, _vec, (0,), base_written_squeezed_view_read_oop),
    (method_views_updated, _mat, (0,), method_views_updated_oop),
    (
        expanded_in_a_loop,
        lambda: (_r(0).randn(4), _r(1).randn(4)),
        (0, 1),
        expanded_in_a_loop_oop,
    ),
]
