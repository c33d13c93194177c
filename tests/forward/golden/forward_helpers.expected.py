# The runtime helpers the forward golden cases copy, by name.
import numpy as np


def _describe(v):
    if isinstance(v, dict):
        return f"a dict with keys {', '.join(map(repr, v)) or '(none)'}"
    if isinstance(v, (list, tuple)):
        return f"a {type(v).__name__} of {len(v)}"
    if isinstance(v, (np.ndarray, np.generic)):
        return f"an array of shape {np.shape(v)}"
    return f"a {type(v).__name__}"


def direction(t, j):
    """Direction j of a k-wide tangent (a container: of each of its parts)."""
    if isinstance(t, dict):
        return {key: direction(v, j) for key, v in t.items()}
    if type(t) in (list, tuple):
        return type(t)(direction(v, j) for v in t)
    if t is None:
        return None
    return t[j]


def iterable(x):
    """What a `for` loop over `x` visits, as something indexable: a dict's keys (a list),
    an iterator's items (a list: zip, map, a generator, a set), anything else unchanged."""
    return list(x) if isinstance(x, dict) or not hasattr(x, "__getitem__") else x


def lift(t, like):
    """The k-wide tangent `t` (shape (k,) + s) with axes inserted after the leading one
    so that it broadcasts against values shaped like `like` the way its value does."""
    missing = np.ndim(like) - (np.ndim(t) - 1)
    if missing <= 0:
        return t
    return np.reshape(t, (np.shape(t)[0],) + (1,) * missing + np.shape(t)[1:])


def matmul_left(t, y, result):
    """`t @ y` for the k-wide tangent t of x in `x @ y`, directions first."""
    if np.ndim(t) - 1 >= 2:
        t = lift(t, result)
    return t @ y


def matmul_right(x, t, result):
    """`x @ t` for the k-wide tangent t of y in `x @ y`, directions first."""
    if np.ndim(t) - 1 == 1:  # a vector y: its directions as columns, then moved first
        return np.moveaxis(x @ np.swapaxes(t, 0, -1), -1, 0)
    return x @ lift(t, result)


def output_tangent(t, value, k=None):
    """The tangent of the output `value`: its structure, its shape (after k in vector
    mode), a float dtype; zeros where the code carries none. Another shape is a
    tangentlike bug, never broadcast."""

    def bug(path, problem):
        raise ValueError(
            f"tangentlike: jvp: the tangent of the output{path} {problem}\n"
            "What to do: this is a tangentlike bug; please report it with the function."
        )

    def like(t, x, path):
        if t is None:
            return zero_tangent(x, k)
        if isinstance(x, dict):
            if not isinstance(t, dict):
                bug(path, f"is {_describe(t)}, but the output is a dict")
            return {key: like(t.get(key), v, f"{path}[{key!r}]") for key, v in x.items()}
        if type(x) in (list, tuple):
            if not isinstance(t, (list, tuple)) or len(t) != len(x):
                bug(path, f"is {_describe(t)}, but the output is {_describe(x)}")
            return type(x)(like(t[i], v, f"{path}[{i}]") for i, v in enumerate(x))
        if isinstance(x, (bool, np.bool_)) or not isinstance(
            x, (int, float, np.ndarray, np.generic)
        ):
            return None
        shape = np.shape(x) if k is None else (k, *np.shape(x))
        if np.shape(t) != shape:
            bug(path, f"has shape {np.shape(t)}, but it must have shape {shape}")
        dtype = np.result_type(x)
        if dtype.kind != "f":
            dtype = np.dtype(np.float64)
        if np.result_type(t).kind not in "fiu":
            bug(path, f"has dtype {np.result_type(t)}")
        if k is None and isinstance(x, (int, float)):
            return float(t)
        if k is None and isinstance(x, np.generic):
            return dtype.type(t)
        return np.array(t, dtype=dtype)  # a copy: no two output tangents share memory

    return like(t, value, "")


def put(t, index, v):
    """`y[index] = v` on y's k-wide tangent `t` (a container: its item), in place."""
    if isinstance(t, (dict, list)):
        t[index] = v
        return
    region = t[(slice(None), *index)] if isinstance(index, tuple) else t[:, index]
    if isinstance(v, (int, float)) and v == 0.0:
        v = np.zeros((np.shape(t)[0],))
    v = lift(v, region[0])
    if isinstance(index, tuple):
        t[(slice(None), *index)] = v
    else:
        t[:, index] = v


def shifted_axis(axis, value):
    """`axis` of `value` as an axis of its k-wide tangent (one further along; None: all
    of value's axes, not the directions)."""
    if axis is None:
        return tuple(range(1, np.ndim(value) + 1))
    if isinstance(axis, tuple):
        return tuple(a + 1 if a >= 0 else a for a in axis)
    return axis + 1 if axis >= 0 else axis


