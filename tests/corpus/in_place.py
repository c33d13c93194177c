"""In-place updates: `z op= v`, `out=`, and writes through views, aliases and helpers.

CASES: (function, arguments, wrt, out-of-place equivalent or None): the gradient must
match central differences, and the equivalent's (autograd runs it, as tangentlike does).
REFUSED: (function, arguments, error class, words its message contains).
"""

import numpy as np

import tangentlike as tl

from . import (
    helper_summaries,
    in_place_calls,
    in_place_chains,
    in_place_helpers,
    in_place_kept_views,
    in_place_keyed,
    in_place_loop_rows,
    in_place_loops,
    in_place_maybe_arrays,
    in_place_one_path,
    in_place_paths,
    in_place_unseen,
)
from .changers import bump, double, double_through

G = np.array([1.0, 2.0, 3.0, 4.0])
SCALE = 2.5


def _r(seed):
    return np.random.RandomState(seed)


# -- helpers that change their parameter -------------------------------------------------
def scale_copy(v):
    v = v * 1.0
    v *= 3.0
    return v


def grow(v, n):
    if n == 0:
        return v
    v *= 1.5
    return grow(v, n - 1)


def identity(v):
    return v


@tl.checkpoint
def checkpointed_cell(v, w):
    v *= np.tanh(w)
    return np.sin(v)


def put_first(out, x):
    out[0] = x[0] * 3.0
    return np.sum(out)


# -- fresh arrays and numbers: the update is the new value -------------------------------
def fresh_chain(x, w):
    z = x * 1.0
    z += w
    z -= 0.5 * w
    z *= w
    z /= 1.5
    z **= 2
    return np.sum(z * x)


def fresh_chain_oop(x, w):
    z = x * 1.0
    z = z + w
    z = z - 0.5 * w
    z = z * w
    z = z / 1.5
    z = z**2
    return np.sum(z * x)


def matmul_update(X, W):
    Z = X * 1.0
    Z @= W
    Z @= W
    return np.sum(Z * X)


def matmul_update_oop(X, W):
    Z = X * 1.0
    Z = Z @ W
    Z = Z @ W
    return np.sum(Z * X)


def floor_update(x):
    z = x * 3.0
    z //= 0.7
    return np.sum(z * x)


def floor_update_oop(x):
    z = x * 3.0
    z = z // 0.7
    return np.sum(z * x)


def number_chain(a, b):
    s = a * 1.0
    s += b
    s *= a
    s -= 2.0
    s /= 1.0 + b * b
    s **= 2
    return s


def number_chain_oop(a, b):
    s = a * 1.0
    s = s + b
    s = s * a
    s = s - 2.0
    s = s / (1.0 + b * b)
    s = s**2
    return s


def accumulate(x):
    s = 0.0
    for i in range(x.shape[0]):
        s += x[i] * x[i]
    return s


def accumulate_oop(x):
    s = 0.0
    for i in range(x.shape[0]):
        s = s + x[i] * x[i]
    return s


def accumulate_from_first(x):
    acc = x[0]  # a number for a vector x: acc += ... makes a new one
    for i in range(1, x.shape[0]):
        acc += x[i] * 2.0
    return acc * np.sum(x)


def accumulate_from_first_oop(x):
    acc = x[0]
    for i in range(1, x.shape[0]):
        acc = acc + x[i] * 2.0
    return acc * np.sum(x)


def number_alias(a, b):
    c = a
    c += b  # a number: c is a new one, a is unchanged
    return c * a


def number_alias_oop(a, b):
    c = a
    c = c + b
    return c * a


def global_number(x):
    z = SCALE
    z += np.sum(x)
    return z * SCALE


def global_number_oop(x):
    z = SCALE
    z = z + np.sum(x)
    return z * SCALE


def items_of_a_vector(x):
    y = x * 1.0
    t = 0.0
    for a in y:
        a *= 2.0  # a number: y is unchanged
        t = t + a
    return t + np.sum(y * y)


def items_of_a_vector_oop(x):
    y = x * 1.0
    t = 0.0
    for a in y:
        t = t + a * 2.0
    return t + np.sum(y * y)


def argument_itself(x):
    x += 1.0  # the caller's array: the gradient does not depend on it
    x *= x
    return np.sum(x)


def argument_itself_oop(x):
    x = x + 1.0
    x = x * x
    return np.sum(x)


def alias_not_read_again(x):
    y = x * 1.0
    z = y
    z += 1.0
    return np.sum(z * z)


def alias_not_read_again_oop(x):
    z = x * 1.0 + 1.0
    return np.sum(z * z)


def view_of_argument_not_read_again(x):
    v = x[1:3]
    v *= 2.0
    return np.sum(v * v)


def view_of_argument_not_read_again_oop(x):
    v = x[1:3] * 2.0
    return np.sum(v * v)


