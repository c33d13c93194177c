"""Shapes (analyze/shapes.py): which values certainly have the shape of a parameter
(or are scalars); anything not certain on every path is unknown (absent)."""

from __future__ import annotations

import numpy as np
from reference import check_against_fd, load_module
from stages import annotated, code, prepare

import tangentlike as tl
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

    # elementwise operations of x-shaped values and scalars are x-shaped; a matmul has a
    # shape of its own (d's), and so has e; h is x-shaped on both paths, r on one only;
    # full reductions are scalars
    assert annotated(stage.fn, shape) == code(
        """
        a = x * 2.0  # x
        b = a + x  # x
        _c1 = np.sin(b)  # x
        c = _c1 - 1.0  # x
        d = x @ w  # d
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
            r = d  # d
        _f1 = np.sum(g)  # scalar
        _f2 = np.sum(e)  # scalar
        _f3 = _f1 + _f2  # scalar
        _f4 = np.sum(q)  # scalar
        _f5 = _f3 + _f4  # scalar
        _f6 = np.sum(r)  # scalar
        f = _f5 + _f6  # scalar
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


DIMS = """
def f(x, W, b, xs, n):
    z = x @ W + b
    m = np.max(z, axis=1, keepdims=True)
    p = z - m
    s = np.sum(p, axis=0)
    v = xs[0]
    t = 0.0
    for i in range(n):
        t = t + xs[i] * v
        u = xs[i, 1]
    k = 2
    while t > 1.0:
        k = k * 0.5
    w = [1.0]
    w2 = w + w
    return np.sum(s) + t + k + u
"""


def test_dimension_patterns_of_a_specialised_build(tmp_path):
    stage = prepare(tmp_path, DIMS).normalize()
    dims = {"x": "NN", "W": "NN", "b": "N", "xs": "NN"}
    found = shapes.analyze(stage.fn, stage.scope, stage.registry, frozenset({"n"}), dims)

    def shape(stmt) -> str | None:
        known = found.result.get(id(stmt))
        return None if known is None else repr(known[1]) if known[0] == "dims" else known[1]

    # matrix products and broadcasting keep which dimensions are 1; a reduction over a
    # constant axis drops it (keepdims: 1); an int index drops the first; a list has none;
    # t is a scalar before the loop and an array in it: unknown in it and after it; k is
    # an int on one path and a float on the other: a scalar
    assert annotated(stage.fn, shape) == code(
        """
        _z1 = x @ W  # 'NN'
        z = _z1 + b  # 'NN'
        m = np.max(z, axis=1, keepdims=True)  # 'N1'
        p = z - m  # 'NN'
        s = np.sum(p, axis=0)  # 'N'
        v = xs[0]  # 'N'
        t = 0.0  # ''
        _r1 = range(n)
        for i in _r1:
            _t1 = xs[i]  # 'N'
            _t2 = _t1 * v  # 'N'
            _t3 = t + _t2
            t = _t3
            u = xs[i, 1]  # ''
        k = 2  # ''
        _c1 = t > 1.0
        while _c1:
            _k1 = k * 0.5  # ''
            k = _k1  # ''
            _c1 = t > 1.0
        w = [1.0]
        w2 = w + w
        _f1 = np.sum(s)  # ''
        _f2 = _f1 + t
        _f3 = _f2 + k
        f = _f3 + u
        return f
        """
    )


LOOP = """
import numpy as np


def f(x, y):
    t = x
    for i in range(2):
        s = t * x
        t = s + y
    return np.sum(t)
"""


def test_a_loops_later_pass_forgets_what_its_first_pass_found(tmp_path):
    # on the loop's first pass t has x's shape, so s would; on the fixpoint t is unknown
    # (y broadcasts it to (3, 3)): s's shape must be unknown, and x's adjoint summed
    # (it was refused as a tangentlike bug: "the gradient of x has shape (3, 3)")
    m = load_module(tmp_path, LOOP)
    x, y = np.array([0.5, -1.0, 2.0]), np.array([[1.0], [2.0], [3.0]])
    df = tl.grad(m.f, wrt=0, cache=False)
    check_against_fd(m.f, df(x, y), (x, y), 0)
    check_against_fd(m.f, df.__wrapped__(x, y), (x, y), 0)  # the generic build too


def test_summed_says_how_the_result_sums_down_to_an_operand(tmp_path):
    stage = prepare(tmp_path, DIMS).normalize()
    dims = {"x": "NN", "W": "NN", "b": "N", "xs": "NN"}
    found = shapes.analyze(stage.fn, stage.scope, stage.registry, frozenset({"n"}), dims)
    z, _, p = stage.fn.body[1:4]  # z = _z1 + b ('NN'), m ('N1'), p = z - m ('NN')
    assert found.summed(z, "b") == (1, ())  # one leading axis
    assert found.summed(z, "_z1") == (0, ())  # the same shape: nothing to sum
    assert found.summed(p, "m") == (0, (1,))  # the axis where m has 1, kept
    assert found.summed(p, "x") == (0, ())
    generic = shapes.analyze(stage.fn, stage.scope, stage.registry)
    assert generic.summed(z, "b") is None  # shapes unknown: unbroadcast decides at run time


VECTORS = """
def f(k, q, v):
    s = np.diff(np.concatenate(([0.0], q, [0.0])))
    t = k * s
    a = t[1:]
    b = t[:-1]
    c = t[2:]
    w = [1.0]
    u = w + w
    return np.sum(a - b) + np.sum(c) + v
"""


def test_vector_lengths_give_slices_and_differences_a_pattern(tmp_path):
    stage = prepare(tmp_path, VECTORS).normalize()

    def found(dims):
        return shapes.analyze(stage.fn, stage.scope, stage.registry, frozenset(), dims)

    def shape(stmt) -> str | None:
        known = now.result.get(id(stmt))
        return None if known is None else repr(known[1])

    # q has at least 2 elements: the concatenation at least 4, its differences at least
    # 3, so has t (k's length); t[1:] and t[:-1] at least 2, t[2:] perhaps 1: unknown;
    # a list has no shape, nor does a list made with +
    now = found({"k": "N", "q": "N", "v": "N"})
    assert annotated(stage.fn, shape) == code(
        """
        _s1 = [0.0]
        _s2 = [0.0]
        _s3 = np.concatenate((_s1, q, _s2))  # 'N'
        s = np.diff(_s3)  # 'N'
        t = k * s  # 'N'
        a = t[1:]  # 'N'
        b = t[:-1]  # 'N'
        c = t[2:]
        w = [1.0]
        u = w + w
        _f1 = a - b  # 'N'
        _f2 = np.sum(_f1)  # ''
        _f3 = np.sum(c)  # ''
        _f4 = _f2 + _f3  # ''
        f = _f4 + v  # 'N'
        return f
        """
    )
    # an empty q: the concatenation has 2 elements, its differences 1: unknown from there
    now = found({"k": "N", "q": "0", "v": "N"})
    assert [shape(s) for s in stage.fn.body[2:5]] == ["'N'", None, None]
