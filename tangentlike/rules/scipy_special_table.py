"""The elementwise rules of `scipy.special`, as data: one expression per parameter.

Each entry maps a function to its parameters and, for each parameter it is
differentiated in, the contribution in terms of `g` (the result's adjoint),
the parameters and `result`. A parameter with no expression (a Bessel order,
the `a` of `gammainc`) has no closed-form derivative: a differentiated value
reaching it is refused, never given a zero. Every expression is `g` times a
partial derivative, so the forward form is derived from the same text
(rules/tangent.py).

The derivative of a special function is often another one; the expressions
call them through `special` (scipy.special), which the generated code
imports. Removable singularities (`i1` at 0, `exprel` at 0, `ellipk` at 0,
`spence` at 1, `boxcox` at lmbda 0) take their limit.
"""

from __future__ import annotations

import math

_TWO_OVER_SQRT_PI = repr(2.0 / math.sqrt(math.pi))
_SQRT_PI_OVER_TWO = repr(math.sqrt(math.pi) / 2.0)
_INV_SQRT_2PI = repr(1.0 / math.sqrt(2.0 * math.pi))
_SQRT_2PI = repr(math.sqrt(2.0 * math.pi))
_LN2, _LN10 = repr(math.log(2.0)), repr(math.log(10.0))
_DEG = repr(math.pi / 180.0)
_LOG_PI = repr(math.log(math.pi))
_INV_2PI = repr(1.0 / (2.0 * math.pi))


def _safe(x: str, at: str = "0.0") -> str:
    """`x` with its value `at` replaced by 1 (a divisor whose quotient is masked there)."""
    return f"np.where({x} == {at}, 1.0, {x})"


def unary(special: object) -> dict[object, str]:
    """d[x] of one-argument functions, in terms of g, x and result."""
    s = special
    table = {
        s.expit: "g * result * (1.0 - result)",
        s.logit: "g / (x * (1.0 - x))",
        s.log_expit: "g * special.expit(-x)",
        s.erf: f"g * {_TWO_OVER_SQRT_PI} * np.exp(-x * x)",
        s.erfc: f"-g * {_TWO_OVER_SQRT_PI} * np.exp(-x * x)",
        s.erfinv: f"g * {_SQRT_PI_OVER_TWO} * np.exp(result * result)",
        s.erfcinv: f"-g * {_SQRT_PI_OVER_TWO} * np.exp(result * result)",
        s.erfcx: f"g * (2.0 * x * result - {_TWO_OVER_SQRT_PI})",
        s.dawsn: "g * (1.0 - 2.0 * x * result)",
        s.ndtr: f"g * {_INV_SQRT_2PI} * np.exp(-0.5 * x * x)",
        s.log_ndtr: f"g * {_INV_SQRT_2PI} * np.exp(-0.5 * x * x - result)",
        s.ndtri: f"g * {_SQRT_2PI} * np.exp(0.5 * result * result)",
        s.gammaln: "g * special.digamma(x)",
        s.loggamma: "g * special.digamma(x)",  # real arguments
        s.gamma: "g * result * special.digamma(x)",
        s.rgamma: "-g * result * special.digamma(x)",
        s.digamma: "g * special.zeta(2.0, x)",  # trigamma; psi is the same ufunc
        s.entr: "-g * (np.log(x) + 1.0)",
        s.i0: "g * special.i1(x)",
        s.i0e: "g * (special.i1e(x) - np.sign(x) * result)",
        s.i1: "g * 0.5 * (special.i0(x) + special.iv(2.0, x))",
        s.i1e: "g * (0.5 * (special.i0e(x) + special.ive(2.0, x)) - np.sign(x) * result)",
        s.j0: "-g * special.j1(x)",
        s.j1: "g * 0.5 * (special.j0(x) - special.jv(2.0, x))",
        s.y0: "-g * special.y1(x)",
        s.y1: "g * 0.5 * (special.y0(x) - special.yv(2.0, x))",
        s.k0: "-g * special.k1(x)",
        s.k0e: "g * (result - special.k1e(x))",
        s.k1: "-g * 0.5 * (special.k0(x) + special.kv(2.0, x))",
        s.k1e: "g * (result - 0.5 * (special.k0e(x) + special.kve(2.0, x)))",
        # spence(z) = integral from 1 to z of log(t) / (1 - t): the limit at 1 is -1
        s.spence: f"g * np.where(x == 1.0, -1.0, np.log(x) / (1.0 - {_safe('x', '1.0')}))",
        s.ellipk: "g * np.where(x == 0.0, np.pi / 8.0, (special.ellipe(x) - (1.0 - x) * result)"
        f" / (2.0 * {_safe('x')} * (1.0 - x)))",
        s.ellipe: f"g * np.where(x == 0.0, -np.pi / 8.0, (result - special.ellipk(x)) / "
        f"(2.0 * {_safe('x')}))",
        # ellipkm1(p) = ellipk(1 - p)
        s.ellipkm1: "-g * np.where(x == 1.0, np.pi / 8.0, (special.ellipe(1.0 - x) - x * result)"
        " / (2.0 * np.where(x == 1.0, 1.0, (1.0 - x) * x)))",
        s.expm1: "g * (result + 1.0)",
        s.log1p: "g / (x + 1.0)",
        # exprel(x) = (e^x - 1) / x: (e^x - exprel(x)) / x, a series near 0 (cancellation)
        s.exprel: "g * np.where(np.abs(x) < 1e-3, 0.5 + x / 3.0 + x * x / 8.0, "
        f"(np.exp(x) - result) / {_safe('x')})",
        s.cbrt: "g / (3.0 * result * result)",
        s.exp2: f"g * result * {_LN2}",
        s.exp10: f"g * result * {_LN10}",
        s.sindg: f"g * {_DEG} * special.cosdg(x)",
        s.cosdg: f"-g * {_DEG} * special.sindg(x)",
        s.tandg: f"g * {_DEG} * (1.0 + result * result)",
        s.cotdg: f"-g * {_DEG} * (1.0 + result * result)",
        s.cosm1: "-g * np.sin(x)",
        s.exp1: "-g * np.exp(-x) / x",
        s.expi: "g * np.exp(x) / x",
    }
    if hasattr(s, "softplus"):  # SciPy >= 1.15
        table[s.softplus] = "g * special.expit(x)"
    return table


