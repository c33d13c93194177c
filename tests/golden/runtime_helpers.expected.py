# The runtime helpers the golden cases' generated modules copy, by name.
import numpy as np


class BinomialPlan(Plan):
    """Revolve-style offline binomial checkpointing (Griewank and Walther).

    Keeps at most `snapshots` states (the initial one included) and recomputes
    the fewest forward steps any schedule with that many snapshots can: with
    r the smallest integer such that C(snapshots + r, snapshots) >= steps,
    r * steps - C(snapshots + r, snapshots + 1) advances in all (counting the
    forward sweep's), see `BinomialPlan.fewest_advances`.
    """

    def __init__(self, steps, snapshots, tape=None):
        super().__init__(steps, tape)
        steps, snapshots = self.steps, int(snapshots)
        if snapshots < 1:
            raise ValueError(f"a checkpointed loop needs snapshots >= 1, not {snapshots}")
        self.snapshots = snapshots
        # The forward sweep walks the right spine of the schedule: from position a with
        # c snapshots it advances m steps, saves, and continues with c - 1 snapshots.
        self.kept = {0} if steps else set()
        self._todo = []  # (a, b, c): reverse steps a..b-1 from the snapshot at a
        a, c = 0, snapshots
        while steps - a > 1 and c > 1:
            m = self.split(steps - a, c)
            self._todo.append((a, a + m, c))  # the left part, reversed last
            self._todo.append((None, a + m, 0))  # then the snapshot at a + m is dropped
            a, c = a + m, c - 1
            self.kept.add(a)
        if steps:
            self._todo.append((a, steps, c))

    def reversal(self):
        """The backward sweep's actions (see the module docstring)."""
        todo = self._todo
        while todo:
            a, b, c = todo.pop()
            if a is None:
                self.drop(b)
                continue
            if b - a == 1:
                yield "restore", a
                yield "record", a
                yield "reverse", a
            elif c == 1:
                for j in range(b - 1, a - 1, -1):
                    yield "restore", a
                    for i in range(a, j):
                        self.advances += 1
                        yield "advance", i
                    yield "record", j
                    yield "reverse", j
            else:
                m = self.split(b - a, c)
                yield "restore", a
                for i in range(a, a + m):
                    self.advances += 1
                    yield "advance", i
                yield "save", a + m
                todo.append((a, a + m, c))
                todo.append((None, a + m, 0))
                todo.append((a + m, b, c - 1))
        for i in list(self.saved):
            self.drop(i)

    @staticmethod
    def fewest_advances(steps, snapshots):
        """Advances an optimal schedule needs to reverse `steps` steps from a stored start."""
        if steps <= 1:
            return 0
        if snapshots == 1:
            return steps * (steps - 1) // 2
        r, beta = 0, 1  # beta = C(snapshots + r, snapshots)
        while beta < steps:
            r += 1
            beta = beta * (snapshots + r) // r
        return r * steps - beta * r // (snapshots + 1)

    @classmethod
    def split(cls, steps, snapshots):
        """Where to put the next snapshot: the advance count m + cost(right) + cost(left)
        is convex in m, so the first m where it stops falling is optimal."""
        cost = cls.fewest_advances

        def total(m):
            return m + cost(steps - m, snapshots - 1) + cost(m, snapshots)

        lo, hi = 1, steps - 1
        while lo < hi:
            mid = (lo + hi) // 2
            if total(mid + 1) >= total(mid):
                hi = mid
            else:
                lo = mid + 1
        return lo


class Plan:
    """Snapshots of a checkpointed loop's state, by step; what the schedules share."""

    def __init__(self, steps, tape=None):
        self.steps = int(steps)
        self.saved = {}
        self.advances = 0  # steps recomputed by the backward sweep
        self.peak_saved = 0
        self.tape = tape
        if tape is not None:
            tape.plans.append(self)

    def save(self, i, state):
        self.saved[i] = state
        if len(self.saved) > self.peak_saved:
            self.peak_saved = len(self.saved)
        if self.tape is not None:
            self.tape.hold(state)

    def load(self, i):
        return self.saved[i]

    def drop(self, i):
        state = self.saved.pop(i)
        if self.tape is not None:
            self.tape.release(state)


