"""Write docs/supported.md: every callable the built-in rules cover, from the registry.

    python scripts/supported.py           # rewrite docs/supported.md
    python scripts/supported.py --check   # exit 1 if docs/supported.md is stale

The page is generated, never edited by hand, so it cannot drift from the rules
(tests/rules/test_table.py checks it is current).
"""

from __future__ import annotations

import builtins
import importlib
import sys
from pathlib import Path

import gast

ROOT = Path(__file__).resolve().parent.parent
OUTPUT = ROOT / "docs" / "supported.md"

# Where a primal is looked up, in order, and how the page spells the namespace.
NAMESPACES = [
    ("numpy.linalg", "np.linalg"),
    ("numpy.random", "np.random"),
    ("numpy.fft", "np.fft"),
    ("numpy", "np"),
    ("scipy.special", "scipy.special"),
    ("scipy.stats", "scipy.stats"),
    ("scipy.linalg", "scipy.linalg"),
    ("scipy.signal", "scipy.signal"),
    ("scipy.integrate", "scipy.integrate"),
    ("math", "math"),
    ("builtins", ""),
]

OPERATORS = {
    gast.Add: "+",
    gast.Sub: "-",
    gast.Mult: "*",
    gast.Div: "/",
    gast.Pow: "**",
    gast.MatMult: "@",
    gast.USub: "-x",
    gast.UAdd: "+x",
    gast.FloorDiv: "//",
    gast.Mod: "%",
    gast.BitAnd: "&",
    gast.BitOr: "|",
    gast.BitXor: "^",
    gast.LShift: "<<",
    gast.RShift: ">>",
    gast.Not: "not",
    gast.Invert: "~",
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
}


def builtin_registry():
    """A fresh registry holding the built-in rule files only (no user rules)."""
    sys.path.insert(0, str(ROOT))
    from tangentlike.rules.registry import Registry, load_rule_files

    registry = Registry()
    registry.builtins(load_rule_files)  # the compiler's own list, deferred files included
    return registry


def _modules() -> list[tuple[str, object]]:
    found = []
    for name, spelled in NAMESPACES:
        try:
            found.append((spelled, importlib.import_module(name)))
        except ImportError:
            continue
    return found


def spellings(primal: object) -> tuple[str, list[str]]:
    """(section, names) for a primal: its namespace and every public name it has there."""
    if primal in OPERATORS:
        return "Python operators", [OPERATORS[primal]]
    owner = getattr(primal, "__self__", None)  # a distribution's method: scipy.stats.norm.pdf
    for spelled, module in _modules() if owner is not None else []:
        names = sorted(n for n, obj in vars(module).items() if obj is owner)
        if names and not isinstance(owner, type(builtins)):
            return spelled, [f"{spelled}.{n}.{primal.__name__}" for n in names[:1]]
    for spelled, module in _modules():
        names = sorted(
            n for n, obj in vars(module).items() if not n.startswith("_") and obj is primal
        )
        if names:
            if module is builtins:
                return "Python builtins", names
            return spelled, [f"{spelled}.{n}" for n in names]
    return "other", [getattr(primal, "__qualname__", repr(primal))]


def forms(registry, rule) -> str:
    """Which forms `rule` has: reverse, and forward with how it is stated (its kind)."""
    from tangentlike.rules.tangent import NoForwardFormError

    try:
        trule = registry.lookup_tangent(rule.primal)
    except NoForwardFormError as err:
        return "reverse; forward pending" + (f" ({err.why})" if err.why else "")
    return f"reverse, forward ({trule.kind})"