def copy_by_fancy_index(x):
    y = x * 1.0
    v = y[np.array([0, 2])]  # advanced indexing copies
    v *= 3.0
    return np.sum(y * y) + np.sum(v)


def copy_by_fancy_index_oop(x):
    y = x * 1.0
    v = y[np.array([0, 2])] * 3.0
    return np.sum(y * y) + np.sum(v)


def copy_by_mask(x):
    y = x * 1.0
    v = y[y > 0]
    v *= 3.0
    return np.sum(y * y) + np.sum(v)


def copy_by_mask_oop(x):
    y = x * 1.0
    v = y[y > 0] * 3.0
    return np.sum(y * y) + np.sum(v)


def copy_kept(x):
    y = x * 1.0
    w = y.reshape(2, 2).copy()
    w += 1.0
    return np.sum(y * y) + np.sum(w * w)


def copy_kept_oop(x):
    y = x * 1.0
    w = y.reshape(2, 2) + 1.0
    return np.sum(y * y) + np.sum(w * w)


# -- updates through views: the write into the base array they are ------------------------
def slice_view(x):
    y = x * 1.0
    v = y[1:3]
    v *= 2.0
    return np.sum(y * y)


def slice_view_oop(x):
    y = x * 1.0
    y = np.concatenate([y[:1], y[1:3] * 2.0, y[3:]])
    return np.sum(y * y)


def slice_view_read_again(x):
    y = x * 1.0
    v = y[1:3]
    v *= 2.0
    v += x[0:2]
    return np.sum(y * y) + np.sum(v * x[2:4])


def slice_view_read_again_oop(x):
    y = x * 1.0
    v = y[1:3] * 2.0 + x[0:2]
    y = np.concatenate([y[:1], v, y[3:]])
    return np.sum(y * y) + np.sum(v * x[2:4])


def column_view(X):
    Y = X * 1.0
    c = Y[:, 0]
    c += 1.0
    c *= Y[:, 1]
    return np.sum(Y * Y)


def column_view_oop(X):
    Y = X * 1.0
    c = (Y[:, 0] + 1.0) * Y[:, 1]
    Y = np.stack([c, Y[:, 1]], axis=1)
    return np.sum(Y * Y)


def rows_in_a_loop(X):
    Y = X * 1.0
    for i in range(Y.shape[0]):
        r = Y[i, :]
        r *= 2.0 + i
    return np.sum(Y**3)


def rows_in_a_loop_oop(X):
    Y = X * 1.0
    Y = np.stack([Y[i, :] * (2.0 + i) for i in range(Y.shape[0])])
    return np.sum(Y**3)


def view_in_branches(x):
    y = x * 1.0
    if x[0] > 0:
        v = y[0:2]
        v *= 3.0
    else:
        v = y[2:4]
        v *= 0.5
    return np.sum(y * y)


def view_in_branches_oop(x):
    y = x * 1.0
    if x[0] > 0:
        y = np.concatenate([y[0:2] * 3.0, y[2:4]])
    else:
        y = np.concatenate([y[0:2], y[2:4] * 0.5])
    return np.sum(y * y)


def view_in_while(x):
    y = x * 1.0
    k = 0
    while k < 2:
        v = y[k : k + 2]
        v += x[k]
        k = k + 1
    return np.sum(y * y)


def view_made_before_loop(x):
    y = x * 1.0
    v = y[0:2]
    for _ in range(3):
        v *= 1.5
    return np.sum(y * x)


def view_ops(x, w):
    """Each operator through a view, then reads of the base."""
    y = x * 1.0
    a = y[0:2]
    a += w[0:2]
    b = y[1:3]
    b -= w[1:3]
    c = y[2:4]
    c *= w[2:4]
    d = y[0:3]
    d /= 1.0 + w[0:3] ** 2
    e = y[1:4]
    e **= 2
    return np.sum(y * x)


def view_matmul(X, W):
    Y = X * 1.0
    top = Y[0:2, :]
    top @= W
    return np.sum(Y * X)


def view_floor(x):
    y = x * 3.0
    v = y[1:3]
    v //= 0.7
    return np.sum(y * x)


def view_read_before_and_after(x):
    y = x * 1.0
    v = y[1:3]
    s = np.sum(v * v * x[0:2])  # the gradient reads v as it was here
    v *= 2.0
    t = np.sum(v * np.sin(v))
    v += x[2:4]
    return s + np.sum(y * y * x) + t


def rows_updated_from_a_running_sum(X):
    Y = X * 1.0
    acc = 0.0
    for i in range(3):
        r = Y[i, :]
        acc = acc + np.sum(r * r)
        r *= 1.0 + acc
        acc = acc + np.sum(np.tanh(r))
    return acc + np.sum(Y**2)