def add(a, b):
    """The sum of two adjoints that may be containers (None is zero).

    Lists add element by element (an array against a list adds along its first
    axis), dicts key by key; anything else adds with `+`, out of place.
    """
    if type(a) is np.ndarray and type(b) is np.ndarray:
        return a + b  # the common case first: two arrays
    if a is None:
        return b
    if b is None:
        return a
    if isinstance(a, dict) or isinstance(b, dict):
        out = dict(a)
        for key, value in b.items():
            out[key] = add(out.get(key), value)
        return out
    if isinstance(a, (list, tuple)) or isinstance(b, (list, tuple)):
        if len(a) != len(b):
            raise ValueError(f"tangentlike: adjoints of lengths {len(a)} and {len(b)} added")
        return [add(x, y) for x, y in zip(a, b)]  # noqa: B905 (lengths checked above)
    return a + b


def add_item(b, x, index, g):
    """`b` plus the adjoint `g` of the read `x[index]`.

    For a list, tuple or dict `x`, `b` is a list or dict of per-element adjoints,
    created on first use and updated in place (each read costs O(1)); for an array
    `x`, a new array (repeated integer indices accumulate); for a range `x`, `b` (an int
    carries no derivative).
    """
    if type(x) is np.ndarray and (type(index) is int or type(index) is slice):
        # the common cases first: an item or a slice of a float array
        if b is None and x.dtype.kind == "f":  # the first adjoint: unsubscript's fast path
            out = np.zeros(x.shape, x.dtype)
            out[index] = g
            return out
        if type(b) is np.ndarray and b.dtype == np.float64 and b.shape == x.shape:
            out = b.copy()  # one copy, one indexed add
            out[index] += g
            return out
    if type(x) is range:  # a loop's range, which a third derivative reads off the stack
        return b
    if isinstance(x, dict):
        b = {} if b is None else b
        b[index] = add(b.get(index), g)
        return b
    if isinstance(x, (list, tuple)):
        b = [None] * len(x) if b is None else list(b) if isinstance(b, np.ndarray) else b
        if isinstance(index, slice):
            positions = range(len(x))[index] if g is not None else ()  # None: a zero
            for k, piece in zip(positions, () if g is None else g):  # noqa: B905
                b[k] = add(b[k], piece)  # (g is the slice's adjoint)
        else:
            b[index] = add(b[index], g)
        return b
    out = unsubscript(g, x, index)
    return out if b is None else b + out


def gradient_like(b, x, name):
    """The adjoint `b` as the gradient of the argument `x` (the parameter `name`):
    x's structure (dict, list, tuple, nested), shape and float dtype; float zeros
    where b holds none (None is zero); no two arrays of the result share memory.
    A gradient of another shape is a tangentlike bug, never broadcast."""
    if type(x) is float and type(b) in (float, np.float64):
        return float(b)  # the common cases first: a float, an array of the right kind
    if (
        type(x) is np.ndarray
        and type(b) is np.ndarray
        and b.shape == x.shape
        and b.dtype == x.dtype
        and x.dtype.kind == "f"
        and b.flags.writeable
    ):
        return b
    seen = set()

    def refuse(path, problem, hint):
        raise ValueError(f"tangentlike: the gradient of {name}{path} {problem}\nWhat to do: {hint}")

    def bug(path, problem):
        refuse(path, problem, "this is a tangentlike bug; please report it with the function.")

    def like(b, x, path):
        if isinstance(b, np.ndarray) and b.dtype == object and b.ndim == 0:
            b = None  # np.zeros_like of a container: zero
        if isinstance(x, dict):
            if b is not None and not isinstance(b, dict):
                bug(path, f"is a {type(b).__name__}, but the argument is a dict")
            return {
                k: like(None if b is None else b.get(k), v, f"{path}[{k!r}]") for k, v in x.items()
            }
        if isinstance(x, (list, tuple)):
            if isinstance(b, dict) or not (b is None or hasattr(b, "__len__")):
                bug(path, f"is a {type(b).__name__}, but the argument is a {type(x).__name__}")
            if b is not None and len(b) != len(x):
                bug(path, f"has {len(b)} items, but the argument has {len(x)}")
            items = [like(None if b is None else b[i], v, f"{path}[{i}]") for i, v in enumerate(x)]
            return type(x)(items) if type(x) in (list, tuple) else type(x)(*items)  # named tuple
        if np.iscomplexobj(x):
            refuse(
                path,
                f"is asked for, but the argument is complex ({np.result_type(x)})",
                "tangentlike differentiates real values only: pass the real and imaginary "
                "parts as two float arguments.",
            )
        dtype = np.result_type(x)
        if dtype.kind != "f":
            dtype = np.dtype(np.float64)  # an integer argument: a float gradient
        if isinstance(b, (list, tuple)):  # per-row adjoints of an array used as a list
            shape = np.shape(x)
            if not shape or len(b) != shape[0]:
                bug(path, f"has {len(b)} rows, but the argument has shape {shape}")
            rows = []
            for i, row in enumerate(b):
                if row is not None and np.shape(row) != shape[1:]:
                    bug(f"{path}[{i}]", f"has shape {np.shape(row)}, but the row has {shape[1:]}")
                rows.append(np.zeros(shape[1:], dtype=dtype) if row is None else row)
            b = np.array(rows, dtype=dtype).reshape(shape)
        if b is None:
            b = np.zeros(np.shape(x), dtype=dtype)
        elif np.shape(b) != np.shape(x):
            bug(path, f"has shape {np.shape(b)}, but the argument has shape {np.shape(x)}")
        elif np.result_type(b).kind == "c":
            refuse(
                path,
                f"is complex ({np.result_type(b)}): the function computes with complex "
                "numbers, and tangentlike differentiates real code only (no complex convention)",
                "keep the computation real: carry real and imaginary parts as real arrays.",
            )
        elif np.result_type(b).kind not in "fiu":
            bug(path, f"has dtype {np.result_type(b)} for a real argument")
        if isinstance(x, np.generic):
            return dtype.type(b)
        if isinstance(x, (int, float)):
            return float(b)
        g = np.asarray(b, dtype=dtype)
        if not g.flags.writeable or id(g) in seen:
            g = g.copy()
        seen.add(id(g))
        return g

    return like(b, x, "")


