"""In-place updates of an array a list or dict holds at a key the function never reads
(issue 13).

The function reads the container only at constant keys (analyze.keyed): the run-time
check of the update (runtime.untouched, runtime.unshared) looks at the items there
only, so an array held at another key may change unseen. Where a read key holds it,
the update is refused there, located. CASES as in corpus.in_place (function,
arguments, wrt, out-of-place equivalent); corpus.in_place runs them with its own
(gradient against central differences and autograd, value, forward mode).
"""

import numpy as np


def _r(seed):
    return np.random.RandomState(seed)


def _vec():
    return (_r(0).randn(4), 0.7)


def dict_holding_the_array_at_a_key_not_read(y, x):
    D = {"a": y / (y**2 + 1.0), "b": y}
    z = y[0:2]
    z /= -1.0 - x
    return np.sum(y) + np.sum(z**2) + 1.5 * np.sum(D["a"])


def dict_holding_the_array_at_a_key_not_read_oop(y, x):
    a = y / (y**2 + 1.0)
    y = np.concatenate([y[0:2] / (-1.0 - x), y[2:]])
    return np.sum(y) + np.sum(y[0:2] ** 2) + 1.5 * np.sum(a)


def list_holding_the_array_updated_in_a_loop(y, x):
    L = [y, y * 2.0, x]
    for i in range(3):
        y *= np.cos(x * L[-1])
    return np.sum(y**2) + np.sum(L[1])


def list_holding_the_array_updated_in_a_loop_oop(y, x):
    b = y * 2.0
    for i in range(3):
        y = y * np.cos(x * x)
    return np.sum(y**2) + np.sum(b)


def dict_holding_a_view_on_one_branch(y, x):
    y = y * 1.0
    D = {"v": y[1:3], "s": x}
    if x > 0.5:
        y += np.sin(D["s"])
    return np.sum(y * y) * D["s"]


def dict_holding_a_view_on_one_branch_oop(y, x):
    y = y * 1.0
    if x > 0.5:
        y = y + np.sin(x)
    return np.sum(y * y) * x


def dict_holding_the_argument_written_by_out(x, y):
    D1 = {"a": y * 2.0, "b": y}  # y: the function's own copy of the argument
    np.negative(-y * x, out=y)
    return np.sum(y) * x * np.sum(D1["a"])


def dict_holding_the_argument_written_by_out_oop(x, y):
    a = y * 2.0
    y = y * x
    return np.sum(y) * x * np.sum(a)


def dict_holding_the_array_at_a_key_read(y, x):
    D = {"a": y / (y**2 + 1.0), "b": y}
    z = y[0:2]
    z /= -1.0 - x
    return np.sum(z**2) + 1.5 * np.sum(D["b"])  # D['b'] is y, changed: refused


def dict_read_whole(y, x):
    D = {"a": y / (y**2 + 1.0), "b": y}
    z = y[0:2]
    z /= -1.0 - x
    return np.sum(z**2) + 1.5 * np.sum(D["a"]) + len(D)  # any key may be read: refused


CASES = [
    (
        dict_holding_the_argument_written_by_out,
        lambda: (0.7, _r(0).randn(4)),
        (0, 1),
        dict_holding_the_argument_written_by_out_oop,
    ),
    (
        dict_holding_the_array_at_a_key_not_read,
        _vec,
        (0, 1),
        dict_holding_the_array_at_a_key_not_read_oop,
    ),
    (
        list_holding_the_array_updated_in_a_loop,
        _vec,
        (0, 1),
        list_holding_the_array_updated_in_a_loop_oop,
    ),
    (dict_holding_a_view_on_one_branch, _vec, (0, 1), dict_holding_a_view_on_one_branch_oop),
    (
        dict_holding_a_view_on_one_branch,
        lambda: (_r(0).randn(4), 0.2),
        (0, 1),
        dict_holding_a_view_on_one_branch_oop,
    ),
]