def columns_in_nested_loops(X):
    Y = X * 1.0
    for i in range(2):
        for j in range(2):
            c = Y[:, j]
            c *= Y[i, 1 - j] + 0.5
    return np.sum(Y * Y)


def write_after_view_read(x):
    y = x * 1.0
    w = y[0:2]
    s = np.sum(w * w)  # w is read before the write only
    y[0] = 5.0 * x[1]
    return s + np.sum(y * y)


def checkpointed_view(x, T):
    y = x * 1.0
    s = 0.0
    for t in tl.checkpointed(range(T), snapshots=2):
        v = y[0:2]
        v *= 1.1
        s = s + np.sum(y * y)
    return s


# -- out= ------------------------------------------------------------------------------------
def out_multiply(x):
    y = np.zeros(4)
    np.multiply(x, x, out=y)
    return np.sum(y * x)


def out_multiply_oop(x):
    y = np.multiply(x, x)
    return np.sum(y * x)


def out_into_an_input(x):
    a = x * 2.0
    np.add(a, x, out=a)
    return np.sum(a * a)


def out_into_an_input_oop(x):
    a = x * 2.0
    a = np.add(a, x)
    return np.sum(a * a)


def out_positional(x):
    a = x * 2.0
    np.add(a, x, a)
    return np.sum(a * a)


def out_clip(x):
    y = x * 1.0
    np.clip(y, -0.5, 0.5, out=y)
    return np.sum(y * y)


def out_clip_oop(x):
    y = np.clip(x * 1.0, -0.5, 0.5)
    return np.sum(y * y)


def out_value_used(x):
    y = x * 1.0
    r = np.exp(y, out=y)
    return np.sum(r * x) + np.sum(y)


def out_value_used_oop(x):
    y = np.exp(x * 1.0)
    return np.sum(y * x) + np.sum(y)


def out_matmul(A):
    C = np.zeros((2, 2))
    np.matmul(A, A, out=C)
    return np.sum(C * C)


def out_matmul_oop(A):
    C = np.matmul(A, A)
    return np.sum(C * C)


def out_dot(A):
    C = np.zeros((2, 2))
    np.dot(A, A.T, out=C)
    return np.sum(C * A)


def out_dot_oop(A):
    C = np.dot(A, A.T)
    return np.sum(C * A)


def out_sum(A):
    s = np.zeros(2)
    np.sum(A * A, axis=0, out=s)
    return np.sum(s * s)


def out_sum_oop(A):
    s = np.sum(A * A, axis=0)
    return np.sum(s * s)


def out_cumsum(x):
    c = np.zeros(4)
    np.cumsum(x * x, out=c)
    return np.sum(c * x)


def out_cumsum_oop(x):
    c = np.cumsum(x * x)
    return np.sum(c * x)


def out_tuple(x):
    y = np.zeros(4)
    np.sin(x, out=(y,))
    return np.sum(y * y)


def out_tuple_oop(x):
    y = np.sin(x)
    return np.sum(y * y)


def out_none(x):
    return np.sum(np.sin(x, out=None))


def out_none_oop(x):
    return np.sum(np.sin(x))


def out_method(x):
    y = x * 1.0
    y.clip(-0.5, 0.5, out=y)
    return np.sum(y * x)


def out_method_oop(x):
    y = np.clip(x * 1.0, -0.5, 0.5)
    return np.sum(y * x)


def out_float32(x):
    y = np.zeros(4, dtype=np.float32)
    np.multiply(x, 3.0, out=y)  # cast to float32 on the way in, as NumPy does
    return np.sum(y * x)


def out_in_a_loop(x):
    acc = np.zeros(4)
    for _ in range(3):
        np.add(acc, np.sin(x + acc), out=acc)
    return np.sum(acc * acc)


def out_in_a_loop_oop(x):
    acc = np.zeros(4)
    for _ in range(3):
        acc = np.add(acc, np.sin(x + acc))
    return np.sum(acc * acc)


# -- helpers ---------------------------------------------------------------------------------
def helper_result_rebinds(x):
    y = x * 1.0
    for _ in range(3):
        y = double(y)
    return np.sum(y * x)


def helper_result_rebinds_oop(x):
    y = x * 1.0
    for _ in range(3):
        y = y * 2.0
    return np.sum(y * x)


def helper_on_a_temporary(x):
    z = bump(x * 2.0)
    return np.sum(z * z)


def helper_on_a_temporary_oop(x):
    z = x * 2.0 + 1.0
    return np.sum(z * z)


def helper_on_its_copy(x):
    z = scale_copy(x)
    return np.sum(z * x)


def helper_on_its_copy_oop(x):
    z = x * 3.0
    return np.sum(z * x)


def helper_nested_result(x):
    z = double_through(x * 1.0)
    return np.sum(z * x)


def helper_nested_result_oop(x):
    return np.sum(x * 2.0 * x)


