"""PyTorch eager (CPU, float64, one thread) as a contender, on the workload's torch spelling.

Arguments become tensors before timing (NumPy arrays shared, differentiated
ones as leaf tensors that require grad; a differentiated Python float becomes
a 0-d tensor). Gradients by torch.autograd.grad; forward mode and Hessians by
torch.func.
"""

from __future__ import annotations

import numpy as np

from .common import NotAvailable, Prepared, Task, bind, numpy_tuple, refused, require


def setup() -> object:
    torch = require("torch")
    torch.set_num_threads(1)
    return torch


def torch_eager(task: Task) -> Prepared:
    torch = setup()
    w = task.workload
    if w.torch_f is None:
        raise NotAvailable("no torch spelling of this workload")
    i = task.argnum
    leaves = set(w.wrt) if task.kind == "grad" else set()
    args = tuple(
        _tensor(torch, a, leaf=k in leaves, scalar=k == i) for k, a in enumerate(task.args)
    )
    probe = _tensor(torch, task.probe, leaf=False, scalar=True)
    f = w.torch_f
    try:
        if task.kind == "grad":
            wrt = [args[k] for k in w.wrt]

            def fn():
                return torch.autograd.grad(f(*args), wrt)

        elif task.kind == "jvp":

            def fn():
                return torch.func.jvp(bind(f, args, i), (args[i],), (probe,))[1]

        elif task.kind == "hvp":

            def fn():
                grad = torch.func.grad(bind(f, args, i))
                return torch.func.jvp(grad, (args[i],), (probe,))[1]

        else:

            def fn():
                return torch.func.hessian(bind(f, args, i))(args[i])

        fn()
    except Exception as err:
        raise refused(err) from err
    return Prepared(call=fn, as_numpy=numpy_tuple)


def _tensor(torch, value, leaf: bool, scalar: bool):
    """A NumPy array as a tensor (a leaf that requires grad if `leaf`); a float as a 0-d
    tensor when it is differentiated (`leaf`) or is the argument of jvp/hvp (`scalar`)."""
    if isinstance(value, np.ndarray):
        t = torch.from_numpy(value.copy() if leaf else value)
        return t.requires_grad_() if leaf else t
    if isinstance(value, float) and (leaf or scalar):
        return torch.tensor(value, dtype=torch.float64, requires_grad=leaf)
    return value
