"""Random programs whose helpers use, ignore, rebind and return their parameters.

A helper `h(p0, ..)` of one to three parameters runs a few statements drawn from a small
grammar: assignments to a parameter or a local, in a branch or a loop, an early return,
and returns one value or a pair, maybe a constant. The program calls it (or a middle
helper `g` that calls it) once, in a loop or in a branch, with arguments, locals,
constants and expressions, by position or keyword. Each program's gradient must equal
autograd's, or central differences where autograd cannot run it (before the fix of split
helpers, a parameter that does not reach the helper's result crashed about 40% of these
programs with NameError/UnboundLocalError).
"""

from __future__ import annotations

import itertools
import warnings

import numpy as np
from hypothesis import given
from hypothesis import strategies as st
from reference import autograd_grad, fd_gradient, load_module

import tangentlike as tl

_ids = itertools.count()


@st.composite
def expressions(draw, names, depth=2):
    if depth == 0 or draw(st.integers(0, 3)) == 0:
        return draw(st.sampled_from([*names, "1.5", "0.5"]))
    a = draw(expressions(names, depth - 1))
    b = draw(expressions(names, depth - 1))
    forms = ["({a} + {b})", "({a} * {b})", "np.sin({a})", "({a} - {b})", "np.tanh({a})"]
    forms.append("np.where({a} > 0.0, {a}, {b})")
    return draw(st.sampled_from(forms)).format(a=a, b=b)


@st.composite
def helpers(draw, n):
    params = [f"p{i}" for i in range(n)]
    live, lines = list(params), []
    for _ in range(draw(st.integers(1, 4))):
        target = draw(st.sampled_from([*params, "t", "u"]))
        value = draw(expressions(live))
        kind = draw(st.sampled_from(["plain", "branch", "loop"]))
        if kind == "branch":
            lines += [f"if np.sum({draw(st.sampled_from(live))}) > 0.0:", f"    {target} = {value}"]
        elif kind == "loop":
            lines += ["for _i in range(2):", f"    {target} = {value}"]
        else:
            lines.append(f"{target} = {value}")
        live = sorted({*live, target})
    pair = draw(st.booleans())
    if not pair and draw(st.booleans()):
        lines += [f"if np.sum({draw(st.sampled_from(live))}) > 0.5:"]
        lines += [f"    return {draw(expressions(live))}"]
    result = [draw(expressions(live)) for _ in range(2 if pair else 1)]
    if draw(st.integers(0, 4)) == 0:
        result = ["1.5"] * len(result)
    body = "".join(f"    {line}\n" for line in lines)
    return f"def h({', '.join(params)}):\n{body}    return {', '.join(result)}\n", pair


@st.composite
def programs(draw):
    n = draw(st.integers(1, 3))
    helper, pair = draw(helpers(n))
    source = "import numpy as np\n\n\n" + helper + "\n\n"
    middle = draw(st.booleans())
    if middle:
        inner = ", ".join(draw(st.sampled_from(["q0", "q1", "q0 * q1", "1.0"])) for _ in range(n))
        if pair:
            source += f"def g(q0, q1):\n    a, b = h({inner})\n    return a * q0 + b, q1\n\n\n"
        else:
            source += (
                f"def g(q0, q1):\n    t = h({inner})\n    if np.sum(q1) > 0.0:\n"
                "        q1 = t * 2.0\n    return t * q1\n\n\n"
            )
    lines = ["s = x * 1.0"]
    for _ in range(draw(st.integers(1, 3))):
        if middle:
            first = draw(st.sampled_from(["x", "y", "s"]))
            call = f"g({first}, {draw(st.sampled_from(['x', 'y', 's', '1.0']))})"
        else:
            args = [draw(st.sampled_from(["x", "y", "s", "1.0", "x * y"])) for _ in range(n)]
            if n > 1 and draw(st.booleans()):
                args[-1] = f"p{n - 1}={args[-1]}"
            call = f"h({', '.join(args)})"
        use = draw(st.sampled_from(["a", "b", "a * b"]))
        step = [f"a, b = {call}", f"s = s + {use}"] if pair else [f"s = s + {call}"]
        where = draw(st.sampled_from(["once", "loop", "branch"]))
        if where == "loop":
            lines += ["for _k in range(2):", *(f"    {line}" for line in step)]
        elif where == "branch":
            lines += ["if np.sum(x) > 0.0:", *(f"    {line}" for line in step)]
        else:
            lines += step
    body = "".join(f"    {line}\n" for line in lines)
    return source + f"def f(x, y):\n{body}    return np.sum(s)\n"


@given(source=programs(), seed=st.integers(0, 2**16))
def test_random_helper_program_matches_autograd(tmp_path_factory, source, seed):
    module = load_module(tmp_path_factory.mktemp("helpers"), source, name=f"rh_{next(_ids)}")
    rng = np.random.RandomState(seed)
    x, y = rng.uniform(-1.0, 1.0, 3), rng.uniform(-1.0, 1.0, 3)
    try:
        value = module.f(x, y)
    except UnboundLocalError:  # a local assigned only in a branch not taken
        return
    if not np.isfinite(value) or abs(value) > 1e4:
        return
    grads = tl.grad(module.f, wrt=(0, 1))(x, y)
    for i, g in enumerate(grads):
        expected, tolerance = _reference(module.f, [x, y], i)
        if expected is not None:
            np.testing.assert_allclose(g, expected, rtol=tolerance, atol=tolerance)


def _reference(f, args, i):
    """autograd's gradient, or central differences where autograd cannot run the program
    (np.where of constants makes object arrays of its boxes); None near a branch boundary."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # autograd: "Output seems independent of input"
            expected = np.asarray(autograd_grad(f, args, i))
        if expected.dtype.kind == "f":
            return expected, 1e-9
    except (TypeError, AttributeError):
        pass
    expected = fd_gradient(f, args, i)
    if not np.allclose(expected, fd_gradient(f, args, i, eps=1e-4), rtol=1e-3, atol=1e-5):
        return None, 0.0
    return expected, 1e-5
