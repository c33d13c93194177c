"""Plain functions to differentiate, one per construct; listed explicitly in CASES."""

import numpy as np

from corpus import helpers
from corpus.helpers import softplus

THRESHOLD = 0.25


def straight(x, y):
    z = x * y + np.sin(x) / (1.0 + y * y)
    return np.sum(z * z - x)


def broadcast(a, b):
    return np.sum(np.exp(a * b) - a / (b * b + 1.0))


def augmented(x, y):
    z = x * 1.0
    z *= y
    z += x**2
    z -= 0.5 * y
    z /= 2.0
    z **= 2
    return np.sum(z)


def swap(x, y):
    a, b = x, y
    for _ in range(3):
        a, b = b * 1.1, a + b
    return np.sum(a * b)


def unpack_pair(x):
    u, v = (x, x * 2.0)
    (a, b), c = (v, u), u
    return np.sum(a * b * c)


def branches(x, y):
    if np.sum(x) > 0:
        z = x * y
        z = z + 1.0
    elif np.sum(y) > 0:
        z = np.exp(x)
    else:
        z = y - x
    return np.sum(z * x)


def branch_no_else(x, k):
    z = x * 2.0
    if k > 1:
        z = np.sin(z)
    return np.sum(z)


def ternary(x):
    s = np.sum(x)
    y = x * 2.0 if s > THRESHOLD else x * x
    return np.sum(y)


def boolean_condition(x, y):
    z = x
    if (np.sum(x) > 0 and np.sum(y) > 0) or np.max(x) > 2.0:
        z = x * y
    return np.sum(z)


def static_loop(w, h):
    for _ in range(6):
        h = np.tanh(h * w + 0.1)
    return np.sum(h)


def dynamic_loop(x, n):
    acc = x * 0.0
    for i in range(1, n, 2):
        acc = acc + np.cos(x * i)
    return np.sum(acc)


def loop_over_rows(X, w):
    total = 0.0
    for row in X:
        total = total + np.sum(row * w) ** 2
    return total


def loop_with_branch(x):
    y = x
    for i in range(5):
        if i % 2 == 0:
            y = y * x
        else:
            y = np.sin(y)
    return np.sum(y)


def branch_in_loop_on_data(x):
    y = x * 1.0
    for _ in range(4):
        if np.sum(y) > 0.5:
            y = y * 0.5
        else:
            y = y + 0.3
    return np.sum(y * y)


def nested_loops(x, n):
    acc = 0.0
    for i in range(n):
        for j in range(i):
            acc = acc + x[j] * x[i]
    return acc


def while_loop(x):
    s = x * 1.0
    steps = 0
    while np.sum(s * s) < 50.0 and steps < 100:
        s = s * 1.3 + 0.1
        steps = steps + 1
    return np.sum(s)


def while_in_loop(x):
    total = 0.0
    for k in range(3):
        s = x * (k + 1.0)
        while np.max(np.abs(s)) > 0.5:
            s = s * 0.5
        total = total + np.sum(s * s)
    return total


def calls_helpers(x, W, b):
    h = helpers.layer(W, b, x)
    h = softplus(h)
    return np.sum(h)


def calls_in_loop(x, W, b):
    h = x
    for _ in range(3):
        h = helpers.layer(W, b, h)
    return np.sum(h * h)


def calls_with_loops_inside(x, k):
    y = helpers.scaled(x, k)
    z = helpers.scaled(y, 0.5)
    return np.sum(y * z)


def local_helper(v, scale):
    return np.exp(-v * v) * scale


def calls_with_keywords(x, s):
    y = local_helper(scale=s, v=x)
    return np.sum(y)


def recursive_power(x, depth):
    if depth == 0:
        r = x
    else:
        r = x * recursive_power(x, depth - 1)
    return r


def uses_recursion(x):
    return np.sum(recursive_power(x, 3))


def scalar_function(a, b):
    c = a * b + a**2
    if c > 1.0:
        c = c - b
    return c * c


def matrix_chain(A, B, x):
    y = A @ (B @ x)
    return np.sum(np.tanh(y) ** 2)


def shapes_and_constants(x):
    n = x.shape[0]
    m = np.zeros_like(x)
    mask = x > 0
    y = np.where(mask, x, m) / n
    return np.sum(y * y) + float(len(x))


