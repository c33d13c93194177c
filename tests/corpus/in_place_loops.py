"""In-place updates inside loops, of names several others alias (issue 13).

- An argument aliased by other names, updated in place in a loop that iterates over
  one of them (random-program tester, seed 0 program 18): the loop's facts settle
  (analyze.memory's View compares the statement and the base, not copies of the
  index), so the aliases stay "same" views, asked at run time, instead of being
  forgotten after three rounds.
- A view made in a loop of a name the loop rebinds, that is the argument's own copy
  (or another array read afterwards) on the first round only (program 74): the name
  is a "same" view of that array at the loop's head (the first path's base wins
  where the other path is an alias of something else), and the update goes into it
  where it is that array.

- A name that is an array on one path only (a "same" view) and is not it on this run:
  the views made again from it after its update may share it (program 53: the rows of
  an argument iterated over, updated, in a loop that rebinds the argument).

- Views that may be copies (a reshape, a transpose, `y[..., None]`) of a name updated
  in place in a loop, read after the update (program 228): the update keeps the fact
  (analyze.aliases), and whether the view shares the name is asked at run time, where
  it is made again (a number's reshape is a copy: kept).

CASES as in corpus.in_place (function, arguments, wrt, out-of-place equivalent);
corpus.in_place runs them (gradient against central differences and autograd, value,
forward mode).
"""

import numpy as np


def _r(seed):
    return np.random.RandomState(seed)


def _vector_and_factor():
    return (_r(5).randn(3), 0.5 + np.abs(_r(6).randn(3)))


def aliases_updated_while_zipped(y, w):
    z2 = y
    z3 = z2
    v2 = y * 1.0
    for e3, e4 in zip(v2, z3):
        y *= w
    return np.sum(y**2) + 2.0 * np.mean(np.sin(z2)) + np.sum(z3 * v2)


def aliases_updated_while_zipped_oop(y, w):
    v = y
    for _ in range(len(y)):
        v = v * w
    return np.sum(v**2) + 2.0 * np.mean(np.sin(v)) + np.sum(v * y)


def aliases_updated_while_iterated(y, w):
    z2 = y
    s = 0.0
    for e in z2:
        y -= w * e
        s = s + e
    return np.sum(np.cos(z2)) + s


def aliases_updated_while_iterated_oop(y, w):
    s = 0.0
    for k in range(len(y)):
        e = y[k]
        y = y - w * e
        s = s + e
    return np.sum(np.cos(y)) + s


def _argument_and_count():
    return (0.7, _r(7).randn(4), 2)


def reshaped_view_of_a_rebound_argument(x, y, n):
    for _ in range(n):
        z1 = y.reshape(2, 2)
        z1 /= 1.5 + x
        y = y + np.sin(y)
    return np.mean(np.sin(y)) + x


def reshaped_view_of_a_rebound_argument_oop(x, y, n):
    for _ in range(n):
        y = y / (1.5 + x)
        y = y + np.sin(y)
    return np.mean(np.sin(y)) + x


def sliced_view_of_a_rebound_array(x, y, n):
    own = y * 1.0
    v = own
    for _ in range(n):
        z1 = v[0:2]
        z1 *= x
        v = v + v
    return np.mean(np.sin(v)) + np.sum(own**2)


def sliced_view_of_a_rebound_array_oop(x, y, n):
    own = np.concatenate([y[0:2] * x, y[2:]])
    v = own
    for k in range(n):
        if k:
            v = np.concatenate([v[0:2] * x, v[2:]])
        v = v + v
    return np.mean(np.sin(v)) + np.sum(own**2)


def _matrix_and_factor():
    return (0.1, 0.3 * _r(11).randn(3, 2))


def _matrix_with_a_large_row():
    return (0.1, np.array([[0.3, -0.2], [3.0, 3.5], [0.1, 0.4]]))


def rows_of_a_rebound_argument(x, Y):
    for i in range(3):
        if i > 0:
            Y = 0.5 * Y + np.tanh(Y)
        for e in Y:
            if np.sum(e) > 5.0:
                break
            e *= 1.0 - x
            x = x + 0.1 * np.sum(e * e)
        else:
            Y *= -1.0
    return np.sum(Y**2) + x


def rows_of_a_rebound_argument_oop(x, Y):
    for i in range(3):
        if i > 0:
            Y = 0.5 * Y + np.tanh(Y)
        rows = []
        broke = False
        for k in range(len(Y)):
            if np.sum(Y[k]) > 5.0:
                broke = True
                break
            rows.append(Y[k] * (1.0 - x))
            x = x + 0.1 * np.sum(rows[-1] * rows[-1])
        Y = np.stack(rows + [Y[k] for k in range(len(rows), len(Y))])
        if not broke:
            Y = Y * -1.0
    return np.sum(Y**2) + x


def items_of_a_rebound_argument(x, y):
    for i in range(3):
        if i > 0:
            y = 0.5 * y + np.tanh(y)
        for e in y:
            if e > 5.0:
                break
            e -= e * x  # a number: y does not change
            x = x + np.abs(e)
        else:
            y *= -1.0
    return np.sum(y**2) + x