def iterable(x):
    """What a `for` loop over `x` visits, as something indexable: a dict's keys (a list),
    an iterator's items (a list: zip, map, a generator, a set), anything else unchanged."""
    return list(x) if isinstance(x, dict) or not hasattr(x, "__getitem__") else x


def matmul_vjp_a(g, a, b):
    """The adjoint of `a` in `a @ b`, for every rank matmul accepts."""
    a_nd, b_nd = np.ndim(a), np.ndim(b)
    if a_nd == 2 and b_nd == 2:
        return g @ np.transpose(b)
    g, b = np.asarray(g), np.asarray(b)
    if b_nd == 1:
        g, b = g[..., None], b[:, None]
    if a_nd == 1:
        g = g[..., None, :]
    ga = g @ np.swapaxes(b, -1, -2)
    shape = (1, *np.shape(a)) if a_nd == 1 else np.shape(a)
    return sum_to(ga, shape).reshape(np.shape(a))


def matmul_vjp_b(g, a, b):
    """The adjoint of `b` in `a @ b`, for every rank matmul accepts."""
    a_nd, b_nd = np.ndim(a), np.ndim(b)
    if a_nd == 2 and b_nd == 2:
        return np.transpose(a) @ g
    g, a = np.asarray(g), np.asarray(a)
    if b_nd == 1:
        g = g[..., None]
    if a_nd == 1:
        g, a = g[..., None, :], a[None, :]
    gb = np.swapaxes(a, -1, -2) @ g
    shape = (*np.shape(b), 1) if b_nd == 1 else np.shape(b)
    return sum_to(gb, shape).reshape(np.shape(b))


def spread(g, x):
    """`g` broadcast to the shape of `x` (the adjoint of a sum or mean of x): the value of
    np.broadcast_to(g, np.shape(x)), read-only as it is. For a small array x and a float
    g, a filled array: np.broadcast_to costs microseconds of Python, which a gradient of
    small arrays pays at every reduction; for a large x (over 1024 elements, where filling
    costs more), its view (nothing copied)."""
    if type(x) is np.ndarray and x.size <= 1024 and type(g) in (float, np.float64):
        out = np.empty(x.shape)
        out.fill(g)
        out.setflags(write=False)  # read-only as np.broadcast_to's (cheaper than .flags)
        return out
    return np.broadcast_to(g, np.shape(x))


