"""Helpers that change a parameter in place, called where the caller reads it afterwards
(issue 13): `def h(a, q): q *= 1.5; return a` called as `h(x, y)`, y read later.

Such a helper is inlined at its call (normalize.helper_calls): its update is the
caller's own, which transform.in_place differentiates. CASES as in corpus.in_place
(function, arguments, wrt, out-of-place equivalent); corpus.in_place runs them with
its own, tests/transform/test_helper_inlining.py in forward mode too.
"""

import numpy as np

import tangentlike as tl

from .changers import bump, double, double_front, double_through

SCALE = 1.5


def _r(seed):
    return np.random.RandomState(seed)


def _vec():
    return (_r(0).randn(4),)


def _num_vec():
    return (0.7, _r(0).randn(4))


# -- helpers ------------------------------------------------------------------------------
def put_first(out, x):
    out[0] = x[0] * 3.0
    return np.sum(out)


def scale_alias(a, b, q):
    z1 = q
    z2 = z1
    z2 *= SCALE
    return a


def square_into(b):
    np.multiply(b, b, out=b)
    return b >= 0.5


def shift(a, b, c=-1.0):
    b *= a if c < 0.0 else 2.0
    return np.minimum(a, 1.0)


def split_update(q, w):
    q -= w
    return q * 2.0, np.sum(q)


def clip_update(q, a):
    if a > 0.0:
        q *= a
        return q
    q += 1.0
    return q


def reshaped_update(a):
    z = a.reshape(2, 2)
    z += 1.0
    return a @ a


def both(a, b):
    a += b
    return np.sum(b)


def scale(q, a):
    q *= a
    return np.sum(q)


# -- callers ------------------------------------------------------------------------------
def changes_the_argument(x):
    y = x * 1.0
    z = bump(y)
    return np.sum(y * z)


def changes_the_argument_oop(x):
    y = x + 1.0
    return np.sum(y * y)


def nested_change(x):
    y = x * 1.0
    z = double_through(y)
    return np.sum(z * y)


def nested_change_oop(x):
    y = x * 2.0
    return np.sum(y * y)


def view_change(x):
    y = x * 1.0
    s = double_front(y)
    return s + np.sum(y * y)


def view_change_oop(x):
    y = np.concatenate([x[0:2] * 2.0, x[2:]])
    return np.sum(y) + np.sum(y * y)


def memory_read_before(x):
    y = x * 2.0
    t = np.sum(y * y)
    z = double(y)
    if np.sum(z) > 1e6:  # z is only tested: the call carries no gradient
        t = t * 1.0
    return t


def memory_read_before_oop(x):
    y = x * 2.0
    return np.sum(y * y)


def writes_into_the_argument(x):
    out = np.zeros(4)
    z = put_first(out, x)  # z carries no gradient, but out is changed and read
    s = np.sum(out * x)
    if z > 1e6:
        s = s * 1.0
    return s


def writes_into_the_argument_oop(x):
    out = np.concatenate([x[0:1] * 3.0, np.zeros(3)])
    return np.sum(out * x)


def alias_inside_the_helper(x, y):
    v = y * 1.0
    d = {"a": 0.5, "b": scale_alias(x, v, v)}
    return np.sum(v**2) * d["b"]


def alias_inside_the_helper_oop(x, y):
    v = y * SCALE
    return np.sum(v**2) * x


def out_into_the_parameter(x, y):
    v = y * x
    t = square_into(v)
    return np.sum(v * y) + np.sum(t)


def out_into_the_parameter_oop(x, y):
    v = y * x
    return np.sum(v * v * y) + np.sum(v * v >= 0.5)


def default_and_keywords(x, y):
    v = y * 1.0
    s = shift(x, b=v)
    w = y + 0.5
    t = shift(x, w, c=2.0)
    return np.sum(v**2) + np.sum(w * v) + s * t


def default_and_keywords_oop(x, y):
    v = y * x
    w = (y + 0.5) * 2.0
    return np.sum(v**2) + np.sum(w * v) + np.minimum(x, 1.0) ** 2


def in_a_loop(x, y):
    v = y * 1.0
    s = 0.0
    for i in range(3):
        s = s + np.sum(shift(x, v))
    return s + np.sum(np.sin(v))


def in_a_loop_oop(x, y):
    return 3.0 * np.minimum(x, 1.0) + np.sum(np.sin(y * x**3))


