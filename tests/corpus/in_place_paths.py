"""In-place updates of a name that is an array itself on one path only (issue 13):
`if c: z = y` (else z is a new array), or an argument the function changes and rebinds
on some paths (its own copy is then another name, read again when it is written back).

After the join the name is a "same" view of the array (analyze.memory): the gradient
asks at run time whether it is that array (runtime.same_array; a name sharing only
part of it is refused there), writes the update into it where it is, and updates the
name alone where it is not (transform.view_updates). CASES as in corpus.in_place
(function, arguments, wrt, out-of-place equivalent); each program runs down both paths.
"""

import numpy as np


def _r(seed):
    return np.random.RandomState(seed)


def alias_on_one_path(x, n):
    y = x * 1.0
    if n > 0:
        z = y
    else:
        z = x * 2.0
    z /= 2.0 + x
    return np.sum(y**2) + np.sum(z * x)


def alias_on_one_path_oop(x, n):
    y = x * 1.0
    if n > 0:
        y = y / (2.0 + x)
        z = y
    else:
        z = x * 2.0 / (2.0 + x)
    return np.sum(y**2) + np.sum(z * x)


def argument_replaced_on_one_path(x, y, n):
    if n > 0:
        y = np.concatenate([x[:1], y[1:] * 2.0])
    z = y
    z /= 2.0
    return np.sum(y**2) + np.sum(z * x)


def argument_replaced_on_one_path_oop(x, y, n):
    if n > 0:
        y = np.concatenate([x[:1], y[1:] * 2.0])
    y = y / 2.0
    return np.sum(y**2) + np.sum(y * x)


def argument_rebound_in_a_loop_reshaped(y, w, n):
    if np.max(y) > w:
        pass
    else:
        for _ in range(n):
            y = 0.5 * y + np.tanh(-y)
    z = y.reshape(2, 2)
    z += w
    return np.sum(y) * 0.5 * np.mean(np.sin(z))


def argument_rebound_in_a_loop_reshaped_oop(y, w, n):
    if np.max(y) > w:
        pass
    else:
        for _ in range(n):
            y = 0.5 * y + np.tanh(-y)
    y = y + w
    return np.sum(y) * 0.5 * np.mean(np.sin(y))


def alias_written_by_index_on_one_path(x, n):
    y = x * 1.0
    z = x * 3.0
    if n > 0:
        z = y
    z[1] = x[0] ** 2
    return np.sum(y * y) + np.sum(z * x)


def alias_written_by_index_on_one_path_oop(x, n):
    y = x * 1.0
    z = x * 3.0
    if n > 0:
        y = np.concatenate([y[:1], x[0:1] ** 2, y[2:]])
        z = y
    else:
        z = np.concatenate([z[:1], x[0:1] ** 2, z[2:]])
    return np.sum(y * y) + np.sum(z * x)


def loop_over_an_array_updated_inside(y, w):
    v = np.zeros(4)
    for e in v:  # reads v as it is at each step: the loop's iterable is v itself
        v += y[::-1] * w + e
    return np.mean(np.sin(v))


def loop_over_an_array_updated_inside_oop(y, w):
    v = np.zeros(4)
    for i in range(4):
        e = v[i]
        v = v + y[::-1] * w + e
    return np.mean(np.sin(v))


def _vec(n):
    return lambda: (_r(0).randn(4), n)


def _two(n):
    return lambda: (_r(0).randn(4), _r(1).randn(4), n)


def _loop(w):
    return lambda: (np.array([0.3, -1.2, 0.7, 2.0]), w, 2)


CASES = [
    (alias_on_one_path, _vec(1), (0,), alias_on_one_path_oop),
    (alias_on_one_path, _vec(0), (0,), alias_on_one_path_oop),
    (argument_replaced_on_one_path, _two(1), (0, 1), argument_replaced_on_one_path_oop),
    (argument_replaced_on_one_path, _two(0), (0, 1), argument_replaced_on_one_path_oop),
    (
        argument_rebound_in_a_loop_reshaped,
        _loop(0.5),
        (0, 1),
        argument_rebound_in_a_loop_reshaped_oop,
    ),
    (
        argument_rebound_in_a_loop_reshaped,
        _loop(5.0),
        (0, 1),
        argument_rebound_in_a_loop_reshaped_oop,
    ),
    (alias_written_by_index_on_one_path, _vec(1), (0,), alias_written_by_index_on_one_path_oop),
    (alias_written_by_index_on_one_path, _vec(0), (0,), alias_written_by_index_on_one_path_oop),
    (
        loop_over_an_array_updated_inside,
        lambda: (_r(0).randn(4), 0.3),
        (0, 1),
        loop_over_an_array_updated_inside_oop,
    ),
]


def alias_or_slice(x, n):
    y = x * 1.0
    if n > 0:
        z = y
    else:
        z = y[1:]  # part of y: refused when it runs (the update is not y's)
    z *= 2.0
    return np.sum(y * x)


def kept_name_sharing_the_updated(x, c):
    y = x * 1.0
    if c > 0:
        z = y
        u = y
    else:
        z = x * 2.0
        u = np.asarray(z)  # z itself: not y, but changed by the update of z
    z += 1.0
    return np.sum(u * x) + np.sum(y * x)


def kept_name_sharing_the_updated_oop(x, c):
    y = x * 1.0 + 1.0
    return np.sum(y * x) + np.sum(y * x)


def one_path_part_of_the_top(x, c):
    t = x * 1.0
    b = t[2:4]
    if c > 0:
        z = b
    else:
        z = t[0:1]  # not b, but part of t, which the update changes
    z += 1.0
    return np.sum(t * x) + np.sum(b)


def one_path_part_of_the_top_oop(x, c):
    t = np.concatenate([x[:2], x[2:4] + 1.0])
    return np.sum(t * x) + np.sum(t[2:4])


def kept_name_on_one_path(x, c):
    y = x * 1.0
    z = y
    if c > 0:
        u = y
    else:
        u = x * 3.0  # shares nothing: kept as it is
    z += 1.0
    return np.sum(u * x) + np.sum(y * x)


def kept_name_on_one_path_oop(x, c):
    y = x * 1.0 + 1.0
    u = y if c > 0 else x * 3.0
    return np.sum(u * x) + np.sum(y * x)


CASES += [
    (kept_name_on_one_path, _vec(1), (0,), kept_name_on_one_path_oop),
    (kept_name_on_one_path, _vec(0), (0,), kept_name_on_one_path_oop),
    (kept_name_sharing_the_updated, _vec(1), (0,), kept_name_sharing_the_updated_oop),
    (one_path_part_of_the_top, _vec(1), (0,), one_path_part_of_the_top_oop),
]

# (function, arguments, "run", words of the message), as corpus.in_place.REFUSED: where
# the name is not the array, it must share nothing the update changes
REFUSED = [
    (alias_or_slice, _vec(0), "run", ["`z *= 2.0`", "'z' is not 'y' itself"]),
    (kept_name_sharing_the_updated, _vec(0), "run", ["`z += 1.0`", "'z' is not 'y' itself"]),
    (one_path_part_of_the_top, _vec(0), "run", ["`z += 1.0`", "'z' is not 'b' itself"]),
]
