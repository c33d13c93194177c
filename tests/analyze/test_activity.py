"""Activity (analyze/activity.py): only what depends on wrt AND reaches the output gets
an adjoint; counters, shapes, flags and dead values never do."""

from __future__ import annotations

import pytest
from stages import annotated, code, prepare

from tangentlike.analyze import activity

SOURCE = """
def f(x, w, n):
    k = x.shape[0]
    count = 0
    for i in range(n):
        count = count + 1
    mask = x > 0
    unused = np.exp(x)
    scale = w * 2.0
    y = np.where(mask, x, 0.0) * scale / k
    return np.sum(y) + count
"""


def analysed(tmp_path, source: str, wrt: tuple[str, ...]):
    stage = prepare(tmp_path, source).normalize()
    return stage, activity.analyze(stage.fn, wrt, stage.scope, stage.registry)


def marked(tmp_path, source: str, wrt: tuple[str, ...]) -> str:
    """Each assignment marked active, varied (depends on wrt, never reaches the output)
    or useful (reaches the output, does not depend on wrt)."""
    stage, found = analysed(tmp_path, source, wrt)

    def kind(stmt) -> str | None:
        name = getattr(stmt, "targets", [None])[0]
        name = getattr(name, "id", None)
        if name is None:
            return None
        if name in found.active:
            return "active"
        return "varied" if name in found.varied else "useful" if name in found.useful else None

    return annotated(stage.fn, kind)


def test_wrt_x(tmp_path):
    # a comparison and np.where's condition carry no derivative: mask is neither
    # varied nor useful, though it depends on x and reaches the output
    assert marked(tmp_path, SOURCE, ("x",)) == code(
        """
        _k1 = x.shape  # useful
        k = _k1[0]  # useful
        count = 0  # useful
        _r1 = range(n)
        for i in _r1:
            _count1 = count + 1  # useful
            count = _count1  # useful
        mask = x > 0
        unused = np.exp(x)  # varied
        scale = w * 2.0  # useful
        _y1 = np.where(mask, x, 0.0)  # active
        _y2 = _y1 * scale  # active
        y = _y2 / k  # active
        _f1 = np.sum(y)  # active
        f = _f1 + count  # active
        return f
        """
    )


@pytest.mark.parametrize(
    ("wrt", "expected"),
    [
        (("x",), ["_f1", "_y1", "_y2", "f", "x", "y"]),
        (("w",), ["_f1", "_y2", "f", "scale", "w", "y"]),
        (("x", "w"), ["_f1", "_y1", "_y2", "f", "scale", "w", "x", "y"]),
        (("n",), []),  # n only counts: nothing differentiable depends on it
    ],
)
def test_active_names(tmp_path, wrt, expected):
    _, found = analysed(tmp_path, SOURCE, wrt)
    assert sorted(found.active) == expected


def test_a_value_that_never_reaches_the_output_is_inactive(tmp_path):
    source = "def f(x):\n    a = np.sin(x)\n    b = a * 2.0\n    return np.sum(x)\n"
    _, found = analysed(tmp_path, source, ("x",))
    assert {"a", "b"} <= found.varied and not {"a", "b"} & found.useful
    assert sorted(found.active) == ["f", "x"]


def test_an_append_carries_activity_into_the_list(tmp_path):
    source = """
def f(x):
    xs = []
    xs.append(x * 2.0)
    return xs[0]
"""
    _, found = analysed(tmp_path, source, ("x",))
    assert "xs" in found.active


def test_a_write_into_an_array_keeps_the_rest_of_it(tmp_path):
    source = "def f(x, c):\n    y = c * 1.0\n    y[0] = x\n    return np.sum(y)\n"
    _, found = analysed(tmp_path, source, ("c",))
    assert "y" in found.active  # y[0] = x leaves the other elements of c * 1.0