def unpacked_result(x, y):
    v = y * 1.0
    a, s = split_update(v, x)
    return np.sum(a * v) + s * x


def unpacked_result_oop(x, y):
    v = y - x
    return np.sum(v * 2.0 * v) + np.sum(v) * x


def caller_argument_changed(x, y):
    t = bump(y)
    return np.sum(y * t) * x


def caller_argument_changed_oop(x, y):
    return np.sum((y + 1.0) ** 2) * x


def early_return(x, y):
    v = y * 1.0
    w = y * 2.0
    a = clip_update(v, x)
    b = clip_update(w, -x)
    return np.sum(a * v) + np.sum(b * w)


def early_return_oop(x, y):
    v = y * x
    w = y * 2.0 + 1.0
    return np.sum(v * v) + np.sum(w * w)


def in_a_branch(x, y):
    v = y * 1.0
    if x > 0.0:
        double(v)
    return np.sum(v * y)


def in_a_branch_oop(x, y):
    v = y * 2.0 if x > 0.0 else y * 1.0
    return np.sum(v * y)


def reshaped_in_the_helper(x, y):
    v = y * x
    s = reshaped_update(v)
    return s + np.sum(np.sin(v))


def reshaped_in_the_helper_oop(x, y):
    v = y * x + 1.0
    return v @ v + np.sum(np.sin(v))


def passed_twice(x, y):
    v = y * x
    s = both(v, v)
    return s + np.sum(v * y)


def passed_twice_oop(x, y):
    v = y * x * 2.0
    return np.sum(v) + np.sum(v * y)


def in_a_checkpointed_loop(x, y):
    v = y * 1.0
    s = 0.0
    for t in tl.checkpointed(range(4), snapshots=2):
        s = s + scale(v, x)
    return s + np.sum(v**2)


def in_a_checkpointed_loop_oop(x, y):
    s = 0.0
    for k in range(1, 5):
        s = s + np.sum(y) * x**k
    return s + np.sum((y * x**4) ** 2)


def in_a_checkpointed_block(x, y):
    v = y * 1.0
    with tl.checkpoint():
        s = scale(v, x)
    return s + np.sum(v**2)


def in_a_checkpointed_block_oop(x, y):
    v = y * x
    return np.sum(v) + np.sum(v**2)


def view_in_a_loop(x, y):
    v = y * 1.0
    s = 0.0
    for t in range(3):
        w = v[1:3]
        s = s + scale(w, x)
    return s + np.sum(v**2)


def view_in_a_loop_oop(x, y):
    s = 0.0
    for k in range(1, 4):
        s = s + np.sum(y[1:3]) * x**k
    v = np.concatenate([y[0:1], y[1:3] * x**3, y[3:]])
    return s + np.sum(v**2)


CASES = [
    (changes_the_argument, _vec, (0,), changes_the_argument_oop),
    (nested_change, _vec, (0,), nested_change_oop),
    (view_change, _vec, (0,), view_change_oop),
    (memory_read_before, _vec, (0,), memory_read_before_oop),
    (writes_into_the_argument, _vec, (0,), writes_into_the_argument_oop),
    (alias_inside_the_helper, _num_vec, (0, 1), alias_inside_the_helper_oop),
    (out_into_the_parameter, _num_vec, (0, 1), out_into_the_parameter_oop),
    (default_and_keywords, _num_vec, (0, 1), default_and_keywords_oop),
    (in_a_loop, _num_vec, (0, 1), in_a_loop_oop),
    (unpacked_result, _num_vec, (0, 1), unpacked_result_oop),
    (caller_argument_changed, _num_vec, (0, 1), caller_argument_changed_oop),
    (early_return, _num_vec, (0, 1), early_return_oop),
    (in_a_branch, _num_vec, (1,), in_a_branch_oop),
    (in_a_branch, lambda: (-0.7, _r(0).randn(4)), (1,), in_a_branch_oop),
    (reshaped_in_the_helper, _num_vec, (0, 1), reshaped_in_the_helper_oop),
    (passed_twice, _num_vec, (0, 1), passed_twice_oop),
    (in_a_checkpointed_loop, _num_vec, (0, 1), in_a_checkpointed_loop_oop),
    (in_a_checkpointed_block, _num_vec, (0, 1), in_a_checkpointed_block_oop),
    (view_in_a_loop, _num_vec, (0, 1), view_in_a_loop_oop),
]
