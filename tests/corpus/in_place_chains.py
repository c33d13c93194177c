"""In-place updates through chains of views and aliases (issue 13): `z = b` with b a view
of y, a view of a row, `for r in A: r += ...`, an alias of an argument read afterwards.

The update changes every name sharing the memory, up the chain: the gradient follows it
into the top array and makes every view read afterwards again (transform.view_updates).
CASES as in corpus.in_place (function, arguments, wrt, out-of-place equivalent or None);
corpus.in_place runs them with its own.
"""

import numpy as np


def _r(seed):
    return np.random.RandomState(seed)


def alias_of_a_view_of_the_argument(y):
    z2 = y[1:3]
    z3 = z2
    z3 += y[1:3]
    return np.sum(y**2) + np.sum(z2**2)


def alias_of_a_view_of_the_argument_oop(y):
    z2 = y[1:3] * 2.0
    y = np.concatenate([y[:1], z2, y[3:]])
    return np.sum(y**2) + np.sum(z2**2)


def view_of_a_row_read_with_the_row(x):
    Y = np.reshape(x, (2, 2)) * 1.0
    r = Y[0]
    v = r[0:1]
    v += 1.0 * x[0]
    return np.sum(Y * Y) + np.sum(r * x[1:3])


def view_of_a_row_read_with_the_row_oop(x):
    Y = np.reshape(x, (2, 2)) * 1.0
    r = np.concatenate([Y[0, 0:1] + x[0], Y[0, 1:]])
    Y = np.stack([r, Y[1]])
    return np.sum(Y * Y) + np.sum(r * x[1:3])


def view_of_a_row_of_the_argument(X):
    r = X[1]
    v = r[0:1]
    v *= 3.0
    return np.sum(X * X)


def view_of_a_row_of_the_argument_oop(X):
    r = np.concatenate([X[1, 0:1] * 3.0, X[1, 1:]])
    X = np.concatenate([X[:1], r[None], X[2:]])
    return np.sum(X * X)


def rows_of_the_argument(A, w):
    for r in A:
        r += w
    return np.sum(A * A)


def rows_of_the_argument_oop(A, w):
    return np.sum((A + w) ** 2)


def alias_of_the_argument_read_again(x, y):
    v = y
    v *= x
    return np.sum(v) + np.sum(y * y)


def alias_of_the_argument_read_again_oop(x, y):
    y = y * x
    return np.sum(y) + np.sum(y * y)


def alias_updated_in_a_loop_and_a_branch(x, w):
    v2 = x * 1.0
    s2 = v2
    for i in range(3):
        if i > 0:
            z1 = v2
            z1 *= v2 * w
    return np.sum(np.sin(v2)) + np.sum(s2 * w)


def alias_updated_in_a_loop_and_a_branch_oop(x, w):
    v2 = x * 1.0
    for i in range(3):
        if i > 0:
            v2 = v2 * (v2 * w)
    return np.sum(np.sin(v2)) + np.sum(v2 * w)


def aliases_of_a_view(x):
    a = x * 2.0
    b = a[1:]
    c = b
    d = c
    d -= x[:3]
    return np.sum(a) * np.sum(b) + np.sum(c * c)


def aliases_of_a_view_oop(x):
    a = x * 2.0
    b = a[1:] - x[:3]
    a = np.concatenate([a[:1], b])
    return np.sum(a) * np.sum(b) + np.sum(b * b)


def column_of_a_column(x):
    a = np.reshape(x, (2, 2)) * 1.0
    b = a[:, 0:1]
    c = b[1:2]
    c *= 5.0
    return np.sum(a**2) + np.sum(b)


def column_of_a_column_oop(x):
    a = np.reshape(x, (2, 2)) * 1.0
    a = np.stack([a[0], np.concatenate([a[1, 0:1] * 5.0, a[1, 1:]])])
    return np.sum(a**2) + np.sum(a[:, 0:1])


def raveled_rows(X):
    Y = X * 1.0
    r = Y[0:2]
    v = np.ravel(r)
    v += 1.0
    return np.sum(Y * Y) + np.sum(r * X[0:2])


def raveled_rows_oop(X):
    Y = X * 1.0
    r = Y[0:2] + 1.0
    Y = np.concatenate([r, Y[2:]])
    return np.sum(Y * Y) + np.sum(r * X[0:2])


def raveled_column_is_a_copy(X):
    Y = X * 1.0
    c = Y[:, 0]
    v = np.ravel(c)  # a strided column: ravel copies, and the update stays in v
    v += 1.0
    return np.sum(Y * Y) + np.sum(c * v)


