"""Helpers generated code calls where values cross into or out of it. NumPy only.

Like runtime.py, these are copied into the generated modules that use them (a
written module carries its own), so each is self-contained: builtins, NumPy
and the other helpers here. They check and return a value:

- `gradient_like`: each gradient an entry function returns, in its argument's
  structure, shape and float dtype (every mode, every call);
- `seed_like`: a vjp seed against the output it seeds (every call);
- `rule_contribution`: a `d[p]` of a rule registered with `tl.adjoint`;
- `adjoint_contribution`, `popped`, `stack_drained`: debug mode only
  (transform.checks): every adjoint contribution, push/pop pairing, and the
  stack empty at the end.

A failed check raises ValueError("tangentlike: <what happened>\\nWhat to do:
<hint>"); the in-process wrapper turns it into errors.CheckError.
"""

from __future__ import annotations

import numpy as np


def gradient_like(b, x, name):
    """The adjoint `b` as the gradient of the argument `x` (the parameter `name`):
    x's structure (dict, list, tuple, nested), shape and float dtype; float zeros
    where b holds none (None is zero); no two arrays of the result share memory.
    A gradient of another shape is a tangentlike bug, never broadcast."""
    if type(x) is float and type(b) in (float, np.float64):
        return float(b)  # the common cases first: a float, an array of the right kind
    if (
        type(x) is np.ndarray
        and type(b) is np.ndarray
        and b.shape == x.shape
        and b.dtype == x.dtype
        and x.dtype.kind == "f"
        and b.flags.writeable
    ):
        return b
    seen = set()

    def refuse(path, problem, hint):
        raise ValueError(f"tangentlike: the gradient of {name}{path} {problem}\nWhat to do: {hint}")

    def bug(path, problem):
        refuse(path, problem, "this is a tangentlike bug; please report it with the function.")

    def like(b, x, path):
        if isinstance(b, np.ndarray) and b.dtype == object and b.ndim == 0:
            b = None  # np.zeros_like of a container: zero
        if isinstance(x, dict):
            if b is not None and not isinstance(b, dict):
                bug(path, f"is a {type(b).__name__}, but the argument is a dict")
            return {
                k: like(None if b is None else b.get(k), v, f"{path}[{k!r}]") for k, v in x.items()
            }
        if isinstance(x, (list, tuple)):
            if isinstance(b, dict) or not (b is None or hasattr(b, "__len__")):
                bug(path, f"is a {type(b).__name__}, but the argument is a {type(x).__name__}")
            if b is not None and len(b) != len(x):
                bug(path, f"has {len(b)} items, but the argument has {len(x)}")
            items = [like(None if b is None else b[i], v, f"{path}[{i}]") for i, v in enumerate(x)]
            return type(x)(items) if type(x) in (list, tuple) else type(x)(*items)  # named tuple
        if np.iscomplexobj(x):
            refuse(
                path,
                f"is asked for, but the argument is complex ({np.result_type(x)})",
                "tangentlike differentiates real values only: pass the real and imaginary "
                "parts as two float arguments.",
            )
        dtype = np.result_type(x)
        if dtype.kind != "f":
            dtype = np.dtype(np.float64)  # an integer argument: a float gradient
        if isinstance(b, (list, tuple)):  # per-row adjoints of an array used as a list
            shape = np.shape(x)
            if not shape or len(b) != shape[0]:
                bug(path, f"has {len(b)} rows, but the argument has shape {shape}")
            rows = []
            for i, row in enumerate(b):
                if row is not None and np.shape(row) != shape[1:]:
                    bug(f"{path}[{i}]", f"has shape {np.shape(row)}, but the row has {shape[1:]}")
                rows.append(np.zeros(shape[1:], dtype=dtype) if row is None else row)
            b = np.array(rows, dtype=dtype).reshape(shape)
        if b is None:
            b = np.zeros(np.shape(x), dtype=dtype)
        elif np.shape(b) != np.shape(x):
            bug(path, f"has shape {np.shape(b)}, but the argument has shape {np.shape(x)}")
        elif np.result_type(b).kind == "c":
            refuse(
                path,
                f"is complex ({np.result_type(b)}): the function computes with complex "
                "numbers, and tangentlike differentiates real code only (no complex convention)",
                "keep the computation real: carry real and imaginary parts as real arrays.",
            )
        elif np.result_type(b).kind not in "fiu":
            bug(path, f"has dtype {np.result_type(b)} for a real argument")
        if isinstance(x, np.generic):
            return dtype.type(b)
        if isinstance(x, (int, float)):
            return float(b)
        g = np.asarray(b, dtype=dtype)
        if not g.flags.writeable or id(g) in seen:
            g = g.copy()
        seen.add(id(g))
        return g

    return like(b, x, "")


