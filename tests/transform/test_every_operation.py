"""Every kind of operation a differentiated value can meet: a right gradient or a located
error, never a silent zero.

Each case is an expression `op` in x (and y) inside `def f(x, y): r = <op>; return
np.sum(np.asarray(r, dtype=float))` (or a short body). Kinds: every gast binary, unary,
comparison and boolean operator (enumerated from gast, with a coverage guard), ternaries,
subscripts of local, global and constant objects, attribute reads, every builtin and
every `math` function, every public NumPy callable (registered or not), text,
containers. For each case whose primal runs, `tl.grad` must either
  - raise a tangentlike error that names the file and line, or
  - return gradients equal to central differences along random directions (zero where
    `op`'s value is integer or boolean: such results are locally constant).
Any other exception is a crash and fails too. Points near a jump (where two step sizes
disagree) are skipped.
"""

from __future__ import annotations

import builtins
import itertools
import math
import warnings

import gast
import numpy as np
import pytest
from reference import load_module

import tangentlike as tl
from tangentlike.errors import TangentlikeError

PRELUDE = """\
import math

import numpy as np

G = np.array([1.0, 2.0, 3.0])
GD = {"a": 1.5}
GL = [1.0, 2.0]


class Table:
    def __getitem__(self, k):
        return k * 3.0


OBJ = Table()
"""

SCALARS = (1.3, -0.45)
VECTORS = (np.array([1.3, -0.7, 2.1]), np.array([-0.45, 0.8, 1.7]))
MATRICES = (np.array([[1.3, -0.7, 2.1], [0.4, 0.9, -1.2]]), np.array([[-0.45, 0.8, 1.7]]))
POINTS = {"scalar": SCALARS, "vector": VECTORS, "matrix": MATRICES}

_ids = itertools.count()


def _module(tmp_path, op: str, body: list[str] | None):
    lines = body or [f"r = {op}", "return np.sum(np.asarray(r, dtype=float))"]
    source = (
        PRELUDE
        + f"\n\ndef op(x, y):\n    return {op}\n"
        + "\n\ndef f(x, y):\n"
        + "".join(f"    {line}\n" for line in lines)
    )
    return load_module(tmp_path, source, name=f"every_op_{next(_ids)}")


def _discrete(value: object) -> bool:
    """Integer, boolean or otherwise float-free values: their gradient is zero."""
    if value is None or isinstance(value, (bool, int, np.integer, np.bool_, type, range)):
        return True
    if isinstance(value, np.dtype):
        return True
    if isinstance(value, np.ndarray):
        return value.dtype.kind in "biu"
    if isinstance(value, (tuple, list)):
        return all(_discrete(v) for v in value)
    return False


def _moved(a, step, u):
    return float(a + step * u) if isinstance(a, float) else a + step * u


def _fd(f, args, i, u, eps):
    up, down = list(args), list(args)
    up[i], down[i] = _moved(args[i], eps, u), _moved(args[i], -eps, u)
    with np.errstate(all="ignore"):
        return (float(f(*up)) - float(f(*down))) / (2 * eps)


