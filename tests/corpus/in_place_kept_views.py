"""Views kept across an update of their base, and arrays made by NumPy's index tricks
(issue 13: refusals of generated programs that were not necessary).

`A op= v` changes the array A in place, so a view of A by index made before it
(`s = A[::1][0]`, `s = A[0]`) still is one afterwards (an item of a vector is a
number, left alone): a later update of that view goes into A (up the chain of views),
as the program does, instead of being refused.
`np.r_[...]` makes a new array that shares nothing with the global `np.r_`: updating
it in place, or in a helper it is passed to, is followed. CASES as in corpus.in_place
(function, arguments, wrt, out-of-place equivalent); corpus.in_place runs them (gradient
against central differences and autograd, value, forward mode).
"""

import numpy as np


def _r(seed):
    return np.random.RandomState(seed)


def _vec():
    return (_r(0).randn(4), 0.7)


def _mat():
    return (_r(1).randn(2, 3),)


def view_of_a_view_after_the_argument_changes(A):
    s2 = A[::1][0]
    A /= 2
    s2 -= A.sum()
    return np.sum(A**2)


def row_after_the_argument_changes(A):
    s2 = A[0]
    A /= 2
    s2 -= A.sum()
    return np.sum(A**2)


def row_after_the_argument_changes_oop(A):
    B = A / 2.0
    first = B[0] - np.sum(B)
    return np.sum(first**2) + np.sum(B[1:] ** 2)


def item_after_the_argument_changes(y, x):
    s = y[0]
    y /= x
    s -= y.sum()
    return np.sum(y**2) + s


def item_after_the_argument_changes_oop(y, x):
    z = y / x
    return np.sum(z**2) + y[0] - np.sum(z)  # a number, not a view: y does not change


def view_of_a_view_after_a_local_array_changes(A):
    B = A * 1.0
    s2 = B[::1][0]
    B /= 2
    s2 -= B.sum()
    return np.sum(B**2) + np.sum(s2 * A)


def view_of_a_view_after_a_local_array_changes_oop(A):
    B = A / 2.0
    first = B[0] - np.sum(B)
    return np.sum(first**2) + np.sum(B[1:] ** 2) + np.sum(first * A)


def concatenation_updated_through_an_alias(y, x):
    v = np.r_[y[1:3], y]
    w = v
    v *= x
    return np.sum(w * y[0]) + np.sum(np.r_[v, y] ** 2)


def concatenation_updated_through_an_alias_oop(y, x):
    v = np.concatenate([y[1:3], y]) * x
    return np.sum(v * y[0]) + np.sum(np.concatenate([v, y]) ** 2)


def _scaled(a, b):
    b *= a
    return b


def concatenation_changed_by_a_helper(y, x):
    v = np.r_[y[2:4], np.concatenate([y[2:3], np.array([x])])]
    s = _scaled(x, v)
    return np.sum(y * s) + np.sum(v * y[::-1]) * x


def concatenation_changed_by_a_helper_oop(y, x):
    v = np.concatenate([y[2:4], y[2:3], np.array([x])]) * x
    return np.sum(y * v) + np.sum(v * y[::-1]) * x


CASES = [
    (view_of_a_view_after_the_argument_changes, _mat, (0,), row_after_the_argument_changes_oop),
    (row_after_the_argument_changes, _mat, (0,), row_after_the_argument_changes_oop),
    (item_after_the_argument_changes, _vec, (0, 1), item_after_the_argument_changes_oop),
    (
        view_of_a_view_after_a_local_array_changes,
        _mat,
        (0,),
        view_of_a_view_after_a_local_array_changes_oop,
    ),
    (
        concatenation_updated_through_an_alias,
        _vec,
        (0, 1),
        concatenation_updated_through_an_alias_oop,
    ),
    (concatenation_changed_by_a_helper, _vec, (0, 1), concatenation_changed_by_a_helper_oop),
]
