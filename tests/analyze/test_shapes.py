"""Shapes (analyze/shapes.py): which values certainly have the shape of a parameter
(or are scalars); anything not certain on every path is unknown (absent)."""

from __future__ import annotations

from stages import annotated, code, prepare

from tangentlike.analyze import shapes

SOURCE = """
def f(x, w, n):
    a = x * 2.0
    b = a + x
    c = np.sin(b) - 1.0
    d = x @ w
    e = c * d
    k = float(n)
    g = a * k
    if n > 1:
        h = a
    else:
        h = x * x
    q = h + 1.0
    if n > 2:
        r = a
    else:
        r = d
    return np.sum(g) + np.sum(e) + np.sum(q) + np.sum(r)
"""


def test_shape_classes_of_each_value(tmp_path):
    stage = prepare(tmp_path, SOURCE).normalize()
    found = shapes.analyze(stage.fn, stage.scope, stage.registry)

    def shape(stmt) -> str | None:
        known = found.result.get(id(stmt))
        return None if known is None else "scalar" if known == shapes.SCALAR else known[1]

    # elementwise operations of x-shaped values and scalars are x-shaped; a matmul is not
    # known; h is x-shaped on both paths, r on one only
    assert annotated(stage.fn, shape) == code(
        """
        a = x * 2.0  # x
        b = a + x  # x
        _c1 = np.sin(b)  # x
        c = _c1 - 1.0  # x
        d = x @ w
        e = c * d
        k = float(n)  # scalar
        g = a * k  # x
        _c2 = n > 1
        if _c2:
            h = a  # x
        else:
            h = x * x  # x
        q = h + 1.0  # x
        _c3 = n > 2
        if _c3:
            r = a  # x
        else:
            r = d
        _f1 = np.sum(g)
        _f2 = np.sum(e)
        _f3 = _f1 + _f2
        _f4 = np.sum(q)
        _f5 = _f3 + _f4
        _f6 = np.sum(r)
        f = _f5 + _f6
        return f
        """
    )


def test_same_says_whether_an_operand_has_the_results_shape(tmp_path):
    stage = prepare(tmp_path, SOURCE).normalize()
    found = shapes.analyze(stage.fn, stage.scope, stage.registry)
    b = stage.fn.body[1]  # b = a + x
    assert found.same(b, "a") and found.same(b, "x")
    e = stage.fn.body[5]  # e = c * d: d's shape is unknown
    assert not found.same(e, "c") and not found.same(e, "d")


def test_a_rebound_parameter_loses_its_shape(tmp_path):
    source = "def f(x, w):\n    y = x * 2.0\n    x = x @ w\n    z = y + x\n    return np.sum(z)\n"
    stage = prepare(tmp_path, source).normalize()
    found = shapes.analyze(stage.fn, stage.scope, stage.registry)
    y, z = stage.fn.body[0], stage.fn.body[3]
    assert found.result[id(y)] == ("param", "x")
    assert id(z) not in found.result  # x is no longer the parameter's shape