def helper_returning_a_number(a):
    b = bump(a)  # a is a number: bump cannot change it
    return a * b


def helper_returning_a_number_oop(a):
    return a * (a + 1.0)


def closure_on_its_copy(x):
    y = x * 1.0

    def g(v):
        v = v * 2.0
        v += 1.0
        return v

    z = g(y)
    return np.sum(z * y)


def closure_on_its_copy_oop(x):
    y = x * 1.0
    return np.sum((y * 2.0 + 1.0) * y)


# -- updates through aliases, transposes and reshapes: written back into their base ------------
def alias_read_again(x):
    y = x * 1.0
    z = y
    z += 1.0
    return np.sum(y * y)


def plus_one_oop(x):
    y = x * 1.0 + 1.0
    return np.sum(y * y)


def reshaped(x):
    y = x * 1.0
    w = y.reshape(2, 2)
    w += 1.0
    return np.sum(y * y)


def raveled(X):
    Y = X * 1.0
    w = np.ravel(Y)
    w *= 2.0
    return np.sum(Y * Y)


def transposed(X):
    Y = X * 1.0
    Z = Y.T
    Z *= 2.0
    return np.sum(Y * Y)


def doubled_oop(X):
    Y = X * 2.0
    return np.sum(Y * Y)


def two_views(x):
    y = x * 1.0
    u = y[0:3]
    v = y[1:3]
    v *= 2.0
    return np.sum(u * u)


def two_views_oop(x):
    u = np.concatenate([x[0:1], x[1:3] * 2.0])
    return np.sum(u * u)


def in_a_loop_alias(x):
    y = x * 1.0
    s = 0.0
    for _ in range(2):
        z = y
        z *= 1.5
        s = s + np.sum(y)
    return s


def in_a_loop_alias_oop(x):
    y = x * 1.0
    s = 0.0
    for _ in range(2):
        y = y * 1.5
        s = s + np.sum(y)
    return s


def closure_changes_the_argument(x):
    y = x * 1.0

    def g(v):
        v += 1.0
        return v

    z = g(y)
    return np.sum(z * y)


def views_of_one_base(X, w):
    """A transpose updated while a reshape, a row and an alias of its base are read."""
    Y = X * 1.0
    r = Y.reshape(-1)
    row = Y[1, :]
    a = Y
    T = Y.T
    T *= np.sin(w)
    T += T * w
    return np.sum(r * r) + np.sum(row * X[0]) + np.sum(a * Y * X)


def views_of_one_base_oop(X, w):
    Y = X * 1.0
    T = Y.T * np.sin(w)
    T = T + T * w
    Y = T.T
    return np.sum(Y * Y) + np.sum(Y[1] * X[0]) + np.sum(Y * Y * X)


def view_of_the_updated_view(x):
    y = x * 1.0
    z = y.reshape(2, 2)
    top = z[0, :]
    z *= np.cos(x.reshape(2, 2))
    return np.sum(top * x[2:4]) + np.sum(y * x)


def view_of_the_updated_view_oop(x):
    y = x * np.cos(x)
    return np.sum(y[0:2] * x[2:4]) + np.sum(y * x)


def reshape_that_copies(X):
    Y = (X * 1.0).T  # not contiguous: its reshape is a copy, updated alone
    w = Y.reshape(-1)
    w *= 2.0
    return np.sum(Y * Y) + np.sum(w * np.ravel(X.T))


def reshape_that_copies_oop(X):
    Y = (X * 1.0).T
    w = Y.reshape(-1) * 2.0
    return np.sum(Y * Y) + np.sum(w * np.ravel(X.T))


def transpose_in_branches(X):
    Y = X * 1.0
    Z = Y.T
    if X[0, 0] > 0:
        Z *= 2.0
    else:
        Z += X.T
    return np.sum(Y * Y * X)


def transpose_in_branches_oop(X):
    if X[0, 0] > 0:
        Y = X * 2.0
    else:
        Y = X * 2.0
    return np.sum(Y * Y * X)


def alias_in_a_checkpointed_loop(x, T):
    y = x * 1.0
    s = 0.0
    for t in tl.checkpointed(range(T), snapshots=2):
        z = y.reshape(2, 2)
        z *= 1.1 + np.sin(z)
        s = s + np.sum(y * y)
    return s


def alias_of_an_alias(x):
    y = x * 1.0
    a = y
    b = a
    b *= x
    b += 1.0
    return np.sum(y * a * x)


def alias_of_an_alias_oop(x):
    y = x * x + 1.0
    return np.sum(y * y * x)


def number_alias_of_an_item(x):
    y = x * 1.0
    s = y[0]
    t = s
    t += 2.0  # a number: s and y stay
    return s * t + np.sum(y)