def render(registry) -> str:
    """The Markdown page for `registry`'s built-in rules."""
    from tangentlike import runtime

    sections: dict[str, list[tuple[list[str], str, str]]] = {}
    for rule in registry.rules():
        if rule.origin != "builtin" or runtime.owns(rule.primal):
            continue  # tangentlike's own helpers (generated code calls them): not user API
        section, names = spellings(rule.primal)
        sections.setdefault(section, []).append((names, forms(registry, rule), rule.restriction))
    nondiff: dict[str, dict[str, list[str]]] = {}
    for primal in registry.nondifferentiable_primals():
        if runtime.owns(primal):
            continue
        section, names = spellings(primal)
        why = registry.nondifferentiable_reason(primal)
        nondiff.setdefault(section, {}).setdefault(why, []).extend(names)

    from tangentlike.rules.numpy import ATTRIBUTES, COPYING_METHODS, METHODS, PACKED_METHODS

    order = ["Python operators", "Python builtins", "np", "np.linalg", "np.random", "np.fft"]
    order += ["scipy.special", "scipy.stats", "scipy.linalg", "scipy.signal", "scipy.integrate"]
    order += ["math", "other"]
    count = sum(len(v) for v in sections.values())
    spelled = sum(len(names) for v in sections.values() for names, _, _ in v)
    forward = sum(1 for v in sections.values() for _, form, _ in v if "forward (" in form)
    lines = [
        "# Supported callables",
        "",
        "Generated by `python scripts/supported.py` from the rule registry; do not edit.",
        "",
        f"{count} differentiable callables under {spelled} names, each with a derivative rule",
        "checked against finite differences by `tests/rules/test_table.py`; then the array",
        "methods that map to them, and the non-differentiable functions that pass through",
        "with no gradient. Aliases of one function share a line. A restriction says what",
        "the rule does not cover or how it treats a kink; a parameter a rule does not",
        "differentiate is refused at compile time when a differentiated value reaches it.",
        "",
        f"Forms: every rule has its reverse form (gradients, `tl.grad`, `tl.vjp`); {forward}",
        "also have a forward form (tangents, forward mode), stated beside the reverse one or",
        "derived with it from one statement by the rule's kind (`tangentlike/rules/kinds.py`):",
        "*elementwise* (from the rule's partial derivatives), *linear* (the function applied",
        "to the tangents), *bilinear* (one term per operand), *reduction* (one weight for both",
        "forms), or *template* (a forward template beside the reverse one). Asking forward",
        "mode for a rule without a forward form is an error naming the rule, never a zero.",
        "",
    ]
    for section in order:
        if section not in sections:
            continue
        rows = sorted(sections[section])
        lines += [f"## {_title(section)} ({len(rows)})", "", "| callable | forms | restriction |"]
        lines += ["| --- | --- | --- |"]
        lines += [
            f"| {', '.join(f'`{n}`' for n in names)} | {form} | {why} |"
            for names, form, why in rows
        ]
        lines.append("")
    lines += [
        "## Array methods and attributes",
        "",
        "`x.name(...)` is differentiated as the function form `np.name(x, ...)`.",
        "",
        "| method | function |",
        "| --- | --- |",
    ]
    spelled_forms = {f"x.{m}(...)": d for m, d in METHODS.items()}
    spelled_forms.update({f"x.{m}(...)": d for m, d in PACKED_METHODS.items()})
    spelled_forms.update({f"x.{a}": d for a, d in ATTRIBUTES.items()})
    copying = {f"x.{m}(...)" for m in COPYING_METHODS}
    spelled_forms.update({f"x.{m}(...)": d for m, d in COPYING_METHODS.items()})
    for form, dotted in sorted(spelled_forms.items()):
        if _exists(dotted):
            called = dotted.replace("numpy.", "np.", 1)
            called = f"{called}(np.copy(x))" if form in copying else called
            lines.append(f"| `{form}` | `{called}` |")
    concatenators = sorted(
        spellings(obj)[1][0] for obj in registry.concatenator_objects() if spellings(obj)[1]
    )
    lines += [
        "",
        "## Subscripts that concatenate",
        "",
        ", ".join(f"`{n}[...]`" for n in concatenators) + ": each item (array, scalar, list)",
        "gets its piece of the gradient; constant slices are ranges; string directives and",
        "range bounds that depend on the differentiated inputs are refused.",
    ]
    lines += _complex_section(registry)
    lines += [
        "",
        "## Non-differentiable (pass through with no gradient)",
        "",
        "Each has an integer, boolean or locally constant result in every floating",
        "argument, checked numerically by `tests/rules/test_nondifferentiable.py`.",
        "",
    ]
    for section in order:
        for why, names in sorted(nondiff.get(section, {}).items()):
            spelled = ", ".join(f"`{n}`" for n in sorted(set(names)))
            lines.append(f"- **{_title(section)}**, {why}: {spelled}")
    lines += [
        "",
        "## Refused (a located error when a differentiated value reaches the output)",
        "",
    ]
    refused: dict[str, list[str]] = {}
    helpers = 0
    for primal, refusal in registry.refused_primals().items():
        if runtime.owns(primal):
            helpers += 1  # a helper of generated gradients: said once, below
            continue
        refused.setdefault(refusal.what, []).extend(spellings(primal)[1])
    for what, names in sorted(refused.items()):
        lines.append(f"- {', '.join(f'`{n}`' for n in sorted(names))}: {what}")
    lines.append(
        f"- the second derivative (grad of grad, hvp, hessian) through the bespoke adjoints of "
        f"some functions above ({helpers} helpers of generated gradients with no second-order "
        "rule yet, e.g. that of xs.pop): refused at the user's line; "
        "docs/higher.md"
    )
    lines.append("- f-strings and `%`-formatting of a differentiated value: they make text")
    from tangentlike.analyze.calls import WRITERS

    writers = ", ".join(f"`np.{n}`" for n in (*WRITERS[:-1], "random.shuffle"))
    lines.append(
        f"- {writers} and every ufunc's `.at`, given a differentiated value: they write into "
        "their first argument in place, which the gradient cannot follow (out of place: "
        "`np.where`, `v.copy()`, `b = b + ...`)"
    )
    lines.append("")
    return "\n".join(lines)


