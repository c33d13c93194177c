"""Programs using lists, tuples and dicts; listed explicitly in CASES.

Arguments may themselves be containers (a dict of parameters, a list of arrays):
tests/transform/test_containers.py compares every gradient with central
differences over each leaf and with autograd.
"""

import numpy as np


def list_literal(x, y):
    p = [x, y * 2.0, np.sin(x)]
    return np.sum(p[0] * p[1]) + np.sum(p[2] * p[-1])


def tuple_literal(x, y):
    t = (x * y, y)
    a = t[0]
    return np.sum(a * t[1]) + np.sum(t[0])


def dict_literal(x, y):
    d = {"a": x, "b": np.exp(y), 3: x * y}
    return np.sum(d["a"] * d["b"]) + np.sum(d[3] ** 2)


def dict_repeated_keys(x, y, key):
    d = {"a": x, "a": y * 2.0, key: x * 3.0}  # noqa: F601 (the repeated key is the test)
    return np.sum(d["a"] * np.sin(d["a"]))


def ragged_tuple(x):
    p = (x, x[:2], np.sum(x))
    return np.sum(p[1] * 3.0) + p[2] * p[0][0]


def computed_index(xs, w):
    total = 0.0
    for i in range(len(xs)):
        total = total + np.sum(np.tanh(xs[i] * w)) * (i + 1.0)
    return total + np.sum(xs[len(xs) - 1])


def computed_key(params, w):
    total = 0.0
    for name in ["b", "a", "b"]:
        total = total + np.sum(params[name] * w)
    return total


def append_stack(x, w):
    hs = []
    h = x
    for t in range(5):
        h = np.tanh(h * w + 0.1 * t)
        hs.append(h)
    H = np.stack(hs)
    return np.sum(H**2) + np.sum(hs[-1])


def append_array_and_sum(x):
    ys = []
    for k in range(4):
        ys.append(np.sin(x * (k + 1.0)))
    return np.sum(np.array(ys) ** 2) + np.sum(sum(ys) * x)


def append_under_if(x):
    kept = []
    for k in range(6):
        v = x * (k - 2.5)
        if np.sum(v) > 0:
            kept.append(np.exp(-v * v))
        else:
            kept.append(v)
    return np.sum(np.stack(kept)) + np.sum(kept[0] * kept[3])


def append_reads_back(x):
    hs = [x]
    for t in range(4):
        h = np.tanh(hs[-1] * 1.5 + hs[0] * 0.1)
        hs.append(h)
    return np.sum(hs[2] * hs[-1]) + float(len(hs))


def extend_lists(x, y):
    out = [x]
    out.extend([y, x * y])
    for k in range(2):
        out.extend([out[-1] * 0.5])
    return np.sum(np.stack(out) ** 2)


def append_floats(a, b):
    vals = []
    for k in range(3):
        vals.append(a * k + b * b)
    return sum(vals) * vals[1]


def list_comprehension(W, b, xs):
    return np.sum(np.stack([np.tanh(W @ x + b) for x in xs]) ** 2)


def generator_sum(vals):
    return sum(np.sum(v**2) for v in vals)


def comprehension_with_condition(x):
    parts = [np.sin(x * k) for k in range(5) if k % 2 == 1]
    return np.sum(np.stack(parts) * 2.0) + float(len(parts))


def nested_comprehension(M, v):
    rows = [[np.sum(M[i] * v) * j for j in range(3)] for i in range(M.shape[0])]
    return sum(sum(r) ** 2 for r in rows)


def dict_comprehension(params):
    doubled = {k: params[k] * 2.0 for k in params}
    return sum(np.sum(doubled[k] ** 2) for k in doubled)


def comprehension_scoping(x):
    k = x * 3.0
    ys = [x * k for k in range(3)]  # this k does not leak
    return np.sum(k * ys[2])