def number_alias_of_an_item_oop(x):
    y = x * 1.0
    s = y[0]
    t = s + 2.0
    return s * t + np.sum(y)


def number_transposed(a):
    s = a * 2.0
    t = np.transpose(s)  # a number: a new one
    t += 1.0
    return s * t


def number_transposed_oop(a):
    s = a * 2.0
    return s * (s + 1.0)


# -- writes into arguments: into the function's own copy, written back at the end -----------
def view_of_argument(x):
    v = x[1:3]
    v *= 2.0
    return np.sum(x * x)


def view_of_argument_oop(x):
    x = np.concatenate([x[:1], x[1:3] * 2.0, x[3:]])
    return np.sum(x * x)


def argument_alias(x):
    a = x
    a += 1.0
    return np.sum(a * x)


def argument_alias_oop(x):
    a = x + 1.0
    return np.sum(a * a)


def out_into_argument(x):
    np.multiply(x, x, out=x)
    return np.sum(x)


def out_into_argument_oop(x):
    return np.sum(x * x)


def out_into_a_view(x):
    y = x * 1.0
    v = y[0:2]
    np.multiply(v, 2.0, out=v)
    return np.sum(y * y)


def out_into_a_view_oop(x):
    y = np.concatenate([x[0:2] * 2.0, x[2:]])
    return np.sum(y * y)


def write_into_view_of_argument(x):
    y = x[1:]
    y[0] = 2.0
    return np.sum(y * x[1:])


def write_into_view_of_argument_oop(x):
    y = np.concatenate([np.array([2.0]), x[2:]])
    return np.sum(y * y)


def write_into_argument(x, w):
    w[1] = x[0] * w[0]
    w *= 2.0
    return np.sum(w * x)


def write_into_argument_oop(x, w):
    w = np.concatenate([w[:1], x[0:1] * w[0], w[2:]]) * 2.0
    return np.sum(w * x)


def argument_rows_in_a_loop(X):
    for i in range(X.shape[0]):
        r = X[i, :]
        r *= 1.0 + i + X[i, 0]
    return np.sum(X * X)


def argument_rows_in_a_loop_oop(X):
    X = np.stack([X[i, :] * (1.0 + i + X[i, 0]) for i in range(X.shape[0])])
    return np.sum(X * X)


def argument_transposed(X, w):
    T = X.T
    T *= w
    return np.sum(X * np.sin(X))


def argument_transposed_oop(X, w):
    X = (X.T * w).T
    return np.sum(X * np.sin(X))


def argument_written_in_a_branch(x):
    if x[0] > 0:
        x[1] = x[0] * x[2]
    else:
        x[2:4] += x[0:2]
    return np.sum(x * x)


def argument_written_in_a_branch_oop(x):
    if x[0] > 0:
        x = np.concatenate([x[0:1], x[0:1] * x[2], x[2:]])
    else:
        x = np.concatenate([x[0:2], x[2:4] + x[0:2]])
    return np.sum(x * x)


def argument_rebound_after_a_write(x):
    x[0] = np.sin(x[1])
    x = x * 2.0  # a new array: the caller's keeps the write above only
    x[1] = 3.0
    return np.sum(x * x)


def argument_rebound_after_a_write_oop(x):
    x = np.concatenate([np.sin(x[1:2]), x[1:]]) * 2.0
    x = np.concatenate([x[0:1], np.array([3.0]), x[2:]])
    return np.sum(x * x)


def argument_number_updated(a, x):
    a += 1.0  # a number: nothing to write back
    x[0] = a * x[1]
    return np.sum(x) * a


def argument_number_updated_oop(a, x):
    a = a + 1.0
    x = np.concatenate([a * x[1:2], x[1:]])
    return np.sum(x) * a


def argument_and_early_returns(x, w):
    z = w
    z += x[0]
    for e in w:
        if e > 0.5:
            return e * np.sum(w * x)  # writes back before each return
    w[0] = x[1] * 2.0
    return np.sum(w * w * x)


def argument_and_early_returns_oop(x, w):
    w = w + x[0]
    for e in w:
        if e > 0.5:
            return e * np.sum(w * x)
    w = np.concatenate([x[1:2] * 2.0, w[1:]])
    return np.sum(w * w * x)


def row_and_element_updated(x, A):
    Y = A * 1.0
    r = Y[1]  # a row: a view
    r *= x
    e = Y[0, 1]  # an element: a number, Y is unchanged
    e += 2.0 * x
    return np.sum(Y * Y) + e * r[0]


def row_and_element_updated_oop(x, A):
    Y = A * 1.0
    r = Y[1] * x
    Y = np.stack([Y[0], r, Y[2]])
    e = Y[0, 1] + 2.0 * x
    return np.sum(Y * Y) + e * r[0]