def outcome(tmp_path, op: str, x, y, body: list[str] | None = None) -> tuple[str, str]:
    """('ok' | 'refused' | 'skip' | 'WRONG' | 'CRASH' | 'UNLOCATED', detail)."""
    module = _module(tmp_path, op, body)
    try:
        with np.errstate(all="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            value = module.op(x, y) if body is None else None
            result = float(module.f(x, y))
    except Exception as err:  # the primal does not run: nothing to differentiate
        return "skip", f"primal: {type(err).__name__}"
    if not np.isfinite(result):
        return "skip", "not finite"
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            grads = tl.grad(module.f, wrt=(0, 1))(x, y)
    except TangentlikeError as err:
        # located in the user's file, or in the source of a callee it differentiates
        if err.location is None or f"{err.location}:" not in str(err):
            return "UNLOCATED", str(err)
        return "refused", str(err).splitlines()[0]
    except Exception as err:
        return "CRASH", f"{type(err).__name__}: {err}"
    rng = np.random.RandomState(0)
    for i, arg in enumerate((x, y)):
        if np.shape(grads[i]) != np.shape(arg):
            return "WRONG", f"gradient {i} has shape {np.shape(grads[i])}"
        for _ in range(3):
            u = rng.standard_normal(np.shape(arg))
            try:
                if body is None and _discrete(value):
                    expected = 0.0
                else:
                    expected = _fd(module.f, [x, y], i, u, 1e-6)
                    if not np.isclose(expected, _fd(module.f, [x, y], i, u, 1e-4), 1e-3, 1e-5):
                        continue  # a jump nearby: try another direction
            except Exception as err:
                return "skip", f"finite differences: {type(err).__name__}"
            actual = float(np.sum(np.asarray(grads[i], dtype=float) * u))
            if not np.isclose(actual, expected, rtol=1e-4, atol=1e-6):
                return (
                    "WRONG",
                    f"argument {i}: <gradient, u> = {actual}, central difference {expected}",
                )
            break
    return "ok", ""


def check(tmp_path, op: str, points=("scalar", "vector"), body=None, runs=False) -> list[str]:
    """The outcome at each kind of point; failures as readable lines. With `runs`, the
    primal must run at one point at least (so the case tests something)."""
    bad = []
    statuses = []
    for kind in points:
        status, detail = outcome(tmp_path, op, *POINTS[kind], body)
        statuses.append(f"{kind}: {status} {detail}")
        if status in ("WRONG", "CRASH", "UNLOCATED"):
            bad.append(f"{op} at {kind}: {status} {detail}")
    if runs and all(s.split()[1] == "skip" for s in statuses):
        bad.append(f"{op}: the case never ran ({'; '.join(statuses)})")
    return bad


# -- operators, enumerated from gast -----------------------------------------------------

SYMBOLS = {
    gast.Add: "+",
    gast.Sub: "-",
    gast.Mult: "*",
    gast.MatMult: "@",
    gast.Div: "/",
    gast.Mod: "%",
    gast.Pow: "**",
    gast.LShift: "<<",
    gast.RShift: ">>",
    gast.BitOr: "|",
    gast.BitXor: "^",
    gast.BitAnd: "&",
    gast.FloorDiv: "//",
    gast.Invert: "~",
    gast.Not: "not ",
    gast.UAdd: "+",
    gast.USub: "-",
    gast.Eq: "==",
    gast.NotEq: "!=",
    gast.Lt: "<",
    gast.LtE: "<=",
    gast.Gt: ">",
    gast.GtE: ">=",
    gast.Is: "is",
    gast.IsNot: "is not",
    gast.In: "in",
    gast.NotIn: "not in",
    gast.And: "and",
    gast.Or: "or",
}
OPERATOR_KINDS = (gast.operator, gast.unaryop, gast.cmpop, gast.boolop)


def test_every_gast_operator_has_a_form():
    every = {
        c
        for kind in OPERATOR_KINDS
        for c in kind.__subclasses__()
        if c.__module__.startswith("gast")  # gast's classes (ast's share the base)
    }
    assert every == set(SYMBOLS), every ^ set(SYMBOLS)


INTS = "np.asarray(x * 10).astype(np.int64)"


def _operator_forms(op: type) -> list[str]:
    s = SYMBOLS[op]
    if issubclass(op, gast.operator):
        base = "np.abs(x)" if op is gast.Pow else "x"
        return [f"{base} {s} y", f"{base} {s} 0.7", f"1.3 {s} {base}", f"{INTS} {s} 3", f"x {s} x"]
    if issubclass(op, gast.unaryop):
        return [f"{s}x", f"{s}{INTS}", f"({s}(x > 0)) * x", f"{s}({s}x)"]
    if issubclass(op, gast.cmpop):
        right = "[y, 2.0]" if op in (gast.In, gast.NotIn) else "y"
        return [f"np.where(x {s} {right}, x, y)", f"(x {s} {right}) * x", f"x {s} {right}"]
    return [
        f"x {s} y",
        f"(x > 0) {s} y",
        f"(x {s} 2.0) * y",
        f"np.where((x > 0) {s} (y > 0), x, y)",
    ]


@pytest.mark.parametrize("op", list(SYMBOLS), ids=lambda o: o.__name__)
def test_operator(tmp_path, op):
    lines = [line for form in _operator_forms(op) for line in check(tmp_path, form, runs=True)]
    bad = [line for line in lines if "never ran" not in line]
    assert len(lines) - len(bad) < len(_operator_forms(op)), f"no form of {op.__name__} ran"
    assert not bad, "\n".join(bad)


# -- other expression kinds ------------------------------------------------------------------

EXPRESSIONS = {
    "ternary": ["x if np.sum(x) > 0 else y", "(x if np.sum(y) > 0 else 2.0) * y"],
    "chained comparison": ["(0.0 < x < 2.0) * x", "np.where(-1.0 < x <= y, x, y)"],
    "local subscript": [
        "x[1]",
        "x[1:]",
        "x[::-1]",
        "x[[0, 2]]",
        "x[x > 0]",
        "x[np.argmax(x)]",
        "x[..., None]",
        "x[None, :] * y",
        "x[np.asarray(y * 10).astype(np.int64) % 3]",
        "[x, y][0]",
        "(x, y)[1] * x",
        "{'a': x}['a'] * y",
        "np.array([x, y])[0]",
    ],
    "global subscript": [
        "G[1] * x",
        "G[np.argmax(x)] * x",
        "G[np.asarray(x).astype(np.int64) % 3] * y",
        "G[x > 0] * 2.0",
        "GD['a'] * x",
        "GL[0] * x",
        "OBJ[x]",
        "OBJ[1.5] * x",
        "np.mgrid[0:3] * x",
        "np.mgrid[0.0:x:0.5]",
        "np.ogrid[0:3] * x",
        "x[np.s_[1:]]",
        "x[np.index_exp[1:]]",
        "np.r_[x, y]",
        "np.r_[x, 0:2, y * 2.0]",
        "np.r_[0.0:x]",
        "np.c_[x, y]",
        "np.c_['r', x, y]",
    ],
    "constant subscript": ["('abc'[0] == 'a') * x", "(1.0, 2.0)[np.argmax(x)] * x"],
    "attribute": [
        f"np.sum(x.{a}) * 1.0 + x"
        for a in ("shape", "ndim", "size", "nbytes", "itemsize", "strides")
    ]
    + ["x.T", "x.real", "x.imag + x", "x.flat[0]", "(x.dtype == np.float64) * x"],
    "text": [
        "float(f'{x}')",
        "float(str(x))",
        "float(repr(x))",
        "float('%r' % x)",
        "float(b'%r' % x)",
        "float('{}'.format(x))",
        "float(format(x, '.17g'))",
    ],
    "lambda and user functions": ["(lambda v: v * v)(x)", "np.vectorize(lambda v: v * 2.0)(x)"],
}


@pytest.mark.parametrize(
    ("kind", "op"),
    [(k, op) for k, ops in EXPRESSIONS.items() for op in ops],
    ids=[f"{k}: {op}" for k, ops in EXPRESSIONS.items() for op in ops],
)
def test_expression(tmp_path, kind, op):
    points = ("scalar",) if kind == "text" else ("scalar", "vector")
    bad = check(tmp_path, op, points, runs=True)
    assert not bad, "\n".join(bad)


CONTAINERS = [
    ["L = [x, y]", "L.append(x * 2.0)", "return sum(L)"],
    ["L = []", "for v in [x, y]:", "    L.append(v * v)", "return L[0] + L[1]"],
    ["d = {'a': x, 'b': y}", "return d['a'] * d['b']"],
    ["d = {}", "d['a'] = x", "return d['a'] * y"],
    ["L = [x, y]", "L[0] = y", "return L[0] * x"],
    ["t = (x, y)", "a, b = t", "return a * b"],
    ["return sum([v * v for v in [x, y]])"],
    ["return sum(v * w for v, w in zip([x, y], [y, x]))"],
    ["d = {k: v for k, v in zip('ab', [x, y])}", "return d['a'] - d['b']"],
    ["d = {x: 1.0}", "return list(d)[0]"],
    ["L = [x, y]", "L.extend([x])", "return L[2] * L[1]"],
    ["L = [x] * 3", "return L[2] * y"],
    ["L = [x] + [y]", "return L[1] * x"],
    ["s = {x, y}", "return x"],
    ["L = [x, y]", "L.reverse()", "return L[0]"],
    ["L = [x, y]", "v = L.pop()", "return v * x"],
    ["L = [x, y]", "L.sort()", "return L[0]"],
    ["L = [x, y]", "del L[0]", "return L[0]"],
    ["a, *b = [x, y, x]", "return a"],
    ["d = {'a': x}", "return d.get('a') * y"],
    ["d = {'a': x}", "return list(d.values())[0]"],
    ["d = {'a': x}", "return [v for v in d.values()][0]"],
    ["d = {'a': x}", "return sum(d.values())"],
    ["it = iter([x, y])", "return next(it)"],
    ["return np.stack([x, y])[0]"],
    ["s = 0.0", "for i, v in enumerate([x, y]):", "    s = s + v * i", "return s"],
]


@pytest.mark.parametrize("body", CONTAINERS, ids=[" / ".join(b) for b in CONTAINERS])
def test_container(tmp_path, body):
    bad = check(tmp_path, "x", ("scalar",), body=body, runs=True)
    assert not bad, "\n".join(bad)


# -- every builtin, every math function, every public NumPy callable ------------------------

# Builtins that read or write the process's state, files or the terminal.
INTERACTIVE = {
    "breakpoint",
    "compile",
    "copyright",
    "credits",
    "delattr",
    "dir",
    "eval",
    "exec",
    "exit",
    "globals",
    "help",
    "input",
    "license",
    "locals",
    "open",
    "quit",
    "setattr",
    "vars",
}


def _callables(module, skip=frozenset()) -> list[str]:
    names = []
    for name in dir(module):
        obj = getattr(module, name)
        if name.startswith("_") or name in skip or not callable(obj):
            continue
        if isinstance(obj, type) and issubclass(obj, BaseException):
            continue
        names.append(name)
    return names


@pytest.mark.parametrize("name", _callables(builtins, INTERACTIVE))
def test_builtin(tmp_path, name):
    forms = [f"{name}(x)", f"{name}(x, y)", f"{name}([x, y])", f"{name}(x, 2)"]
    bad = [line for form in forms for line in check(tmp_path, form)]
    assert not bad, "\n".join(bad)


@pytest.mark.parametrize("name", _callables(math))
def test_math_function(tmp_path, name):
    forms = [f"math.{name}(x)", f"math.{name}(x, y)", f"math.{name}([x, y])"]
    bad = [line for form in forms for line in check(tmp_path, form, ("scalar",))]
    assert not bad, "\n".join(bad)


# NumPy callables with side effects on files, the terminal or global state, and the two
# whose values are undefined (np.empty_like's are whatever memory held: its gradient is
# zero, central differences of garbage are not).
NUMPY_SKIP = {
    "empty",
    "empty_like",
    "frombuffer",
    "fromfile",
    "fromregex",
    "genfromtxt",
    "get_include",
    "getbufsize",
    "info",
    "load",
    "loadtxt",
    "memmap",
    "printoptions",
    "save",
    "savetxt",
    "savez",
    "savez_compressed",
    "set_printoptions",
    "setbufsize",
    "seterr",
    "seterrcall",
    "show_config",
    "show_runtime",
    "test",
}


@pytest.mark.parametrize("name", _callables(np, NUMPY_SKIP))
def test_numpy_callable(tmp_path, name):
    if isinstance(getattr(np, name), type) and not issubclass(getattr(np, name), np.generic):
        pytest.skip("a class")
    forms = [f"np.{name}(x)", f"np.{name}(x, y)"]
    bad = [line for form in forms for line in check(tmp_path, form, ("scalar", "vector"))]
    assert not bad, "\n".join(bad)