def seed_like(seed, out, where):
    """The vjp seed `seed`, checked against the output `out` of `where` (the function
    and its return statement): the output's structure (tuple, list or dict, nested;
    None for a zero part of one), each part's shape, a real dtype. Returns it with
    lists and dicts copied (the backward sweep changes them) and integers as floats."""

    def describe(v):
        if isinstance(v, dict):
            return f"a dict with keys {', '.join(map(repr, v)) or '(none)'}"
        if isinstance(v, (list, tuple)):
            return f"a {type(v).__name__} of {len(v)}"
        if isinstance(v, (np.ndarray, np.generic)):
            return f"an array of shape {np.shape(v)}"
        return "None" if v is None else f"a {type(v).__name__}"

    def refuse(path, problem, hint):
        raise ValueError(f"tangentlike: vjp of {where}: {problem}\nWhat to do: {hint}")

    def like(s, o, path):
        if s is None and path:
            return None  # a zero part of a container seed
        if isinstance(o, (dict, list, tuple)):
            same = (
                isinstance(s, dict) and set(s) == set(o)
                if isinstance(o, dict)
                else isinstance(s, (list, tuple)) and len(s) == len(o)
            )
            if not same:
                refuse(
                    path,
                    f"the seed{path} is {describe(s)}, but the output{path} is {describe(o)}",
                    f"pass a seed of the output's structure ({describe(o)}), with None or "
                    "zeros for the parts that get no cotangent.",
                )
            if isinstance(o, dict):
                return {k: like(s[k], v, f"{path}[{k!r}]") for k, v in o.items()}
            return [like(s[i], v, f"{path}[{i}]") for i, v in enumerate(o)]
        numeric = isinstance(o, (int, float, np.ndarray, np.generic)) and not isinstance(o, bool)
        if isinstance(o, complex) or (numeric and np.result_type(o).kind == "c"):
            refuse(
                path,
                f"the output{path} is complex ({np.result_type(o)}); complex values may be "
                "computed inside, but outputs must be real",
                "return real values (the real and imaginary parts as separate outputs).",
            )
        if not numeric or np.result_type(o).kind not in "fiu":
            if s is None:
                return None
            refuse(
                path,
                f"the output{path} is {describe(o)}, which has no cotangent, but the seed{path} "
                f"is {describe(s)}",
                f"pass None for the seed{path}.",
            )
        if isinstance(s, bool) or not isinstance(s, (int, float, complex, np.ndarray, np.generic)):
            refuse(
                path,
                f"the seed{path} is {describe(s)}, not a number or an array",
                f"pass a float array shaped like the output{path}: shape {np.shape(o)}.",
            )
        kind = np.result_type(s).kind
        if kind not in "fiu":
            refuse(
                path,
                f"the seed{path} has dtype {np.result_type(s)}, not a real number dtype",
                f"pass a real float seed{path}"
                + (
                    " (the real part; tangentlike does not do complex cotangents)."
                    if kind == "c"
                    else "."
                ),
            )
        if np.shape(s) != np.shape(o):
            refuse(
                path,
                f"the seed{path} has shape {np.shape(s)}, "
                f"but the output{path} has shape {np.shape(o)}",
                f"pass a seed{path} of shape {np.shape(o)}, the output's shape (no broadcasting).",
            )
        if kind != "f":
            return np.asarray(s, dtype=np.float64) if np.ndim(s) else float(s)
        return s

    return like(seed, out, "")


