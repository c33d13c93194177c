"""An argument the function changes in place (its own copy, `_y_own1 = entry_copy(y)`),
rebound to a sum with a value the analysis cannot place (np.r_[...]), then updated
through a loop over it (issue 13, fuzz reverse seed 0 #115).

entry_copy raises for anything but an array, a number, a string or None, so y and
every name bound to `y + v` are never lists: the loop's rows are then views of an array,
whose updates are written back into it, where they were refused as writes into a list.
CASES: (function, arguments, wrt, out-of-place equivalent for autograd).
"""

import autograd.numpy as anp
import numpy as np


def rows_updated_after_a_sum(x, y):
    y = y + (np.r_[y[1::2], y[::2]] + y)
    for e1, e2 in zip(y, y):
        e1 /= -0.5 * x
    return np.sum(y**2) * x


def rows_updated_after_a_sum_oop(x, y):
    y = y + (anp.concatenate([y[1::2], y[::2]]) + y)
    y = y / (-0.5 * x)
    return anp.sum(y**2) * x


def numbers_updated_after_a_sum_oop(x, y):
    """A vector's elements are numbers: `e1 /= v` rebinds e1 and leaves y as it was."""
    y = y + (anp.concatenate([y[1::2], y[::2]]) + y)
    return anp.sum(y**2) * x


def item_written_after_a_loop(x, y):
    y = y + (np.r_[y[2:], y[:2]] + y)
    for e in y:
        x = x + e
    y[0] = x * 2.0
    return np.sum(y) * x


def item_written_after_a_loop_oop(x, y):
    y = y + (anp.concatenate([y[2:], y[:2]]) + y)
    x = x + anp.sum(y)
    y = anp.concatenate([anp.array([x * 2.0]), y[1:]])
    return anp.sum(y) * x


def _matrix():
    return (0.7, np.array([[0.3, -0.7], [1.2, 0.5], [-0.4, 0.9]]))


def _vector():
    return (0.7, np.array([0.3, -0.7, 1.2, 0.5]))


CASES = [
    (rows_updated_after_a_sum, _matrix, (0, 1), rows_updated_after_a_sum_oop),
    (rows_updated_after_a_sum, _vector, (0, 1), numbers_updated_after_a_sum_oop),
    (item_written_after_a_loop, _vector, (0, 1), item_written_after_a_loop_oop),
]