def binary(special: object) -> dict[object, tuple[str, str]]:
    """(d[x], d[y]) of two-argument functions whose both arguments are differentiated."""
    s = special
    return {
        s.xlogy: ("g * np.log(y)", "g * x / y"),
        s.xlog1py: ("g * np.log1p(y)", "g * x / (1.0 + y)"),
        s.rel_entr: ("g * (np.log(x / y) + 1.0)", "-g * x / y"),
        s.kl_div: ("g * np.log(x / y)", "g * (1.0 - x / y)"),
        s.betaln: (
            "g * (special.digamma(x) - special.digamma(x + y))",
            "g * (special.digamma(y) - special.digamma(x + y))",
        ),
        s.beta: (
            "g * result * (special.digamma(x) - special.digamma(x + y))",
            "g * result * (special.digamma(y) - special.digamma(x + y))",
        ),
        # binom(n, k) = gamma(n + 1) / (gamma(k + 1) gamma(n - k + 1)), real n and k
        s.binom: (
            "g * result * (special.digamma(x + 1.0) - special.digamma(x - y + 1.0))",
            "g * result * (special.digamma(x - y + 1.0) - special.digamma(y + 1.0))",
        ),
        s.poch: (
            "g * result * (special.digamma(x + y) - special.digamma(x))",
            "g * result * special.digamma(x + y)",
        ),
        # boxcox(x, lmbda) = (x**lmbda - 1) / lmbda, log(x) at lmbda = 0
        s.boxcox: (
            "g * x ** (y - 1.0)",
            "g * np.where(y == 0.0, 0.5 * np.log(x) ** 2, "
            f"(x ** y * np.log(x) - result) / {_safe('y')})",
        ),
        s.boxcox1p: (
            "g * (1.0 + x) ** (y - 1.0)",
            "g * np.where(y == 0.0, 0.5 * np.log1p(x) ** 2, "
            f"((1.0 + x) ** y * np.log1p(x) - result) / {_safe('y')})",
        ),
        # inv_boxcox(x, lmbda) = (lmbda x + 1) ** (1 / lmbda), exp(x) at lmbda = 0
        s.inv_boxcox: (
            "g * result ** (1.0 - y)",
            "g * result * np.where(y == 0.0, -0.5 * x * x, "
            f"(x / ((y * x + 1.0) * {_safe('y')}) - np.log1p(y * x) / {_safe('y')} ** 2))",
        ),
        # huber(delta, r): r**2 / 2 inside |r| <= delta, delta (|r| - delta / 2) outside
        s.huber: (
            "g * np.where(np.abs(y) <= x, 0.0, np.abs(y) - x)",
            "g * np.where(np.abs(y) <= x, y, x * np.sign(y))",
        ),
        # pseudo_huber(delta, r) = delta**2 (sqrt(1 + (r / delta)**2) - 1)
        s.pseudo_huber: (
            "g * (2.0 * x * (np.sqrt(1.0 + (y / x) ** 2) - 1.0) "
            "- y * y / (x * np.sqrt(1.0 + (y / x) ** 2)))",
            "g * y / np.sqrt(1.0 + (y / x) ** 2)",
        ),
        s.owens_t: (
            f"-g * {_INV_SQRT_2PI} * np.exp(-0.5 * x * x) * 0.5 * special.erf(y * x / "
            f"{math.sqrt(2.0)!r})",
            f"g * {_INV_2PI} * np.exp(-0.5 * x * x * (1.0 + y * y)) / (1.0 + y * y)",
        ),
    }


