"""Contenders that run on NumPy arrays: hand-written, tangentlike, autograd, tangent-ad.

Each adapter takes a Task and returns a Prepared (see common.py). tangentlike
APIs that do not exist yet (tl.jvp, tl.hvp, tl.hessian, `jit=` of tl.grad) are
reported as not available, so the same suite measures them once they land.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable

from ..workloads import rebind_numpy
from .common import NotAvailable, Prepared, Task, numpy_tuple, refused, require


def _calling(fn: Callable, args: tuple, pick: Callable = numpy_tuple) -> Prepared:
    return Prepared(call=lambda: fn(*args), as_numpy=pick)


def _second(result) -> tuple:
    """(value, derivative) pairs: keep the derivative."""
    return numpy_tuple(result[1])


# --- the baseline and the primal ---------------------------------------------------------------


def hand_written(task: Task) -> Prepared:
    """The expert's gradient; for the Hessian measurement, the expert's Hessian."""
    w = task.workload
    if task.kind == "hessian":
        if w.hessian_by_hand is None:
            raise NotAvailable("no hand-written Hessian for this workload")
        return _calling(w.hessian_by_hand, task.args)
    return _calling(w.by_hand, task.args)


def primal(task: Task) -> Prepared:
    """The function alone, no derivative: how much of each ratio the user's code itself costs."""
    return _calling(task.workload.f, task.args, pick=lambda _: ())


# --- tangentlike -------------------------------------------------------------------------------


def _tl_api(name: str) -> Callable:
    tl = require("tangentlike")
    api = getattr(tl, name, None)
    if api is None:
        raise NotAvailable(f"not available (tangentlike has no tl.{name} yet)")
    return api


def _tl_built(build: Callable) -> Callable:
    """Build a tangentlike function; a refusal is shown, not raised (it is a finding)."""
    try:
        return build()
    except NotAvailable:
        raise
    except Exception as err:
        raise refused(err) from err


def tangentlike_python(task: Task) -> Prepared:
    return _tangentlike(task, jit=False)


def tangentlike_jit(task: Task) -> Prepared:
    return _tangentlike(task, jit=True)


def _tangentlike(task: Task, jit: bool) -> Prepared:
    w, args, i = task.workload, task.args, task.argnum
    options = {}
    if jit:
        grad = _tl_api("grad")
        if "jit" not in inspect.signature(grad).parameters:
            raise NotAvailable("not available (tl.grad has no jit= yet)")
        options["jit"] = True
    if task.kind == "grad":
        df = _tl_built(lambda: _tl_api("grad")(w.f, wrt=w.wrt, **options))
        return _calling(df, args)
    if jit and task.kind != "jvp":
        raise NotAvailable(f"not measured (jit=True is timed for grad and jvp, not {task.kind})")
    if task.kind == "jvp":
        jf = _tl_built(lambda: _tl_api("jvp")(w.f, wrt=i, **options))
        return _calling(jf, (*args, task.probe), pick=_second)
    if task.kind == "hvp":
        hv = _tl_built(lambda: _tl_api("hvp")(w.f, wrt=i))
        return _calling(hv, (*args, task.probe))
    hess = _tl_built(lambda: _tl_api("hessian")(w.f, wrt=i))
    return _calling(hess, args)


# --- autograd ----------------------------------------------------------------------------------


def autograd_(task: Task) -> Prepared:
    """autograd on a copy of f whose `np` is autograd.numpy (f's globals untouched)."""
    autograd = require("autograd")
    anp = require("autograd.numpy")
    w, args, i = task.workload, task.args, task.argnum
    fa = rebind_numpy(w.f, anp)
    if task.kind == "grad":
        return _calling(autograd.grad(fa, argnum=w.wrt), args)
    if task.kind == "jvp":
        make_jvp = autograd.make_jvp
        return Prepared(lambda: make_jvp(fa, i)(*args)(task.probe), _second)
    if task.kind == "hvp":
        make_hvp = autograd.make_hvp
        return Prepared(lambda: make_hvp(fa, i)(*args)[0](task.probe), numpy_tuple)
    return _calling(autograd.hessian(fa, argnum=i), args)


# --- tangent-ad --------------------------------------------------------------------------------


def tangent_ad(task: Task) -> Prepared:
    """tangent-ad (PyPI), the maintained fork of Google's Tangent, on the plain function."""
    tangent = require("tangent")
    w, args, i = task.workload, task.args, task.argnum
    if task.kind == "hessian":
        raise NotAvailable("not available (tangent-ad has no Hessian)")
    try:
        if task.kind == "grad":
            prepared = _calling(tangent.grad(w.f, wrt=w.wrt, verbose=0), args)
        elif task.kind == "jvp":
            prepared = _calling(tangent.jvp(w.f, wrt=(i,), verbose=0), (*args, task.probe))
        else:  # hvp: forward over reverse, the JVP of its own gradient
            hv = tangent.jvp(tangent.grad(w.f, wrt=(i,)), wrt=(i,))
            prepared = _calling(hv, (*args, 1.0, task.probe))
        prepared.call()  # what it generated may fail only when run: that is a refusal too
    except Exception as err:
        raise refused(err) from err
    return prepared
