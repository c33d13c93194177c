"""Rule maths of rules/builtins.py and rules/math.py: powers, extrema, products, digamma.

Part of the runtime: copied into generated modules that use it (NumPy only). Python
floats in, Python floats out: a helper given floats computes with floats.
"""

from __future__ import annotations

import numpy as np


def power_slope(x, y):
    """d(x ** y)/dx = y * x ** (y - 1), also where the formula divides by zero.

    Where y == 0, x ** 0 is 1 for every x (also x = 0): the slope is 0, not 0 * inf.
    Where x == 0 and 0 < y < 1 the slope is infinite: inf (Python floats would raise
    ZeroDivisionError). Negative x with an integer y is the formula itself.
    """
    e = (1 if y == 0 else y - 1) if np.ndim(y) == 0 else np.where(y == 0, 1, y - 1)
    if np.ndim(x) == 0 and np.ndim(e) == 0 and x == 0 and e < 0:
        return y * float("inf")
    return y * x**e


def power_slope_dx(x, y):
    """d(power_slope(x, y))/dx = y (y - 1) x ** (y - 2): y * power_slope(x, y - 1), and 0
    where y == 0 (power_slope is 0 there for every x, also x = 0)."""
    if np.ndim(y) == 0:
        return 0.0 * x if y == 0 else y * power_slope(x, y - 1)
    return np.where(y == 0, 0.0, y * power_slope(x, np.where(y == 0, 2, y - 1)))


def power_slope_dy(x, y):
    """d(power_slope(x, y))/dy = x ** (y - 1) (1 + y log x), log read at 1 where x == 0 as
    the exponent rule of `x ** y` reads it (nan for a negative x, as there); 0 for an
    integer y, as power_log."""
    if integer_exponent(y):
        return 0.0
    return x ** (y - 1.0) * (1.0 + y * np.log(np.where(x == 0, 1, x)))


def power_log(x, y):
    """The factor log x of `x ** y`'s derivative in y (result * log x), log read at 1 where
    x == 0; nan for a negative x with a float y (x ** y has no derivative in y there).
    0 for an integer y (a Python int, or an integer or boolean array): an integer has no
    tangent and takes no gradient, and its zero tangent times the nan of a negative x
    would be nan (a loop's `x ** (k + 1)` differentiated twice, the exponent restored
    from the gradient's stack)."""
    if integer_exponent(y):
        return 0.0
    return np.log(np.where(x == 0, 1, x))


def integer_exponent(y):
    """Whether y is an integer or boolean: a Python or NumPy scalar, or an array."""
    return isinstance(y, (int, np.integer, np.bool_)) or (
        isinstance(y, np.ndarray) and y.dtype.kind in "biu"
    )


def extremum_index(items, result):
    """The position of `result` (a max or min) in `items`: the last of tied positions,
    as np.maximum(x, y) sends ties to y; a NaN result, the first NaN."""
    if isinstance(items, np.ndarray):
        same = np.equal(items, result).reshape(len(items), -1).all(axis=1)
        hits = np.flatnonzero(same)
        if len(hits) == 0:
            hits = np.flatnonzero(np.isnan(items).reshape(len(items), -1).any(axis=1))[:1]
        return int(hits[-1])
    found = None
    for k, item in enumerate(items):
        if item is result or bool(np.all(item == result)):
            found = k
    if found is None:  # NaN compares unequal to itself
        found = next(k for k, item in enumerate(items) if np.any(np.isnan(item)))
    return found


def unpick(g, items, k):
    """The adjoint of `items` for a result that is `items[k]`: g at k, zeros elsewhere
    (an array for an array; for a list or tuple, a list: 0.0 for a float item, zeros
    of an array item's shape)."""
    if isinstance(items, np.ndarray):
        dtype = items.dtype if np.issubdtype(items.dtype, np.inexact) else np.float64
        out = np.zeros(items.shape, dtype=dtype)
        out[k] = g
        return out
    out = [0.0 * item if np.ndim(item) == 0 else np.zeros(np.shape(item)) for item in items]
    out[k] = g
    return out


def unprod(g, items, start=1):
    """The adjoint of `items` in `math.prod(items, start=start)`: g times the product of
    the others and start, without dividing (exact at zeros). An array for an array."""
    values = list(items)
    n = len(values)
    before = [start] * (n + 1)  # before[k] = start * prod(values[:k])
    for k, v in enumerate(values):
        before[k + 1] = before[k] * v
    out = [None] * n
    after = 1  # prod(values[k + 1:])
    for k in range(n - 1, -1, -1):
        out[k] = g * before[k] * after
        after = after * values[k]
    if isinstance(items, np.ndarray):
        return np.array(out, dtype=items.dtype if items.dtype.kind == "f" else np.float64)
    return out