def partial(special: object) -> dict[object, tuple[tuple[str, ...], dict[str, str]]]:
    """Functions differentiated in some parameters only: (parameters, {param: d[param]}).
    The others (an order, a shape) have no closed-form derivative and are refused."""
    s = special
    gamma_density = "np.exp((a - 1.0) * np.log(x) - x - special.gammaln(a))"
    return {
        s.polygamma: (("n", "x"), {"x": "g * special.polygamma(n + 1, x)"}),
        # multigammaln(a, d) = sum over j < d of gammaln(a - j / 2) + const
        s.multigammaln: (
            ("a", "d"),
            {"a": "g * np.sum(special.digamma(np.expand_dims(a, -1) - 0.5 * np.arange(d)), -1)"},
        ),
        # zeta(x, q): Hurwitz; its derivative in x has no closed form
        s.zeta: (("x", "q"), {"q": "-g * x * special.zeta(x + 1.0, q)"}),
        s.gammainc: (("a", "x"), {"x": f"g * {gamma_density}"}),
        s.gammaincc: (("a", "x"), {"x": f"-g * {gamma_density}"}),
        s.gammaincinv: (
            ("a", "y"),
            {"y": "g * np.exp(result - (a - 1.0) * np.log(result) + special.gammaln(a))"},
        ),
        s.gammainccinv: (
            ("a", "y"),
            {"y": "-g * np.exp(result - (a - 1.0) * np.log(result) + special.gammaln(a))"},
        ),
        s.betainc: (
            ("a", "b", "x"),
            {
                "x": "g * np.exp((a - 1.0) * np.log(x) + (b - 1.0) * np.log1p(-x) "
                "- special.betaln(a, b))"
            },
        ),
        s.iv: (("v", "x"), {"x": "g * 0.5 * (special.iv(v - 1.0, x) + special.iv(v + 1.0, x))"}),
        s.ive: (
            ("v", "x"),
            {
                "x": "g * (0.5 * (special.ive(v - 1.0, x) + special.ive(v + 1.0, x)) "
                "- np.sign(x) * result)"
            },
        ),
        s.kv: (("v", "x"), {"x": "-g * 0.5 * (special.kv(v - 1.0, x) + special.kv(v + 1.0, x))"}),
        s.kve: (
            ("v", "x"),
            {"x": "g * (result - 0.5 * (special.kve(v - 1.0, x) + special.kve(v + 1.0, x)))"},
        ),
        s.jv: (("v", "x"), {"x": "g * 0.5 * (special.jv(v - 1.0, x) - special.jv(v + 1.0, x))"}),
        s.yv: (("v", "x"), {"x": "g * 0.5 * (special.yv(v - 1.0, x) - special.yv(v + 1.0, x))"}),
        s.yn: (("n", "x"), {"x": "g * 0.5 * (special.yn(n - 1, x) - special.yn(n + 1, x))"}),
        s.expn: (("n", "x"), {"x": "-g * special.expn(n - 1, x)"}),
        s.hyp1f1: (("a", "b", "x"), {"x": "g * a / b * special.hyp1f1(a + 1.0, b + 1.0, x)"}),
        s.hyp2f1: (
            ("a", "b", "c", "x"),
            {"x": "g * a * b / c * special.hyp2f1(a + 1.0, b + 1.0, c + 1.0, x)"},
        ),
        # Student's t cumulative distribution in t, given the degrees of freedom
        s.stdtr: (
            ("df", "t"),
            {
                "t": f"g * np.exp(special.gammaln((df + 1.0) / 2.0) - special.gammaln(df / 2.0)"
                f" - 0.5 * np.log(df) - 0.5 * {_LOG_PI} - (df + 1.0) / 2.0 * np.log1p(t * t / df))"
            },
        ),
        s.chdtr: (
            ("v", "x"),
            {
                "x": f"g * np.exp((v / 2.0 - 1.0) * np.log(x) - x / 2.0 - v / 2.0 * {_LN2}"
                " - special.gammaln(v / 2.0))"
            },
        ),
        # gdtr(a, b, x): the gamma distribution with rate a and shape b, in x
        s.gdtr: (
            ("a", "b", "x"),
            {"x": "g * np.exp(b * np.log(a) + (b - 1.0) * np.log(x) - a * x - special.gammaln(b))"},
        ),
        s.ellipkinc: (("phi", "m"), {"phi": "g / np.sqrt(1.0 - m * np.sin(phi) ** 2)"}),
        s.ellipeinc: (("phi", "m"), {"phi": "g * np.sqrt(1.0 - m * np.sin(phi) ** 2)"}),
        # radian(degrees, minutes, seconds): linear in each
        s.radian: (
            ("d", "m", "s"),
            {
                "d": f"g * {_DEG}",
                "m": f"g * {math.pi / 180.0 / 60.0!r}",
                "s": f"g * {math.pi / 180.0 / 3600.0!r}",
            },
        ),
    }