def stacked(parts):
    """One k-wide tangent from the tangents of k single directions (containers: part
    by part)."""
    first = parts[0]
    if isinstance(first, dict):
        return {key: stacked([p[key] for p in parts]) for key in first}
    if type(first) in (list, tuple):
        return type(first)(stacked([p[i] for p in parts]) for i in range(len(first)))
    if first is None:
        return None
    return np.stack([np.asarray(p) for p in parts])


def tangent_as(t, value):
    """The tangent `t` shaped like `value`: t itself where the shapes agree, else t
    broadcast to value's shape (read-only, as np.broadcast_to's view). The tangent of a
    broadcasting sum with a constant operand (`np.zeros((4, 4)) + y`) is y's alone,
    smaller than the result: read by index (`M[1]`) it would be the wrong part."""
    if type(t) is np.ndarray and type(value) is np.ndarray and t.shape == value.shape:
        return t  # the common case first
    shape = np.shape(value)
    if np.shape(t) == shape:
        return t
    return np.broadcast_to(t, shape)


def tangent_as_k(t, value):
    """tangent_as in vector mode: the k-wide tangent `t` (directions first) lifted to
    value's rank and broadcast to (k,) + value's shape where it is smaller."""
    shape = (np.shape(t)[0], *np.shape(value))
    if np.shape(t) == shape:
        return t
    return np.broadcast_to(lift(t, value), shape)


def tangent_like(t, x, name, k=None):
    """The caller's tangent `t` for the argument `x` (parameter `name`): x's structure
    (dict, list, tuple, nested), each part x's shape (after a leading axis of length k
    in vector mode) and a real dtype; None is a zero part. Returns it with floats as
    floats and integers as float arrays; anything else is refused, never broadcast."""

    def refuse(path, problem, hint):
        raise ValueError(
            f"tangentlike: jvp: the tangent of {name}{path} {problem}\nWhat to do: {hint}"
        )

    def like(t, x, path):
        if t is None:
            return zero_tangent(x, k)
        if isinstance(x, dict):
            if not isinstance(t, dict) or set(t) != set(x):
                keys = ", ".join(map(repr, x))
                refuse(path, f"is {_describe(t)}", f"pass a dict with the keys {keys}.")
            return {key: like(t[key], v, f"{path}[{key!r}]") for key, v in x.items()}
        if type(x) in (list, tuple):
            if not isinstance(t, (list, tuple)) or len(t) != len(x):
                refuse(
                    path,
                    f"is {_describe(t)}, but the argument is a {type(x).__name__} of {len(x)}",
                    f"pass a {type(x).__name__} of {len(x)} tangents.",
                )
            return type(x)(like(t[i], v, f"{path}[{i}]") for i, v in enumerate(x))
        if isinstance(t, bool) or not isinstance(t, (int, float, np.ndarray, np.generic)):
            refuse(path, f"is {_describe(t)}, not a number or an array", "pass a float array.")
        kind = np.result_type(t).kind
        if kind not in "fiu":
            refuse(path, f"has dtype {np.result_type(t)}", "pass a real float tangent.")
        shape = np.shape(x) if k is None else (k, *np.shape(x))
        if np.shape(t) != shape:
            refuse(
                path,
                f"has shape {np.shape(t)}, but it must have shape {shape}"
                + (" (the argument's)" if k is None else " (k directions, then the argument's)"),
                f"pass a tangent of shape {shape} (no broadcasting).",
            )
        if kind != "f":
            t = np.asarray(t, dtype=np.float64)
        if k is None and isinstance(x, (int, float)) and not isinstance(x, bool):
            return float(t)
        return t

    return like(t, x, "")


def width(*tangents):
    """k, the number of directions: the leading axis of the first array tangent."""
    for t in tangents:
        if isinstance(t, dict):
            t = list(t.values())
        if isinstance(t, (list, tuple)):
            found = width(*t)
            if found is not None:
                return found
        elif isinstance(t, (np.ndarray, np.generic)) and np.ndim(t):
            return np.shape(t)[0]
    return None


def zero_tangent(x, k=None):
    """The zero tangent of `x`: 0.0 for a Python number, float zeros of x's shape for
    an array (with a leading axis of length k in vector mode), the same container of
    zero tangents for a list, tuple or dict, None for what carries no tangent (text,
    None, other objects). A bool is a number (`(x < 0 or 2 * x) * x` multiplies by it):
    its tangent is 0.0."""
    if k is None and type(x) in (float, int, bool, type(None)):
        return None if x is None else 0.0  # the common cases first: numbers, a declaration
    if isinstance(x, dict):
        return {key: zero_tangent(v, k) for key, v in x.items()}
    if type(x) in (list, tuple):
        return type(x)(zero_tangent(v, k) for v in x)
    if not isinstance(x, (int, float, np.ndarray, np.generic)):
        return None
    dtype = np.result_type(x)
    if dtype.kind != "f":
        dtype = np.dtype(np.float64)
    if k is not None:
        return np.zeros((k, *np.shape(x)), dtype=dtype)
    if isinstance(x, (int, float)):
        return 0.0
    if isinstance(x, np.generic):
        return dtype.type(0)
    return np.zeros(np.shape(x), dtype=dtype)
