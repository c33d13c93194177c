"""Probe issue 13's "language and containers" items: run tl.grad (or tl.jvp) on one
small function per item and print which are differentiated right (against central
differences), refused (with the message) or wrong.

    python scripts/probe_containers.py [grad|jvp] [case ...]
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import probe_containers_cases as P

import tangentlike as tl

X = np.array([0.7, -1.3, 0.4])
CASES = [
    *[
        (name, (X,), 0)
        for name in [
            "list_const_index",
            "list_loop_index",
            "list_loop_recurrence",
            "dict_const_key",
            "dict_computed_key",
            "dict_overwrite",
            "list_of_arrays_write",
            "list_pop",
            "list_pop_loop",
            "dict_kwargs",
            "dict_zip",
            "sorted_consts",
            "sorted_dict_keys",
            "dict_get_default",
            "enum_zip",
            "zip_rev",
            "enum_rev",
            "zip_dict_items",
            "net_loss",
            "attr_fn",
            "closure_default",
            "closure_default_diff",
            "copy_inplace",
            "bi_min2",
            "bi_min3",
            "bi_max_list",
            "bi_abs",
            "bi_abs_array",
            "bi_sum",
            "bi_sum_start",
            "bi_round",
            "bi_divmod",
            "layers_loop",
            "global_layers",
            "act_attr",
        ]
    ],
    ("star_sum", (0.3, -1.1), (0, 1)),
    ("star_call", (0.3, -1.1), (0, 1)),
    ("star_call_list", (0.3, -1.1), (0, 1)),
    ("star_call_fixed", (0.3, -1.1), (0, 1)),
    ("star_local_tuple", (0.3, -1.1), (0, 1)),
    ("pow_zero", (np.array([0.0, 1.0, 2.0]),), 0),
    ("pow_zero_scalar", (np.array([0.0, 0.0, 2.0]),), 0),
    ("bi_pow", (np.array([0.7, 1.3, 0.4]),), 0),
    ("rng_const", (X, "rng"), 0),
    ("rng_normal", (X, "rng"), 0),
]


def _args(args):
    return [np.random.default_rng(5) if isinstance(a, str) else a for a in args]


def _fd(f, args, i, eps=1e-6):
    g = np.zeros(np.shape(args[i]))
    for k in np.ndindex(*np.shape(args[i])):
        e = np.zeros(np.shape(args[i]))
        e[k] = eps
        up, down = _args(args), _args(args)
        up[i], down[i] = args[i] + e, args[i] - e
        g[k] = (float(f(*up)) - float(f(*down))) / (2 * eps)
    return g if np.ndim(args[i]) else float(g)


def _derivatives(f, args, wrt, mode):
    wrts = wrt if isinstance(wrt, tuple) else (wrt,)
    if mode == "grad":
        g = tl.grad(f, wrt=wrt)(*_args(args))
        return g if isinstance(wrt, tuple) else (g,)
    out = []
    for i in wrts:  # jvp along each unit direction of argument i
        column = np.zeros(np.shape(args[i]))
        for k in np.ndindex(*np.shape(args[i])):
            unit = [np.zeros(np.shape(args[j])) for j in wrts]
            unit[wrts.index(i)][k] = 1.0
            t = tuple(unit) if isinstance(wrt, tuple) else unit[0]
            column[k] = tl.jvp(f, wrt=wrt)(*_args(args), t)[1]
        out.append(column)
    return out


def probe(name, args, wrt, mode):
    f = getattr(P, name)
    try:
        grads = _derivatives(f, args, wrt, mode)
    except Exception as err:  # the point is to see every refusal and crash
        kind = "REFUSED" if type(err).__module__.startswith("tangentlike") else "CRASH"
        return kind, f"{type(err).__name__}: {err}".replace("\n", " | ")[:300]
    for i, g in zip(wrt if isinstance(wrt, tuple) else (wrt,), grads, strict=True):
        expected = _fd(f, list(args), i)
        if not np.allclose(np.asarray(g, float), expected, rtol=1e-5, atol=1e-6):
            return "WRONG", f"wrt {i}: {g} against differences {expected}"
    return "OK", ""


def main(argv):
    mode = argv[0] if argv and argv[0] in ("grad", "jvp") else "grad"
    only = [a for a in argv if a not in ("grad", "jvp")]
    for name, args, wrt in CASES:
        if not only or name in only:
            kind, message = probe(name, args, wrt, mode)
            print(f"{kind:8s} {name:24s} {message}")


if __name__ == "__main__":
    main(sys.argv[1:])
