"""Items of a loop that can end early (`break`, `return`), updated in place (issue 13).

A loop that can end early is lowered to a `while` over positions (normalize.jumps),
`item = seq[at]`, whose position is a name the body never rebinds (an integer, also
where seq is a range: `for i in range(n)`, enumerate): the item stays a known view of
the array looped over, so `r op= v` on a row of A is written into A, as
Python does, instead of being refused (an item of a vector is a number, which the
update leaves A out of). CASES as in corpus.in_place (function, arguments, wrt,
out-of-place equivalent); corpus.in_place runs them (gradient against central
differences and autograd, value, forward mode).
"""

import numpy as np


def _r(seed):
    return np.random.RandomState(seed)


def _rows():
    return (_r(2).randn(3), _r(3).randn(4, 3), 2)


def _vec():
    return (_r(4).randn(5), 0.3)


def rows_updated_until_a_break(y, A, n):
    for k, r in enumerate(A):
        r *= y
        if k + 1 >= n:
            break
    return np.sum(A**2) + np.sum(y * A[0])


def rows_updated_until_a_break_oop(y, A, n):
    B = np.concatenate([A[:n] * y, A[n:]])
    return np.sum(B**2) + np.sum(y * B[0])


def rows_updated_until_a_return(y, A, n):
    for r in A:
        r += y
        if np.sum(r**2) > 1e6:
            return np.sum(r)
    return np.sum(A**2) * n


def rows_updated_until_a_return_oop(y, A, n):
    return np.sum((A + y) ** 2) * n


def rows_skipped_and_updated(y, A, n):
    for r in A:
        if r[0] > 0.0:
            continue
        r -= y * n
    return np.sum(np.sin(A)) + np.sum(y)


def rows_skipped_and_updated_oop(y, A, n):
    B = np.where(A[:, :1] > 0.0, A, A - y * n)
    return np.sum(np.sin(B)) + np.sum(y)


def rows_by_position_until_a_break(y, A, n):
    for i in range(len(A)):
        r = A[i]
        r += y * i
        if i >= n:
            break
    return np.sum(np.cos(A)) * np.sum(y)


def rows_by_position_until_a_break_oop(y, A, n):
    k = np.arange(len(A))[:, None]
    B = np.where(k <= n, A + y * k, A)
    return np.sum(np.cos(B)) * np.sum(y)


def items_of_a_vector_until_a_break(y, x):
    s = 0.0
    for e in y:
        e += x  # a number: y does not change
        s = s + e * e
        if s > 1e6:
            break
    return s + np.sum(y**2)


def items_of_a_vector_until_a_break_oop(y, x):
    return np.sum((y + x) ** 2) + np.sum(y**2)


CASES = [
    (rows_updated_until_a_break, _rows, (0, 1), rows_updated_until_a_break_oop),
    (rows_updated_until_a_return, _rows, (0, 1), rows_updated_until_a_return_oop),
    (rows_skipped_and_updated, _rows, (0, 1), rows_skipped_and_updated_oop),
    (rows_by_position_until_a_break, _rows, (0, 1), rows_by_position_until_a_break_oop),
    (items_of_a_vector_until_a_break, _vec, (0, 1), items_of_a_vector_until_a_break_oop),
]