def _complex_section(registry) -> list[str]:
    """Complex values inside a real function: what takes them, makes them, ends them."""
    roles, forms_ = registry.complex_table()
    by_role: dict[str, set[str]] = {}
    for primal, role in roles.items():
        if (getattr(primal, "__module__", None) or "").startswith("tangentlike."):
            continue  # a helper of generated gradients (runtime.real_part): not the user's
        names = [OPERATORS[primal]] if primal in OPERATORS else spellings(primal)[1]
        by_role.setdefault(role, set()).update(names)

    def listed(role: str) -> str:
        return ", ".join(f"`{n}`" for n in sorted(by_role.get(role, ())))

    complex_forms = sorted(n for p in forms_ for n in spellings(p)[1])
    return [
        "",
        "## Complex values inside a real function",
        "",
        "A function with real inputs and a real output may compute with complex values in",
        "between (a power spectrum, a spectral filter, a convolution by FFT). The convention",
        "is autograd's: the adjoint of a complex z is dL/dRe(z) - i dL/dIm(z); a real value",
        "that entered complex arithmetic takes the real part of its adjoint. Where a value",
        "may be complex (made from a complex literal, a transform, a complex `dtype`, or",
        "arithmetic on such a value), only the functions below are differentiated; any",
        "other is refused at its line, as is a complex value passed to a helper function",
        "differentiated from its source or returned as an output. Second derivatives",
        "through complex values follow the same rules (the real part a real value's",
        "adjoint takes has one); the transforms' helpers have no second-order rule yet",
        "and are refused, located.",
        "",
        f"- make complex values from real ones: {listed('source')}, {listed('real-source')} "
        "(real input only), a complex literal, `x.astype(complex)`",
        f"- end them with a real result: {listed('sink')}, and `z.real`, `z.imag`",
        f"- take them as they are: {listed('safe')}",
        f"- with a complex form beside the real one: {', '.join(f'`{n}`' for n in complex_forms)}",
    ]


def _title(section: str) -> str:
    titles = {"np": "numpy", "np.linalg": "numpy.linalg", "np.random": "numpy.random"}
    return {**titles, "np.fft": "numpy.fft"}.get(section, section)


def _exists(dotted: str) -> bool:
    module, _, attr = dotted.rpartition(".")
    return hasattr(importlib.import_module(module), attr)


def main(argv: list[str]) -> int:
    text = render(builtin_registry())
    if "--check" in argv:
        if not OUTPUT.exists() or OUTPUT.read_text() != text:
            print(f"{OUTPUT} is stale: run python scripts/supported.py", file=sys.stderr)
            return 1
        return 0
    OUTPUT.parent.mkdir(parents=True, exist_ok=True)
    OUTPUT.write_text(text)
    print(f"wrote {OUTPUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