def sum_to(g, shape):
    """Sum `g` down to `shape`: over the leading axes it has beyond `shape`, and over the
    axes where `shape` has 1 and `g` has more (the axes broadcasting stretched)."""
    if np.shape(g) == shape:
        return g
    g = np.asarray(g)
    extra = g.ndim - len(shape)
    if extra > 0:
        g = g.sum(axis=tuple(range(extra)))
    axes = tuple(i for i, n in enumerate(shape) if n == 1 and g.shape[i] != 1)
    if axes:
        g = g.sum(axis=axes, keepdims=True)
    return g


def unappend(b, value):
    """The adjoint of `xs.append(value)`: (b without its last element, that element's
    adjoint, zeros like `value` when it is zero). Shortens the list `b` in place."""
    if isinstance(b, np.ndarray):  # a stacked adjoint (np.array of the list): rows
        b = list(b)
    g = None if b is None else b.pop()
    keyless = isinstance(value, (list, tuple, dict, str, bytes, range)) or value is None
    if g is None and not keyless:
        dtype = np.result_type(value)
        if not np.issubdtype(dtype, np.inexact):
            dtype = np.float64
        g = np.zeros(np.shape(value), dtype=dtype)
    return b, g


def unbroadcast(g, x):
    """Sum the adjoint `g` down to the shape of `x`, undoing NumPy broadcasting."""
    if type(x) is np.ndarray:
        shape = x.shape
        if type(g) is np.ndarray and g.shape == shape:
            return g  # the common cases first: nothing to undo
    elif type(x) in (float, np.float64):
        if type(g) in (float, np.float64):
            return g  # numbers (NumPy's float64 too: what np.sin of a float returns)
        shape = ()
    else:
        shape = np.shape(x)
    return sum_to(g, shape)


def unsubscript(g, x, index):
    """The adjoint of `x[index]`: zeros shaped like x, with g added at index.

    Repeated integer indices accumulate (np.add.at semantics).
    """
    if type(x) is np.ndarray and x.dtype.kind == "f" and type(index) in (int, slice):
        out = np.zeros(x.shape, x.dtype)  # the common case first: one item or a slice
        out[index] = g
        return out
    if isinstance(x, (tuple, list)):
        try:  # a list of same-shape values: its adjoint is their stacked array
            x = np.asarray(x, dtype=float)
        except ValueError:
            raise TypeError(
                "tangentlike: indexing a tuple or list that holds differentiated values of "
                "different shapes is not supported yet; unpack it where it is built "
                "(a, b = x, y) or stack the values into an array"
            ) from None
    dtype = np.result_type(x)
    if not np.issubdtype(dtype, np.inexact):
        dtype = np.float64
    if np.iscomplexobj(g) and dtype.kind != "c":  # never drop an imaginary part silently
        raise ValueError(
            "tangentlike: a complex adjoint reached an element of a real array: a complex "
            "value was computed where tangentlike did not see it being made (a complex "
            "argument?)"
        )
    out = np.zeros(np.shape(x), dtype=dtype)
    parts = index if isinstance(index, tuple) else (index,)
    basic = all(
        isinstance(p, (int, np.integer, slice)) or p is None or p is Ellipsis
        for p in parts
        if not isinstance(p, bool)
    ) and not any(isinstance(p, bool) for p in parts)
    if basic:
        out[index] = g
    else:
        np.add.at(out, index, g)
    return out


def unsum(g, iterable, start=0):
    """The adjoint of the builtin `sum(iterable, start)`: for an array, an array of its
    shape (each row's part: g undone of broadcasting against the row); for a list or
    tuple, a list with each item's part."""
    if isinstance(iterable, np.ndarray):
        shape = iterable.shape
        return np.array(np.broadcast_to(sum_to(np.asarray(g), shape[1:]), shape))
    out = []
    for item in iterable:
        if isinstance(item, (list, tuple, dict)):
            raise TypeError("tangentlike: sum() over containers is not differentiable")
        out.append(unbroadcast(np.asarray(g), item))
    return out


def zeros_of(x):
    """The zero adjoint of `x`: None for a list, tuple or dict (or a str, range, None: keys
    and labels carry no gradient), float zeros otherwise."""
    if type(x) is np.ndarray and x.dtype.kind == "f":
        return np.zeros(x.shape, x.dtype)  # the common case first
    if isinstance(x, (list, tuple, dict, str, bytes, range)) or x is None:
        return None
    dtype = np.result_type(x)
    if not np.issubdtype(dtype, np.inexact):
        dtype = np.float64
    return np.zeros(np.shape(x), dtype=dtype)
