"""A pytest plugin that re-runs Google Tangent's own tests with tangentlike.

It installs scripts/tangent_suite_shim.py as the `tangent` package (its docstring says
how each Tangent entry point maps onto tangentlike) before Tangent's conftest imports
it, runs Tangent's tests unchanged, with their own references (autograd, or their
numeric gradients where autograd cannot run), and records each test's outcome:

- ok: the test passes;
- refused: a tangentlike error (a located refusal) ended it;
- crash: any other exception from tangentlike or the code it generated;
- wrong: the test's own comparison failed (an AssertionError outside tangentlike);
- out of scope, with the reason: TensorFlow tests (no TensorFlow here, and tangentlike
  differentiates NumPy); tests of Tangent itself (its parser: test_parses; its refusal
  of attributes: test_attributes; its `insert_grad_of` construct); functions of the
  corpus that call Tangent's runtime (`tangent.push`/`pop`/`Stack`); and any failure
  raised outside tangentlike (by the reference or the test), listed by the driver.

`TL_TANGENT_ORDER=2` checks the second order instead: where a test passes, each
derivative it built is differentiated again (scripts/tangent_suite_second.py: tl.grad of
x -> <vjp(x, seed), u> for reverse mode, of x -> <jvp(x, t), u> for forward mode) and
checked against central differences; the tests that are second order themselves
(Hessian-vector products: compared with autograd's by the test) count as they are,
except reverse over reverse: its test compares with a relative tolerance of 1e-2 and
NaN counted as 0, so its second derivative is checked again against central
differences of the first gradient (tangent_suite_second.check_nested).
`TL_TANGENT_OUT` names the JSON file written at the end: test id -> outcome and reason.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import numpy
import pytest
import tangent_suite_second as second
import tangent_suite_shim as shim
from autograd_suite_plugin import _failure

import tangentlike as tl

sys.modules["tangent"] = shim
sys.modules["tangent.grad_util"] = shim.grad_util
sys.modules["tangent.quoting"] = shim.quoting

TF_ARGS = {"t", "t1", "t2", "s", "mat1", "mat2", "timage", "timage1", "timage2", "tkernel"}
TANGENT_ITSELF = {
    "test_parses": "tests Tangent's parser (tangent.quoting)",
    "test_attributes": "asserts Tangent's refusal of attributes (tangentlike supports them)",
    "test_inlining_contextmanager": "Tangent's `with insert_grad_of` construct",
    "test_hvp_complex_tf": "TensorFlow",
}
TANGENT_RUNTIME = {"stack_pushing", "useless_stack_ops", "redefining_var_as_list"}
_results: dict[str, dict] = {}


def _scope(item) -> str | None:
    """Why `item` is out of scope, or None."""
    name = item.originalname if hasattr(item, "originalname") else item.name
    if name in TANGENT_ITSELF:
        return TANGENT_ITSELF[name]
    params = getattr(getattr(item, "callspec", None), "params", {})
    if TF_ARGS & set(params) or name.endswith("_tf"):
        return "TensorFlow"
    func = getattr(params.get("func"), "__name__", "")
    if func in TANGENT_RUNTIME:
        return f"{func} calls Tangent's runtime (tangent.Stack/push/pop)"
    return None


def pytest_collection_modifyitems(items):
    for item in items:
        why = _scope(item)
        if why is not None:
            item.add_marker(pytest.mark.skip(reason=f"out of scope: {why}"))


@pytest.hookimpl(tryfirst=True)
def pytest_fixture_setup(fixturedef, request):
    """The Hessian-vector-product tests of NumPy functions take a `tf` fixture that skips
    them without TensorFlow; they do not use it: give them a placeholder."""
    if fixturedef.argname == "tf" and not request.node.name.startswith("test_hvp_complex_tf"):
        fixturedef.cached_result = ("no TensorFlow", fixturedef.cache_key(request), None)
        return "no TensorFlow"
    return None


@pytest.hookimpl(tryfirst=True)
def pytest_pyfunc_call(pyfuncitem):
    """test_hvp_straightline and test_hvp_calltree call `_test_hvp(func, optimized, tf)`,
    but `_test_hvp` takes (func, optimized): a slip hidden by their TensorFlow skip. Run
    them as meant: `_test_hvp(func, optimized)`."""
    functions = {"test_hvp_straightline": "f_straightline", "test_hvp_calltree": "f_calltree"}
    name = pyfuncitem.originalname
    if name in functions:
        module = pyfuncitem.module
        module._test_hvp(getattr(module, functions[name]), pyfuncitem.funcargs["optimized"])
        return True
    return None


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item):
    shim.calls.clear()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    report = yield
    if call.when == "setup" and report.skipped:
        why = str(call.excinfo.value) if call.excinfo else "skipped"
        why = why if why.startswith("out of scope") else f"out of scope: {why}"
        _results[item.nodeid] = {"outcome": "out of scope", "why": why.split(": ", 1)[1]}
    elif call.when == "call":
        record = _outcome(call.excinfo)
        if record["outcome"] == "ok" and os.environ.get("TL_TANGENT_ORDER") == "2":
            record = _second_order(list(shim.calls))
        _results[item.nodeid] = record
    return report


def _outcome(excinfo) -> dict:
    if excinfo is None:
        return {"outcome": "ok"}
    error = excinfo.value
    if isinstance(error, tl.TangentlikeError) or getattr(error, "tl_origin", False):
        return _failure(error, "")
    if isinstance(error, AssertionError):
        return {"outcome": "wrong", "why": str(error).replace("\n", " ")[:300]}
    if isinstance(error, pytest.skip.Exception):
        return {"outcome": "out of scope", "why": str(error)}
    return {"outcome": "out of scope", "why": f"not tangentlike: {type(error).__name__}: {error}"}


def _second_order(calls: list[dict]) -> dict:
    """The second-order check of every first-order derivative the test built, with
    the corpus's `np` back to NumPy (the test's autograd reference leaves it at
    autograd.numpy, which tangentlike would read when it differentiates again)."""
    record = {"outcome": "ok"}
    rng = numpy.random.default_rng(0)
    for c in calls:
        if c["kind"] == "grad" and not (c["nested"] and not c["preserve_result"]):
            continue  # (a first gradient: none is built alone in the four files)
        names = c.get("user", c["func"]).__globals__
        saved = names.get("np")
        names["np"] = numpy
        try:
            # reverse over reverse: checked again, tighter than by the test
            record = (second.check_nested if c["kind"] == "grad" else second.check)(c, rng)
        except Exception as e:  # the harness itself failed on this call
            record = {"outcome": "out of scope", "why": f"harness: {type(e).__name__}: {e}"}
        finally:
            names["np"] = saved
        if record["outcome"] != "ok":
            return record
    return record


def pytest_unconfigure(config):
    out = os.environ.get("TL_TANGENT_OUT")
    if out:
        Path(out).write_text(json.dumps(_results, indent=1))
