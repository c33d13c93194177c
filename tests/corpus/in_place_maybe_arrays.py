"""In-place updates of a slice or reshape of a value that may be no array (issue 13).

The base is a tuple's item a helper returned, a dict's value or a name bound to one
on some path: the analysis cannot say it is an array, so `z = v[1:3]` may be a list's
slice (a new list) and `z = v.reshape(2, 2)` a new array. The gradient asks at run
time (runtime.part_of) whether z shares v's memory: where it does, the update is
written into a copy of v, which v then is, and z is made again from it; where it
shares nothing, z alone changes; where z shares v without being a view of it (the
arrays a list holds), it raises, located. CASES as in corpus.in_place (function,
arguments, wrt, out-of-place equivalent); corpus.in_place runs them with its own
(gradient against central differences and autograd, value, forward mode).
"""

import numpy as np


def _r(seed):
    return np.random.RandomState(seed)


def _vec():
    return (_r(0).randn(4), 0.7)


def pair(a, b):
    a = a * 2.0
    return (np.sum(a) * b, a * 3.0)


def pair_transposed(a):
    m = np.outer(a, a[:3])
    return (m.T, np.sum(a))


def slice_of_a_tuple_item(y, x):
    s, v = pair(y, x)
    z = v[1:3]
    z += np.cos(z) * x
    return np.mean(np.sin(v)) - 1.5 * np.mean(np.sin(z)) + 2.0 * s


def slice_of_a_tuple_item_oop(y, x):
    s, v = pair(y, x)
    z = v[1:3] + np.cos(v[1:3]) * x
    v = np.concatenate([v[:1], z, v[3:]])
    return np.mean(np.sin(v)) - 1.5 * np.mean(np.sin(z)) + 2.0 * s


def slices_of_a_tuple_item_in_a_loop(y, x):
    s, v = pair(y, x)
    w = v[0:2]
    for i in range(3):
        z = v[i : i + 2]
        z *= np.cos(x * z)
    return np.sum(v**2) + s * np.sum(w) + np.sum(z)


def slices_of_a_tuple_item_in_a_loop_oop(y, x):
    s, v = pair(y, x)
    for i in range(3):
        z = v[i : i + 2] * np.cos(x * v[i : i + 2])
        v = np.concatenate([v[:i], z, v[i + 2 :]])
    return np.sum(v**2) + s * np.sum(v[0:2]) + np.sum(z)


def slice_of_a_tuple_item_on_one_branch(y, x):
    s, v = pair(y, x)
    if x > 0.5:
        z = v[2:]
        z -= s * x
    return np.sum(np.sin(v)) * s


def slice_of_a_tuple_item_on_one_branch_oop(y, x):
    s, v = pair(y, x)
    if x > 0.5:
        v = np.concatenate([v[:2], v[2:] - s * x])
    return np.sum(np.sin(v)) * s


def reshape_of_a_dict_value(y, x):
    v = y / 1.5
    D = {"b": y * x}
    if x > 5.0:
        v = D["b"][::-1]
    z = v.reshape(2, 2)
    z -= v[-1] ** 2
    return np.mean(np.sin(y)) * 2.0 * np.sum(v) + np.mean(np.sin(z))


def reshape_of_a_dict_value_oop(y, x):
    v = y / 1.5
    D = {"b": y * x}
    if x > 5.0:
        v = D["b"][::-1]
    z = v.reshape(2, 2) - v[-1] ** 2
    v = z.reshape(-1)
    return np.mean(np.sin(y)) * 2.0 * np.sum(v) + np.mean(np.sin(z))


def reshape_of_a_transposed_tuple_item(y, x):
    m, s = pair_transposed(y)
    z = m.reshape(-1)  # m is not contiguous: its reshape is a copy
    z *= x
    return np.sum(m**2) + s * np.sum(z)


def reshape_of_a_transposed_tuple_item_oop(y, x):
    m, s = pair_transposed(y)
    z = m.reshape(-1) * x
    return np.sum(m**2) + s * np.sum(z)


def slice_of_a_dict_value_and_its_view_read(y, x):
    D = {"a": y * 2.0, "b": x}
    v, b = D["a"], D["b"]
    w = v[2:]
    z = v[0:3]
    z *= x
    return np.sum(v[:2] * w) + np.sum(np.cos(z)) + b


def slice_of_a_dict_value_and_its_view_read_oop(y, x):
    D = {"a": y * 2.0, "b": x}
    v, b = D["a"], D["b"]
    v = np.concatenate([v[0:3] * x, v[3:]])
    return np.sum(v[:2] * v[2:]) + np.sum(np.cos(v[0:3])) + b


def slice_of_a_dict_value_read_again(y, x):
    D = {"a": y * 2.0, "b": x}
    v = D["a"]
    z = v[0:3]
    z *= x
    return np.sum(v) + np.sum(D["a"])  # D holds v: refused at run time


def slice_of_a_list_held_in_a_dict(y, x):
    D = {"a": [y * x, y * 2.0]}
    v = D["a"]
    z = v[0:1]
    z *= 2  # a list's slice, repeated: it holds v's arrays
    return np.sum(z[1]) + np.sum(v[1])


def first_two(a):
    return a[0:2]


def two_updates_and_a_helpers_view_read(y, x):
    s, v = pair(y, x)
    u = first_two(v)  # a view of v the analysis cannot place
    # `z += x` goes into a copy of v, which v then is: u would keep the old memory, and
    # miss `w *= 2.0` (which changes u in Python)
    z = v[2:4]
    z += x
    w = v[0:2]
    w *= 2.0
    return np.sum(u) + np.sum(v) * s


CASES = [
    (slice_of_a_tuple_item, _vec, (0, 1), slice_of_a_tuple_item_oop),
    (slices_of_a_tuple_item_in_a_loop, _vec, (0, 1), slices_of_a_tuple_item_in_a_loop_oop),
    (
        slice_of_a_tuple_item_on_one_branch,
        _vec,
        (0, 1),
        slice_of_a_tuple_item_on_one_branch_oop,
    ),
    (
        slice_of_a_tuple_item_on_one_branch,
        lambda: (_r(1).randn(4), 0.2),
        (0, 1),
        slice_of_a_tuple_item_on_one_branch_oop,
    ),
    (reshape_of_a_dict_value, _vec, (0, 1), reshape_of_a_dict_value_oop),
    (
        reshape_of_a_transposed_tuple_item,
        _vec,
        (0, 1),
        reshape_of_a_transposed_tuple_item_oop,
    ),
    (
        slice_of_a_dict_value_and_its_view_read,
        _vec,
        (0, 1),
        slice_of_a_dict_value_and_its_view_read_oop,
    ),
]
