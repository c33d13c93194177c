"""normalize/desugar.py: one Name (or name[index]) target per assignment, Name loop
targets, no docstring; `z += v` stays for normalize.in_place."""

from __future__ import annotations

import pytest
from stages import code, prepare


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ('"""doc"""\nreturn x', "return x"),
        ("a = b = x * 2.0\nreturn a + b", "b = x * 2.0\na = b\nreturn a + b"),
        ("a, b = x, y\nreturn a", "a = x\nb = y\nreturn a"),
        ("a, (b, c) = x, (y, x)\nreturn a", "a = x\nb = y\nc = x\nreturn a"),
        ("y[0] += x\nreturn y", "y[0] = y[0] + x\nreturn y"),
        ("z = x * 1.0\nz += y\nreturn z", "z = x * 1.0\nz += y\nreturn z"),
    ],
    ids=["docstring", "chained", "tuple", "nested tuple", "item update", "update kept"],
)
def test_assignments(tmp_path, source, expected):
    body = "".join(f"    {line}\n" for line in source.splitlines())
    assert prepare(tmp_path, f"def f(x, y):\n{body}").desugar().body() == expected


def test_a_swap_reads_both_values_first(tmp_path):
    source = "def f(x, y):\n    x, y = y, x\n    return x\n"
    assert prepare(tmp_path, source).desugar().body() == code(
        """
        _x1 = y
        _y1 = x
        x = _x1
        y = _y1
        return x
        """
    )


def test_tuple_loop_targets_become_indexing(tmp_path):
    source = """
def f(x, y):
    a = 0.0
    for i, (u, v) in enumerate(zip(x, y)):
        a = a + u * v * i
    return a
"""
    assert prepare(tmp_path, source).desugar().body() == code(
        """
        a = 0.0
        _seq1 = x
        _seq2 = y
        for _i1 in range(min(len(_seq1), len(_seq2))):
            i = _i1
            u = _seq1[_i1]
            v = _seq2[_i1]
            a = a + u * v * i
        return a
        """
    )
