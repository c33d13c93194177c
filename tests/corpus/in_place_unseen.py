"""In-place updates through views whose other sharers the analysis cannot place (issue 13).

A name read afterwards may share the updated array for all the alias analysis knows
(`max(v[1], x)`, a dict, a tuple) without being a view of it: the
gradient asks at run time that it shares none of the memory the update changes
(runtime.untouched), writes the update into the array and makes its views again
(transform.view_updates); where it does share, the update is refused there, located.
A link above the updated view that may be a copy (`z1 = M.reshape(-1)`) is asked at
run time too: the update goes up into M where z1 is a view of it, and z1 alone changes
where it is a copy. CASES as in corpus.in_place (function, arguments, wrt, out-of-place
equivalent); corpus.in_place runs them with its own (gradient against central
differences and autograd, value, forward mode).
"""

import numpy as np


def _r(seed):
    return np.random.RandomState(seed)


def _vec():
    return (_r(0).randn(4), 0.7)


def alias_of_a_reshaped_array(y, x):
    M1 = np.zeros((3, 4))
    M2 = M1
    z1 = M1.reshape(-1)
    z3 = z1
    z3 -= np.concatenate([y, y, y]) * x
    return np.mean(np.sin(M1)) + 2.0 * np.sum(z1**2) + 0.5 * np.sum(z3) + np.sum(M2 * y)


def alias_of_a_reshaped_array_oop(y, x):
    z1 = np.zeros(12) - np.concatenate([y, y, y]) * x
    M1 = z1.reshape(3, 4)
    return np.mean(np.sin(M1)) + 2.0 * np.sum(z1**2) + 0.5 * np.sum(z1) + np.sum(M1 * y)


def alias_of_a_reshaped_copy(y, x):
    M1 = np.ones((4, 3)).T * y[0]  # not contiguous: its reshape is a copy
    z1 = M1.reshape(-1)
    z3 = z1
    z3 -= np.concatenate([y, y, y]) * x
    return np.mean(np.sin(M1)) + 2.0 * np.sum(z1**2) + 0.5 * np.sum(z3)


def alias_of_a_reshaped_copy_oop(y, x):
    M1 = np.ones((4, 3)).T * y[0]
    z1 = M1.reshape(-1) - np.concatenate([y, y, y]) * x
    return np.mean(np.sin(M1)) + 2.0 * np.sum(z1**2) + 0.5 * np.sum(z1)


def row_of_a_reshape(y, x):
    y = y * 1.0
    r = y.reshape(2, 2)
    v = r[0]
    v += x
    return np.sum(y**2)


def row_of_a_reshape_oop(y, x):
    y = y * 1.0
    y = np.concatenate([y[:2] + x, y[2:]])
    return np.sum(y**2)


def row_of_a_transposed_reshape(y, x):
    y = y * 1.0
    r = y.reshape(2, 2).T
    v = r[0]
    v += x
    return np.sum(y**2) + np.sum(r * r) + np.sum(v)


def row_of_a_transposed_reshape_oop(y, x):
    y = y * 1.0
    y = np.array([y[0] + x, y[1], y[2] + x, y[3]])
    r = y.reshape(2, 2).T
    return np.sum(y**2) + np.sum(r * r) + np.sum(r[0])


def largest_of_an_item_read(y, x):
    v = y * 1.0
    s = max(v[1], x)  # v[1] or x: no view of v, yet it may share v for all one knows
    z = v[1:3]
    z *= np.cos(z)
    return np.sum(v**2) + s * np.sum(z)


def largest_of_an_item_read_oop(y, x):
    v = y * 1.0
    s = max(v[1], x)
    v = np.concatenate([v[:1], v[1:3] * np.cos(v[1:3]), v[3:]])
    return np.sum(v**2) + s * np.sum(v[1:3])


def view_of_the_argument_with_numbers_read(y, x):
    s1 = sum(y[1] for e1 in y if e1 < x)
    s2 = y[3]
    for e5 in y / 2:
        z2 = y[2:4]
        z2 *= np.cos(z2)
        s1 += y[2] + e5
    return np.sum(y**2) + s1 * s2


def view_of_the_argument_with_numbers_read_oop(y, x):
    s1 = sum(y[1] for e1 in y if e1 < x)
    s2 = y[3]
    for e5 in y / 2:
        y = np.concatenate([y[:2], y[2:4] * np.cos(y[2:4])])
        s1 = s1 + y[2] + e5
    return np.sum(y**2) + s1 * s2


def alias_of_the_argument_and_returns(y, x):
    if -1.5 < x <= 2.0:
        z1 = y
        z1 += np.square(y)[-4]
        if x < 0.5:
            return y[2]
    elif x > 3.0:
        return sum([y[2] for e2 in y])
    return np.mean(np.sin(y)) + x


def alias_of_the_argument_and_returns_oop(y, x):
    if -1.5 < x <= 2.0:
        y = y + np.square(y)[-4]
        if x < 0.5:
            return y[2]
    elif x > 3.0:
        return sum([y[2] for e2 in y])
    return np.mean(np.sin(y)) + x


def written_by_index_with_a_dict_read(y, x):
    v = y * 1.0
    d = {"a": x, "b": max(v[0], x)}
    w = v[1:3]
    v[2] = x**2
    return np.sum(w * y[1:3]) + d["a"] * d["b"]


def written_by_index_with_a_dict_read_oop(y, x):
    v = y * 1.0
    d = {"a": x, "b": max(v[0], x)}
    v = np.concatenate([v[:2], np.array([x**2]), v[3:]])
    return np.sum(v[1:3] * y[1:3]) + d["a"] * d["b"]


def returned_array_restored(y, x):
    m = np.array(2.0 * x)
    z = m
    z += y[0]
    np.tanh(m, out=m)
    return z


def returned_array_restored_oop(y, x):
    return np.tanh(2.0 * x + y[0])


CASES = [
    (alias_of_a_reshaped_array, _vec, (0, 1), alias_of_a_reshaped_array_oop),
    (alias_of_a_reshaped_copy, _vec, (0, 1), alias_of_a_reshaped_copy_oop),
    (row_of_a_reshape, _vec, (0, 1), row_of_a_reshape_oop),
    (row_of_a_transposed_reshape, _vec, (0, 1), row_of_a_transposed_reshape_oop),
    (largest_of_an_item_read, _vec, (0, 1), largest_of_an_item_read_oop),
    (
        view_of_the_argument_with_numbers_read,
        _vec,
        (0,),
        view_of_the_argument_with_numbers_read_oop,
    ),
    (alias_of_the_argument_and_returns, _vec, (0, 1), alias_of_the_argument_and_returns_oop),
    (
        alias_of_the_argument_and_returns,
        lambda: (_r(0).randn(4), 0.2),
        (0, 1),
        alias_of_the_argument_and_returns_oop,
    ),
    (written_by_index_with_a_dict_read, _vec, (0, 1), written_by_index_with_a_dict_read_oop),
    (returned_array_restored, _vec, (0, 1), returned_array_restored_oop),
]


def tuple_item_that_shares(y, x):
    s2, v2 = (y * 1.0, x)
    s3 = (s2, v2)
    z1 = s2[1:2]
    z1 += x
    return np.sum(s3[0])


# (function, arguments, "run", words of the message), as corpus.in_place.REFUSED: a name
# read afterwards that is no view of the array, yet shares the memory the update changes
REFUSED = [
    (tuple_item_that_shares, _vec, "run", ["`z1 += x`", "'s3' (read afterwards) shares"]),
]