def items_of_a_rebound_argument_oop(x, y):
    for i in range(3):
        if i > 0:
            y = 0.5 * y + np.tanh(y)
        for k in range(len(y)):
            x = x + np.abs(y[k] - y[k] * x)
        y = y * -1.0
    return np.sum(y**2) + x


def view_of_an_alias_on_one_path(x, c):
    b = x * 1.0
    if c > 0:
        z = b
    else:
        z = x * 2.0
    w = z[0:2]
    z += x
    return np.sum(w * x[0:2]) + np.sum(b**2)


def view_of_an_alias_on_one_path_oop(x, c):
    b = x * 1.0
    if c > 0:
        b = b + x
        z = b
    else:
        z = x * 2.0 + x
    w = z[0:2]
    return np.sum(w * x[0:2]) + np.sum(b**2)


def reshaped_view_read_across_updates(x, y, w):
    z1 = y.reshape(2, 2)
    z1 -= x
    for _ in range(3):
        y += y
        w = w + np.sum(z1 * z1)
    return np.sum(y**2) + w


def reshaped_view_read_across_updates_oop(x, y, w):
    y = y - x
    for _ in range(3):
        y = y + y
        w = w + np.sum(y * y)
    return np.sum(y**2) + w


def transposed_view_read_across_updates(x, Y):
    Y = Y * 1.0
    Z = np.transpose(Y)
    s = 0.0
    for _ in range(2):
        Y *= x
        s = s + np.sum(Z[0] * Z[1])
    return s + np.sum(Y)


def transposed_view_read_across_updates_oop(x, Y):
    s = 0.0
    for _ in range(2):
        Y = Y * x
        s = s + np.sum(Y[:, 0] * Y[:, 1])
    return s + np.sum(Y)


def new_axis_view_read_across_updates(x, y):
    y = y * 1.0
    w = y[..., None]
    s = 0.0
    for _ in range(2):
        y -= x * y
        s = s + np.sum(np.sin(w))
    return s + np.sum(y)


def new_axis_view_read_across_updates_oop(x, y):
    s = 0.0
    for _ in range(2):
        y = y - x * y
        s = s + np.sum(np.sin(y))
    return s + np.sum(y)


def reshaped_number_read_across_updates(x, y):
    w = np.reshape(y, (1,))  # a copy of a number, a view of an array
    s = 0.0
    for _ in range(2):
        y += x * y
        s = s + np.sum(w * w)
    return s + np.sum(y)


def reshaped_number_read_across_updates_oop(x, y):
    w = y
    s = 0.0
    for _ in range(2):
        y = y + x * y
        s = s + w * w
    return s + y


def reshaped_vector_read_across_updates_oop(x, y):
    s = 0.0
    for _ in range(2):
        y = y + x * y
        s = s + np.sum(y * y)
    return s + np.sum(y)


CASES = [
    (aliases_updated_while_zipped, _vector_and_factor, (0, 1), aliases_updated_while_zipped_oop),
    (
        aliases_updated_while_iterated,
        _vector_and_factor,
        (0, 1),
        aliases_updated_while_iterated_oop,
    ),
    (
        reshaped_view_of_a_rebound_argument,
        _argument_and_count,
        (0, 1),
        reshaped_view_of_a_rebound_argument_oop,
    ),
    (
        sliced_view_of_a_rebound_array,
        _argument_and_count,
        (0, 1),
        sliced_view_of_a_rebound_array_oop,
    ),
    (rows_of_a_rebound_argument, _matrix_and_factor, (0, 1), rows_of_a_rebound_argument_oop),
    (
        rows_of_a_rebound_argument,
        _matrix_with_a_large_row,
        (0, 1),
        rows_of_a_rebound_argument_oop,
    ),
    (
        items_of_a_rebound_argument,
        lambda: (0.3, 0.5 * _r(9).randn(4)),
        (0, 1),
        items_of_a_rebound_argument_oop,
    ),
    (
        view_of_an_alias_on_one_path,
        lambda: (_r(10).randn(3), 1.0),
        (0,),
        view_of_an_alias_on_one_path_oop,
    ),
    (
        view_of_an_alias_on_one_path,
        lambda: (_r(10).randn(3), -1.0),
        (0,),
        view_of_an_alias_on_one_path_oop,
    ),
    (
        reshaped_view_read_across_updates,
        lambda: (0.3, 0.1 * np.arange(4.0) + 0.5, 0.2),
        (0, 1, 2),
        reshaped_view_read_across_updates_oop,
    ),
    (
        transposed_view_read_across_updates,
        lambda: (0.7, 0.5 + 0.1 * _r(12).randn(2, 3)),
        (0, 1),
        transposed_view_read_across_updates_oop,
    ),
    (
        new_axis_view_read_across_updates,
        lambda: (0.7, _r(13).randn(3)),
        (0, 1),
        new_axis_view_read_across_updates_oop,
    ),
    (
        reshaped_number_read_across_updates,
        lambda: (0.7, 0.4),
        (0, 1),
        reshaped_number_read_across_updates_oop,
    ),
    (
        reshaped_number_read_across_updates,
        lambda: (0.7, np.array([0.4])),
        (0, 1),
        reshaped_vector_read_across_updates_oop,
    ),
]