def reductions(x):
    a = np.sum(x, axis=0)
    b = np.mean(x, axis=1, keepdims=True)
    c = np.max(x, axis=1)
    return np.sum(a * a) + np.sum(x * b) + np.sum(c)


def mlp(W1, W2, X, y):
    H = np.maximum(X @ W1, 0.0)
    logits = H @ W2
    shifted = logits - np.max(logits, axis=1, keepdims=True)
    logp = shifted - np.log(np.sum(np.exp(shifted), axis=1, keepdims=True))
    return -np.sum(y * logp) / X.shape[0] + 0.01 * (np.sum(W1 * W1) + np.sum(W2 * W2))


def over_list(x, y):
    total = 0.0
    for a in [x, y, x * 2.0]:
        total = total + np.sum(np.sin(a))
    return total


def pack_and_index(x, y):
    p = (x, y)
    u = p[1]
    return np.sum(u * p[0])


def split_pair(x):
    a, b = np.split(x, 2)
    return np.sum(a * b)


def two_results(x, y):
    return x * y, np.sin(x)


def unpacks_a_helper(x, y):
    p, q = two_results(x, y)
    return np.sum(p * q)


def while_helper(a, b, scale=1.0):
    s = a * 0.0
    k = 0
    while k < 3:
        s = s + np.sin(a * b) * scale
        k = k + 1
    return s


def callee_activity_variants(x, y):
    p = while_helper(x, y)  # both active
    q = while_helper(x, 2.0)  # only a
    r = while_helper(1.5, y, 0.5)  # only b
    t = 0.0
    for i in range(2):
        t = t + np.sum(while_helper(p, q)) * i
    return np.sum(p * q * r) + t


def chained_comparison(x):
    s = np.sum(x)
    if -1.0 < s < 1.0:
        y = x * 3.0
    else:
        y = x * x
    k = int(np.sum(np.abs(x)))
    return np.sum(y) * k + float(x.shape[0])


def nested_while(x):
    total = 0.0
    for j in range(3):
        y = x * (j + 1.0)
        n = 0
        while np.sum(y * y) > 0.01 and n < 50:
            y = y * 0.5
            n = n + 1
        total = total + np.sum(np.sin(y))
    return total


def damped_power(x, n):
    if n <= 1:
        r = x
    else:
        r = x * damped_power(x * 0.9, n - 1)
    return r


def recursion_in_loop(x):
    acc = 0.0
    for i in range(3):
        acc = acc + np.sum(damped_power(x, i + 1))
    return acc


def early_return(x):
    s = np.sum(x)
    if s > 0:
        return s * s
    y = np.sin(x)
    return np.sum(y)


def loop_break(x, w):
    h = x
    for i in range(10):
        h = np.tanh(h * w)
        if np.sum(h * h) < 0.05:
            break
        h = h + 0.1
    return np.sum(h)


def loop_continue(x):
    acc = 0.0
    for i in range(5):
        if i % 2 == 0:
            continue
        acc = acc + np.sum(np.sin(x * i))
    return acc


def ret_in_loop(x):
    h = x
    for i in range(6):
        h = h * 1.5
        if np.max(h) > 3.0:
            return np.sum(h * h)
    return np.sum(h)


def nested_break_continue(x):
    total = 0.0
    for i in range(4):
        for j in range(4):
            if j > i:
                break
            if (i + j) % 3 == 0:
                continue
            total = total + np.sum(x * (i - j + 0.5)) ** 2
    return total


def while_break(x):
    y = x
    n = 0
    while True:
        y = y * 0.7 + 0.05
        n = n + 1
        if np.sum(np.abs(y)) < 0.5 or n > 30:
            break
    return np.sum(y * y)


def returns_in_branches(x, k):
    if k == 0:
        return np.sum(x)
    elif k == 1:
        return np.sum(x * x)
    else:
        return np.sum(np.exp(x))


def with_enumerate(X, w):
    total = 0.0
    for i, row in enumerate(X):
        total = total + np.sum(row * w) * (i + 1.0)
    return total


def with_zip(xs, ys, w):
    total = 0.0
    for a, b in zip(xs, ys):
        total = total + np.sum(np.sin(a * w) * b)
    return total