def mlp_params(params, X, y):
    h = np.tanh(X @ params["W1"] + params["b1"])
    out = h @ params["W2"] + params["b2"]
    return np.mean((out - y) ** 2) + 0.01 * np.sum(params["W1"] ** 2)


def nested_params(params, x):
    layers = params["layers"]
    h = x
    for W, b in layers:
        h = np.tanh(h @ W + b)
    return np.sum(h * params["scale"]) + params["extra"]["c"] * np.sum(x)


def dict_items(params, x):
    total = 0.0
    for name, value in params.items():
        total = total + np.sum(value * x)
    for value in params.values():
        total = total + np.sum(value) ** 2
    return total


def list_of_floats(xs, s):
    total = 0.0
    for v in xs:
        total = total + v * v * s
    return total


def tuple_argument(pair):
    a, b = pair
    return np.sum(a * np.sin(b))


def layer(params, h):
    return np.tanh(h @ params["W"] + params["b"])


def calls_with_params(params, x):
    h = layer(params, x)
    return np.sum(h**2)


def concatenate_lists(x):
    xs = [x]
    for k in range(3):
        xs = xs + [np.sin(xs[-1])]  # noqa: RUF005 (concatenation is the construct tested)
    return np.sum(np.stack(xs)) + np.sum(xs[1] * xs[3])


def repeat_list(x, y):
    ys = [x, y] * 3
    zs = 2 * [y]
    return np.sum(ys[0] * ys[5] * ys[2]) + np.sum(zs[1])


def concatenate_arguments(xs, ys):
    both = xs + ys
    return np.sum(both[0] * both[-1]) + np.sum(np.stack(both))


def rows_of_rows(x):
    rows = []
    for i in range(3):
        row = []
        for j in range(2):
            row.append(x * (i + j + 1.0))
        rows.append(np.stack(row))
    return np.sum(np.stack(rows) ** 2)


def pairs_of_slices(xs, w):
    total = 0.0
    for a, b in zip(xs, xs[1:]):
        total = total + np.sum(a * b * w)
    return total


def append_in_while(x):
    hs = []
    h = x
    while np.sum(h * h) > 0.1:
        h = h * 0.5
        hs.append(h)
    return sum(np.sum(v) for v in hs)


def append_argument_items(xs):
    out = []
    for v in xs:
        out.append(v * 2.0)
    out.append(xs[0])
    return np.sum(np.stack(out))


def split_used_twice(x):
    parts = np.split(x, 3)
    return np.sum(np.stack(parts) ** 2) + np.sum(sum(parts) * 2.0) + np.sum(parts[1])


def list_argument_used_whole_twice(xs, w):
    return np.sum(np.stack(xs) ** 2) + np.sum(sum(xs) * w) + np.sum(np.concatenate(xs))


def array_of_list_twice(xs):
    ys = []
    for v in xs:
        ys.append(v * 2.0)
    return np.sum(np.array(xs) ** 2) + np.sum(np.array(xs)) + np.sum(np.array(ys) * ys[0])


def two_loops_over_pairs(pairs, w):
    acc = []
    for a, b in pairs:
        acc.append(a * w + b)
    total = np.sum(np.stack(acc) ** 2)
    for a, b in pairs:
        total = total + np.sum(a * b)
    return total


def scale_all(ps, v):
    out = []
    for p in ps:
        out.append(p * v)
    return out


def list_literal_to_a_helper(x, y):
    ys = scale_all([x, y, x * y], x)
    pair = scale_all((y, 2.0), y)
    return np.sum(np.stack(ys) ** 2) + np.sum(ys[1]) + np.sum(pair[0] * pair[1])


def break_after_appends(x):
    hs = []
    h = x
    for t in range(10):
        h = np.tanh(h * 1.3 + 0.2)
        if np.sum(h) > 1.5:
            break
        hs.append(h)
    return np.sum(np.stack(hs)) + np.sum(h)


