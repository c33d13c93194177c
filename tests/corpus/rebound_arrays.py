"""Item writes into a name that held an argument (perhaps a list) earlier in the
function and certainly holds an array where the write runs (issue 13: refusals of
generated programs that were not necessary). analyze.containers, which looks at the
whole function, says the name may hold a list; analyze.aliases, which follows the
statements in order, says it holds an array at the write, so the write is one into an
array. A name that may still hold the argument's list there stays refused.
`CASES`: (f, arguments, wrt, the out-of-place program for autograd or None: f itself);
`REFUSED`: (f, arguments, words of the run-time message)."""

import numpy as np


def rebound_to_a_new_array(y, x):
    v = y
    w = v * 2.0
    v = np.array([np.sum(w), x, x * x])
    v[1:3] = v[0:2] * x
    return np.sum(v**2) + np.sum(w)


def rebound_to_a_new_array_out_of_place(y, x):
    w = y * 2.0
    v = np.array([np.sum(w), x, x * x])
    v = np.concatenate([v[:1], v[0:2] * x])
    return np.sum(v**2) + np.sum(w)


def rebound_in_a_loop(y, x):
    v = y
    for i in range(2):
        w = v * x
        v = np.zeros(3)
        v[i] = np.sum(w) + v[2 - i]
    return np.sum(v**2)


def rebound_in_a_loop_out_of_place(y, x):
    return (np.sum(y * x) * x) ** 2


def rebound_in_one_branch(y, x):
    v = y
    if x > 0.0:
        v = np.zeros(4)
    v[0] = x
    return np.sum(v * y)


Y = np.array([0.3, -0.7, 1.1, 0.5])

CASES = [
    (rebound_to_a_new_array, (Y, 0.7), (0, 1), rebound_to_a_new_array_out_of_place),
    (rebound_in_a_loop, (Y, 0.7), (0, 1), rebound_in_a_loop_out_of_place),
]

# the argument's list where the write may run: refused when it runs (an array is copied)
REFUSED = [
    (rebound_in_one_branch, ([0.3, -0.7, 1.1, 0.5], -0.7), ["`v[0] = x`", "pass an array"]),
]