def with_reversed(X, w):
    h = w
    for row in reversed(X):
        h = np.tanh(h * row)
    return np.sum(h)


def zip_pairs(xs, w):
    total = 0.0
    for pair in zip(xs, xs[1:]):
        total = total + np.sum(pair[0] * pair[1] * w)
    return total


def enumerate_start(X, w):
    total = 0.0
    for k, row in enumerate(X, 2):
        if k > 3:
            break
        total = total + np.sum(row * w) * k
    return total


def for_else(x, limit):
    h = x * 1.0
    for i in range(4):
        h = h * 1.5
        if np.sum(h * h) > limit:
            break
    else:
        h = np.sin(h)
    return np.sum(h)


def while_else_in_loop(x):
    total = 0.0
    for k in range(3):
        y = x * (k + 1.0)
        while np.max(np.abs(y)) > 1.0:
            y = y * 0.5
            if np.sum(y) < -5.0:
                break
        else:
            total = total + 1.0
            continue
        total = total + np.sum(y * y)
    return total + np.sum(x)


def attention_pool(W, X):
    keys = [np.tanh(W @ x) for x in X]
    scores = np.array([np.sum(k * keys[-1]) for k in keys])
    weights = np.exp(scores - np.max(scores))
    weights = weights / np.sum(weights)
    pooled = sum(w * k for w, k in zip(weights, keys))
    return np.sum(pooled**2)


def smoothed_path(x, w):
    path = [x]
    for t in range(6):
        step = np.tanh(path[-1] * w)
        if t % 2 == 0:
            path.append(step)
        else:
            path.extend([step * 0.5, step])
    stats = {"last": path[-1], "mean": sum(path) / len(path)}
    return np.sum(stats["last"] * stats["mean"]) + np.sum(np.array(path[1:]) ** 2)


def _r(seed):
    return np.random.RandomState(seed)


def onehot(n, k, seed):
    y = np.zeros((n, k))
    y[np.arange(n), _r(seed).randint(0, k, n)] = 1.0
    return y