def prod_of(items):
    """The product of `items` (math.prod with start 1), for the adjoint of `start`."""
    total = 1
    for v in items:
        total = total * v
    return total


def undist(g, p, q, dist):
    """The adjoint of `p` in `math.dist(p, q)` (negate it for q): g (p - q) / dist, and
    0 where p == q (the kink of a norm at zero)."""
    scale = 0.0 if dist == 0 else g / dist
    out = [scale * (a - b) for a, b in zip(p, q, strict=True)]
    if isinstance(p, np.ndarray):
        return np.array(out, dtype=p.dtype if p.dtype.kind == "f" else np.float64)
    return out


def inner(weights, tangents):
    """sum(w * t) over paired items of two lists or arrays (None is zero, on either side;
    None for all of one is zero too): a tangent. Items are summed, not their entries: for
    arrays, along the items' axis (the rows of a 2-D array, as math.prod multiplies them;
    a tangent's leading axes, vector mode, kept)."""
    if weights is None or tangents is None:
        return 0.0
    if isinstance(weights, np.ndarray) and isinstance(tangents, np.ndarray):
        total = np.sum(weights * tangents, axis=tangents.ndim - weights.ndim)
        return float(total) if np.ndim(total) == 0 else total
    return sum(
        w * t for w, t in zip(weights, tangents, strict=True) if w is not None and t is not None
    )


def negated(parts):
    """-parts for a list (None stays None) or an array; None (a zero) for None."""
    if parts is None:
        return None
    if isinstance(parts, np.ndarray):
        return -parts
    return [None if v is None else -v for v in parts]


def digamma(x):
    """The digamma function psi(x) = d log Gamma(x) / dx for a float (the derivative of
    math.lgamma; math.gamma's is gamma(x) * psi(x)). Reflection below 1/2, recurrence up
    to 6, then the asymptotic series: relative error below 1e-13."""
    x = float(x)
    if x <= 0 and x == int(x):
        return float("nan")  # a pole of Gamma
    if x < 0.5:  # psi(1 - x) - psi(x) = pi cot(pi x)
        return digamma(1.0 - x) - float(np.pi / np.tan(np.pi * x))
    total = 0.0
    while x < 6.0:
        total -= 1.0 / x
        x += 1.0
    inv = 1.0 / (x * x)
    series = inv * (
        1.0 / 12 - inv * (1.0 / 120 - inv * (1.0 / 252 - inv * (1.0 / 240 - inv / 132)))
    )
    return total + float(np.log(x)) - 0.5 / x - series


def sinc_slope(x):
    """d sinc(x)/dx = (cos(pi x) - sinc(x)) / x; 0 at x = 0 (sinc is even and smooth
    there). Below |x| = 0.1 that closed form cancels (a difference of two numbers near 1,
    divided by x): its Taylor series there, (pi x)^2 < 0.1, 7 terms (the first left out
    is below 1e-19 relative); likewise sinc_curvature."""
    x = _floating(x)
    near = np.abs(x) < 0.1
    safe = np.where(near, 1.0, x)
    far = (np.cos(np.pi * safe) - np.sinc(safe)) / safe
    return np.where(near, _sinc_series(x, 1), far)


def sinc_curvature(x):
    """d2 sinc(x)/dx2 = (-pi sin(pi x) - 2 sinc'(x)) / x; near 0 its series, -pi^2/3 at 0."""
    x = _floating(x)
    near = np.abs(x) < 0.1
    safe = np.where(near, 1.0, x)
    far = (-np.pi * np.sin(np.pi * safe) - 2.0 * sinc_slope(safe)) / safe
    return np.where(near, _sinc_series(x, 2), far)


def _floating(x):
    """x as an array of its float dtype (float64 for integers, Python floats included)."""
    x = np.asarray(x)
    return x if x.dtype.kind == "f" else x.astype(np.float64)


def _sinc_series(x, order):
    """The `order`-th derivative of sinc(x) = sum_k (-1)^k (pi x)^(2k) / (2k + 1)!, 7 terms."""
    total = np.zeros_like(x)
    factorial = 1.0  # (2k + 1)!
    for k in range(7):
        if k:
            factorial *= (2 * k) * (2 * k + 1)
        power = 2 * k - order
        if power < 0:
            continue
        falling = 1.0
        for j in range(order):
            falling *= 2 * k - j
        total = total + (-1) ** k * np.pi ** (2 * k) * falling * x**power / factorial
    return total
