"""What an error about a function with no derivative rule says.

The message names the function by the public path a user imports it from
(`scipy.special.struve`, not `scipy.special._ufuncs.struve`), says whether
the function is known to have no gradient at all, names a supported
function that does the same job where one exists, and gives the exact
registration snippet: `@tl.adjoint(<path>)` over a template with the
function's own parameters (DESIGN.md's public API).
"""

from __future__ import annotations

import inspect
import sys

import numpy as np

from .registry import Registry

# Functions without a rule that a supported one replaces: name -> what to call instead.
INSTEAD = {
    "cho_factor": "scipy.linalg.cholesky(a, lower=True), then scipy.linalg.solve_triangular",
    "cho_solve": "scipy.linalg.solve_triangular twice with the cholesky factor, or "
    "scipy.linalg.solve(a, b)",
    "lu_factor": "scipy.linalg.solve(a, b)",
    "lu_solve": "scipy.linalg.solve(a, b)",
    "lu": "scipy.linalg.solve(a, b) or scipy.linalg.det(a)",
    "logm": "a logarithm through scipy.linalg.eigh for a symmetric matrix",
    "sqrtm": "a square root through scipy.linalg.eigh for a symmetric matrix",
    "pinvh": "np.linalg.pinv",
    "eigvalsh": "np.linalg.eigvalsh or scipy.linalg.eigh(a, eigvals_only=True)",
    "slogdet": "np.linalg.slogdet",
    "logsumexp": "scipy.special.logsumexp",
    "softmax": "scipy.special.softmax",
    "psi": "scipy.special.digamma",
    "lgamma": "scipy.special.gammaln",
}


def public_path(func: object) -> str:
    """`module.name` of `func`, by the shortest public module (no `_` part) that holds it."""
    name = getattr(func, "__name__", None) or type(func).__name__
    owner = getattr(func, "__self__", None)
    if isinstance(func, np.ufunc):  # its __module__ is numpy's, wherever it lives
        module = _root_of(func)
    else:
        module = getattr(func, "__module__", None) or ""
    if owner is not None and not inspect.ismodule(owner) and hasattr(owner, name):
        for path, mod in _public_modules(getattr(type(owner), "__module__", "")):
            for attr, value in vars(mod).items():
                if value is owner and not attr.startswith("_"):
                    return f"{path}.{attr}.{name}"
    for path, mod in _public_modules(module):
        if getattr(mod, name, None) is func:
            return f"{path}.{name}"
    qualname = getattr(func, "__qualname__", name)
    return f"{module}.{qualname}" if module else qualname


def _root_of(func: object) -> str:
    """A ufunc's package: the first loaded package whose namespace holds it."""
    name = getattr(func, "__name__", "")
    for root in ("numpy", "scipy.special", "scipy"):
        mod = sys.modules.get(root)
        if mod is not None and getattr(mod, name, None) is func:
            return root
    return ""


def _public_modules(module: str):
    """(path, module) for `module` and its parents, public ones only, shortest first."""
    parts = module.split(".") if module else []
    found = []
    for i in range(1, len(parts) + 1):
        path = ".".join(parts[:i])
        if any(p.startswith("_") for p in parts[:i]):
            break
        mod = sys.modules.get(path)
        if mod is not None:
            found.append((path, mod))
    return sorted(found, key=lambda pm: (pm[0].count("."), pm[0]))


def parameters(func: object) -> list[str]:
    """The function's parameters as a rule lists them (no *args/**kwargs), or x, y, ...
    for one whose signature Python cannot read (a ufunc: its number of inputs)."""
    try:
        if isinstance(func, np.ufunc):
            raise TypeError("a ufunc: its inputs only")
        sig = inspect.signature(func)
    except (TypeError, ValueError):
        count = getattr(func, "nin", 1) or 1
        return ["x", "y", "z", "w"][:count] if count <= 4 else [f"x{i}" for i in range(count)]
    kinds = (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)
    names = []
    for p in sig.parameters.values():
        if p.kind in kinds or p.kind is inspect.Parameter.POSITIONAL_ONLY:
            names.append(p.name if p.default is p.empty else f"{p.name}={p.default!r}")
    return names or ["x"]


def message(func: object, registry: Registry, where: str) -> tuple[str, str]:
    """(what, hint) for a differentiated value reaching `func`, which has no rule."""
    path = public_path(func)
    name = getattr(func, "__name__", "f")
    params = parameters(func)
    first = params[0].split("=")[0]
    lines = []
    why = registry.nondifferentiable_reason(func)
    refusal = registry.refusal(func)
    if why is not None:
        what = f"{path} is known to have no gradient ({why}), and a differentiated value reaches it"
    elif refusal is not None:
        what = f"{path} {refusal.what}, and a differentiated value reaches it"
    else:
        what = f"no derivative rule for {path}, and no Python source to differentiate (in {where})"
    if name in INSTEAD:
        lines.append(f"What to do: call {INSTEAD[name]}, which has a rule; or register one:")
    else:
        lines.append("What to do: register a derivative rule for it, before taking the gradient:")
    module = path.rsplit(".", 1)[0] if "." in path else ""
    root = module.split(".")[0]
    lines += [
        "    import tangentlike as tl",
        "    from tangentlike import d",
        *(
            [f"    import {module}" if root != "numpy" else "    import numpy as np"]
            if module
            else []
        ),
        "",
        f"    @tl.adjoint({path.replace('numpy.', 'np.', 1) if root == 'numpy' else path})",
        f"    def {name}_adjoint(result, {', '.join(params)}):",
        f"        d[{first}] = d[result] * ...  # the partial derivative of {name} in {first}",
        "(one d[p] line per parameter the gradient flows through; a parameter left out is",
        "refused when a differentiated value reaches it)",
    ]
    return what, "\n".join(lines)
