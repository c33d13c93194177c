"""One line per derivative-rule case: an expression in x (and y), shapes, and a domain.

Each case becomes `def case(x, y, w): r = <expr>; return np.sum(r * w)` with a
random cotangent w; the gradient of every float argument is checked against
central differences (and autograd where it has the function).
"""

from __future__ import annotations

from dataclasses import dataclass, field

S, V, M, T = (), (3,), (2, 3), (2, 3, 4)


@dataclass(frozen=True)
class Case:
    expr: str
    shapes: dict[str, tuple[int, ...]]
    domain: str = "real"  # real | positive | unit | above1 | distinct | probability | zero(s)
    autograd: bool = True
    extra: dict[str, str] = field(default_factory=dict)  # non-differentiated arguments

    @property
    def id(self) -> str:
        dims = ",".join("x".join(map(str, s)) or "s" for s in self.shapes.values())
        return f"{self.expr}[{dims}]"


def unary(expr: str, domain: str = "real", shapes=(S, V, M, T)) -> list[Case]:
    return [Case(expr, {"x": s}, domain) for s in shapes]


def binary(expr: str, domain: str = "real") -> list[Case]:
    pairs = [(V, V), (M, M), ((3, 1), (1, 4)), (M, (3,)), (S, M), (M, S)]
    return [Case(expr, {"x": a, "y": b}, domain) for a, b in pairs]