def element_of_a_row_read_later(x, A):
    s = A[0][-2]  # a number read after the update (made again: an element of a row)
    c = A[:, 2]
    c += np.sin(A[:, 0]) * x
    return np.sum(A * A) + s * x


def element_of_a_row_read_later_oop(x, A):
    s = A[0][-2]
    A = A + np.stack([np.zeros(3), np.zeros(3), np.sin(A[:, 0]) * x, np.zeros(3)], axis=1)
    return np.sum(A * A) + s * x


def argument_in_a_checkpointed_loop(x, T):
    s = 0.0
    for t in tl.checkpointed(range(T), snapshots=2):
        v = x[0:2]
        v *= 1.1
        s = s + np.sum(x * x)
    return s


# -- refused: what runs changes an array seen under another name ------------------------------
def rows_of_a_matrix(X):
    Y = X * 1.0
    for row in Y:
        row *= 2.0
    return np.sum(Y * Y)


def rows_of_a_matrix_oop(X):
    return np.sum((X * 2.0) ** 2)


def view_of_a_row(X):
    Y = X * 1.0
    r = Y[0]
    v = r[0:1]
    v += 1.0
    return np.sum(Y * Y)


def view_of_a_row_oop(X):
    Y = X * 1.0
    r = np.concatenate([Y[0, 0:1] + 1.0, Y[0, 1:]])
    return np.sum(np.concatenate([r[None], Y[1:]]) ** 2)


def listed(x):
    y = x * 1.0
    w = x * 2.0
    for a in [y, w]:
        a *= 2.0
    return np.sum(y * w)


def in_a_dict(x):
    y = x * 1.0
    d = {"a": y}
    v = d["a"]
    v += 1.0
    return np.sum(y * y)


def appended(x):
    y = x * 1.0
    items = []
    items.append(y)
    v = items[0]
    v *= 2.0
    return np.sum(y * y)


def global_array(x):
    z = G
    z += x
    return np.sum(z * x)


def helper_result_kept_with_argument(x):
    y = x * 1.0
    z = identity(y)
    z *= 2.0
    return np.sum(y * z)


def helper_recursive_change(x):
    y = x * 1.0
    z = grow(y, 2)
    return np.sum(z * y)


def checkpointed_helper_changes_its_argument(x, w):
    y = x * 1.0
    z = checkpointed_cell(y, w)  # recomputed later from y, which the first call changed
    return np.sum(z)


def arguments_passed_twice(x, w):
    x += 1.0
    return np.sum(x * w)


def out_into_a_global(x):
    np.multiply(x, 2.0, out=G)
    return np.sum(x)


def write_then_read_alias(x):
    y = x * 1.0
    w = y[0:2]
    y[0] = 5.0 * x[1]
    return np.sum(w * w)


def write_then_read_alias_oop(x):
    y = x * 1.0
    w = np.concatenate([5.0 * x[1:2], y[1:2]])
    return np.sum(w * w)


def out_with_where(x):
    y = np.zeros(4)
    np.multiply(x, x, out=y, where=x > 0)
    return np.sum(y)


def out_into_an_element(x):
    y = np.zeros((2, 4))
    np.multiply(x, x, out=y[0])
    return np.sum(y)


def out_two_outputs(x):
    a, b = np.zeros(4), np.zeros(4)
    np.divmod(x, 0.5, out=(a, b))
    return np.sum(a + b)


def alias_after_an_update_out_of_place(x, y):
    """`y -= y` no other name shares becomes y = y - y; the facts after it follow that
    new array (they named y's old array, np.where's, as z1's: a wrong value, 0)."""
    y = np.where(y, y, 0.001)
    y -= y
    z1 = y
    z1 += x
    return np.sum(y * y) + np.sum(z1)


def alias_after_an_update_out_of_place_oop(x, y):
    y = np.where(y, y, 0.001)
    y = y - y + x
    return np.sum(y * y) + np.sum(y)


def rebound_alias_after_an_update_out_of_place(x):
    a = x * 2.0
    b = a
    b *= x
    c = b
    c += 1.0
    return np.sum(a * c)


def rebound_alias_after_an_update_out_of_place_oop(x):
    a = x * 2.0 * x + 1.0
    return np.sum(a * a)


def _vec():
    return (_r(0).randn(4),)


def _vec_w():
    return (_r(0).randn(4), _r(1).randn(4))


def _mat():
    return (_r(2).randn(2, 2),)


def _mat_w():
    return (_r(2).randn(3, 2), _r(3).randn(2, 2))


def _numbers():
    return (0.7, -1.3)