# (function, arguments, positions to differentiate)
CASES = [
    (straight, lambda: (_r(0).randn(4), _r(1).randn(4)), (0, 1)),
    (broadcast, lambda: (_r(0).randn(3, 1), _r(1).randn(1, 4)), (0, 1)),
    (augmented, lambda: (_r(0).randn(3), _r(1).randn(3)), (0, 1)),
    (swap, lambda: (_r(0).randn(3), _r(1).randn(3)), (0, 1)),
    (unpack_pair, lambda: (_r(0).randn(3),), (0,)),
    (branches, lambda: (np.abs(_r(0).randn(3)), _r(1).randn(3)), (0, 1)),
    (branches, lambda: (-np.abs(_r(0).randn(3)), np.abs(_r(1).randn(3))), (0, 1)),
    (branches, lambda: (-np.abs(_r(0).randn(3)), -np.abs(_r(1).randn(3))), (0, 1)),
    (branch_no_else, lambda: (_r(0).randn(3), 2), (0,)),
    (branch_no_else, lambda: (_r(0).randn(3), 0), (0,)),
    (ternary, lambda: (np.abs(_r(0).randn(3)),), (0,)),
    (ternary, lambda: (-np.abs(_r(0).randn(3)),), (0,)),
    (boolean_condition, lambda: (np.abs(_r(0).randn(3)), np.abs(_r(1).randn(3))), (0, 1)),
    (boolean_condition, lambda: (-np.abs(_r(0).randn(3)), _r(1).randn(3)), (0, 1)),
    (static_loop, lambda: (_r(0).randn(3), _r(1).randn(3)), (0, 1)),
    (dynamic_loop, lambda: (_r(0).randn(3), 7), (0,)),
    (loop_over_rows, lambda: (_r(0).randn(4, 3), _r(1).randn(3)), (0, 1)),
    (loop_with_branch, lambda: (_r(0).randn(3),), (0,)),
    (branch_in_loop_on_data, lambda: (_r(0).randn(3),), (0,)),
    (nested_loops, lambda: (_r(0).randn(5), 5), (0,)),
    (while_loop, lambda: (_r(0).rand(3) + 0.1,), (0,)),
    (while_in_loop, lambda: (_r(0).randn(3) * 2.0,), (0,)),
    (over_list, lambda: (_r(0).randn(3), _r(1).randn(3)), (0, 1)),
    (pack_and_index, lambda: (_r(0).randn(3), _r(1).randn(3)), (0, 1)),
    (split_pair, lambda: (_r(0).randn(4),), (0,)),
    (unpacks_a_helper, lambda: (_r(0).randn(3), _r(1).randn(3)), (0, 1)),
    (callee_activity_variants, lambda: (_r(0).randn(3) * 0.5, _r(1).randn(3) * 0.5), (0, 1)),
    (chained_comparison, lambda: (_r(0).randn(3) * 0.2,), (0,)),
    (chained_comparison, lambda: (_r(0).randn(3) * 3.0,), (0,)),
    (nested_while, lambda: (_r(0).randn(3),), (0,)),
    (recursion_in_loop, lambda: (_r(0).randn(3),), (0,)),
    (early_return, lambda: (np.abs(_r(0).randn(3)),), (0,)),
    (early_return, lambda: (-np.abs(_r(0).randn(3)),), (0,)),
    (loop_break, lambda: (_r(0).randn(3), _r(1).randn(3)), (0, 1)),
    (loop_continue, lambda: (_r(0).randn(3),), (0,)),
    (ret_in_loop, lambda: (_r(0).randn(3),), (0,)),
    (ret_in_loop, lambda: (_r(0).randn(3) * 0.01,), (0,)),
    (nested_break_continue, lambda: (_r(0).randn(3),), (0,)),
    (while_break, lambda: (_r(0).randn(3),), (0,)),
    (returns_in_branches, lambda: (_r(0).randn(3), 0), (0,)),
    (returns_in_branches, lambda: (_r(0).randn(3), 2), (0,)),
    (with_enumerate, lambda: (_r(0).randn(4, 3), _r(1).randn(3)), (0, 1)),
    (with_zip, lambda: (_r(0).randn(4, 3), _r(1).randn(4, 3), _r(2).randn(3)), (0, 1, 2)),
    (with_reversed, lambda: (_r(0).randn(4, 3), _r(1).randn(3)), (0, 1)),
    (zip_pairs, lambda: (_r(0).randn(4, 3), _r(1).randn(3)), (0, 1)),
    (enumerate_start, lambda: (_r(0).randn(4, 3), _r(1).randn(3)), (0, 1)),
    (for_else, lambda: (_r(0).randn(3), 1e6), (0,)),
    (for_else, lambda: (_r(0).randn(3), 1.0), (0,)),
    (while_else_in_loop, lambda: (_r(0).randn(3) * 2.0,), (0,)),
    (calls_helpers, lambda: (_r(0).randn(2, 3), _r(1).randn(3, 4), _r(2).randn(4)), (0, 1, 2)),
    (calls_in_loop, lambda: (_r(0).randn(2, 3), _r(1).randn(3, 3), _r(2).randn(3)), (0, 1, 2)),
    (calls_with_loops_inside, lambda: (_r(0).randn(3), 0.7), (0, 1)),
    (calls_with_keywords, lambda: (_r(0).randn(3), 1.5), (0, 1)),
    (uses_recursion, lambda: (_r(0).randn(3),), (0,)),
    (scalar_function, lambda: (1.2, 0.3), (0, 1)),
    (scalar_function, lambda: (0.2, 0.3), (0, 1)),
    (matrix_chain, lambda: (_r(0).randn(3, 4), _r(1).randn(4, 2), _r(2).randn(2)), (0, 1, 2)),
    (shapes_and_constants, lambda: (_r(0).randn(5),), (0,)),
    (reductions, lambda: (_r(0).randn(3, 4),), (0,)),
    (attention_pool, lambda: (_r(0).randn(3, 4) * 0.5, _r(1).randn(5, 4)), (0, 1)),
    (smoothed_path, lambda: (_r(0).randn(3), _r(1).randn(3)), (0, 1)),
    (
        mlp,
        lambda: (
            _r(0).randn(6, 5) * 0.3,
            _r(1).randn(5, 3) * 0.3,
            _r(2).randn(8, 6),
            onehot(8, 3, 3),
        ),
        (0, 1),
    ),
]
