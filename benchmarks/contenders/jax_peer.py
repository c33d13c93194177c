"""JAX as a contender, with and without jit, in float64 on the CPU.

Arguments become JAX arrays before timing; every call waits for its result
(`block_until_ready`), since JAX dispatches asynchronously. Python ints are
static arguments under jit (loop bounds). The function is `jax_f` when the
workload spells one, else a copy of `f` with `np` bound to jax.numpy; under
jit, `jax_jit_f` first (the loop as lax.fori_loop or scan) where it exists.
"""

from __future__ import annotations

import numpy as np

from ..workloads import rebind_numpy
from .common import Prepared, Task, bind, numpy_tuple, refused, require


def jax_eager(task: Task) -> Prepared:
    return _jax(task, jit=False)


def jax_jit(task: Task) -> Prepared:
    return _jax(task, jit=True)


def setup() -> object:
    """Import JAX in float64 mode (call before any JAX array exists)."""
    jax = require("jax")
    jax.config.update("jax_enable_x64", True)
    jax.config.update("jax_platforms", "cpu")
    return jax


def _jax(task: Task, jit: bool) -> Prepared:
    jax = setup()
    jnp = require("jax.numpy")
    w = task.workload
    f = (jit and w.jax_jit_f) or w.jax_f or rebind_numpy(w.f, jnp)
    args = tuple(jnp.asarray(a) if isinstance(a, np.ndarray) else a for a in task.args)
    static = tuple(k for k, a in enumerate(args) if isinstance(a, int) and not isinstance(a, bool))
    i = task.argnum
    probe = jnp.asarray(task.probe) if isinstance(task.probe, np.ndarray) else task.probe
    try:
        if task.kind == "grad":
            fn = jax.grad(f, argnums=w.wrt)
        elif task.kind == "jvp":

            def fn(*a):
                return jax.jvp(bind(f, a, i), (a[i],), (probe,))[1]

        elif task.kind == "hvp":

            def fn(*a):
                return jax.jvp(jax.grad(bind(f, a, i)), (a[i],), (probe,))[1]

        else:
            fn = jax.hessian(f, argnums=i)
        if jit:
            fn = jax.jit(fn, static_argnums=static)
        block = jax.block_until_ready
        prepared = Prepared(call=lambda: block(fn(*args)), as_numpy=numpy_tuple)
        prepared.call()  # a failure to trace or compile is a refusal, shown as n/a
    except Exception as err:
        raise refused(err) from err
    return prepared
