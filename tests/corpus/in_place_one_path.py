"""In-place updates of an argument rebound on one path only (issue 13).

The function changes its argument y in place, so it works on its own copy of it
(transform.argument_copies: `y = _y_own1`); y rebound to a new array on one path is,
after the join, that copy itself or nothing of it (a "same" view), which
transform.view_updates asks at run time (runtime.same_array) before it writes the
update into the copy, or lets y alone change. A return on that path (lowered to a
flag) leaves the same question. CASES as in corpus.in_place (function, arguments,
wrt, out-of-place equivalent); corpus.in_place runs them with its own (gradient
against central differences and autograd, the caller's arrays, value, forward mode).
"""

import numpy as np


def _r(seed):
    return np.random.RandomState(seed)


def _vec():
    return (np.array([0.3, 0.8, -0.4, 1.1]), 0.7)


def _vec_other_path():
    return (np.array([0.3, -0.8, -0.4, 1.1]), 0.7)


def rebound_on_one_path_then_reshaped(y, x):
    if y[1] >= 0.0:
        y = y * 1.21
    z = y.reshape(2, 2)
    z /= x**2 + 1.0
    return np.sum(y) + np.sum(np.sin(z))


def rebound_on_one_path_then_reshaped_oop(y, x):
    if y[1] >= 0.0:
        y = y * 1.21
    z = y.reshape(2, 2) / (x**2 + 1.0)
    y = z.reshape(-1)
    return np.sum(y) + np.sum(np.sin(z))


def views_of_an_argument_and_a_return_on_one_path(y, x):
    z1 = y[2:4]
    z1 *= 2.0
    if y[1] < x:
        y = y + 1.0
        return np.sum(y**2)
    z2 = y[3:4]
    z2 /= x**2 + 1.0
    return np.sum(y) + np.sum(z2**2) - 1.5 * np.sum(z1)


def views_of_an_argument_and_a_return_on_one_path_oop(y, x):
    y = np.concatenate([y[:2], y[2:4] * 2.0])
    if y[1] < x:
        y = y + 1.0
        return np.sum(y**2)
    y = np.concatenate([y[:3], y[3:4] / (x**2 + 1.0)])
    return np.sum(y) + np.sum(y[3:4] ** 2) - 1.5 * np.sum(y[2:4])


def rebound_on_one_path_in_a_loop(y, x):
    for i in range(3):
        if y[i] > 0.5:
            y = y * 0.5
    z = y[1:3]
    z += x * y[0]
    return np.sum(y**2)


def rebound_on_one_path_in_a_loop_oop(y, x):
    for i in range(3):
        if y[i] > 0.5:
            y = y * 0.5
    y = np.concatenate([y[:1], y[1:3] + x * y[0], y[3:]])
    return np.sum(y**2)


def rebound_on_one_path_and_updated_in_a_loop(y, x):
    for i in range(3):
        if y[i] > 0.5:
            y = y * 0.5
        z = y[1:3]
        z += x * y[0]
    return np.sum(y**2)


CASES = [
    (rebound_on_one_path_then_reshaped, _vec, (0, 1), rebound_on_one_path_then_reshaped_oop),
    (
        rebound_on_one_path_then_reshaped,
        _vec_other_path,
        (0, 1),
        rebound_on_one_path_then_reshaped_oop,
    ),
    (
        views_of_an_argument_and_a_return_on_one_path,
        _vec,
        (0, 1),
        views_of_an_argument_and_a_return_on_one_path_oop,
    ),
    (
        views_of_an_argument_and_a_return_on_one_path,
        _vec_other_path,
        (0, 1),
        views_of_an_argument_and_a_return_on_one_path_oop,
    ),
    (rebound_on_one_path_in_a_loop, _vec, (0, 1), rebound_on_one_path_in_a_loop_oop),
    (rebound_on_one_path_in_a_loop, _vec_other_path, (0, 1), rebound_on_one_path_in_a_loop_oop),
]