CASES = [
    (fresh_chain, _vec_w, (0, 1), fresh_chain_oop),
    (matmul_update, _mat_w, (0, 1), matmul_update_oop),
    (floor_update, _vec, (0,), None),  # autograd has no //
    (number_chain, _numbers, (0, 1), number_chain_oop),
    (accumulate, _vec, (0,), accumulate_oop),
    (accumulate_from_first, _vec, (0,), accumulate_from_first_oop),
    (number_alias, _numbers, (0, 1), number_alias_oop),
    (global_number, _vec, (0,), global_number_oop),
    (items_of_a_vector, _vec, (0,), items_of_a_vector_oop),
    (argument_itself, _vec, (0,), argument_itself_oop),
    (alias_not_read_again, _vec, (0,), alias_not_read_again_oop),
    (view_of_argument_not_read_again, _vec, (0,), view_of_argument_not_read_again_oop),
    (copy_by_fancy_index, _vec, (0,), copy_by_fancy_index_oop),
    (copy_by_mask, _vec, (0,), copy_by_mask_oop),
    (copy_kept, _vec, (0,), copy_kept_oop),
    (slice_view, _vec, (0,), slice_view_oop),
    (slice_view_read_again, _vec, (0,), slice_view_read_again_oop),
    (column_view, _mat, (0,), column_view_oop),
    (rows_in_a_loop, _mat, (0,), rows_in_a_loop_oop),
    (view_in_branches, lambda: (np.abs(_r(0).randn(4)),), (0,), view_in_branches_oop),
    (view_in_branches, lambda: (-np.abs(_r(0).randn(4)),), (0,), view_in_branches_oop),
    (view_in_while, _vec, (0,), None),
    (view_made_before_loop, _vec, (0,), None),
    (view_ops, _vec_w, (0, 1), None),
    (view_matmul, lambda: (_r(2).randn(3, 2), _r(3).randn(2, 2)), (0, 1), None),
    (view_floor, _vec, (0,), None),
    (write_after_view_read, _vec, (0,), None),
    (view_read_before_and_after, _vec, (0,), None),
    (rows_updated_from_a_running_sum, lambda: (_r(1).randn(3, 2) * 0.5,), (0,), None),
    (columns_in_nested_loops, lambda: (_r(1).randn(3, 2),), (0,), None),
    (checkpointed_view, lambda: (_r(0).randn(4), 5), (0,), None),
    (out_multiply, _vec, (0,), out_multiply_oop),
    (out_into_an_input, _vec, (0,), out_into_an_input_oop),
    (out_positional, _vec, (0,), out_into_an_input_oop),
    (out_clip, _vec, (0,), out_clip_oop),
    (out_value_used, _vec, (0,), out_value_used_oop),
    (out_matmul, _mat, (0,), out_matmul_oop),
    (out_dot, _mat, (0,), out_dot_oop),
    (out_sum, _mat, (0,), out_sum_oop),
    (out_cumsum, _vec, (0,), out_cumsum_oop),
    (out_tuple, _vec, (0,), out_tuple_oop),
    (out_none, _vec, (0,), out_none_oop),
    (out_method, _vec, (0,), out_method_oop),
    (out_in_a_loop, _vec, (0,), out_in_a_loop_oop),
    (helper_result_rebinds, _vec, (0,), helper_result_rebinds_oop),
    (helper_on_a_temporary, _vec, (0,), helper_on_a_temporary_oop),
    (helper_on_its_copy, _vec, (0,), helper_on_its_copy_oop),
    (helper_nested_result, _vec, (0,), helper_nested_result_oop),
    (helper_returning_a_number, lambda: (0.7,), (0,), helper_returning_a_number_oop),
    (closure_on_its_copy, _vec, (0,), closure_on_its_copy_oop),
    (alias_read_again, _vec, (0,), plus_one_oop),
    (reshaped, _vec, (0,), plus_one_oop),
    (raveled, _mat, (0,), doubled_oop),
    (transposed, _mat, (0,), doubled_oop),
    (two_views, _vec, (0,), two_views_oop),
    (in_a_loop_alias, _vec, (0,), in_a_loop_alias_oop),
    (closure_changes_the_argument, _vec, (0,), plus_one_oop),
    (
        views_of_one_base,
        lambda: (_r(2).randn(3, 2), _r(3).randn(2, 3)),
        (0, 1),
        views_of_one_base_oop,
    ),
    (view_of_the_updated_view, _vec, (0,), view_of_the_updated_view_oop),
    (reshape_that_copies, lambda: (_r(2).randn(3, 2),), (0,), reshape_that_copies_oop),
    (transpose_in_branches, lambda: (np.abs(_r(2).randn(3, 2)),), (0,), transpose_in_branches_oop),
    (transpose_in_branches, lambda: (-np.abs(_r(2).randn(3, 2)),), (0,), None),
    (alias_in_a_checkpointed_loop, lambda: (_r(0).randn(4), 5), (0,), None),
    (alias_of_an_alias, _vec, (0,), alias_of_an_alias_oop),
    (number_alias_of_an_item, _vec, (0,), number_alias_of_an_item_oop),
    (number_transposed, lambda: (0.7,), (0,), number_transposed_oop),
    (view_of_argument, _vec, (0,), view_of_argument_oop),
    (argument_alias, _vec, (0,), argument_alias_oop),
    (out_into_argument, _vec, (0,), out_into_argument_oop),
    (out_into_a_view, _vec, (0,), out_into_a_view_oop),
    (write_into_view_of_argument, _vec, (0,), write_into_view_of_argument_oop),
    (write_into_argument, _vec_w, (0, 1), write_into_argument_oop),
    (argument_rows_in_a_loop, lambda: (_r(1).randn(3, 2),), (0,), argument_rows_in_a_loop_oop),
    (
        argument_transposed,
        lambda: (_r(1).randn(3, 2), _r(2).randn(3)),
        (0, 1),
        argument_transposed_oop,
    ),
    (
        argument_written_in_a_branch,
        lambda: (np.abs(_r(0).randn(4)),),
        (0,),
        argument_written_in_a_branch_oop,
    ),
    (
        argument_written_in_a_branch,
        lambda: (-np.abs(_r(0).randn(4)),),
        (0,),
        argument_written_in_a_branch_oop,
    ),
    (argument_rebound_after_a_write, _vec, (0,), argument_rebound_after_a_write_oop),
    (argument_number_updated, lambda: (0.7, _r(0).randn(4)), (0, 1), argument_number_updated_oop),
    (argument_in_a_checkpointed_loop, lambda: (_r(0).randn(4), 5), (0,), None),
    (argument_and_early_returns, _vec_w, (0, 1), argument_and_early_returns_oop),
    (
        row_and_element_updated,
        lambda: (0.7, _r(1).randn(3, 4)),
        (0, 1),
        row_and_element_updated_oop,
    ),
    (
        element_of_a_row_read_later,
        lambda: (0.7, _r(1).randn(3, 4)),
        (0, 1),
        element_of_a_row_read_later_oop,
    ),
    (
        argument_and_early_returns,
        lambda: (_r(0).randn(4), -np.abs(_r(1).randn(4)) - 2.0),
        (0, 1),
        argument_and_early_returns_oop,
    ),
]

