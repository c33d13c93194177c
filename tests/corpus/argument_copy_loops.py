"""An argument changed in place inside a loop over it, then rebound (issue 13).

The function works on its own copy of the argument (transform.argument_copies,
`_y_own1 = entry_copy(y)`); the loop over it takes the copy as a sequence, which made
the container checks count it as a possible list and refuse writing into it, though
entry_copy raises for anything but an array or a number. CASES: (function, arguments,
wrt, out-of-place equivalent for autograd); item_or_sum_returned was refused as if
its result were certainly the argument's memory.
"""

import numpy as np


def out_in_a_loop_over_it(x, y):
    for i1, e1 in enumerate(y):
        np.tanh(y * x, out=y)
    y = y + x
    return np.sum(y**2)


def out_in_a_loop_over_it_oop(x, y):
    for _ in range(4):
        y = np.tanh(y * x)
    y = y + x
    return np.sum(y**2)


def updated_while_iterated(x, y):
    s = 0.0
    for e1 in y:
        y *= x
        s = s + e1
    y = y + x
    return np.sum(y**2) + s


def updated_while_iterated_oop(x, y):
    s = 0.0
    for i in range(4):
        s = s + y[i] * x**i
    y = y * x**4 + x
    return np.sum(y**2) + s


def written_by_position(x, y):
    for i1, e1 in enumerate(y):
        y[i1] = e1 * x
    if x > 0:
        y = y * 2.0
    return np.sum(y**2)


def written_by_position_oop(x, y):
    y = y * x
    if x > 0:
        y = y * 2.0
    return np.sum(y**2)


def item_or_sum_returned(x, y, n):
    """The result is y's item or np.sum(y) (new memory): the copy is made and the
    result checked at run time, rather than the copy refused."""
    np.multiply(y, y, out=y)
    for i2 in range(n):
        if x > 0.0:
            return y[i2 + 1]
        y /= 2.0
    return np.sum(y)


def item_or_sum_returned_oop(x, y, n):
    if x > 0.0 and n > 0:
        return (y * y)[1]
    return np.sum(y * y / 2.0**n)


def _args():
    return (0.7, np.array([0.3, -0.7, 1.2, 0.5]))


CASES = [
    (out_in_a_loop_over_it, _args, (0, 1), out_in_a_loop_over_it_oop),
    (updated_while_iterated, _args, (0, 1), updated_while_iterated_oop),
    (written_by_position, _args, (0, 1), written_by_position_oop),
    (item_or_sum_returned, lambda: (*_args(), 2), (1,), item_or_sum_returned_oop),
    (item_or_sum_returned, lambda: (-0.7, _args()[1], 2), (1,), item_or_sum_returned_oop),
]


def held_by_a_dict(x, y):
    """Refused: D1 holds y (its own copy) and is read there after the write into y."""
    D1 = {"a": y * 2.0, "b": y}
    np.negative(-y, out=y)
    return np.sum(y) * x * np.sum(D1["a"]) + np.sum(D1["b"])