def return_inside_growing_loop(x):
    hs = [x]
    for t in range(6):
        hs.append(np.sin(hs[-1]) * 1.1)
        if np.sum(hs[-1]) < -0.5:
            return np.sum(hs[-1] * hs[0])
    return np.sum(np.stack(hs))


def rows_as_a_list(X, w):
    rows = list(X)
    rows.append(w * 2.0)
    t = tuple(rows)
    return np.sum(np.stack(rows) ** 2) + np.sum(t[0] * w)


def dict_views_anywhere(params, x):
    total = sum(np.sum(v**2) for v in params.values())
    s = sum(params.values())
    pairs = [(k, v) for k, v in zip(params.keys(), params.values())]
    for k, v in params.items():
        total = total + np.sum(v * x) * len(k)
    return total + np.sum(s * x) + np.sum(pairs[0][1])


def _r(seed):
    return np.random.RandomState(seed)


def _params(seed=0):
    r = _r(seed)
    return {"W1": r.randn(3, 4) * 0.5, "b1": r.randn(4), "W2": r.randn(4, 2), "b2": r.randn(2)}


def _nested(seed=0):
    r = _r(seed)
    return {
        "layers": [(r.randn(3, 3) * 0.5, r.randn(3)), (r.randn(3, 2), r.randn(2))],
        "scale": r.randn(2),
        "extra": {"c": 0.7, "unused": r.randn(2)},
    }


