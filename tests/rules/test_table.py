"""Every registered derivative rule against central differences (and autograd).

Adding a rule is one line in the rule file and one line in cases.py; the
coverage guard fails when a rule has no case.
"""

from __future__ import annotations

import ast
import math
import types

import gast
import numpy as np
import pytest
from cases import CASES, Case
from cases_builtins import autograd_math
from reference import check_against_fd, load_module

import tangentlike as tl
from tangentlike import runtime
from tangentlike.rules.registry import default_registry

ARG_ORDER = ("x", "y", "z")


def autograd_grad(f, args, i):
    """autograd's gradient of a copy of f with np and scipy bound to autograd's wrappers."""
    import autograd
    import autograd.numpy as anp
    import autograd.scipy.special

    globals_ = {**f.__globals__, "np": anp, "scipy": autograd.scipy, "math": autograd_math()}
    copy = types.FunctionType(f.__code__, globals_, f.__name__, f.__defaults__, f.__closure__)
    return autograd.grad(copy, i)(*args)


def _namespace():
    import scipy.special

    return {"np": np, "scipy": scipy, "math": math}


def _sample(rng, shape, domain, dtype):
    if domain == "positive":
        v = rng.uniform(0.5, 2.0, size=shape)
    elif domain == "probability":
        v = rng.uniform(0.1, 0.9, size=shape)
    elif domain == "unit":
        v = rng.uniform(-0.8, 0.8, size=shape)
    elif domain == "above1":
        v = rng.uniform(1.5, 3.0, size=shape)
    elif domain == "zero":  # the point where a removable singularity sits
        v = np.zeros(shape)
    elif domain == "zeros":  # products through zeros: some entries exactly 0, one twice
        v = rng.standard_normal(shape)
        v.flat[1] = 0.0
        v.flat[-2] = 0.0
    elif domain == "distinct":
        n = int(np.prod(shape, dtype=int))
        v = (rng.permutation(n) - n / 2.0 + rng.uniform(0.1, 0.4)).reshape(shape) * 0.37
    else:
        v = rng.standard_normal(shape)
    if shape == ():
        return float(v) if dtype == np.float64 else np.float32(v)
    return np.asarray(v, dtype=dtype)


def _build(case: Case, tmp_path):
    params = [a for a in ARG_ORDER if a in case.shapes]
    source = (
        "import math\n\nimport numpy as np\nimport scipy.special\n\n\n"
        f"def case({', '.join(params)}, w):\n"
        f"    r = {case.expr}\n"
        "    return np.sum(r * w)\n"
    )
    return load_module(tmp_path, source).case, params


def _inputs(case: Case, dtype, seed=0):
    rng = np.random.RandomState(seed)
    return [_sample(rng, case.shapes[a], case.domain, dtype) for a in ARG_ORDER if a in case.shapes]


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_rule_matches_finite_differences(case: Case, tmp_path):
    f, params = _build(case, tmp_path)
    args = _inputs(case, np.float64)
    r = eval(case.expr, _namespace(), dict(zip(params, args, strict=True)))
    w = np.random.RandomState(7).standard_normal(np.shape(r))
    grads = tl.grad(f, wrt=tuple(range(len(params))))(*args, w)
    for i, g in enumerate(grads):
        assert np.shape(g) == np.shape(args[i])
        check_against_fd(f, g, [*args, w], i, rtol=1e-5, atol=1e-6)
        if case.autograd:
            try:
                expected = autograd_grad(f, [*args, w], i)
            except (NotImplementedError, AttributeError, TypeError, ValueError, AssertionError):
                continue  # autograd lacks this function or form; finite differences stand
            np.testing.assert_allclose(g, expected, rtol=1e-6, atol=1e-9)


@pytest.mark.parametrize("case", CASES[::3], ids=lambda c: c.id)
def test_float32_in_float32_out(case: Case, tmp_path):
    f, params = _build(case, tmp_path)
    args32 = _inputs(case, np.float32)
    args64 = [np.float64(a) if np.ndim(a) == 0 else np.asarray(a, np.float64) for a in args32]
    r = eval(case.expr, _namespace(), dict(zip(params, args64, strict=True)))
    w = np.random.RandomState(7).standard_normal(np.shape(r))
    df = tl.grad(f, wrt=tuple(range(len(params))))
    g32 = df(*args32, w.astype(np.float32))
    g64 = df(*args64, w)
    for a, g, ref in zip(args32, g32, g64, strict=True):
        assert np.asarray(g).dtype == np.float32, case.id
        assert np.shape(g) == np.shape(a)
        np.testing.assert_allclose(g, ref, rtol=2e-3, atol=2e-3)