def mismatch(g, x, name, path="", inside=False):
    """Why `g` cannot be an adjoint of the value `x` (called `name`), or "" when it
    can: x's shape and a real dtype; for a container x its structure (a list may
    also take the stacked array of its items), None for a zero part (`inside` one,
    or the whole). The reason reads after "d[x]": "['W'] of shape (2,), but ..."."""
    if isinstance(x, (dict, list, tuple)):
        if g is None:
            return ""
        kind = type(x).__name__
        if isinstance(x, dict):
            if not isinstance(g, dict):
                return f"{path} that is a {type(g).__name__}, but {name}{path} is a dict"
            for k, v in g.items():
                if k not in x:
                    return f"{path} with a key {k!r} that {name}{path} has not"
                why = mismatch(v, x[k], name, f"{path}[{k!r}]", True)
                if why:
                    return why
            return ""
        if isinstance(g, np.ndarray):  # the stacked adjoint of same-shape items
            try:
                shape = np.shape(x)
            except ValueError:
                return f"{path} that is an array, but {name}{path} is a ragged {kind}"
            if g.shape != shape:
                return f"{path} of shape {g.shape}, but {name}{path} has shape {shape}"
            return ""
        if not isinstance(g, (list, tuple)):
            return f"{path} that is a {type(g).__name__}, but {name}{path} is a {kind}"
        if len(g) != len(x):
            return f"{path} with {len(g)} items, but {name}{path} has {len(x)}"
        for i, (a, v) in enumerate(zip(g, x)):  # noqa: B905 (lengths checked above)
            why = mismatch(a, v, name, f"{path}[{i}]", True)
            if why:
                return why
        return ""
    if x is None or isinstance(x, (str, bytes)):
        return ""  # no gradient flows into it
    if isinstance(g, (list, tuple)) and np.ndim(x):  # per-row adjoints of an array
        if len(g) != len(x):
            return f"{path} with {len(g)} items, but {name}{path} has {len(x)} rows"
        for i, a in enumerate(g):
            why = mismatch(a, x[i], name, f"{path}[{i}]", True)
            if why:
                return why
        return ""
    if g is None:
        return "" if inside else f"{path} that is None"
    if isinstance(g, bool) or not isinstance(g, (int, float, complex, np.ndarray, np.generic)):
        return f"{path} that is a {type(g).__name__}, not a number or an array"
    dtype = np.result_type(g)
    if dtype.kind == "c" and not np.iscomplexobj(x):  # a complex value's adjoint may be
        return f"{path} that is complex ({dtype})"
    if dtype.kind not in "fiuc":
        return f"{path} of dtype {dtype}, not a real number dtype"
    if np.shape(g) != np.shape(x):
        return f"{path} of shape {np.shape(g)}, but {name}{path} has shape {np.shape(x)}"
    return ""


def rule_contribution(g, x, name, rule, site):
    """`g`, the `d[name]` the user rule `rule` gave at `site`, checked against the
    argument `x` it belongs to (see `mismatch`)."""
    why = mismatch(g, x, name)
    if why:
        raise ValueError(
            f"tangentlike: the rule {rule}, applied at {site}, gave d[{name}]{why}\n"
            f"What to do: fix the rule: d[{name}] must have the shape of {name} (sum over "
            "the axes broadcasting added), a real dtype, and for a list or dict its structure."
        )
    return g


def adjoint_contribution(g, like, name, site):
    """Debug mode: `g`, a value the backward code of `site` adds to an adjoint,
    checked against `like` (called `name`): the value the adjoint belongs to, or
    that adjoint itself (see `mismatch`)."""
    why = mismatch(g, like, name)
    if why:
        hint = (
            "a complex value reached a real one without its real part being taken: keep "
            "the complex values made inside the function (x * 1j, np.fft.fft(x))"
            if "complex" in why
            else "this is a tangentlike bug; please report it with the function."
        )
        raise ValueError(
            f"tangentlike: debug check: the backward code of {site} added to an adjoint a "
            f"value{why}\nWhat to do: {hint}"
        )
    return g


def popped(stack, site):
    """Debug mode: the value the push at `site` stored (pushes store (site, value)
    pairs; a site is "name at file:line"). Refuses an empty stack, or an entry
    another site pushed (the stack is out of step)."""
    if not stack:
        raise ValueError(
            f"tangentlike: debug check: the stack is empty where the backward sweep restores "
            f"{site}\nWhat to do: this is a tangentlike bug; please report it with the function."
        )
    entry = stack.pop()
    label = entry[0] if type(entry) is tuple and len(entry) == 2 else None
    if label != site and isinstance(label, str):
        key, _, where = label.partition(" at ")
        mine, _, here = site.partition(" at ")
        if where == here and "?" in (key, mine):
            label = site  # a form the labeller does not name: the place must agree
    if label != site:
        found = f"the value saved for {label}" if isinstance(label, str) else "an unlabelled value"
        raise ValueError(
            f"tangentlike: debug check: the stack is out of step: restoring {site}, the "
            f"backward sweep popped {found}\nWhat to do: this is a tangentlike bug; please "
            "report it with the function."
        )
    return entry[1]


def stack_drained(stack, where):
    """Debug mode: refuse a stack that still holds values when the gradient of `where`
    returns (the backward sweep did not restore them)."""
    if stack:
        top = stack[-1]
        label = top[0] if type(top) is tuple and len(top) == 2 else "an unlabelled value"
        raise ValueError(
            f"tangentlike: debug check: the stack still holds {len(stack)} value(s) at the end "
            f"of the gradient of {where} (the last pushed: {label})\nWhat to do: this is a "
            "tangentlike bug; please report it with the function."
        )