# (function, arguments, positions to differentiate)
CASES = [
    (list_literal, lambda: (_r(0).randn(3), _r(1).randn(3)), (0, 1)),
    (list_literal, lambda: (_r(0).randn(2, 3), _r(1).randn(3)), (0, 1)),
    (tuple_literal, lambda: (_r(0).randn(4), _r(1).randn(4)), (0, 1)),
    (dict_literal, lambda: (_r(0).randn(3), _r(1).randn(3)), (0, 1)),
    (dict_literal, lambda: (0.3, -1.2), (0, 1)),
    (dict_repeated_keys, lambda: (_r(0).randn(3), _r(1).randn(3), "b"), (0, 1)),
    (dict_repeated_keys, lambda: (_r(0).randn(3), _r(1).randn(3), "a"), (0, 1)),
    (ragged_tuple, lambda: (_r(0).randn(4),), (0,)),
    (computed_index, lambda: ([_r(0).randn(3), _r(1).randn(2), _r(2).randn(3)], 0.7), (0, 1)),
    (computed_index, lambda: (_r(0).randn(4, 3), _r(1).randn(3)), (0, 1)),
    (computed_key, lambda: ({"a": _r(0).randn(3), "b": _r(1).randn(3)}, _r(2).randn(3)), (0, 1)),
    (append_stack, lambda: (_r(0).randn(3), _r(1).randn(3)), (0, 1)),
    (append_stack, lambda: (_r(0).randn(2, 3), 0.8), (0, 1)),
    (append_array_and_sum, lambda: (_r(0).randn(3),), (0,)),
    (append_under_if, lambda: (_r(0).randn(3) * 0.3,), (0,)),
    (append_reads_back, lambda: (_r(0).randn(3),), (0,)),
    (extend_lists, lambda: (_r(0).randn(3), _r(1).randn(3)), (0, 1)),
    (append_floats, lambda: (0.4, -1.3), (0, 1)),
    (list_comprehension, lambda: (_r(0).randn(4, 3), _r(1).randn(4), _r(2).randn(5, 3)), (0, 1, 2)),
    (
        list_comprehension,
        lambda: (_r(0).randn(2, 3), _r(1).randn(2), [_r(2).randn(3), _r(3).randn(3)]),
        (0, 1, 2),
    ),
    (generator_sum, lambda: ([_r(0).randn(3), _r(1).randn(2, 2), 0.5],), (0,)),
    (comprehension_with_condition, lambda: (_r(0).randn(3),), (0,)),
    (nested_comprehension, lambda: (_r(0).randn(3, 4), _r(1).randn(4)), (0, 1)),
    (dict_comprehension, lambda: (_params(),), (0,)),
    (comprehension_scoping, lambda: (_r(0).randn(3),), (0,)),
    (mlp_params, lambda: (_params(), _r(5).randn(6, 3), _r(6).randn(6, 2)), (0, 1)),
    (nested_params, lambda: (_nested(), _r(5).randn(3)), (0, 1)),
    (dict_items, lambda: ({"a": _r(0).randn(3), "b": _r(1).randn(3)}, _r(2).randn(3)), (0, 1)),
    (list_of_floats, lambda: ([0.5, -1.5, 2.0], 0.3), (0, 1)),
    (tuple_argument, lambda: ((_r(0).randn(3), _r(1).randn(3)),), (0,)),
    (split_used_twice, lambda: (_r(0).randn(6),), (0,)),
    (split_used_twice, lambda: (_r(0).randn(3, 2),), (0,)),
    (
        list_argument_used_whole_twice,
        lambda: ([_r(0).randn(3), _r(1).randn(3)], _r(2).randn(3)),
        (0, 1),
    ),
    (list_argument_used_whole_twice, lambda: (_r(0).randn(2, 3), _r(2).randn(3)), (0, 1)),
    (array_of_list_twice, lambda: ([_r(0).randn(3), _r(1).randn(3)],), (0,)),
    (array_of_list_twice, lambda: ([0.5, -1.5, 2.0],), (0,)),
    (
        two_loops_over_pairs,
        lambda: ([(_r(k).randn(3), _r(k + 9).randn(3)) for k in range(3)], _r(5).randn(3)),
        (0, 1),
    ),
    (two_loops_over_pairs, lambda: (_r(0).randn(4, 2, 3), _r(5).randn(3)), (0, 1)),
    (list_literal_to_a_helper, lambda: (_r(0).randn(3), _r(1).randn(3)), (0, 1)),
    (break_after_appends, lambda: (_r(0).randn(3) * 0.01,), (0,)),
    (return_inside_growing_loop, lambda: (_r(0).randn(3),), (0,)),
    (return_inside_growing_loop, lambda: (-np.ones(3),), (0,)),
    (rows_as_a_list, lambda: (_r(0).randn(3, 2), _r(1).randn(2)), (0, 1)),
    (rows_as_a_list, lambda: ([_r(0).randn(2), _r(2).randn(2)], _r(1).randn(2)), (0, 1)),
    (
        dict_views_anywhere,
        lambda: ({"a": _r(0).randn(3), "bb": _r(1).randn(3)}, _r(2).randn(3)),
        (0, 1),
    ),
    (concatenate_lists, lambda: (_r(0).randn(3),), (0,)),
    (repeat_list, lambda: (_r(0).randn(3), _r(1).randn(3)), (0, 1)),
    (concatenate_arguments, lambda: ([_r(0).randn(2)], [_r(1).randn(2), _r(2).randn(2)]), (0, 1)),
    (rows_of_rows, lambda: (_r(0).randn(3),), (0,)),
    (
        pairs_of_slices,
        lambda: ([_r(0).randn(3), _r(1).randn(3), _r(2).randn(3)], _r(3).randn(3)),
        (0, 1),
    ),
    (pairs_of_slices, lambda: (_r(0).randn(4, 3), _r(3).randn(3)), (0, 1)),
    (append_in_while, lambda: (_r(0).randn(3),), (0,)),
    (append_argument_items, lambda: (_r(0).randn(3, 2),), (0,)),
    (
        calls_with_params,
        lambda: ({"W": _r(0).randn(3, 2), "b": _r(1).randn(2)}, _r(2).randn(3)),
        (0, 1),
    ),
]


# Helpers for tests/properties/test_random_containers.py (called from generated programs).
def pair_and_dict(a, b):
    return (a * b, {"s": np.sum(a), "t": b})


def squares_of_values(d):
    return sum(np.sum(d[k] ** 2) for k in d)