def raveled_column_is_a_copy_oop(X):
    Y = X * 1.0
    c = Y[:, 0]
    v = c + 1.0
    return np.sum(Y * Y) + np.sum(c * v)


def rows_written_through_a_nested_loop(X):
    Y = X * 1.0
    for r in Y:
        for k in range(2):
            e = r[k : k + 1]
            e *= 1.5
    return np.sum(Y**3)


def rows_written_through_a_nested_loop_oop(X):
    return np.sum((X * 1.5) ** 3)


# -- writes into the base itself, its views read afterwards -----------------------------
def base_updated_view_read(x):
    y = x * 1.0
    w = y[1:3]
    s = y
    y += x**2
    return np.sum(w * w) + np.sum(s * x)


def base_updated_view_read_oop(x):
    y = x * 1.0 + x**2
    return np.sum(y[1:3] ** 2) + np.sum(y * x)


def out_into_the_argument_in_a_loop(y):
    for i, e in enumerate(y):
        np.tanh(y * i, out=y)
    return np.sum(y)


def out_into_the_argument_in_a_loop_oop(y):
    for i in range(len(y)):
        y = np.tanh(y * i)
    return np.sum(y)


def argument_updated_view_read(y, x):
    w = y[::2]
    y *= x
    return np.sum(w**3) + np.sum(y)


def argument_updated_view_read_oop(y, x):
    y = y * x
    return np.sum(y[::2] ** 3) + np.sum(y)


def number_updated_alias_kept(x):
    a = x[0] * 1.0
    b = a
    a += 1.0
    return b * x[1] + a


def number_updated_alias_kept_oop(x):
    a = x[0] * 1.0
    return a * x[1] + a + 1.0


def transposed_then_base_updated(X):
    Y = X * 1.0
    T = np.transpose(Y)
    Y *= 2.0
    return np.sum(T[0] * X[:, 0])


def transposed_then_base_updated_oop(X):
    return np.sum(X[:, 0] * 2.0 * X[:, 0])


def reshape_copy_then_base_written(X):
    Y = X * 1.0
    T = np.reshape(np.transpose(Y), (-1,))  # a copy: the write leaves it alone
    Y[0] = 3.0 * X[1]
    return np.sum(T * T) + np.sum(Y * Y)


def reshape_copy_then_base_written_oop(X):
    Y = np.concatenate([3.0 * X[1:2], X[1:]])
    return np.sum(X * X) + np.sum(Y * Y)


def _vec():
    return (_r(0).randn(4),)


def _mat():
    return (_r(2).randn(3, 2),)


CASES = [
    (alias_of_a_view_of_the_argument, _vec, (0,), alias_of_a_view_of_the_argument_oop),
    (view_of_a_row_read_with_the_row, _vec, (0,), view_of_a_row_read_with_the_row_oop),
    (view_of_a_row_of_the_argument, _mat, (0,), view_of_a_row_of_the_argument_oop),
    (
        rows_of_the_argument,
        lambda: (_r(2).randn(3, 2), _r(3).randn(2)),
        (0, 1),
        rows_of_the_argument_oop,
    ),
    (
        alias_of_the_argument_read_again,
        lambda: (_r(0).randn(4), _r(1).randn(4)),
        (0, 1),
        alias_of_the_argument_read_again_oop,
    ),
    (
        alias_updated_in_a_loop_and_a_branch,
        lambda: (_r(0).randn(4), _r(1).randn(4) * 0.5),
        (0, 1),
        alias_updated_in_a_loop_and_a_branch_oop,
    ),
    (aliases_of_a_view, _vec, (0,), aliases_of_a_view_oop),
    (column_of_a_column, _vec, (0,), column_of_a_column_oop),
    (raveled_rows, _mat, (0,), raveled_rows_oop),
    (raveled_column_is_a_copy, _mat, (0,), raveled_column_is_a_copy_oop),
    (rows_written_through_a_nested_loop, _mat, (0,), rows_written_through_a_nested_loop_oop),
    (base_updated_view_read, _vec, (0,), base_updated_view_read_oop),
    (out_into_the_argument_in_a_loop, _vec, (0,), out_into_the_argument_in_a_loop_oop),
    (
        argument_updated_view_read,
        lambda: (_r(0).randn(4), _r(1).randn(4)),
        (0, 1),
        argument_updated_view_read_oop,
    ),
    (number_updated_alias_kept, _vec, (0,), number_updated_alias_kept_oop),
    (transposed_then_base_updated, _mat, (0,), transposed_then_base_updated_oop),
    (reshape_copy_then_base_written, _mat, (0,), reshape_copy_then_base_written_oop),
]