CASES: list[Case] = [
    # operators
    *binary("x + y"),
    *binary("x - y"),
    *binary("x * y"),
    *binary("x / y", "positive"),
    *binary("x ** y", "positive"),
    *unary("x ** 2"),
    *unary("x ** 3.0"),
    *unary("2.0 ** x"),
    *unary("-x"),
    *unary("+x"),
    *unary("x * x"),
    *unary("1.0 / x", "positive"),
    Case("x @ y", {"x": (2, 3), "y": (3, 4)}),
    Case("x @ y", {"x": (3,), "y": (3, 4)}),
    Case("x @ y", {"x": (2, 3), "y": (3,)}),
    Case("x @ y", {"x": (3,), "y": (3,)}),
    Case("x @ y", {"x": (5, 2, 3), "y": (3, 4)}),
    Case("x @ y", {"x": (5, 2, 3), "y": (5, 3, 4)}),
    Case("x @ y", {"x": (2, 3), "y": (5, 3, 4)}),
    Case("float(x)", {"x": S}),
    Case("abs(x)", {"x": V}),
    # numpy elementwise
    *unary("np.negative(x)"),
    *unary("np.positive(x)"),
    *unary("np.exp(x)"),
    *unary("np.exp2(x)"),
    *unary("np.expm1(x)"),
    *unary("np.log(x)", "positive"),
    *unary("np.log2(x)", "positive"),
    *unary("np.log10(x)", "positive"),
    *unary("np.log1p(x)", "positive"),
    *unary("np.sqrt(x)", "positive"),
    *unary("np.cbrt(x)", "positive"),
    *unary("np.square(x)"),
    *unary("np.reciprocal(x)", "positive"),
    *unary("np.sin(x)"),
    *unary("np.cos(x)"),
    *unary("np.tan(x)", "unit"),
    *unary("np.arcsin(x)", "unit"),
    *unary("np.arccos(x)", "unit"),
    *unary("np.arctan(x)"),
    *unary("np.sinh(x)"),
    *unary("np.cosh(x)"),
    *unary("np.tanh(x)"),
    *unary("np.arcsinh(x)"),
    *unary("np.arccosh(x)", "above1"),
    *unary("np.arctanh(x)", "unit"),
    *unary("np.abs(x)"),
    *unary("np.fabs(x)"),
    *binary("np.add(x, y)"),
    *binary("np.subtract(x, y)"),
    *binary("np.multiply(x, y)"),
    *binary("np.divide(x, y)", "positive"),
    *binary("np.true_divide(x, y)", "positive"),
    *binary("np.power(x, y)", "positive"),
    *binary("np.maximum(x, y)", "distinct"),
    *binary("np.minimum(x, y)", "distinct"),
    *binary("np.fmax(x, y)", "distinct"),
    *binary("np.fmin(x, y)", "distinct"),
    *binary("np.arctan2(x, y)", "positive"),
    *binary("np.hypot(x, y)", "positive"),
    *binary("np.logaddexp(x, y)"),
    *unary("np.maximum(x, 0.0)", "distinct"),
    *unary("np.sinc(x)"),
    Case("np.sinc(x)", {"x": V}, "zero", autograd=False),  # autograd: nan at 0, the limit is 0
    *unary("np.deg2rad(x)"),
    *unary("np.radians(x)", shapes=(S, M)),
    *unary("np.rad2deg(x)"),
    *unary("np.degrees(x)", shapes=(S, M)),
    *unary("np.conjugate(x)", shapes=(S, M)),
    *unary("np.real(x)", shapes=(S, M)),
    *unary("np.nan_to_num(x)", shapes=(S, M)),
    *binary("np.logaddexp2(x, y)"),
    *binary("np.float_power(x, y)", "positive"),
    *binary("np.copysign(x, y)", "distinct"),
    *binary("np.fmod(x, y)", "distinct"),
    *binary("np.remainder(x, y)", "distinct"),
    *binary("np.mod(x, y)", "distinct"),
    *binary("x % y", "distinct"),
    *unary("x % 0.7", "distinct"),
    *unary("x % -0.7", "distinct"),
    *unary("2.5 % x", "positive"),
    *binary("np.divmod(x, y)[1]", "distinct"),
    *binary("np.divmod(x, y)[0] * x", "distinct"),
    *binary("divmod(x, y)[1]", "distinct"),
    Case("divmod(x, y)[1] + divmod(x, y)[0] * y", {"x": S, "y": S}, "distinct"),
    *unary("np.modf(x)[0]", "distinct"),
    *unary("np.modf(x)[1] * x", "distinct"),
    # reductions, every axis form
    *[
        Case(f"np.sum(x{a})", {"x": T})
        for a in [
            "",
            ", axis=0",
            ", axis=-1",
            ", axis=(0, 2)",
            ", axis=1, keepdims=True",
            ", keepdims=True",
        ]
    ],
    Case("np.sum(x)", {"x": S}),
    Case("x.sum(axis=1)", {"x": M}),
    Case("x.sum()", {"x": V}),
    *[
        Case(f"np.mean(x{a})", {"x": T})
        for a in ["", ", axis=1", ", axis=(0, -1)", ", axis=2, keepdims=True"]
    ],
    Case("x.mean(axis=0)", {"x": M}),
    *[
        Case(f"np.{f}(x{a})", {"x": T}, "distinct")
        for f in ("max", "min", "amax", "amin")
        for a in ["", ", axis=1", ", axis=(0, 2)", ", axis=-1, keepdims=True"]
    ],
    Case("x.max(axis=0)", {"x": M}, "distinct"),
    *[
        Case(f"np.prod(x{a})", {"x": T})
        for a in ["", ", axis=1", ", axis=(0, 2)", ", axis=0, keepdims=True"]
    ],
    *[
        Case(f"np.{f}(x{a})", {"x": T})
        for f in ("var", "std")
        for a in [
            "",
            ", axis=1",
            ", axis=(0, 2)",
            ", axis=-1, keepdims=True",
            ", ddof=1",
            ", axis=0, ddof=1",
            ", keepdims=True",
        ]
    ],
    Case("np.var(x)", {"x": V}),
    Case("np.std(x)", {"x": M}),
    Case("np.std(x * 0.0, axis=0)", {"x": M}, autograd=False),  # autograd: nan at the kink
    Case("x.var(axis=0)", {"x": M}),
    Case("x.std(ddof=1)", {"x": M}),
    *[Case(f"np.cumsum(x{a})", {"x": T}) for a in ["", ", axis=0", ", axis=-1", ", 1"]],
    Case("np.cumsum(x)", {"x": S}),
    Case("x.cumsum(axis=1)", {"x": M}),
    *[Case(f"np.cumprod(x{a})", {"x": T}) for a in ["", ", axis=0", ", axis=-1", ", 1"]],
    Case("np.cumprod(x, axis=1)", {"x": (2, 5)}, "zeros"),
    Case("np.cumprod(x)", {"x": (6,)}, "zeros"),
    Case("x.cumprod()", {"x": M}),
    *[Case(f"np.nansum(x{a})", {"x": T}) for a in ["", ", axis=1", ", axis=(0, 2), keepdims=True"]],
    Case("np.nansum(np.where(x > 0.5, np.nan, x), axis=0)", {"x": M}, autograd=False),
    *[Case(f"np.nanmean(x{a})", {"x": T}) for a in ["", ", axis=1", ", axis=-1, keepdims=True"]],
    Case("np.nanmean(np.where(x > 0.5, np.nan, x), axis=1)", {"x": (3, 4)}, autograd=False),
    *[Case(f"np.average(x{a})", {"x": T}) for a in ["", ", axis=1", ", axis=(0, 2)"]],
    Case("np.average(x, weights=y)", {"x": M, "y": M}, "positive"),
    Case("np.average(x, axis=1, weights=y)", {"x": M, "y": V}, "positive"),
    Case("np.average(x, axis=-1, weights=y)", {"x": T, "y": (4,)}, "positive"),
    Case("np.average(x, axis=0, weights=y, keepdims=True)", {"x": M, "y": M}, "positive"),
    Case("np.average(x, axis=1, weights=y)", {"x": T, "y": T}, "positive"),
    Case("np.trace(x)", {"x": (3, 3)}),
    Case("np.trace(x)", {"x": (2, 4)}),
    Case("np.trace(x, 1)", {"x": (3, 3)}),
    Case("np.trace(x, offset=-1)", {"x": (3, 4)}),
    Case("np.trace(x, axis1=1, axis2=2)", {"x": T}),
    Case("np.trace(x, 1, 0, 2)", {"x": (3, 2, 4)}),
    Case("x.trace()", {"x": (3, 3)}),
    *[
        Case(f"np.{f}(x{a})", {"x": T}, "distinct")
        for f in ("nanmax", "nanmin", "ptp")
        for a in ["", ", axis=1", ", axis=(0, 2)", ", axis=-1, keepdims=True"]
    ],
    Case("np.nanmax(np.where(x > 0.5, np.nan, x), axis=0)", {"x": M}, "distinct", False),
    *[
        Case(f"np.median(x{a})", {"x": s}, "distinct")
        for s, a in [
            (V, ""),
            ((4,), ""),
            (T, ""),
            (T, ", axis=1"),
            (T, ", axis=-1"),
            (T, ", axis=(0, 2)"),
            (T, ", axis=0, keepdims=True"),
            (T, ", keepdims=True"),
        ]
    ],
    *[
        Case(f"np.{f}(x{a})", {"x": s}, "distinct")
        for f, q in (("quantile", "0.3"), ("percentile", "70.0"))
        for s, a in [
            (V, f", {q}"),
            ((5,), f", {q}"),
            (T, f", {q}"),
            (T, f", {q}, axis=1"),
            (T, f", {q}, axis=(0, 2), keepdims=True"),
            (T, ", np.array([0.0, 0.25, 1.0]) * " + ("100.0" if f == "percentile" else "1.0")),
            (T, f", [{q}, {q} / 2], axis=-1, keepdims=True"),
        ]
    ],
    *[
        Case(f"np.{f}(x{a})", {"x": s})
        for f in ("cov", "corrcoef")
        for s, a in [((3, 5), ""), ((5, 3), ", rowvar=False"), ((2, 4), ", rowvar=True")]
    ],
    Case("np.cov(x)", {"x": (5,)}),
    Case("np.cov(x, bias=True)", {"x": (3, 5)}),
    Case("np.cov(x, ddof=2)", {"x": (3, 5)}),
    Case("np.vander(x)", {"x": V}),
    Case("np.vander(x, 5, increasing=True)", {"x": V}),
    Case("np.vander(x, N=2)", {"x": (4,)}),
    Case("np.polyval(x, y)", {"x": V, "y": (4,)}),
    Case("np.polyval(x, y)", {"x": (4,), "y": M}),
    Case("np.polyval(x, 0.7)", {"x": (4,)}),
    Case("np.polyval(np.array([1.0, -2.0, 0.5]), y)", {"y": V}),
    *[
        Case(f"np.{f}(x{a})", {"x": T})
        for f in ("nanvar", "nanstd")
        for a in ["", ", axis=1", ", axis=(0, 2), ddof=1", ", axis=-1, keepdims=True"]
    ],
    Case("np.nanvar(np.where(x > 0.5, np.nan, x), axis=1)", {"x": (3, 4)}, autograd=False),
    Case("np.nanstd(np.where(x > 0.5, np.nan, x), axis=0)", {"x": (4, 3)}, autograd=False),
    *[Case(f"np.nanprod(x{a})", {"x": T}) for a in ["", ", axis=1", ", axis=0, keepdims=True"]],
    Case("np.nanprod(np.where(x > 0.5, np.nan, x), axis=1)", {"x": (3, 4)}, "zeros", False),
    Case("np.diff(x)", {"x": (5,)}),
    Case("np.diff(x, 2)", {"x": (5,)}),
    Case("np.diff(x, axis=0)", {"x": T}),
    Case("np.diff(x, n=2, axis=-1)", {"x": T}),
    Case("np.trapezoid(x)", {"x": (5,)}, autograd=False),  # autograd: no trapezoid
    Case("np.trapezoid(x, dx=0.5, axis=0)", {"x": T}, autograd=False),
    Case("np.trapezoid(x, np.cumsum(y))", {"x": (5,), "y": (5,)}, "positive", False),
    Case("np.trapezoid(x, np.cumsum(y), axis=1)", {"x": (2, 5), "y": (5,)}, "positive", False),
    Case("np.trapezoid(x, np.cumsum(y, axis=1))", {"x": (2, 5), "y": (2, 5)}, "positive", False),
    Case("np.cumulative_sum(x)", {"x": (5,)}, autograd=False),  # autograd: NumPy 2 API
    Case("np.cumulative_sum(x, axis=1)", {"x": T}, autograd=False),
    Case("np.cumulative_sum(x)", {"x": S}, autograd=False),
    Case("np.cumulative_prod(x, axis=0)", {"x": (4, 3)}, "zeros", False),
    # products
    Case("np.matmul(x, y)", {"x": (2, 3), "y": (3, 4)}),
    Case("np.matmul(x, y)", {"x": (4, 2, 3), "y": (3,)}),
    Case("np.dot(x, y)", {"x": (2, 3), "y": (3, 4)}),
    Case("np.dot(x, y)", {"x": (3,), "y": (3,)}),
    Case("np.dot(x, y)", {"x": (2, 3), "y": (3,)}),
    Case("np.dot(x, y)", {"x": (3,), "y": (3, 2)}),
    Case("np.dot(x, y)", {"x": S, "y": (3,)}),
    Case("np.dot(x, y)", {"x": (2, 2, 3), "y": (3, 4)}),  # N-D: a sum product over a[..., :]
    Case("np.dot(x, y)", {"x": (2, 3), "y": (4, 3, 2)}),
    Case("np.dot(x, y)", {"x": (2, 1, 3), "y": (2, 3, 2)}),
    Case("np.dot(x, y)", {"x": (3,), "y": (2, 3, 4)}),
    Case("np.dot(x, y)", {"x": (2, 2, 3), "y": (3,)}),
    Case("np.dot(x, y)", {"x": S, "y": (2, 2, 3)}),
    Case("x.dot(y)", {"x": (2, 3), "y": (3, 4)}),
    Case("np.outer(x, y)", {"x": (3,), "y": (4,)}),
    # autograd gets these wrong (flattened or un-unbroadcast gradients): FD only
    Case("np.outer(x, y)", {"x": (2, 2), "y": (3,)}, autograd=False),
    Case("np.vdot(x, y)", {"x": V, "y": V}),
    Case("np.vdot(x, y)", {"x": M, "y": (3, 2)}),
    *[
        Case(f"np.{f}(x, y{m})", {"x": a, "y": b})
        for f in ("convolve", "correlate")
        for m in ("", ", 'full'", ", 'same'", ", mode='valid'")
        for a, b in [((5,), (3,)), ((2,), (4,)), ((4,), (4,))]
    ],
    *[
        Case(f"np.convolve(x, y{m})", {"x": a, "y": b})
        for m in ("", ", 'same'")
        for a, b in [(S, V), (S, S)]
    ],
    Case("np.vecdot(x, y)", {"x": M, "y": M}, autograd=False),  # autograd: NumPy 2 API
    Case("np.vecdot(x, y, axis=0)", {"x": T, "y": (2, 1, 4)}, autograd=False),
    Case("np.vecdot(x, y)", {"x": T, "y": (4,)}, autograd=False),
    Case("np.interp(x, np.array([-1.0, 0.0, 0.5, 2.0]), y)", {"x": (6,), "y": (4,)}),
    Case("np.interp(x * 3.0, np.array([-1.0, 0.0, 0.5, 2.0]), y)", {"x": M, "y": (4,)}),
    Case("np.inner(x, y)", {"x": V, "y": V}),
    Case("np.inner(x, y)", {"x": M, "y": (4, 3)}),
    Case("np.inner(x, y)", {"x": T, "y": (4,)}),
    Case("np.inner(x, y)", {"x": (4,), "y": T}),
    Case("np.inner(x, y)", {"x": S, "y": M}),
    Case("np.inner(x, y)", {"x": M, "y": S}),
    Case("np.tensordot(x, y)", {"x": T, "y": (3, 4, 2)}),
    Case("np.tensordot(x, y, 1)", {"x": T, "y": (4, 5)}),
    Case("np.tensordot(x, y, axes=0)", {"x": V, "y": M}),
    Case("np.tensordot(x, y, axes=([1, 0], [0, 1]))", {"x": T, "y": (3, 2, 5)}),
    Case("np.tensordot(x, y, axes=([2, 0], [0, 2]))", {"x": T, "y": (4, 5, 2)}),
    Case("np.tensordot(x, y, axes=(-1, 0))", {"x": M, "y": (3, 4)}),
    Case("np.einsum('ij,jk->ik', x, y)", {"x": M, "y": (3, 4)}),
    Case("np.einsum('ij,jk', x, y)", {"x": M, "y": (3, 4)}),
    Case("np.einsum('ij->', x)", {"x": M}),
    Case("np.einsum('ij->j', x)", {"x": M}),
    Case("np.einsum('ij->ji', x)", {"x": M}),
    Case("np.einsum('ii->i', x)", {"x": (3, 3)}),
    Case("np.einsum('ii', x)", {"x": (3, 3)}),
    Case("np.einsum('i,i->', x, y)", {"x": V, "y": V}),
    Case("np.einsum('i,j->ij', x, y)", {"x": V, "y": (4,)}),
    Case("np.einsum('bij,bjk->bik', x, y)", {"x": T, "y": (2, 4, 5)}),
    Case("np.einsum('ij,jk,kl->il', x, y, z)", {"x": M, "y": (3, 4), "z": (4, 2)}),
    Case("np.einsum('ij,jk,kl->il', x, y, z, optimize=True)", {"x": M, "y": (3, 4), "z": (4, 2)}),
    Case("np.einsum('i,ij,j->', x, y, z)", {"x": (2,), "y": M, "z": V}),
    Case("np.einsum('ij,ij->i', x, y)", {"x": M, "y": (1, 3)}),
    Case("np.einsum('...ij,...jk->...ik', x, y)", {"x": T, "y": (4, 2)}),
    Case("np.einsum('i...->...', x)", {"x": T}),
    Case("np.einsum('ijk,ik->j', x, y)", {"x": T, "y": (2, 4)}),
    Case("np.kron(x, y)", {"x": M, "y": (2, 2)}),
    Case("np.kron(x, y)", {"x": V, "y": (4,)}),
    Case("np.kron(x, y)", {"x": V, "y": M}),
    Case("np.kron(x, y)", {"x": S, "y": M}),
    Case("np.cross(x, y)", {"x": V, "y": V}),
    Case("np.cross(x, y)", {"x": (4, 3), "y": (4, 3)}),
    Case("np.cross(x, y)", {"x": (4, 3), "y": V}, autograd=False),  # autograd: no unbroadcast
    Case("np.cross(x, y, axis=0)", {"x": (3, 4), "y": (3, 4)}),
    Case("np.cross(x, y, axisa=0)", {"x": (3, 4), "y": (4, 3)}),
    Case("np.cross(x, y, axisb=0, axisc=0)", {"x": (4, 3), "y": (3, 4)}),
    Case("np.cross(x, y, axisa=0, axisb=1, axisc=1)", {"x": (3, 3), "y": (3, 3)}),
    Case("np.cross(x, y, axisa=0, axisb=0, axisc=-1, axis=1)", {"x": (3, 3), "y": (3, 3)}),
    Case("np.cross(x, y)", {"x": (2,), "y": (2,)}),  # two 2-vectors: the third component
    Case("np.cross(x, y)", {"x": (4, 2), "y": (3,)}, autograd=False),  # 2- and 3-vectors
    Case("np.cross(x, y, axisa=0)", {"x": (2, 4), "y": (4, 2)}),
    # shape
    Case("np.reshape(x, (3, 2))", {"x": M}),
    Case("x.reshape(6)", {"x": M}),
    Case("x.reshape(3, 2)", {"x": M}),
    Case("np.reshape(x, -1)", {"x": T}),
    Case("np.ravel(x)", {"x": T}),
    Case("x.flatten()", {"x": M}),
    Case("x.ravel()", {"x": M}),
    Case("np.squeeze(x)", {"x": (3, 1, 2)}),
    Case("np.squeeze(x, axis=1)", {"x": (3, 1, 2)}),
    Case("x.squeeze()", {"x": (1, 3)}),
    Case("np.expand_dims(x, 1)", {"x": M}),
    Case("np.expand_dims(x, (0, 2))", {"x": M}),
    Case("np.transpose(x)", {"x": T}),
    Case("np.transpose(x, (1, 2, 0))", {"x": T}),
    Case("x.T", {"x": M}),
    Case("x.transpose()", {"x": T}),
    Case("np.concatenate([x, y])", {"x": V, "y": (2,)}),
    Case("np.concatenate([x, y], axis=1)", {"x": M, "y": (2, 4)}),
    Case("np.concatenate((x, y, x), axis=0)", {"x": M, "y": (1, 3)}),
    Case("np.stack([x, y])", {"x": V, "y": V}),
    Case("np.stack([x, y], axis=1)", {"x": M, "y": M}),
    Case("np.stack([x, y], axis=-1)", {"x": M, "y": M}),
    Case("np.hstack([x, y])", {"x": V, "y": (2,)}),
    Case("np.hstack((x, y))", {"x": M, "y": (2, 4)}),
    Case("np.hstack([x, y])", {"x": S, "y": V}, autograd=False),  # autograd: scalar pieces
    Case("np.vstack([x, y])", {"x": V, "y": V}),
    Case("np.vstack([x, y])", {"x": M, "y": V}),
    Case("np.row_stack([x, y])", {"x": M, "y": V}, autograd=False),  # vstack's old alias
    Case("np.dstack([x, y])", {"x": M, "y": M}),
    Case("np.dstack([x, y])", {"x": V, "y": V}),
    Case("np.column_stack([x, y])", {"x": V, "y": (3, 2)}),
    Case("np.stack(np.split(x, 2))", {"x": (4, 3)}),
    Case("np.concatenate(np.split(x, [1, 3], axis=1), axis=1)", {"x": (2, 5)}),
    Case("np.concatenate(np.array_split(x, 3))", {"x": (7,)}),
    Case("np.vstack(np.array_split(x, 2, axis=0))", {"x": (5, 2)}),
    Case("np.stack(np.hsplit(x, 2))", {"x": (3, 4)}),
    Case("np.stack(np.hsplit(x, 2))", {"x": (4,)}),
    Case("np.stack(np.vsplit(x, 2))", {"x": (4, 3)}),
    Case("np.stack(np.dsplit(x, 2))", {"x": T}),
    Case("np.swapaxes(x, 0, 2)", {"x": T}),
    Case("x.swapaxes(-1, 0)", {"x": T}),
    Case("np.moveaxis(x, 0, -1)", {"x": T}),
    Case("np.moveaxis(x, [0, 1], [2, 0])", {"x": T}),
    Case("np.imag(x) + x", {"x": V}),  # real arguments: zero
    Case("np.angle(x) * 2.0 + x", {"x": M}),
    Case("np.angle(x, deg=True) + np.real_if_close(x)", {"x": V}),
    Case("np.gradient(x)", {"x": (6,)}),
    Case("np.gradient(x, 0.5)", {"x": (6,)}),
    Case("np.gradient(x, 0.5, edge_order=2)", {"x": (6,)}),
    Case("np.gradient(x, np.array([0.0, 0.3, 1.0, 1.2, 2.0]))", {"x": (5,)}),
    Case("np.gradient(x, axis=1)", {"x": (3, 4)}),
    Case("np.gradient(x, 2.0, 0.5)[1] * np.gradient(x)[0]", {"x": (3, 4)}),
    Case("np.stack(np.gradient(x, 0.3, edge_order=2))", {"x": (3, 4, 5)}),
    Case("np.rollaxis(x, 2)", {"x": T}),
    Case("np.rollaxis(x, 0, 3)", {"x": T}),
    Case("np.rollaxis(x, -1, 1)", {"x": T}),
    Case("np.rollaxis(x, 1, -1)", {"x": T}),
    Case("np.fft.fftshift(x)", {"x": (5,)}),
    Case("np.fft.fftshift(x, axes=1)", {"x": (3, 4)}),
    Case("np.fft.ifftshift(x)", {"x": (3, 5)}),
    Case("np.fft.ifftshift(x, axes=(0,))", {"x": (5, 2)}),
    # np.fft: complex intermediates, a real part, modulus or phase at the end
    Case("np.real(np.fft.fft(x))", {"x": (5,)}),
    Case("np.abs(np.fft.fft(x, n=6, norm='ortho'))", {"x": (2, 5)}),
    Case("np.imag(np.fft.fft(x, 4))", {"x": (2, 5)}),
    Case("np.imag(np.fft.ifft(x, axis=0, norm='forward'))", {"x": (4, 3)}),
    Case("np.real(np.fft.ifft(np.fft.fft(x) * (1 + 2j)) ** 2)", {"x": (6,)}),
    Case("np.abs(np.fft.fft2(x)) + np.real(np.fft.ifft2(x, s=(3, 4)))", {"x": (3, 4)}),
    Case("np.angle(np.fft.fftn(x, axes=(0, 2)) + 0.5) + np.real(np.fft.ifftn(x))", {"x": T}),
    Case("np.abs(np.fft.rfft(x)) ** 2", {"x": (6,)}),
    Case("np.imag(np.fft.rfft(x, axis=0, norm='ortho'))", {"x": (4, 3)}),
    Case("np.real(np.fft.rfft(x, n=5))", {"x": (6,)}, autograd=False),  # autograd: even n only
    Case("np.fft.irfft(np.fft.rfft(x) * (0.5 + 1j))", {"x": (6,)}),
    Case("np.fft.irfft(np.fft.rfft(x) * 1j, n=7, norm='forward')", {"x": (6,)}, autograd=False),
    Case("np.fft.irfft(x, axis=0)", {"x": (4, 2)}),  # a real half spectrum
    # np.vectorize of a function: a comprehension over the entries (autograd: no rule)
    Case("np.vectorize(np.sin)(x)", {"x": M}, autograd=False),
    Case("np.vectorize(np.tanh)(x) * x", {"x": V}, autograd=False),
    Case("np.apply_along_axis(np.sum, 1, x)", {"x": M}, autograd=False),
    Case("np.apply_along_axis(np.cumsum, 0, x) * x", {"x": M}, autograd=False),
    Case("np.apply_along_axis(np.sort, -1, x)", {"x": T}, autograd=False),
    # np.meshgrid (autograd has no rule): every output weighted by the test's w
    Case("np.meshgrid(x, y)[0] * np.meshgrid(x, y)[1]", {"x": (3,), "y": (4,)}, autograd=False),
    Case("np.stack(np.meshgrid(x, y, indexing='ij'))", {"x": (3,), "y": (2,)}, autograd=False),
    Case("np.meshgrid(x, y, sparse=True)[1] * x", {"x": (3,), "y": (2,)}, autograd=False),
    Case("np.stack(np.meshgrid(x, y, x))", {"x": (2,), "y": (3,)}, autograd=False),
    Case("np.meshgrid(x, y)[1] ** 2", {"x": (2, 2), "y": S}, autograd=False),
    Case(
        "np.stack(np.meshgrid(x, y, x, y, x, indexing='ij'))",
        {"x": (2,), "y": (3,)},
        autograd=False,
    ),
    Case("np.meshgrid(x, y, y, x, x, y, y, x)[5] * 2.0", {"x": (2,), "y": (2,)}, autograd=False),
    Case("np.abs(np.fft.rfft2(x)) ** 2", {"x": (4, 6)}),
    Case("np.imag(np.fft.rfftn(x, axes=(0, 2), norm='ortho'))", {"x": (4, 3, 6)}),
    Case("np.fft.irfft2(np.fft.rfft2(x) * (0.5 + 1j))", {"x": (4, 6)}),
    Case("np.fft.irfftn(x, axes=(1,))", {"x": (3, 4)}),  # a real half spectrum
    Case("np.fft.irfft2(np.fft.rfft2(x, s=(5, 7)), s=(3, 4))", {"x": (4, 6)}, autograd=False),
    Case("np.fft.hfft(np.fft.ihfft(x) * (1 - 0.5j))", {"x": (6,)}, autograd=False),  # no rule
    Case("np.real(np.fft.ihfft(x, n=7, axis=0, norm='forward'))", {"x": (6, 2)}, autograd=False),
    Case("np.fft.hfft(x, n=5, norm='ortho')", {"x": (2, 4)}, autograd=False),
    Case("np.abs(complex(x, 2.0) * x)", {"x": S}, autograd=False),  # autograd: no complex()
    Case("np.real(np.conj(x * 1j + x) * (2 + 1j)) + np.abs(x * (1 - 1j))", {"x": V}),
    *[Case(f"np.atleast_{n}d(x)", {"x": s}) for n in (1, 2, 3) for s in (S, V, M)],
    Case("np.copy(x)", {"x": M}),
    Case("x.copy()", {"x": V}),
    Case("x.astype(float)", {"x": M}, autograd=False),  # autograd: no astype function
    Case("x.astype(np.float64)", {"x": M}, autograd=False),
    Case("x.astype(int) * 1.0 + x", {"x": M}, autograd=False),
    Case("np.tile(x, 2)", {"x": V}),
    Case("np.tile(x, (2, 1))", {"x": M}),
    Case("np.tile(x, (2, 1, 3))", {"x": M}),
    Case("np.tile(x, 2)", {"x": T}, autograd=False),  # autograd: wrong for 3-D
    Case("np.repeat(x, 2)", {"x": M}),
    Case("np.repeat(x, 3, axis=1)", {"x": M}),
    Case("np.repeat(x, [1, 0, 2], axis=-1)", {"x": M}),
    Case("np.repeat(x, [2, 1])", {"x": (2,)}),
    Case("x.repeat(2, axis=0)", {"x": M}),
    Case("np.flip(x)", {"x": T}),
    Case("np.flip(x, 1)", {"x": T}),
    Case("np.flip(x, axis=(0, 2))", {"x": T}),
    Case("np.fliplr(x)", {"x": M}),
    Case("np.flipud(x)", {"x": T}),
    Case("np.roll(x, 2)", {"x": M}),
    Case("np.roll(x, -1, axis=1)", {"x": T}),
    Case("np.roll(x, (1, 2), axis=(0, 2))", {"x": T}),
    Case("np.rot90(x)", {"x": M}),
    Case("np.rot90(x, 2)", {"x": (3, 3)}),
    Case("np.rot90(x, -1, axes=(1, 2))", {"x": T}),
    Case("np.pad(x, 1)", {"x": M}),
    Case("np.pad(x, ((1, 0), (2, 3)))", {"x": M}),
    Case("np.pad(x, (1, 2), constant_values=3.0)", {"x": V}),
    Case("np.pad(x, 2, mode='edge')", {"x": M}, autograd=False),  # autograd: constant only
    Case("np.pad(x, ((1, 2), (2, 1)), mode='reflect')", {"x": (3, 4)}, autograd=False),
    Case("np.pad(x, 2, mode='symmetric')", {"x": V}, autograd=False),
    Case("np.pad(x, (0, 4), mode='wrap')", {"x": V}, autograd=False),
    Case("np.diag(x)", {"x": V}),
    Case("np.diag(x, 1)", {"x": V}),
    Case("np.diag(x, k=-2)", {"x": V}),
    Case("np.diag(x)", {"x": (3, 3)}),
    Case("np.diag(x, 1)", {"x": M}, autograd=False),  # autograd: square shapes only
    Case("np.diag(x, -1)", {"x": (4, 3)}, autograd=False),
    Case("np.diagonal(x)", {"x": M}),
    Case("np.diagonal(x, 1)", {"x": (3, 3)}),
    Case("np.diagonal(x, -1, 1, 2)", {"x": T}),
    Case("np.diagonal(x, axis1=2, axis2=0)", {"x": T}),
    Case("x.diagonal()", {"x": (3, 3)}),
    Case("np.triu(x)", {"x": (3, 3)}),
    Case("np.triu(x, 1)", {"x": T}),
    Case("np.tril(x)", {"x": M}),
    Case("np.tril(x, k=-1)", {"x": (3, 3)}),
    # a 1-D input makes a matrix (autograd's gradient keeps the matrix's shape: FD only)
    Case("np.tril(x)", {"x": V}, autograd=False),
    Case("np.triu(x, 1)", {"x": V}, autograd=False),
    Case("np.sort(x)", {"x": V}, "distinct"),
    Case("np.sort(x)", {"x": T}, "distinct"),
    Case("np.sort(x, axis=0)", {"x": T}, "distinct"),
    Case("np.sort(x, axis=None)", {"x": M}, "distinct"),
    Case("np.partition(x, 1)", {"x": (5,)}, "distinct"),
    Case("np.partition(x, (0, 2))", {"x": (2, 5)}, "distinct"),
    Case("np.partition(x, 1, axis=0)", {"x": (4, 3)}, "distinct"),
    Case("np.partition(x, 2, axis=None)", {"x": M}, "distinct"),
    Case("np.take(x, [0, 2, 2, -1])", {"x": M}),
    Case("np.take(x, 1)", {"x": M}),
    Case("np.take(x, [[0, 1], [1, 1]], axis=1)", {"x": T}),
    Case("np.take(x, [0, 3, 5], axis=-1, mode='wrap')", {"x": M}, autograd=False),
    Case("np.take(x, [0, 5], axis=0, mode='clip')", {"x": M}, autograd=False),
    Case("x.take([1, 1, 0])", {"x": V}),
    Case("np.take_along_axis(x, np.argsort(x, axis=1), axis=1)", {"x": M}, "distinct"),
    Case("np.take_along_axis(x, np.array([[[0, 0, 2, 1]]]), axis=-1)", {"x": T}),
    Case("np.take_along_axis(x, np.array([1, 1, 0]), axis=None)", {"x": M}),
    Case("np.append(x, y)", {"x": M, "y": V}),
    Case("np.append(x, y, axis=0)", {"x": M, "y": (1, 3)}),
    Case("np.append(x, y, axis=-1)", {"x": T, "y": (2, 3, 2)}),
    Case("np.select([x > 0.5, x < -0.5], [x * 2.0, y])", {"x": M, "y": V}, autograd=False),
    Case("np.select([x > 0.5, x > 0.0], [y, x], x * 3.0)", {"x": M, "y": S}, autograd=False),
    Case("np.select([x > 0.0], [x], y)", {"x": M, "y": (2, 1)}, autograd=False),
    Case("np.matrix_transpose(x)", {"x": T}, autograd=False),  # autograd: NumPy 2 API
    Case("np.permute_dims(x)", {"x": T}, autograd=False),
    Case("np.permute_dims(x, (2, 0, 1))", {"x": T}, autograd=False),
    Case("np.broadcast_to(x, (4, 3))", {"x": V}, autograd=False),
    Case("np.broadcast_to(x, (2, 3, 4))", {"x": (3, 1)}, autograd=False),
    Case("np.array([x, y])", {"x": S, "y": S}),
    Case("np.array([x, y, x])", {"x": V, "y": V}),
    Case("np.array(x)", {"x": M}),
    Case("np.asarray(x)", {"x": M}),
    # constructors whose values move with an argument (autograd gives zero for full's
    # fill_value and has no arange: FD only for those)
    Case("np.full((2, 3), x)", {"x": S}, autograd=False),
    Case("np.full((2, 3), x)", {"x": V}, autograd=False),
    Case("np.full((4, 3), x) * y", {"x": (4, 1), "y": V}, autograd=False),
    Case("np.full(3, x, dtype=np.int64) * y", {"x": S, "y": V}, autograd=False),
    Case("np.full_like(y, x)", {"x": S, "y": M}, autograd=False),
    Case("np.full_like(y, x) * y", {"x": V, "y": M}, autograd=False),
    Case("np.arange(x, x + 3.0)", {"x": S}, autograd=False),
    Case("np.arange(x, 4.0, y)", {"x": S, "y": S}, "positive", autograd=False),
    Case("np.arange(0.25, 2.0, x)", {"x": S}, "positive", autograd=False),
    Case("np.arange(x) * x", {"x": S}, "positive", autograd=False),
    Case("np.arange(x, 4.0, y, dtype=np.int64) * y", {"x": S, "y": S}, "positive", False),
    Case("np.linspace(x, y, 5)", {"x": S, "y": S}),
    Case("np.linspace(x, y, 4)", {"x": V, "y": V}),
    Case("np.linspace(x, y, 4, endpoint=False)", {"x": V, "y": S}, autograd=False),
    Case("np.linspace(x, y, 1)", {"x": S, "y": S}),
    Case("np.linspace(x, y, 0) + x", {"x": S, "y": S}),  # no samples: zero gradient, no crash
    Case("np.linspace(x, y, 0, axis=-1)", {"x": V, "y": V}, autograd=False),
    Case("np.linspace(x, y, 4, axis=1)", {"x": M, "y": V}, autograd=False),
    Case("np.linspace(x, y, 3, axis=-1)", {"x": (3, 1), "y": (1, 2)}, autograd=False),
    Case("np.linspace(x, y, 6, dtype=np.int64) * x", {"x": S, "y": S}, "positive", False),
    Case("np.linspace(x, y, 5, retstep=True)[1]", {"x": V, "y": S}, autograd=False),
    Case(
        "np.linspace(x, y, 5, retstep=True)[0] * np.linspace(x, y, 5, retstep=True)[1]",
        {"x": S, "y": V},
        autograd=False,
    ),
    # elementwise with extra arguments
    Case("np.where(x > 0, x, y)", {"x": M, "y": M}),
    Case("np.where(x > 0, x * 2.0, y)", {"x": M, "y": V}, autograd=False),
    Case("np.where(x > 0, x, 0.0)", {"x": M}),
    Case("np.clip(x, -0.5, 0.5)", {"x": T}, "distinct"),
    Case("x.clip(-0.5, 0.5)", {"x": M}, "distinct"),
    Case("np.clip(x, None, 0.5)", {"x": M}, "distinct"),
    # numpy.linalg; x @ x.T + eye makes a well-conditioned symmetric positive definite input
    Case("np.linalg.inv(x)", {"x": (3, 3)}, "positive"),
    Case("np.linalg.inv(x + 3.0 * np.eye(3))", {"x": (2, 3, 3)}),
    Case("np.linalg.solve(x, y)", {"x": (3, 3), "y": V}, "positive"),
    Case("np.linalg.solve(x, y)", {"x": (3, 3), "y": (3, 2)}, "positive"),
    Case("np.linalg.solve(x + 3.0 * np.eye(3), y)", {"x": (2, 3, 3), "y": (2, 3, 4)}),
    # autograd: the shared right-hand side's gradient is not summed over the batch
    Case("np.linalg.solve(x + 3.0 * np.eye(3), y)", {"x": (2, 3, 3), "y": (3, 4)}, autograd=False),
    Case("np.linalg.det(x)", {"x": (3, 3)}),
    Case("np.linalg.det(x)", {"x": (2, 2, 2)}),
    Case("np.array(np.linalg.slogdet(x))", {"x": (3, 3)}),
    Case("np.stack(np.linalg.slogdet(x))", {"x": (2, 3, 3)}, autograd=False),
    Case("np.linalg.cholesky(x @ x.T + np.eye(3))", {"x": (3, 3)}),
    Case("np.linalg.cholesky(x @ np.swapaxes(x, -1, -2) + np.eye(3))", {"x": (2, 3, 4)}),
    # FD through the triangle NumPy reads; autograd symmetrizes instead
    Case("np.linalg.cholesky(x + 4.0 * np.eye(3))", {"x": (3, 3)}, "unit", autograd=False),
    Case("np.linalg.cholesky(x + 4.0 * np.eye(3), upper=True)", {"x": (3, 3)}, "unit", False),
    Case("np.vstack(np.linalg.eigh(x + x.T))", {"x": (3, 3)}),
    Case("np.vstack(np.linalg.eigh(x, UPLO='U'))", {"x": (3, 3)}, autograd=False),
    Case("np.vstack(np.linalg.eigh(x))", {"x": (3, 3)}, autograd=False),
    Case("np.linalg.eigvalsh(x + x.T)", {"x": (3, 3)}),
    Case("np.linalg.eigvalsh(x)", {"x": (2, 3, 3)}, autograd=False),
    # lstsq: full column rank (x = pinv(a) b), full row rank (the minimum-norm solution);
    # autograd has no lstsq gradient
    Case("np.linalg.lstsq(x, y)[0]", {"x": (4, 2), "y": (4,)}, autograd=False),
    Case("np.linalg.lstsq(x, y, rcond=None)[0]", {"x": (4, 3), "y": (4, 2)}, autograd=False),
    Case("np.linalg.lstsq(x, y)[0]", {"x": (2, 4), "y": (2,)}, autograd=False),
    Case("np.linalg.lstsq(x, y)[0]", {"x": (3, 3), "y": (3, 2)}, "positive", autograd=False),
    Case("np.linalg.lstsq(x, y)[1]", {"x": (4, 2), "y": (4, 3)}, autograd=False),
    Case("np.linalg.lstsq(x, y)[1]", {"x": (4, 2), "y": (4,)}, autograd=False),
    Case("np.linalg.lstsq(x, y)[3]", {"x": (4, 2), "y": (4,)}, autograd=False),
    Case(
        "np.linalg.lstsq(x, y)[0] * np.linalg.lstsq(x, y)[1] + np.linalg.lstsq(x, y)[3]",
        {"x": (4, 2), "y": (4,)},
        autograd=False,
    ),
    # eig: a near-triangular matrix with distinct diagonal has real distinct eigenvalues
    Case("np.vstack(np.linalg.eig(np.triu(x) + 0.05 * x))", {"x": (3, 3)}, "distinct"),
    Case("np.linalg.eig(x + x.T)[1] ** 2", {"x": (3, 3)}, "distinct"),
    Case("np.linalg.eig(np.triu(x) + 0.05 * x)[0]", {"x": (2, 3, 3)}, "distinct"),
    Case("np.linalg.eigvals(np.triu(x) + 0.05 * x)", {"x": (3, 3)}, "distinct"),
    Case("np.linalg.eigvals(np.tril(x) - 0.05 * x)", {"x": (2, 4, 4)}, "distinct"),
    Case("np.linalg.svd(x, compute_uv=False)", {"x": (3, 3)}),
    Case("np.linalg.svd(x, compute_uv=False)", {"x": (2, 4, 3)}),
    Case("np.linalg.svd(x, compute_uv=False)", {"x": (3, 4)}),
    Case("np.vstack(np.linalg.svd(x, full_matrices=False))", {"x": (4, 3)}),
    Case("np.vstack(np.linalg.svd(x))", {"x": (3, 3)}),
    Case("np.linalg.svdvals(x)", {"x": (4, 3)}),
    Case("np.linalg.pinv(x)", {"x": (3, 3)}),
    Case("np.linalg.pinv(x)", {"x": (4, 2)}),
    Case("np.linalg.pinv(x)", {"x": (2, 4)}),
    Case("np.linalg.qr(x, mode='r')", {"x": (4, 3)}),
    Case("np.linalg.qr(x, mode='r')", {"x": (3, 3)}),
    Case("np.vstack(np.linalg.qr(x))", {"x": (4, 3)}),
    Case("np.linalg.matrix_power(x, 3)", {"x": (3, 3)}),
    Case("np.linalg.matrix_power(x, 0)", {"x": (3, 3)}),
    Case("np.linalg.matrix_power(x, -2)", {"x": (3, 3)}, "positive"),
    Case("np.linalg.multi_dot([x, y, z])", {"x": (2, 3), "y": (3, 4), "z": (4, 2)}),
    Case("np.linalg.multi_dot([x, y, z])", {"x": (3,), "y": (3, 4), "z": (4,)}),
    *[
        Case(f"np.linalg.norm(x{a})", {"x": s})
        for s, forms in [
            (V, ["", ", 1", ", 2", ", 3", ", 0.5"]),
            (M, ["", ", 'fro'", ", axis=1", ", 1, axis=-1"]),
            (T, ["", ", axis=(0, 2)", ", 2, 1", ", keepdims=True"]),
        ]
        for a in forms
    ],
    *[
        Case(f"np.linalg.norm(x{a})", {"x": s}, "distinct", autograd=False)
        for s, a in [
            (V, ", np.inf"),
            (V, ", -np.inf"),
            (M, ", np.inf"),
            (M, ", 1"),
            (M, ", -1"),
            (M, ", -np.inf"),
            (T, ", 1, axis=(2, 0)"),
            (T, ", np.inf, axis=(2, 1), keepdims=True"),
        ]
    ],
    Case("np.linalg.norm(x, 0)", {"x": V}, "distinct", autograd=False),
    # autograd: keepdims results lose their kept axis in the gradient
    Case("np.linalg.norm(x, axis=0, keepdims=True)", {"x": M}, autograd=False),
    Case("np.linalg.norm(x, 2)", {"x": M}),
    Case("np.linalg.norm(x, -2)", {"x": M}, autograd=False),
    Case("np.linalg.norm(x, 'nuc')", {"x": M}),
    Case("np.linalg.norm(x, 'nuc', axis=(2, 1))", {"x": T}, autograd=False),
    Case("np.linalg.vector_norm(x)", {"x": M}, autograd=False),  # autograd: no vector_norm
    Case("np.linalg.vector_norm(x, axis=-1, ord=1)", {"x": T}, autograd=False),
    Case("np.linalg.vector_norm(x, axis=(0, 1), keepdims=True)", {"x": T}, autograd=False),
    Case("np.linalg.matrix_norm(x)", {"x": T}, autograd=False),
    Case("np.linalg.matrix_norm(x, ord='nuc')", {"x": M}, autograd=False),
    Case("np.linalg.matrix_norm(x, ord=np.inf, keepdims=True)", {"x": T}, "distinct", False),
    # scipy.special
    *unary("scipy.special.expit(x)"),
    *unary("scipy.special.logit(x)", "probability", shapes=(S, V, M)),
    *unary("scipy.special.log_expit(x)", shapes=(S, M)),
    *unary("scipy.special.erf(x)"),
    *unary("scipy.special.erfc(x)", shapes=(S, V, M)),
    *unary("scipy.special.erfinv(x)", "unit", shapes=(S, M)),
    *unary("scipy.special.erfcinv(x + 1.0)", "unit", shapes=(S, M)),
    *unary("scipy.special.ndtr(x)", shapes=(S, M)),
    *unary("scipy.special.log_ndtr(x)", shapes=(S, M)),
    *unary("scipy.special.ndtri(x)", "probability", shapes=(S, M)),
    *unary("scipy.special.gammaln(x)", "positive"),
    *unary("scipy.special.gamma(x)", "positive", shapes=(S, M)),
    *unary("scipy.special.digamma(x)", "positive", shapes=(S, V, M)),
    *unary("scipy.special.psi(x)", "positive", shapes=(M,)),
    *unary("scipy.special.entr(x)", "positive", shapes=(S, M)),
    *binary("scipy.special.xlogy(x, y)", "positive"),
    *binary("scipy.special.xlog1py(x, y)", "positive"),
    *binary("scipy.special.rel_entr(x, y)", "positive"),
    *binary("scipy.special.betaln(x, y)", "positive"),
    *[
        Case(f"scipy.special.logsumexp(x{a})", {"x": T})
        for a in ["", ", axis=0", ", axis=(0, 2)", ", axis=-1, keepdims=True", ", keepdims=True"]
    ],
    Case("scipy.special.logsumexp(x, b=y)", {"x": M, "y": M}, "positive"),
    Case("scipy.special.logsumexp(x, axis=1, b=y)", {"x": M, "y": V}, "positive"),
    Case("scipy.special.logsumexp(x, axis=0, b=y)", {"x": V, "y": M}, "positive"),
    *[
        Case(f"scipy.special.{f}(x{a})", {"x": s})
        for f in ("softmax", "log_softmax")
        for s, a in [(V, ""), (M, ""), (M, ", axis=1"), (T, ", axis=(0, 2)"), (T, ", axis=-1")]
    ],
    # sum and mean with where=
    Case("np.sum(x, where=x > 0.1)", {"x": M}, autograd=False),
    Case("np.sum(x, axis=0, initial=1.5)", {"x": M}),
    Case("np.sum(x * y, axis=0, where=y > 0.0)", {"x": M, "y": M}, autograd=False),
    Case("np.sum(x, axis=(0, 2), keepdims=True, where=x < 0.5)", {"x": T}, autograd=False),
    Case("np.mean(x, where=x > 0.1)", {"x": M}, autograd=False),
    Case("np.mean(x ** 2, axis=1, where=np.array([True, False, True]))", {"x": M}, autograd=False),
    Case(
        "np.mean(x * y, axis=-1, keepdims=True, where=x > -0.5)",
        {"x": T, "y": (4,)},
        autograd=False,  # autograd's mean ignores where
    ),
    # indexing reads
    Case("x[1]", {"x": M}),
    Case("x[-1]", {"x": T}),
    Case("x[:, 1:3]", {"x": T}),
    Case("x[::2]", {"x": (5,)}),
    Case("x[..., 0]", {"x": T}),
    Case("x[None, :, 1]", {"x": T}),
    Case("x[np.array([0, 0, 1])]", {"x": M}),
    Case("x[x > 0.1]", {"x": M}),
    Case("x[:, np.array([2, 0, 2])]", {"x": M}),
    Case("x[np.array([1, 0]), np.array([2, 2])]", {"x": M}),
    # containers: the builtin sum over a list, and the helpers comprehensions lower to
    *binary("sum([x, y])"),
    Case("sum([x, x * y], y)", {"x": V, "y": V}),
    Case("sum([x, x * 2.0], 1.5)", {"x": M}),
    Case("np.stack([v * 2.0 for v in x])", {"x": M}),  # iterable(x): rows
    Case("np.stack(list(x)) * np.stack(tuple([x, y]))[1]", {"x": M, "y": M}),
    Case("sum(list(x))", {"x": M}),
    # the builtin sum over an array's rows: its adjoint is an array (a list would repeat
    # under `* 2` and concatenate under `+`)
    Case("sum(x ** 2) * 2", {"x": M}),
    Case("sum(x ** 2) + x[0]", {"x": V}),
    Case("sum(x * y, 1.5) * 2", {"x": M, "y": V}),
    Case("np.stack([{i: v * (i + 1.0) for i in range(3)}[2] for v in x])", {"x": M}),
    # xs.pop(i): the item read, and what is left of the list (runtime.without_item)
    Case("[x, x * y, y].pop(1) * sum([x, x * y, y, x].pop(-2))", {"x": V, "y": V}),
    Case("{'a': x, 'b': y * x}.pop('b')", {"x": M, "y": M}),
]

# The SciPy rule files' cases live in their own file (owned with those rules).
from cases_scipy import SCIPY_CASES  # noqa: E402

CASES += SCIPY_CASES

# Python's builtins and the math module: their own file, the same harness.
from cases_builtins import BUILTIN_CASES  # noqa: E402

CASES += BUILTIN_CASES