# Matrix functions lose most precision in float32: every linear-algebra case, not a third
_LINALG32 = [c for c in CASES if "linalg." in c.expr and c not in CASES[::3]]


@pytest.mark.parametrize("case", _LINALG32, ids=lambda c: c.id)
def test_float32_linear_algebra(case: Case, tmp_path):
    test_float32_in_float32_out(case, tmp_path)


def _resolve(node: gast.expr) -> object:
    """The object a dotted name rooted at np or scipy stands for, else None."""
    if isinstance(node, gast.Name):
        return _namespace().get(node.id)
    if isinstance(node, gast.Attribute):
        base = _resolve(node.value)
        return getattr(base, node.attr, None) if base is not None else None
    return None


def _called(case: Case) -> set[object]:
    """The registered primals an expression exercises."""
    found: set[object] = set()
    tree = gast.parse(case.expr, mode="eval")
    registry = default_registry()
    for node in gast.walk(tree):
        if isinstance(node, (gast.BinOp, gast.UnaryOp)):
            found.add(type(node.op))
        elif isinstance(node, gast.Attribute):
            target = _resolve(node)
            if target is np.vectorize:  # normalize/vectorized: vectorized([h(e) for ...], x)
                found.add(runtime.vectorized)
            elif target is np.apply_along_axis:  # along_axis([h(r) for r in rows_along(..)])
                found.update((runtime.along_axis, runtime.rows_along))
            elif target is not None:
                found.add(target)
            elif node.attr == "pop":  # normalize/anf_expressions: xs.pop(i)
                found.add(runtime.without_item)
            elif registry.method_for(node.attr):
                dotted = registry.method_for(node.attr).dotted
                found.add(getattr(np, dotted.split(".")[-1]))
            elif registry.attribute_for(node.attr):
                found.add(getattr(np, registry.attribute_for(node.attr).split(".")[-1]))
        elif isinstance(node, gast.Call) and isinstance(node.func, gast.Name):
            found.add(
                __builtins__[node.func.id]
                if isinstance(__builtins__, dict)
                else getattr(__builtins__, node.func.id)
            )
        elif isinstance(node, (gast.ListComp, gast.GeneratorExp, gast.DictComp)):
            # normalize/comprehensions lowers these to loops over iterable(...), dict_of(...)
            found.add(runtime.iterable)
            if isinstance(node, gast.DictComp):
                found.add(runtime.dict_of)
    return found


def test_every_rule_has_a_case():
    covered = set().union(*(_called(c) for c in CASES))
    builtin = [r for r in default_registry().rules() if r.origin == "builtin"]
    missing = [r.name for r in builtin if r.primal not in covered]
    assert not missing, f"rules without a test case: {missing}"


def test_case_expressions_parse():
    for case in CASES:
        ast.parse(case.expr)


def _supported_script():
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parents[2] / "scripts" / "supported.py"
    spec = importlib.util.spec_from_file_location("tl_supported_script", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_supported_md_is_current():
    script = _supported_script()
    expected = script.render(script.builtin_registry())
    assert script.OUTPUT.read_text() == expected, "run: python scripts/supported.py"


def test_supported_md_lists_every_builtin_rule():
    """The script's registry holds the same built-in rules as the compiler's."""
    script = _supported_script()
    fresh = {r.primal for r in script.builtin_registry().rules() if r.origin == "builtin"}
    used = {r.primal for r in default_registry().rules() if r.origin == "builtin"}
    assert fresh == used


def test_supported_md_names_no_internal_helper():
    """The page lists what users call: tangentlike's own runtime helpers (the adjoints
    generated code calls, `dict_of`, `iterable`, ...) are never spelled on it."""
    from tangentlike import runtime

    text = _supported_script().OUTPUT.read_text()
    for name in runtime.__all__:
        assert f"`{name}`" not in text, name