CASES += [  # updates through views of views and aliases of views (the root read later)
    (rows_of_a_matrix, _mat, (0,), rows_of_a_matrix_oop),
    (view_of_a_row, _mat, (0,), view_of_a_row_oop),
    (write_then_read_alias, _vec, (0,), write_then_read_alias_oop),
    *in_place_chains.CASES,
    *in_place_calls.CASES,
    *in_place_paths.CASES,
    *in_place_helpers.CASES,  # helpers that change a parameter: inlined
    *in_place_unseen.CASES,
    *in_place_kept_views.CASES,  # views kept across their base's update; np.r_
    *in_place_loop_rows.CASES,  # rows of a loop that can end early, updated
    *in_place_loops.CASES,  # aliases and views updated in loops
    *helper_summaries.CASES,  # tuples returned, unused results, many calls, early ends
    *in_place_maybe_arrays.CASES,  # slices and reshapes of what may be no array
    *in_place_one_path.CASES,  # an argument's own copy rebound on one path
    *in_place_keyed.CASES,  # held by a list or dict at a key never read
    (
        alias_after_an_update_out_of_place,
        lambda: (1.5, _r(0).randn(4)),
        (0, 1),
        alias_after_an_update_out_of_place_oop,
    ),
    (
        rebound_alias_after_an_update_out_of_place,
        _vec,
        (0,),
        rebound_alias_after_an_update_out_of_place_oop,
    ),
]

# (function, arguments, error: "build" (located, when the gradient is built) or "run"
# (raised by the generated code once the value is an array), words of the message)
REFUSED = [
    (listed, _vec, "run", ["`a *= 2.0`", "'w' and 'y'"]),
    (in_a_dict, _vec, "run", ["`v += 1.0`", "'y'", 'd["a"]']),
    (appended, _vec, "run", ["`v *= 2.0`", "'y'"]),
    (global_array, _vec, "run", ["`z += x`", "the global 'G'"]),
    (helper_result_kept_with_argument, _vec, "run", ["`z *= 2.0`", "'y'", "identity(y)"]),
    (helper_recursive_change, _vec, "run", ["grow(y)", "`v *= 1.5`"]),
    (checkpointed_helper_changes_its_argument, _vec_w, "run", ["checkpointed_cell(y)", "v *="]),
    (out_into_a_global, _vec, "build", ["the global 'G'"]),
    (out_with_where, _vec, "build", ["where="]),
    (out_into_an_element, _vec, "build", ["but a variable"]),
    (out_two_outputs, _vec, "build", ["several outputs"]),
    *in_place_paths.REFUSED,
    *in_place_unseen.REFUSED,
]
